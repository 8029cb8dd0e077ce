"""download_url_to_file(resume=True) and hash types: a dropped transfer continues with an HTTP
Range request, within the call and in the next one; bytes that do not match are never kept;
Google Drive confirmation pages are followed."""
import hashlib
import os
import subprocess
import sys

import pytest
from support import child_process_options
from support_http import DRIP_BYTES

import hub
from hub import _gdrive
from hub._hashing import file_digest, new_hash

DATA = os.urandom(5 * DRIP_BYTES + 1234)
MD5 = hashlib.md5(DATA).hexdigest()
SHA = hashlib.sha256(DATA).hexdigest()


def test_md5_check(server, tmp_path):
    url = server.add("/d.bin", DATA)
    hub.download_url_to_file(url, str(tmp_path / "d.bin"), hash_prefix=MD5, hash_type="md5", progress=False)
    assert (tmp_path / "d.bin").read_bytes() == DATA
    with pytest.raises(hub.HashMismatchError, match=f'got "{MD5}"'):
        hub.download_url_to_file(url, str(tmp_path / "e.bin"), hash_prefix="0" * 32, hash_type="md5", progress=False)
    assert not (tmp_path / "e.bin").exists()


def test_unknown_hash_type_fails_before_fetching(server, tmp_path):
    url = server.add("/d.bin", DATA)
    with pytest.raises(ValueError, match="unsupported hash_type 'crc32'"):
        hub.download_url_to_file(url, str(tmp_path / "d.bin"), hash_prefix="00", hash_type="crc32", progress=False)
    assert server.hits == [] and os.listdir(tmp_path) == []


def test_resume_within_the_call(server, tmp_path, helpers):
    url = server.add("/d.bin", DATA, mode="cut_once")
    dst = tmp_path / "d.bin"
    hub.download_url_to_file(url, str(dst), hash_prefix=SHA, resume=True, progress=False)
    assert dst.read_bytes() == DATA
    assert server.ranges == [None, f"bytes={DRIP_BYTES}-"]  # the second request continued where the first stopped
    assert helpers.listdir(tmp_path) == ["d.bin"]  # the .part file became the destination


def test_interrupted_download_resumes_in_the_next_call(server, tmp_path, helpers):
    url = server.add("/d.bin", DATA, mode="drip")  # every connection drops after DRIP_BYTES
    dst = tmp_path / "d.bin"
    with pytest.raises(hub.DownloadError, match="calling again resumes") as info:
        hub.download_url_to_file(url, str(dst), hash_prefix=MD5, hash_type="md5", resume=True, progress=False)
    kept = 4 * DRIP_BYTES  # RESUME_ATTEMPTS connections, each a little further
    assert f"The {kept} bytes received so far are kept" in str(info.value)
    assert not dst.exists()
    part = hub.partial_path(str(dst))
    assert os.path.getsize(part) == kept and open(part, "rb").read() == DATA[:kept]
    server.add("/d.bin", DATA, mode="ok")
    hub.download_url_to_file(url, str(dst), hash_prefix=MD5, hash_type="md5", resume=True, progress=False)
    assert dst.read_bytes() == DATA
    assert server.ranges[-1] == f"bytes={kept}-"
    assert helpers.listdir(tmp_path) == ["d.bin"]


def test_server_ignoring_range_restarts_from_zero(server, tmp_path):
    dst = tmp_path / "d.bin"
    with open(hub.partial_path(str(dst)), "wb") as f:
        f.write(b"stale bytes of another attempt")
    url = server.add("/d.bin", DATA, mode="norange")
    hub.download_url_to_file(url, str(dst), hash_prefix=SHA, resume=True, progress=False)
    assert dst.read_bytes() == DATA and server.ranges == ["bytes=30-"]


def test_partial_file_longer_than_remote_restarts(server, tmp_path):
    dst = tmp_path / "d.bin"
    with open(hub.partial_path(str(dst)), "wb") as f:
        f.write(DATA + b"extra")
    url = server.add("/d.bin", DATA)
    hub.download_url_to_file(url, str(dst), hash_prefix=SHA, resume=True, progress=False)
    assert dst.read_bytes() == DATA  # 416 for the range, then the whole file


def test_resumed_bytes_with_wrong_hash_are_discarded(server, tmp_path, helpers):
    dst = tmp_path / "d.bin"
    with open(hub.partial_path(str(dst)), "wb") as f:
        f.write(b"x" * DRIP_BYTES)  # a corrupt start that the server's ranges cannot repair
    url = server.add("/d.bin", DATA)
    with pytest.raises(hub.HashMismatchError, match="nothing was saved"):
        hub.download_url_to_file(url, str(dst), hash_prefix=SHA, resume=True, progress=False)
    assert helpers.listdir(tmp_path) == []  # neither the destination nor the .part file


