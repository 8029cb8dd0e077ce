"""hub.extract_archive: every supported kind, torchtext's keep-existing rule, refused members
(absolute, '..', links, devices) and damaged archives, each leaving nothing behind."""
import bz2
import gzip
import io
import lzma
import os
import stat
import tarfile
import zipfile

import pytest

import hub

FILES = [("top/a.txt", b"alpha\n"), ("top/sub/b.bin", bytes(range(256)) * 50), ("c.txt", b"gamma")]


def _tar(path, mode, members=FILES, extra=()):
    with tarfile.open(path, mode) as tar:
        for name, data in members:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
        for info in extra:
            tar.addfile(info)
    return str(path)


def _zip(path, members=FILES, compression=zipfile.ZIP_DEFLATED):
    with zipfile.ZipFile(path, "w", compression) as z:
        for name, data in members:
            z.writestr(name, data)
    return str(path)


def _listing(root):
    out = []
    for dirpath, _, files in os.walk(root):
        out += [os.path.relpath(os.path.join(dirpath, f), root) for f in files]
    return sorted(out)


@pytest.mark.parametrize("suffix,mode", [(".tar.gz", "w:gz"), (".tgz", "w:gz"), (".tar", "w"), (".tar.xz", "w:xz"),
                                         (".tar.bz2", "w:bz2")])
def test_tar_kinds(tmp_path, suffix, mode):
    archive = _tar(tmp_path / ("a" + suffix), mode)
    out = tmp_path / "out"
    files = hub.extract_archive(archive, str(out))
    assert files == [os.path.join(str(out), n) for n, _ in FILES]  # archive order, files only
    for name, data in FILES:
        assert (out / name).read_bytes() == data
    assert _listing(out) == sorted(n for n, _ in FILES)  # no staging directory left over


def test_zip_with_directories_and_default_target(tmp_path):
    members = [("top/", b""), ("top/empty/", b"")] + FILES
    archive = _zip(tmp_path / "a.zip", members)
    files = hub.extract_archive(archive)  # into the archive's own directory
    assert files == [os.path.join(str(tmp_path), n) for n, _ in FILES]
    assert (tmp_path / "top" / "empty").is_dir()


@pytest.mark.parametrize("suffix,opener", [(".gz", gzip.open), (".xz", lzma.open), (".bz2", bz2.open)])
def test_single_compressed_file(tmp_path, suffix, opener):
    path = tmp_path / ("train.txt" + suffix)
    with opener(path, "wb") as f:
        f.write(b"one\ntwo\n")
    assert hub.extract_archive(str(path)) == [str(tmp_path / "train.txt")]
    assert (tmp_path / "train.txt").read_bytes() == b"one\ntwo\n"
    out = tmp_path / "elsewhere"
    assert hub.extract_archive(str(path), str(out)) == [str(out / "train.txt")]


def test_existing_files_are_kept_unless_overwrite(tmp_path):
    archive = _zip(tmp_path / "a.zip")
    out = tmp_path / "out"
    out.mkdir()
    (out / "c.txt").write_bytes(b"mine")
    files = hub.extract_archive(archive, str(out))
    assert str(out / "c.txt") in files and (out / "c.txt").read_bytes() == b"mine"
    hub.extract_archive(archive, str(out), overwrite=True)
    assert (out / "c.txt").read_bytes() == b"gamma"


def test_executable_bit_survives(tmp_path):
    info = tarfile.TarInfo("run.sh")
    data = b"#!/bin/sh\n"
    info.size, info.mode = len(data), 0o755
    path = tmp_path / "x.tar"
    with tarfile.open(path, "w") as tar:
        tar.addfile(info, io.BytesIO(data))
    hub.extract_archive(str(path), str(tmp_path / "out"))
    assert os.stat(tmp_path / "out" / "run.sh").st_mode & stat.S_IXUSR


# ---------------------------------------------------------------- refused members

def _link(name, target, kind=tarfile.SYMTYPE):
    info = tarfile.TarInfo(name)
    info.type, info.linkname = kind, target
    return info


def _special(name, kind):
    info = tarfile.TarInfo(name)
    info.type = kind
    return info


