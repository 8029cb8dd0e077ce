"""Download and archive helpers of the vision datasets (torchvision 0.9's datasets/utils.py).

Downloads go through hub's download stack (streamed into a temporary file beside the target,
renamed into place only once complete and, when an md5 is given, verified); Google Drive's
confirmation page is answered here. extract_archive checks
every member before extracting anything and refuses members that would land outside the
target directory (absolute paths, '..', links pointing out, device files).
"""
import bz2
import contextlib
import gzip
import hashlib
import lzma
import os
import re
import shutil
import tarfile
import zipfile

import hub
from hub._atomic import atomic_open

__all__ = ["calculate_md5", "check_md5", "check_integrity", "download_url", "download_file_from_google_drive",
           "extract_archive", "download_and_extract_archive", "verify_str_arg", "list_dir", "list_files",
           "iterable_to_str", "UnsafeArchiveError"]

_GOOGLE_DRIVE_URL = "https://docs.google.com/uc?export=download"
_CHUNK = 1024 * 1024


class UnsafeArchiveError(RuntimeError):
    """An archive member would be written outside the extraction directory."""


def calculate_md5(fpath, chunk_size=_CHUNK):
    md5 = hashlib.md5()
    with open(fpath, "rb") as f:
        for chunk in iter(lambda: f.read(chunk_size), b""):
            md5.update(chunk)
    return md5.hexdigest()


def check_md5(fpath, md5, **kwargs):
    return md5 == calculate_md5(fpath, **kwargs)


def check_integrity(fpath, md5=None):
    if not os.path.isfile(fpath):
        return False
    if md5 is None:
        return True
    return check_md5(fpath, md5)


def _stream_to_file(response, fpath, md5):
    """Writes a streamed response to fpath atomically, verifying the md5 before the rename."""
    digest = hashlib.md5()
    with atomic_open(fpath, "wb") as f:
        for chunk in response.iter_content(chunk_size=_CHUNK):
            if chunk:
                f.write(chunk)
                digest.update(chunk)
        if md5 is not None and digest.hexdigest() != md5:
            raise RuntimeError(f"download_url(): MD5 mismatch for {response.url}: expected {md5}, "
                               f"got {digest.hexdigest()} (the file was not kept)")


def download_url(url, root, filename=None, md5=None, max_redirect_hops=3, timeout=60):
    """Downloads url into root/filename unless a file with the right md5 is already there.
    hub.download_url_to_file does the transfer (redirects and timeouts are its own: the last two
    arguments are accepted for torchvision's signature); failures raise hub.DownloadError and a
    wrong md5 hub.HashMismatchError, both RuntimeErrors, leaving nothing behind."""
    root = os.path.expanduser(os.fspath(root))
    if not filename:
        filename = os.path.basename(url)
    fpath = os.path.join(root, filename)
    os.makedirs(root, exist_ok=True)
    if check_integrity(fpath, md5):
        print("Using downloaded and verified file: " + fpath)
        return
    file_id = _get_google_drive_file_id(url)
    if file_id is not None:
        return download_file_from_google_drive(file_id, root, filename, md5)
    print("Downloading " + url + " to " + fpath)
    hub.download_url_to_file(url, fpath, hash_prefix=md5, hash_type="md5")


def _get_google_drive_file_id(url):
    match = re.match(r"https?://drive\.google\.com/file/d/(?P<id>[^/]*)", url)
    return match.group("id") if match else None


def download_file_from_google_drive(file_id, root, filename=None, md5=None, timeout=60):
    """Downloads a public Google Drive file, answering the 'file too large to scan' page."""
    import requests

    root = os.path.expanduser(os.fspath(root))
    if not filename:
        filename = file_id
    fpath = os.path.join(root, filename)
    os.makedirs(root, exist_ok=True)
    if check_integrity(fpath, md5):
        print("Using downloaded and verified file: " + fpath)
        return
    with requests.Session() as session:
        params = {"id": file_id}
        response = session.get(_GOOGLE_DRIVE_URL, params=params, stream=True, timeout=timeout)
        token = next((v for k, v in response.cookies.items() if k.startswith("download_warning")), None)
        if token is not None:
            response.close()
            params["confirm"] = token
            response = session.get(_GOOGLE_DRIVE_URL, params=params, stream=True, timeout=timeout)
        with response:
            response.raise_for_status()
            if "text/html" in response.headers.get("Content-Type", ""):
                raise RuntimeError(f"download_file_from_google_drive(): Google Drive refused file {file_id} "
                                   "(quota exceeded or not public)")
            _stream_to_file(response, fpath, md5)


def list_dir(root, prefix=False):
    root = os.path.expanduser(root)
    directories = [p for p in os.listdir(root) if os.path.isdir(os.path.join(root, p))]
    return [os.path.join(root, d) for d in directories] if prefix else directories


def list_files(root, suffix, prefix=False):
    root = os.path.expanduser(root)
    files = [p for p in os.listdir(root) if os.path.isfile(os.path.join(root, p)) and p.endswith(suffix)]
    return [os.path.join(root, d) for d in files] if prefix else files


# ---------------------------------------------------------------- archives