def test_http_error_when_resuming_leaves_nothing(server, tmp_path, helpers):
    url = server.add("/d.bin", 404, mode="status")
    with pytest.raises(hub.DownloadError, match="HTTP 404") as info:
        hub.download_url_to_file(url, str(tmp_path / "d.bin"), resume=True, progress=False)
    assert "kept" not in str(info.value)
    assert helpers.listdir(tmp_path) == []


def test_resume_from_a_local_file(tmp_path):
    src = tmp_path / "src.bin"
    src.write_bytes(DATA)
    dst = tmp_path / "out" / "d.bin"
    os.makedirs(dst.parent)
    with open(hub.partial_path(str(dst)), "wb") as f:
        f.write(DATA[:777])
    hub.download_url_to_file(src.as_uri(), str(dst), hash_prefix=SHA, resume=True, progress=False)
    assert dst.read_bytes() == DATA


_CHILD = """
import sys
import hub
hub.download_url_to_file(sys.argv[1], sys.argv[2], hash_prefix=sys.argv[3], resume=True, progress=False)
"""


def test_two_processes_resuming_the_same_file(server, tmp_path, helpers):
    url = server.add("/d.bin", DATA)
    dst = tmp_path / "cache" / "d.bin"
    args = [sys.executable, "-c", _CHILD, url, str(dst), SHA]
    children = [subprocess.Popen(args, stderr=subprocess.PIPE, text=True, **child_process_options())
                for _ in range(2)]
    for child in children:  # the .part file is locked: one writes it at a time, both end with the file
        assert child.wait(timeout=120) == 0, child.stderr.read()
        child.stderr.close()
    assert dst.read_bytes() == DATA and helpers.listdir(tmp_path) == ["cache/d.bin"]


def test_remote_file_name(server):
    from hub._download import remote_file_name

    assert remote_file_name(server.add("/get?id=1", (DATA, "corpus.tar.gz"), mode="named")) == "corpus.tar.gz"
    assert remote_file_name(server.add("/files/a%20b.zip", DATA)) == "a b.zip"
    with pytest.raises(hub.DownloadError, match="names no file"):
        remote_file_name(server.add("/", DATA))


def test_file_digest_of_path_and_file_object(tmp_path):
    path = tmp_path / "f"
    path.write_bytes(DATA)
    assert file_digest(str(path), "md5") == MD5
    with open(path, "rb") as f:
        assert file_digest(f) == SHA
    assert new_hash("SHA256").name == "sha256"


# ---------------------------------------------------------------- Google Drive

@pytest.fixture
def drive_hosts(monkeypatch):
    monkeypatch.setattr(_gdrive, "GOOGLE_DRIVE_HOSTS", _gdrive.GOOGLE_DRIVE_HOSTS + ("127.0.0.1",))


def test_google_drive_form_page(server, tmp_path, drive_hosts):
    server.add("/download?id=abc&export=download&confirm=t&uuid=u-1", DATA)
    page = (b'<html><body><form id="download-form" action="/download" method="get">'
            b'<input type="hidden" name="id" value="abc"><input type="hidden" name="export" value="download">'
            b'<input type="hidden" name="confirm" value="t"><input type="hidden" name="uuid" value="u-1">'
            b'<input type="submit" value="Download anyway"></form></body></html>')
    url = server.add("/uc?export=download&id=abc", (page, []), mode="html")
    hub.download_url_to_file(url, str(tmp_path / "d.bin"), hash_prefix=MD5, hash_type="md5", progress=False)
    assert (tmp_path / "d.bin").read_bytes() == DATA


def test_google_drive_cookie_token(server, tmp_path, drive_hosts):
    server.add("/uc?export=download&id=abc&confirm=TOKEN1", DATA)
    url = server.add("/uc?export=download&id=abc", (b"<html>virus scan warning</html>",
                                                   [("Set-Cookie", "download_warning_123=TOKEN1; Path=/")]),
                     mode="html")
    hub.download_url_to_file(url, str(tmp_path / "d.bin"), hash_prefix=SHA, progress=False)
    assert (tmp_path / "d.bin").read_bytes() == DATA


def test_google_drive_refusal_is_a_clear_error(server, tmp_path, drive_hosts, helpers):
    url = server.add("/uc?export=download&id=abc", (b"<html>Quota exceeded</html>", []), mode="html")
    with pytest.raises(hub.DownloadError, match="Google Drive answered with a page"):
        hub.download_url_to_file(url, str(tmp_path / "d.bin"), resume=True, progress=False)
    assert helpers.listdir(tmp_path) == []


def test_google_drive_small_file_comes_directly(server, tmp_path, drive_hosts):
    url = server.add("/uc?export=download&id=small", DATA)
    hub.download_url_to_file(url, str(tmp_path / "d.bin"), hash_prefix=SHA, progress=False)
    assert (tmp_path / "d.bin").read_bytes() == DATA