UNSAFE_TARS = {
    "dotdot": (FILES + [("../evil.txt", b"x")], (), "escapes the target directory"),
    "nested_dotdot": (FILES + [("top/../../evil.txt", b"x")], (), "escapes"),
    "absolute": (FILES + [("/tmp/evil.txt", b"x")], (), "absolute path"),
    "symlink_out": (FILES, (_link("top/link", "/etc/passwd"),), "is a link"),
    "symlink_in": (FILES, (_link("top/link", "a.txt"),), "is a link"),
    "hardlink": (FILES, (_link("top/hard", "c.txt", tarfile.LNKTYPE),), "is a link"),
    "device": (FILES, (_special("dev", tarfile.CHRTYPE),), "device or special file"),
    "fifo": (FILES, (_special("pipe", tarfile.FIFOTYPE),), "device or special file"),
}


@pytest.mark.parametrize("case", sorted(UNSAFE_TARS))
def test_unsafe_tar_members_are_refused_and_nothing_is_written(tmp_path, case):
    members, extra, why = UNSAFE_TARS[case]
    archive = _tar(tmp_path / "a.tar.gz", "w:gz", members, extra)
    out = tmp_path / "out"
    with pytest.raises(hub.UnsafeArchiveError, match=why):
        hub.extract_archive(archive, str(out))
    assert _listing(out) == [] and os.listdir(out) == []
    assert not (tmp_path / "evil.txt").exists()


@pytest.mark.parametrize("name,why", [("../evil.txt", "escapes"), ("/abs/evil.txt", "absolute path"),
                                      ("C:/evil.txt", "absolute path"), ("top\\..\\..\\evil.txt", "escapes")])
def test_unsafe_zip_members_are_refused(tmp_path, name, why):
    archive = _zip(tmp_path / "a.zip", FILES + [(name, b"x")])
    with pytest.raises(hub.UnsafeArchiveError, match=why):
        hub.extract_archive(archive, str(tmp_path / "out"))
    assert os.listdir(tmp_path / "out") == []


def test_zip_symlink_member_is_refused(tmp_path):
    path = tmp_path / "a.zip"
    with zipfile.ZipFile(path, "w") as z:
        info = zipfile.ZipInfo("link")
        info.external_attr = (stat.S_IFLNK | 0o777) << 16
        z.writestr(info, "/etc/passwd")
    with pytest.raises(hub.UnsafeArchiveError, match="symbolic link"):
        hub.extract_archive(str(path), str(tmp_path / "out"))


def test_directory_linking_outside_is_refused(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    out = tmp_path / "out"
    out.mkdir()
    os.symlink(outside, out / "top")  # planted before the extraction
    with pytest.raises(hub.UnsafeArchiveError, match="links outside"):
        hub.extract_archive(_zip(tmp_path / "a.zip"), str(out))
    assert os.listdir(outside) == []


def test_unsafe_archive_error_is_a_runtime_error():
    assert issubclass(hub.UnsafeArchiveError, hub.ArchiveError) and issubclass(hub.ArchiveError, RuntimeError)


# ---------------------------------------------------------------- damaged archives

def test_truncated_tar_gz(tmp_path):
    archive = _tar(tmp_path / "a.tar.gz", "w:gz")
    data = open(archive, "rb").read()
    open(archive, "wb").write(data[:len(data) // 2])
    out = tmp_path / "out"
    with pytest.raises(hub.ArchiveError, match="corrupt or truncated") as info:
        hub.extract_archive(archive, str(out))
    assert archive in str(info.value)
    assert os.listdir(out) == []  # the files read before the damage are not left either


def test_zip_with_a_bad_crc(tmp_path):
    archive = _zip(tmp_path / "a.zip", compression=zipfile.ZIP_STORED)
    data = bytearray(open(archive, "rb").read())
    data[data.index(b"gamma")] ^= 0xFF  # flip a byte of the last member's stored data
    open(archive, "wb").write(bytes(data))
    with pytest.raises(hub.ArchiveError, match="corrupt"):
        hub.extract_archive(archive, str(tmp_path / "out"))
    assert os.listdir(tmp_path / "out") == []


@pytest.mark.parametrize("name", ["a.zip", "a.tar.gz", "a.gz"])
def test_garbage_is_not_an_archive(tmp_path, name):
    path = tmp_path / name
    path.write_bytes(b"<html>not found</html>" * 10)
    with pytest.raises(hub.ArchiveError, match="corrupt"):
        hub.extract_archive(str(path), str(tmp_path / "out"))
    assert os.listdir(tmp_path / "out") == []


def test_unknown_kind_and_missing_file(tmp_path):
    with pytest.raises(hub.ArchiveError, match="unknown archive kind"):
        hub.extract_archive(str(tmp_path / "a.rar"))
    with pytest.raises(FileNotFoundError):
        hub.extract_archive(str(tmp_path / "missing.zip"))