def _inside(root, path):
    root = os.path.realpath(root)
    target = os.path.realpath(os.path.join(root, path))
    return target == root or target.startswith(root + os.sep)


def _refuse(archive, name, why):
    raise UnsafeArchiveError(f"extract_archive(): refusing to extract {name!r} from {archive}: {why}")


def _check_tar_members(archive, tar, to_path):
    members = tar.getmembers()
    for m in members:
        if os.path.isabs(m.name) or m.name.startswith(("/", "\\")):
            _refuse(archive, m.name, "absolute path")
        if not _inside(to_path, m.name):
            _refuse(archive, m.name, "path escapes the target directory")
        if m.issym():
            link_target = os.path.join(os.path.dirname(m.name), m.linkname)
            if os.path.isabs(m.linkname) or not _inside(to_path, link_target):
                _refuse(archive, m.name, f"symbolic link to {m.linkname!r} points outside the target directory")
        elif m.islnk():
            if os.path.isabs(m.linkname) or not _inside(to_path, m.linkname):
                _refuse(archive, m.name, f"hard link to {m.linkname!r} points outside the target directory")
        elif not (m.isfile() or m.isdir()):
            _refuse(archive, m.name, "not a regular file, directory or link")
    return members


def _extract_tar(from_path, to_path, mode):
    with tarfile.open(from_path, mode) as tar:
        members = _check_tar_members(from_path, tar, to_path)
        if hasattr(tarfile, "data_filter"):  # Python's own checks as a second line of defence
            tar.extractall(to_path, members=members, filter="data")
        else:  # pragma: no cover - Python < 3.11.4
            tar.extractall(to_path, members=members)


def _extract_zip(from_path, to_path):
    with zipfile.ZipFile(from_path) as zf:
        for info in zf.infolist():
            name = info.filename
            if os.path.isabs(name) or name.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:", name):
                _refuse(from_path, name, "absolute path")
            if not _inside(to_path, name):
                _refuse(from_path, name, "path escapes the target directory")
        zf.extractall(to_path)


def _decompress_single(from_path, to_path, opener, suffix):
    out = os.path.join(to_path, os.path.splitext(os.path.basename(from_path))[0])
    if not from_path.endswith(suffix):
        out = os.path.join(to_path, os.path.basename(from_path) + ".out")
    with opener(from_path, "rb") as src, atomic_open(out, "wb") as dst:
        shutil.copyfileobj(src, dst)


_TAR_SUFFIXES = ((".tar.gz", "r:gz"), (".tgz", "r:gz"), (".tar.xz", "r:xz"), (".txz", "r:xz"),
                 (".tar.bz2", "r:bz2"), (".tbz", "r:bz2"), (".tbz2", "r:bz2"), (".tar", "r:"))


def extract_archive(from_path, to_path=None, remove_finished=False):
    """Extracts .tar(.gz|.xz|.bz2)/.tgz/.zip archives and .gz/.xz/.bz2 single files into
    to_path (default: the archive's directory); returns to_path."""
    from_path = os.fspath(from_path)
    if to_path is None:
        to_path = os.path.dirname(from_path)
    to_path = os.fspath(to_path)
    os.makedirs(to_path, exist_ok=True)
    lower = from_path.lower()
    for suffix, mode in _TAR_SUFFIXES:
        if lower.endswith(suffix):
            _extract_tar(from_path, to_path, mode)
            break
    else:
        if lower.endswith(".zip"):
            _extract_zip(from_path, to_path)
        elif lower.endswith(".gz"):
            _decompress_single(from_path, to_path, gzip.open, ".gz")
        elif lower.endswith(".xz"):
            _decompress_single(from_path, to_path, lzma.open, ".xz")
        elif lower.endswith(".bz2"):
            _decompress_single(from_path, to_path, bz2.open, ".bz2")
        else:
            raise ValueError(f"Extraction of {from_path} not supported")
    if remove_finished:
        with contextlib.suppress(FileNotFoundError):
            os.remove(from_path)
    return to_path


def download_and_extract_archive(url, download_root, extract_root=None, filename=None, md5=None,
                                 remove_finished=False):
    download_root = os.path.expanduser(os.fspath(download_root))
    if extract_root is None:
        extract_root = download_root
    if not filename:
        filename = os.path.basename(url)
    download_url(url, download_root, filename, md5)
    archive = os.path.join(download_root, filename)
    print(f"Extracting {archive} to {extract_root}")
    extract_archive(archive, extract_root, remove_finished)


def iterable_to_str(iterable):
    return "'" + "', '".join([str(item) for item in iterable]) + "'"


def verify_str_arg(value, arg=None, valid_values=None, custom_msg=None):
    if not isinstance(value, str):
        msg = "Expected type str" + (f" for argument {arg}" if arg else "") + f", but got type {type(value)}."
        raise ValueError(msg)
    if valid_values is None:
        return value
    if value not in valid_values:
        msg = custom_msg if custom_msg is not None else (
            f"Unknown value '{value}' for argument {arg}. Valid values are {{{iterable_to_str(valid_values)}}}.")
        raise ValueError(msg)
    return value
