"""Issue 27's hub cases: a whole-download time limit (a trickling server passes every read
timeout), and the temporary files of a downloader killed mid-write cleaned by the next one."""
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from hub import download_url_to_file
from hub._errors import DownloadError
from support import child_process_options


def test_a_trickling_server_hits_the_download_time_limit(server, tmp_path, monkeypatch):
    monkeypatch.setenv("TENSORZOO_HUB_DOWNLOAD_TIMEOUT", "1.0")
    url = server.add("/slow.bin", b"x" * 100, mode="trickle")
    dst = tmp_path / "slow.bin"
    start = time.monotonic()
    with pytest.raises(DownloadError, match="not complete within its time limit"):
        download_url_to_file(url, str(dst), progress=False)
    assert time.monotonic() - start < 15
    assert not dst.exists()
    assert [n for n in os.listdir(tmp_path) if n.endswith(".tmp")] == []


def test_a_killed_downloaders_temp_file_is_removed_by_the_next_download(server, tmp_path):
    url = server.add("/slow.bin", b"y" * 1000, mode="trickle")
    dst = tmp_path / "w.bin"
    code = textwrap.dedent(f"""
        from hub import download_url_to_file
        download_url_to_file({url!r}, {str(dst)!r}, progress=False)
    """)
    child = subprocess.Popen([sys.executable, "-c", code], **child_process_options())
    deadline = time.monotonic() + 30
    while not [n for n in os.listdir(tmp_path) if n.endswith(".tmp")] and time.monotonic() < deadline:
        time.sleep(0.05)
    temps = [n for n in os.listdir(tmp_path) if n.endswith(".tmp")]
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    assert len(temps) == 1
    ok = server.add("/ok.bin", b"z" * 10)
    download_url_to_file(ok, str(dst), progress=False)
    assert dst.read_bytes() == b"z" * 10
    assert [n for n in os.listdir(tmp_path) if n.endswith(".tmp")] == []


# An HTTP/1.0 body without Content-Length ends where the server closes the connection: a cut
# one reads like a whole one, so it is kept only when a hash, the server (Range -> 416) or the
# caller vouches for it.
DATA = bytes(range(256)) * 64


def _no_temps(directory):
    return [n for n in os.listdir(directory) if n.endswith((".tmp", ".part"))] == []


@pytest.mark.parametrize("resume", [False, True])
def test_an_unsized_body_cut_short_is_not_kept(server, tmp_path, resume):
    url = server.add("/cut.bin", DATA, mode="unsized_cut")
    dst = tmp_path / "cut.bin"
    with pytest.raises(DownloadError, match="declared no length.*hash_prefix.*allow_unknown_length"):
        download_url_to_file(url, str(dst), progress=False, resume=resume)
    assert not dst.exists()
    if not resume:
        assert _no_temps(tmp_path)


def test_an_unsized_body_cut_short_fails_its_hash(server, tmp_path):
    import hashlib
    from hub._errors import HashMismatchError
    url = server.add("/cut.bin", DATA, mode="unsized_cut")
    with pytest.raises(HashMismatchError):
        download_url_to_file(url, str(tmp_path / "cut.bin"), hashlib.sha256(DATA).hexdigest()[:10], progress=False)
    assert _no_temps(tmp_path) and not (tmp_path / "cut.bin").exists()


def test_a_range_probe_tells_a_cut_unsized_body_from_a_whole_one(server, tmp_path):
    whole = server.add("/whole.bin", DATA, mode="unsized_ranged")
    download_url_to_file(whole, str(tmp_path / "whole.bin"), progress=False)
    assert (tmp_path / "whole.bin").read_bytes() == DATA
    assert server.ranges[-1] == f"bytes={len(DATA)}-"  # the probe, answered 416
    cut = server.add("/cut.bin", DATA, mode="unsized_cut_ranged")
    with pytest.raises(DownloadError, match="does not confirm"):
        download_url_to_file(cut, str(tmp_path / "cut.bin"), progress=False)
    assert not (tmp_path / "cut.bin").exists()


def test_a_whole_unsized_body_is_kept_when_a_hash_or_the_caller_vouches(server, tmp_path):
    import hashlib
    url = server.add("/whole.bin", DATA, mode="unsized")
    with pytest.raises(DownloadError, match="declared no length"):
        download_url_to_file(url, str(tmp_path / "a.bin"), progress=False)
    download_url_to_file(url, str(tmp_path / "b.bin"), hashlib.sha256(DATA).hexdigest()[:8], progress=False)
    download_url_to_file(url, str(tmp_path / "c.bin"), progress=False, allow_unknown_length=True)
    assert (tmp_path / "b.bin").read_bytes() == DATA == (tmp_path / "c.bin").read_bytes()
    assert not (tmp_path / "a.bin").exists() and _no_temps(tmp_path)


def test_declared_framing_still_catches_truncation(server, tmp_path):
    for mode in ("truncate", "drop_chunked", "long_length"):
        url = server.add(f"/{mode}.bin", DATA, mode=mode)
        with pytest.raises(DownloadError):
            download_url_to_file(url, str(tmp_path / f"{mode}.bin"), progress=False)
        assert not (tmp_path / f"{mode}.bin").exists()


def test_a_zip_member_whose_declared_size_lies_is_corrupt(tmp_path):
    import struct
    import zipfile
    from hub import extract_archive
    from hub._errors import ArchiveError
    archive = tmp_path / "a.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("big.bin", b"x" * 10)
    raw = bytearray(archive.read_bytes())
    central = raw.rfind(b"PK\x01\x02")
    raw[22:26] = raw[central + 24:central + 28] = struct.pack("<I", 2**32 - 2)  # declares 4 GiB, CRC still right
    archive.write_bytes(bytes(raw))
    with pytest.raises(ArchiveError, match="declares 4294967294 bytes but holds 10"):
        extract_archive(str(archive), str(tmp_path / "out"))
    assert not (tmp_path / "out").exists() or os.listdir(tmp_path / "out") == []
