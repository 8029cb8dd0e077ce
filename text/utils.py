"""torchtext.utils: download_from_url, extract_archive, validate_file, unicode_csv_reader.

Thin entry points over the hub's download and archive pieces: downloads are streamed with
a progress bar, resumable (HTTP Range, the bytes so far kept in ``.<name>.part``), checked
(md5 or sha256) and renamed into place only when complete; archives are extracted all or
nothing, refusing members that would land outside the target directory.
"""
import csv
import os
import sys
import urllib.parse

import hub
from hub._download import remote_file_name
from hub._gdrive import is_google_drive_url
from hub._hashing import file_digest

__all__ = ["download_from_url", "extract_archive", "validate_file", "unicode_csv_reader"]


def validate_file(file_obj, hash_value, hash_type="sha256"):
    """True when the digest of the binary file object (read to its end) equals `hash_value`.

    `hash_type` is "sha256" or "md5" (or another hashlib algorithm); anything else raises ValueError.
    """
    return file_digest(file_obj, hash_type) == hash_value


def _check_existing(path, hash_value, hash_type):
    with open(path, "rb") as f:
        if not validate_file(f, hash_value, hash_type):
            raise hub.CorruptCacheError(f"download_from_url(): the {hash_type} of {os.path.abspath(path)} does not "
                                        f"match {hash_value}. Delete the file manually and retry.")


def download_from_url(url, path=None, root=".data", overwrite=False, hash_value=None, hash_type="sha256"):
    """Downloads `url` and returns the path of the file.

    Args:
        url (str): the file's address (Google Drive links are followed).
        path (str, optional): where to save it; default ``<root>/<file name of the URL>``.
        root (str): the download folder when `path` is not given (default ``.data``).
        overwrite (bool): download again even if the file exists.
        hash_value (str, optional): the expected digest, checked on the download and on an
            existing file.
        hash_type (str): "sha256" (default) or "md5".
    """
    if path is None:
        filename = remote_file_name(url) if is_google_drive_url(url) else \
            os.path.basename(urllib.parse.urlparse(url).path)
        path = os.path.join(root, filename)
    path = os.path.expanduser(os.fspath(path))
    if os.path.exists(path) and not overwrite:
        if hash_value:
            _check_existing(path, hash_value, hash_type)
        return path
    hub.download_url_to_file(url, path, hash_prefix=hash_value or None, hash_type=hash_type, resume=True,
                             progress=True)
    return path


def extract_archive(from_path, to_path=None, overwrite=False):
    """Extracts a .zip, .tar(.gz), .tgz or .gz file into `to_path` (default: the archive's
    folder) and returns the paths of its files; existing files are kept unless `overwrite`.
    Raises hub.UnsafeArchiveError for members escaping `to_path` and hub.ArchiveError for
    corrupt archives, leaving nothing behind."""
    return hub.extract_archive(from_path, to_path, overwrite)


def _raise_field_size_limit():
    limit = sys.maxsize
    while True:  # the C long behind the limit may be narrower than Python's int
        try:
            csv.field_size_limit(limit)
            return
        except OverflowError:
            limit //= 10


def unicode_csv_reader(unicode_csv_data, **kwargs):
    """csv.reader over lines of text, with the field size limit lifted (reviews can be long)."""
    _raise_field_size_limit()
    yield from csv.reader(unicode_csv_data, **kwargs)
