"""hub.download_url_to_file: success, mirror forms, and every fault leaving no file behind."""
import hashlib
import os
import subprocess
import sys

import pytest
from support import child_process_options

import hub
from hub._download import resolve_url

DATA = os.urandom(50_000) + b"tail"  # several 8192-byte chunks
SHA = hashlib.sha256(DATA).hexdigest()


def test_download_plain(server, tmp_path, helpers):
    url = server.add("/w.bin", DATA)
    dst = tmp_path / "sub" / "w.bin"  # missing parent directories are created
    hub.download_url_to_file(url, str(dst), hash_prefix=SHA[:8], progress=False)
    assert dst.read_bytes() == DATA
    assert helpers.listdir(tmp_path) == ["sub/w.bin"]  # no temporary file left over


def test_download_progress_flag_and_full_hash(server, tmp_path):
    url = server.add("/w.bin", DATA)
    hub.download_url_to_file(url, str(tmp_path / "w.bin"), hash_prefix=SHA, progress=True)
    assert (tmp_path / "w.bin").read_bytes() == DATA


def test_user_agent_and_single_request(server, tmp_path):
    url = server.add("/w.bin", DATA)
    hub.download_url_to_file(url, str(tmp_path / "w.bin"), progress=False)
    assert server.hits == ["/w.bin"]


def _assert_nothing_written(tmp_path, helpers, keep=()):
    assert helpers.listdir(tmp_path) == sorted(keep)


def test_hash_mismatch(server, tmp_path, helpers):
    url = server.add("/w.bin", DATA)
    with pytest.raises(hub.HashMismatchError, match=r'invalid hash value \(expected "deadbeef", got "%s"\)' % SHA):
        hub.download_url_to_file(url, str(tmp_path / "w.bin"), hash_prefix="deadbeef", progress=False)
    _assert_nothing_written(tmp_path, helpers)


def test_hash_mismatch_is_a_runtime_error(server, tmp_path):
    url = server.add("/w.bin", DATA)
    with pytest.raises(RuntimeError):  # torch.hub raises RuntimeError; ours subclass it
        hub.download_url_to_file(url, str(tmp_path / "w.bin"), hash_prefix="0000", progress=False)


@pytest.mark.parametrize("status", [404, 500])
def test_http_error(server, tmp_path, helpers, status):
    url = server.add("/w.bin", status, mode="status")
    dst = tmp_path / "w.bin"
    with pytest.raises(hub.DownloadError, match=f"HTTP {status}") as info:
        hub.download_url_to_file(url, str(dst), progress=False)
    assert url in str(info.value) and str(dst) in str(info.value)
    _assert_nothing_written(tmp_path, helpers)


@pytest.mark.parametrize("mode", ["truncate", "long_length", "drop_chunked"])
def test_broken_transfers(server, tmp_path, helpers, mode):
    url = server.add("/w.bin", DATA, mode=mode)
    dst = tmp_path / "w.bin"
    with pytest.raises(hub.DownloadError, match="dropped|truncated") as info:
        hub.download_url_to_file(url, str(dst), progress=False)
    assert url in str(info.value)
    _assert_nothing_written(tmp_path, helpers)


def test_short_content_length_caught_by_hash(server, tmp_path, helpers):
    url = server.add("/w.bin", DATA, mode="short_length")
    with pytest.raises(hub.HashMismatchError):
        hub.download_url_to_file(url, str(tmp_path / "w.bin"), hash_prefix=SHA[:8], progress=False)
    _assert_nothing_written(tmp_path, helpers)


def test_no_network_names_url_and_destination(dead_url, tmp_path, helpers):
    url = dead_url + "/models/w-12345678.pth"
    dst = tmp_path / "checkpoints" / "w-12345678.pth"
    with pytest.raises(hub.DownloadError) as info:
        hub.download_url_to_file(url, str(dst), progress=False)
    message = str(info.value)
    assert "cannot connect" in message and url in message
    assert f"place it at {dst} by hand" in message
    assert helpers.listdir(tmp_path) == []


def test_failed_download_keeps_previous_file(server, tmp_path):
    dst = tmp_path / "w.bin"
    dst.write_bytes(b"previous")
    url = server.add("/w.bin", DATA, mode="truncate")
    with pytest.raises(hub.DownloadError):
        hub.download_url_to_file(url, str(dst), progress=False)
    assert dst.read_bytes() == b"previous"


def test_unsupported_scheme(tmp_path):
    with pytest.raises(hub.DownloadError, match="unsupported URL scheme"):
        hub.download_url_to_file("ftp://example.invalid/w.bin", str(tmp_path / "w.bin"), progress=False)


