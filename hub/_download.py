"""download_url_to_file: a streamed download, checked (byte count, optional hash prefix) and
renamed into place only when complete.

Two ways to hold the bytes until then:
- by default (torch.hub's way) a private temporary file beside the destination, removed on
  any failure; concurrent downloads of the same file each use their own temporary name and
  the last atomic rename wins with identical bytes;
- with ``resume=True`` a ``.<name>.part`` file beside the destination, locked while in use:
  a dropped connection is resumed with an HTTP Range request (a few times within the call,
  and again by the next call), so large dataset archives survive flaky links. A server that
  ignores the Range header sends the whole file, which then replaces the partial one.

Google Drive links (``drive.google.com/uc?...``) are answered with a confirmation page for
large files; that page is followed to the file itself (hub._gdrive).

URLs under the official weight host are fetched from $TENSORZOO_HUB_MIRROR instead when it
is set (an http(s):// base URL, a file:// URL or a plain directory path), for air-gapped
sites and tests. Every failure raises with the URL and the destination named, and leaves
nothing at the destination.
"""
import contextlib
import os
import re
import urllib.parse
import urllib.request

from hub._atomic import atomic_open, remove_stale_temps
from hub._errors import DownloadError, HashMismatchError
from hub._gdrive import is_google_drive_url, resolve_google_drive
from hub._hashing import new_hash, sha256_file
from hub._progress import progress_bar
from hub._transfer import Failure, confirm_end, download_deadline, open_source, read_chunks

__all__ = ["download_url_to_file", "resolve_url", "sha256_file", "partial_path", "ENV_MIRROR", "OFFICIAL_BASE"]

ENV_MIRROR = "TENSORZOO_HUB_MIRROR"
OFFICIAL_BASE = "https://download.pytorch.org/models/"
READ_DATA_CHUNK = 8192
RESUME_ATTEMPTS = 4  # connections tried per call when resuming (the first one included)


def resolve_url(url):
    """The address actually fetched for `url`: the mirror's copy of official weight files."""
    mirror = os.environ.get(ENV_MIRROR)
    if mirror and url.startswith(OFFICIAL_BASE):
        return mirror.rstrip("/") + "/" + url[len(OFFICIAL_BASE):]
    return url


def partial_path(dst):
    """Where a resumable download of `dst` keeps its bytes until they are complete."""
    directory, name = os.path.split(os.path.abspath(dst))
    return os.path.join(directory, "." + name + ".part")


def _download_error(url, source, dst, why, kept=None):
    origin = url if source == url else f"{url} (from {source})"
    resume = (f" The {kept} bytes received so far are kept in {partial_path(dst)}; calling again resumes "
              f"from there." if kept else "")
    return DownloadError(
        f"download_url_to_file(): could not download {origin}: {why}. Nothing was saved to {dst}.{resume} "
        f"Without network access, fetch the file elsewhere and place it at {dst} by hand, "
        f"or set {ENV_MIRROR} to a reachable mirror of {OFFICIAL_BASE}")


def _check_hash(digest, hash_prefix, hash_type, url, dst):
    got = digest.hexdigest()
    if hash_prefix is not None and got[:len(hash_prefix)] != hash_prefix.lower():
        raise HashMismatchError(
            f'invalid hash value (expected "{hash_prefix}", got "{got}") for {url}: its {hash_type} does not '
            f"match; the download was discarded, nothing was saved to {dst}")


def _stream(transfer, sink, digest, bar, received, deadline):
    """Copies the transfer's body into `sink`; `received[0]` counts the bytes of the file so far."""
    for chunk in read_chunks(transfer, received, deadline):
        sink.write(chunk)
        digest.update(chunk)
        bar.update(len(chunk))
    if transfer.total is not None and received[0] != transfer.total:
        raise Failure(f"truncated transfer: received {received[0]} of {transfer.total} bytes", retry=True)


def _check_complete(transfer, received, source, headers, hash_prefix, allow_unknown_length):
    """A body whose end was not declared (HTTP/1.0 style: no Content-Length, no chunks, ended
    by closing the connection) is complete only if something vouches for it: the hash, the
    server confirming there is nothing past it (Range -> 416), or the caller."""
    if transfer.delimited or hash_prefix is not None or allow_unknown_length:
        return
    if not confirm_end(source, received, headers):
        raise Failure(f"the server declared no length (no Content-Length, no chunked framing) and ended the body "
                      f"by closing the connection after {received} bytes, and it does not confirm that the file "
                      f"ends there (a Range request past it was not answered 416), so a body cut short cannot "
                      f"be told from a whole one. Pass hash_prefix to verify the file, or "
                      f"allow_unknown_length=True to accept it as received")


def _download_once(source, dst, hash_prefix, hash_type, progress, url, headers, allow_unknown_length):
    digest = new_hash(hash_type)
    received, deadline = [0], download_deadline()
    remove_stale_temps(dst)
    with open_source(source, headers=headers) as transfer, atomic_open(dst, "wb") as f:
        bar = progress_bar(transfer.total, os.path.basename(dst), progress)
        try:
            _stream(transfer, f, digest, bar, received, deadline)
        finally:
            bar.close()
        _check_hash(digest, hash_prefix, hash_type, url, dst)
        _check_complete(transfer, received[0], source, headers, hash_prefix, allow_unknown_length)


