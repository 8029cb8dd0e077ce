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
    child = subprocess.Popen([sys.executable, "-c", code], env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
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