# ---------------------------------------------------------------- mirror

OFFICIAL = "https://download.pytorch.org/models/"


def test_mirror_http(server, tmp_path, monkeypatch, hub_home):
    server.add("/mirror/sub/w.bin", DATA)
    monkeypatch.setenv("TENSORZOO_HUB_MIRROR", server.url + "/mirror/")
    hub.download_url_to_file(OFFICIAL + "sub/w.bin", str(tmp_path / "w.bin"), progress=False)
    assert (tmp_path / "w.bin").read_bytes() == DATA
    assert server.hits == ["/mirror/sub/w.bin"]


@pytest.mark.parametrize("form", ["file_url", "path"])
def test_mirror_local_directory(tmp_path, monkeypatch, hub_home, form):
    mirror = tmp_path / "mirror dir"  # a space: file:// URLs are unquoted
    mirror.mkdir()
    (mirror / "w.bin").write_bytes(DATA)
    monkeypatch.setenv("TENSORZOO_HUB_MIRROR", mirror.as_uri() if form == "file_url" else str(mirror))
    dst = tmp_path / "out" / "w.bin"
    hub.download_url_to_file(OFFICIAL + "w.bin", str(dst), hash_prefix=SHA[:8], progress=False)
    assert dst.read_bytes() == DATA


def test_mirror_missing_file(tmp_path, monkeypatch, hub_home, helpers):
    monkeypatch.setenv("TENSORZOO_HUB_MIRROR", tmp_path.as_uri())
    dst = tmp_path / "out" / "w.bin"
    with pytest.raises(hub.DownloadError, match="cannot read") as info:
        hub.download_url_to_file(OFFICIAL + "w.bin", str(dst), progress=False)
    assert OFFICIAL + "w.bin" in str(info.value) and str(dst) in str(info.value)
    assert not dst.exists() and helpers.listdir(tmp_path / "out") == []


def test_mirror_only_rewrites_official_urls(monkeypatch):
    monkeypatch.setenv("TENSORZOO_HUB_MIRROR", "http://mirror.local/base")
    assert resolve_url(OFFICIAL + "a/b.pth") == "http://mirror.local/base/a/b.pth"
    assert resolve_url("https://example.com/models/b.pth") == "https://example.com/models/b.pth"
    monkeypatch.delenv("TENSORZOO_HUB_MIRROR")
    assert resolve_url(OFFICIAL + "b.pth") == OFFICIAL + "b.pth"


def test_deprecated_alias_warns(server, tmp_path):
    url = server.add("/w.bin", DATA)
    with pytest.warns(UserWarning, match="renamed"):
        hub._download_url_to_file(url, str(tmp_path / "w.bin"), progress=False)
    assert (tmp_path / "w.bin").read_bytes() == DATA


# ---------------------------------------------------------------- two processes at once

_CHILD = """
import sys
import hub
hub.download_url_to_file(sys.argv[1], sys.argv[2], hash_prefix=sys.argv[3], progress=False)
print("done")
"""


def test_two_processes_download_the_same_file(server, tmp_path, helpers):
    data = os.urandom(400_000)
    url = server.add("/big.bin", data, mode="paired")  # both requests are in flight before any byte is sent
    dst = tmp_path / "cache" / "big.bin"
    args = [sys.executable, "-c", _CHILD, url, str(dst), hashlib.sha256(data).hexdigest()[:8]]
    children = [subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                 **child_process_options())
                for _ in range(2)]
    results = [child.communicate(timeout=120) for child in children]
    for child, (out, err) in zip(children, results):
        assert child.returncode == 0, err
        assert out.strip() == "done"
    assert dst.read_bytes() == data
    assert helpers.listdir(tmp_path) == ["cache/big.bin"]
    assert server.hits == ["/big.bin", "/big.bin"]


# ---------------------------------------------------------------- progress bar

def test_progress_bar_only_on_a_terminal(monkeypatch, capsys):
    from hub import _progress

    monkeypatch.setattr(sys.stderr, "isatty", lambda: False, raising=False)
    assert isinstance(_progress.progress_bar(100, "w", True), _progress._NoBar)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    assert isinstance(_progress.progress_bar(100, "w", False), _progress._NoBar)
    monkeypatch.setitem(sys.modules, "tqdm", None)  # tqdm missing: the plain counter
    bar = _progress.progress_bar(3 * 2**20, "w.bin", True)
    bar.update(2**20)
    bar.close()
    assert "w.bin: 1.0/3.0 MiB" in capsys.readouterr().err
