"""download_url_to_file: a streamed download into a temporary file beside the destination,
checked (byte count, optional sha256 prefix) and renamed into place only when complete.

URLs under the official weight host are fetched from $TENSORZOO_HUB_MIRROR instead when it
is set (an http(s):// base URL, a file:// URL or a plain directory path), for air-gapped
sites and tests. Every failure raises with the URL and the destination named, and leaves
nothing at the destination (the temporary file is removed; concurrent downloads of the same
file each use their own temporary name and the last atomic rename wins with identical bytes).
"""
import hashlib
import os
import urllib.parse
import urllib.request

from hub._atomic import atomic_open
from hub._errors import DownloadError, HashMismatchError
from hub._progress import progress_bar

__all__ = ["download_url_to_file", "resolve_url", "sha256_file", "ENV_MIRROR", "OFFICIAL_BASE"]

ENV_MIRROR = "TENSORZOO_HUB_MIRROR"
OFFICIAL_BASE = "https://download.pytorch.org/models/"
READ_DATA_CHUNK = 8192
USER_AGENT = "tensorzoo.hub"
TIMEOUT = (15, 60)  # seconds to connect, seconds between received bytes


class _Failure(Exception):
    """Internal: why a transfer failed; download_url_to_file turns it into a DownloadError."""


def resolve_url(url):
    """The address actually fetched for `url`: the mirror's copy of official weight files."""
    mirror = os.environ.get(ENV_MIRROR)
    if mirror and url.startswith(OFFICIAL_BASE):
        return mirror.rstrip("/") + "/" + url[len(OFFICIAL_BASE):]
    return url


def _local_path(source):
    """The filesystem path of a file:// URL or a plain path; None for a network URL."""
    parsed = urllib.parse.urlparse(source)
    if parsed.scheme == "file":
        return urllib.request.url2pathname(parsed.path)
    if parsed.scheme == "" or len(parsed.scheme) == 1:  # no scheme, or a Windows drive letter
        return source
    return None


def _reason(exc):
    text = str(exc) or type(exc).__name__
    return text if len(text) < 300 else text[:300] + "..."


def _open_local(path):
    try:
        f = open(path, "rb")
    except OSError as e:
        raise _Failure(f"cannot read {path} ({e.strerror or e})") from e
    return f, os.fstat(f.fileno()).st_size, iter(lambda: f.read(READ_DATA_CHUNK), b"")


def _open_http(source):
    import requests

    try:
        response = requests.get(source, stream=True, timeout=TIMEOUT, headers={"User-Agent": USER_AGENT})
    except requests.RequestException as e:
        raise _Failure(f"cannot connect ({_reason(e)})") from e
    if response.status_code >= 400:
        response.close()
        raise _Failure(f"HTTP {response.status_code} {response.reason}")
    total = response.headers.get("Content-Length")
    # a compressed transfer's length counts encoded bytes, not the ones we receive
    total = int(total) if total and total.isdigit() and not response.headers.get("Content-Encoding") else None
    return response, total, response.iter_content(READ_DATA_CHUNK)


def _open_source(source):
    """(closable, expected size or None, chunk iterator) for a local path or an http(s) URL."""
    path = _local_path(source)
    if path is not None:
        return _open_local(path)
    if urllib.parse.urlparse(source).scheme not in ("http", "https"):
        raise _Failure("unsupported URL scheme (use http://, https://, file:// or a path)")
    return _open_http(source)


def _read_chunks(chunks, received, total):
    """Yields the chunks; a failure while reading means the connection dropped midway."""
    iterator = iter(chunks)
    while True:
        try:
            chunk = next(iterator)
        except StopIteration:
            return
        except Exception as e:  # requests/urllib3/socket errors of a broken transfer
            of_total = "" if total is None else f" of {total}"
            raise _Failure(f"the connection dropped after {received[0]}{of_total} bytes ({_reason(e)})") from e
        received[0] += len(chunk)
        yield chunk


def sha256_file(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _download_error(url, source, dst, why):
    origin = url if source == url else f"{url} (from {source})"
    return DownloadError(
        f"download_url_to_file(): could not download {origin}: {why}. Nothing was saved to {dst}. "
        f"Without network access, fetch the file elsewhere and place it at {dst} by hand, "
        f"or set {ENV_MIRROR} to a reachable mirror of {OFFICIAL_BASE}")


def download_url_to_file(url, dst, hash_prefix=None, progress=True, *, hash_type="sha256"):
    """Downloads `url` to the file `dst`.

    Args:
        url (str): what to download (http(s)://, file:// or a path; official weight URLs go
            through $TENSORZOO_HUB_MIRROR when set).
        dst (str): the full path of the file to create (its directory is created if needed).
        hash_prefix (str, optional): the file's digest must start with it.
        progress (bool): show a progress bar on stderr (only when stderr is a terminal).
        hash_type (str): the digest `hash_prefix` is taken from: "sha256" (torch.hub's) or
            "md5" (dataset tables), or another hashlib algorithm.
    """
    digest = hashlib.new(hash_type)  # an unknown hash type fails before anything is fetched
    dst = os.path.expanduser(os.fspath(dst))
    os.makedirs(os.path.dirname(os.path.abspath(dst)), exist_ok=True)
    source = resolve_url(url)
    received = [0]
    try:
        handle, total, chunks = _open_source(source)
        with handle, atomic_open(dst, "wb") as f:
            bar = progress_bar(total, os.path.basename(dst), progress)
            try:
                for chunk in _read_chunks(chunks, received, total):
                    f.write(chunk)
                    digest.update(chunk)
                    bar.update(len(chunk))
            finally:
                bar.close()
            if total is not None and received[0] != total:
                raise _Failure(f"truncated transfer: received {received[0]} of {total} bytes")
            got = digest.hexdigest()
            if hash_prefix is not None and got[:len(hash_prefix)] != hash_prefix:
                raise HashMismatchError(
                    f'invalid hash value (expected "{hash_prefix}", got "{got}") for {url}; '
                    f"the download was discarded, nothing was saved to {dst}")
    except _Failure as e:
        raise _download_error(url, source, dst, e) from e.__cause__
