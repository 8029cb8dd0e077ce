"""Download and archive helpers of the vision datasets (torchvision 0.9's datasets/utils.py),
with torchvision's signatures over hub's pieces: downloads stream into a temporary file beside
the target and are renamed into place only once complete and (given an md5) verified, Google
Drive's confirmation page included; extraction checks every member before writing anything
and refuses members that would land outside the target (absolute paths, '..', links, devices).
"""
import contextlib
import os
import re

import hub
from hub._archive import archive_kind
from hub._errors import UnsafeArchiveError

__all__ = ["calculate_md5", "check_md5", "check_integrity", "download_url", "download_file_from_google_drive",
           "extract_archive", "download_and_extract_archive", "verify_str_arg", "list_dir", "list_files",
           "iterable_to_str", "UnsafeArchiveError"]

_GOOGLE_DRIVE_URL = "https://docs.google.com/uc?export=download"


def calculate_md5(fpath, chunk_size=None):
    return hub.file_digest(fpath, "md5")  # chunk_size: torchvision's argument; hub reads in its own chunks


def check_md5(fpath, md5, **kwargs):
    return md5 == calculate_md5(fpath, **kwargs)


def check_integrity(fpath, md5=None):
    if not os.path.isfile(fpath):
        return False
    if md5 is None:
        return True
    return check_md5(fpath, md5)


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
    """Downloads a public Google Drive file; hub's download answers Drive's 'file too large to
    scan' page."""
    root = os.path.expanduser(os.fspath(root))
    if not filename:
        filename = file_id
    fpath = os.path.join(root, filename)
    os.makedirs(root, exist_ok=True)
    if check_integrity(fpath, md5):
        print("Using downloaded and verified file: " + fpath)
        return
    hub.download_url_to_file(f"{_GOOGLE_DRIVE_URL}&id={file_id}", fpath, hash_prefix=md5, hash_type="md5")


def list_dir(root, prefix=False):
    root = os.path.expanduser(root)
    directories = [p for p in os.listdir(root) if os.path.isdir(os.path.join(root, p))]
    return [os.path.join(root, d) for d in directories] if prefix else directories


def list_files(root, suffix, prefix=False):
    root = os.path.expanduser(root)
    files = [p for p in os.listdir(root) if os.path.isfile(os.path.join(root, p)) and p.endswith(suffix)]
    return [os.path.join(root, d) for d in files] if prefix else files


# ---------------------------------------------------------------- archives

def extract_archive(from_path, to_path=None, remove_finished=False):
    """Extracts .tar(.gz|.xz|.bz2)/.tgz/.zip archives and .gz/.xz/.bz2 single files into
    to_path (default: the archive's directory) with hub.extract_archive: every member checked
    first (UnsafeArchiveError), all or nothing; files already there are replaced, as
    torchvision's extraction does. Returns to_path."""
    from_path = os.fspath(from_path)
    to_path = os.path.dirname(from_path) if to_path is None else os.fspath(to_path)
    if archive_kind(from_path) is None:
        raise ValueError(f"Extraction of {from_path} not supported")
    hub.extract_archive(from_path, to_path, overwrite=True)
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