@contextlib.contextmanager
def _locked(path):
    """`path` opened for reading and appending, held under an exclusive lock (POSIX) so two
    processes never write the same partial file; reopened if a holder renamed it meanwhile."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: no advisory locks, one writer is assumed
        fcntl = None
    while True:
        f = open(path, "a+b")
        if fcntl is not None:
            fcntl.flock(f.fileno(), fcntl.LOCK_EX)
        try:
            same = os.stat(path).st_ino == os.fstat(f.fileno()).st_ino
        except FileNotFoundError:
            same = False
        if same:
            break
        f.close()
    try:
        yield f
    finally:
        f.close()  # also releases the lock


def _download_resumable(source, dst, hash_prefix, hash_type, progress, url, headers, allow_unknown_length):
    part = partial_path(dst)
    with _locked(part) as f:
        f.seek(0)
        digest = new_hash(hash_type)
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
        received = [f.tell()]
        validator, attempt, deadline = None, 0, download_deadline()
        bar = progress_bar(None, os.path.basename(dst), progress)
        try:
            while True:
                attempt += 1
                try:
                    with open_source(source, offset=received[0], validator=validator, headers=headers) as transfer:
                        validator = transfer.validator
                        if transfer.start != received[0]:  # the server sent the whole file again
                            f.truncate(0)
                            digest, received[0] = new_hash(hash_type), 0
                        f.seek(0, os.SEEK_END)
                        _stream(transfer, f, digest, bar, received, deadline)
                        _check_complete(transfer, received[0], source, headers, hash_prefix, allow_unknown_length)
                    break
                except Failure as e:
                    if not e.retry or attempt >= RESUME_ATTEMPTS:
                        f.flush()
                        if received[0] == 0:
                            os.unlink(part)  # nothing to resume from
                        raise _download_error(url, source, dst, e, kept=received[0]) from e.__cause__
        finally:
            bar.close()
        try:
            _check_hash(digest, hash_prefix, hash_type, url, dst)
        except HashMismatchError:
            os.unlink(part)  # wrong bytes are not worth resuming
            raise
        f.flush()
        os.fsync(f.fileno())
        os.replace(part, dst)


def download_url_to_file(url, dst, hash_prefix=None, progress=True, *, hash_type="sha256", resume=False,
                         allow_unknown_length=False):
    """Downloads `url` to the file `dst`.

    Args:
        url (str): what to download (http(s)://, file:// or a path; official weight URLs go
            through $TENSORZOO_HUB_MIRROR when set; Google Drive links are followed).
        dst (str): the full path of the file to create (its directory is created if needed).
        hash_prefix (str, optional): the file's digest must start with it (a full digest
            checks the whole of it).
        progress (bool): show a progress bar on stderr (only when stderr is a terminal).
        hash_type (str): the digest `hash_prefix` is taken from: "sha256" (torch.hub's) or
            "md5" (dataset tables), or another hashlib algorithm.
        resume (bool): keep received bytes in ``.<name>.part`` beside `dst` and continue a
            dropped transfer with HTTP Range requests, within this call and the next ones.
        allow_unknown_length (bool): accept a body that the server ended by closing the
            connection without declaring its length (HTTP/1.0 style), unverified. By default
            such a body is kept only when `hash_prefix` checks it or the server confirms its
            end (a Range request past it answered 416): a connection cut early looks the same.
    """
    new_hash(hash_type)  # an unknown hash type fails before anything is fetched
    dst = os.path.expanduser(os.fspath(dst))
    os.makedirs(os.path.dirname(os.path.abspath(dst)), exist_ok=True)
    source = resolve_url(url)
    try:
        headers = {}
        if is_google_drive_url(source):
            source, headers = resolve_google_drive(source)
        fetch = _download_resumable if resume else _download_once
        fetch(source, dst, hash_prefix, hash_type, progress, url, headers, allow_unknown_length)
    except Failure as e:
        raise _download_error(url, source, dst, e) from e.__cause__


def remote_file_name(url):
    """The file name a server gives for `url` (Content-Disposition), else the URL path's last part."""
    source = resolve_url(url)
    try:
        headers = {}
        if is_google_drive_url(source):
            source, headers = resolve_google_drive(source)
        with open_source(source, headers=headers) as transfer:
            disposition = transfer.headers.get("Content-Disposition", "")
    except Failure as e:
        raise DownloadError(f"remote_file_name(): cannot reach {url}: {e}") from e.__cause__
    match = re.search(r"filename\*=UTF-8''([^;]+)|filename=\"?([^\";]+)\"?", disposition)
    if match:
        return os.path.basename(urllib.parse.unquote(match.group(1) or match.group(2)).strip())
    name = os.path.basename(urllib.parse.urlparse(source).path)
    if not name:
        raise DownloadError(f"remote_file_name(): {url} names no file; pass the destination path explicitly")
    return urllib.request.url2pathname(name)
