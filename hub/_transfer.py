"""One transfer of a file's bytes from a local path, a file:// URL or an http(s) URL,
optionally starting at a byte offset (HTTP Range). The download logic (hub._download) works
on these without caring where the bytes come from."""
import os
import re
import threading
import time
import urllib.parse
import urllib.request

__all__ = ["Failure", "Transfer", "open_source", "read_chunks", "download_deadline", "confirm_end", "USER_AGENT",
           "TIMEOUT"]

USER_AGENT = "tensorzoo.hub"
TIMEOUT = (15, 60)  # seconds to connect, seconds between received bytes
DOWNLOAD_TIMEOUT = 6 * 3600.0  # seconds for a whole download (TENSORZOO_HUB_DOWNLOAD_TIMEOUT)
CHUNK = 8192
_CONTENT_RANGE = re.compile(r"bytes\s+(\d+)-(\d+)/(\d+|\*)")


class Failure(Exception):
    """Internal: why a transfer failed (retry: a new connection may get further); the download
    functions turn it into a DownloadError naming the URL and the destination."""

    def __init__(self, message, retry=False):
        super().__init__(message)
        self.retry = retry


class Transfer:
    """An open body: `chunks` yields bytes from file offset `start`; `total` is the size of the
    whole file when known; `validator` (ETag or Last-Modified) guards later Range requests.
    `delimited`: the body's end is declared (a file size, Content-Length or chunked framing),
    so one cut short fails while reading; otherwise the body simply ends where the server
    closed the connection, and a cut-short body reads like a complete one."""

    def __init__(self, closable, chunks, start=0, total=None, validator=None, headers=None, delimited=True):
        self.closable, self.chunks = closable, chunks
        self.start, self.total, self.validator = start, total, validator
        self.headers = headers or {}
        self.delimited = delimited

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.closable.close()

    def abort(self):
        """Cuts the connection from another thread, waking a read blocked on it."""
        shutdown = getattr(getattr(self.closable, "raw", None), "shutdown", None)
        if shutdown is not None:
            shutdown()
        self.closable.close()


def _reason(exc):
    text = str(exc) or type(exc).__name__
    return text if len(text) < 300 else text[:300] + "..."


def _local_path(source):
    """The filesystem path of a file:// URL or a plain path; None for a network URL."""
    parsed = urllib.parse.urlparse(source)
    if parsed.scheme == "file":
        return urllib.request.url2pathname(parsed.path)
    if parsed.scheme == "" or len(parsed.scheme) == 1:  # no scheme, or a Windows drive letter
        return source
    return None


def _open_local(path, offset):
    try:
        f = open(path, "rb")
    except OSError as e:
        raise Failure(f"cannot read {path} ({e.strerror or e})") from e
    size = os.fstat(f.fileno()).st_size
    start = offset if offset <= size else 0
    f.seek(start)
    return Transfer(f, iter(lambda: f.read(CHUNK), b""), start=start, total=size)


def _request(source, headers):
    import requests

    try:
        return requests.get(source, stream=True, timeout=TIMEOUT, headers={"User-Agent": USER_AGENT, **headers})
    except requests.RequestException as e:
        raise Failure(f"cannot connect ({_reason(e)})", retry=True) from e


def _strong_validator(response):
    etag = response.headers.get("ETag")
    if etag and not etag.startswith("W/"):  # If-Range needs a strong validator
        return etag
    return response.headers.get("Last-Modified")


def _body_length(response):
    length = response.headers.get("Content-Length")
    # a compressed transfer's length counts encoded bytes, not the ones we receive
    if length and length.isdigit() and not response.headers.get("Content-Encoding"):
        return int(length)
    return None


def _delimited(response):
    """Whether the response declares where its body ends. urllib3 enforces a Content-Length
    (of the encoded bytes too) and the final chunk of chunked framing."""
    declared = response.headers.get("Content-Length", "")
    return declared.isdigit() or "chunked" in response.headers.get("Transfer-Encoding", "").lower()


def _open_http(source, offset, validator, headers):
    ranged = dict(headers)
    if offset:
        ranged["Range"] = f"bytes={offset}-"
        if validator:
            ranged["If-Range"] = validator
    response = _request(source, ranged)
    if offset and response.status_code == 416:  # nothing past our offset: fetch the whole file again
        response.close()
        return _open_http(source, 0, None, headers)
    if response.status_code >= 400:
        response.close()
        raise Failure(f"HTTP {response.status_code} {response.reason}", retry=response.status_code >= 500)
    start, total = 0, _body_length(response)
    if response.status_code == 206:
        match = _CONTENT_RANGE.match(response.headers.get("Content-Range", ""))
        if not match or int(match.group(1)) != offset:  # not the part we asked for: start over
            response.close()
            return _open_http(source, 0, None, headers)
        start = offset
        total = int(match.group(3)) if match.group(3) != "*" else (None if total is None else offset + total)
    return Transfer(response, response.iter_content(CHUNK), start=start, total=total,
                    validator=_strong_validator(response), headers=response.headers,
                    delimited=total is not None or _delimited(response))


def confirm_end(source, size, headers=None):
    """Whether the server confirms that `source` has no byte past `size`: a Range request
    from there answered 416 (Range Not Satisfiable, with a matching size when it names one).
    A server that ignores Range, or has more bytes, does not confirm."""
    if _local_path(source) is not None:
        return False
    response = _request(source, {**(headers or {}), "Range": f"bytes={size}-"})
    response.close()
    if response.status_code != 416:
        return False
    named = re.fullmatch(r"bytes\s+\*/(\d+)", response.headers.get("Content-Range", "").strip())
    return named is None or int(named.group(1)) == size


def open_source(source, offset=0, validator=None, headers=None):
    """A Transfer of `source` from byte `offset` (a server may answer from 0 instead: check
    `start`). Raises Failure for unreadable paths, HTTP errors and unreachable hosts."""
    path = _local_path(source)
    if path is not None:
        return _open_local(path, offset)
    if urllib.parse.urlparse(source).scheme not in ("http", "https"):
        raise Failure("unsupported URL scheme (use http://, https://, file:// or a path)")
    return _open_http(source, offset, validator, headers or {})


def download_deadline():
    """The monotonic time by which a download starting now must be complete: TIMEOUT bounds
    each read, this the whole (a server trickling a byte at a time passes every read timeout)."""
    return time.monotonic() + float(os.environ.get("TENSORZOO_HUB_DOWNLOAD_TIMEOUT", DOWNLOAD_TIMEOUT))


def read_chunks(transfer, received, deadline=None):
    """Yields the transfer's chunks, adding their sizes to received[0]; a failure while reading
    means the connection dropped midway (worth another try). Past `deadline` the connection is
    cut and the download fails for good."""
    watchdog = None
    if deadline is not None:
        watchdog = threading.Timer(max(0.0, deadline - time.monotonic()), transfer.abort)
        watchdog.daemon = True
        watchdog.start()
    try:
        iterator = iter(transfer.chunks)
        while True:
            try:
                chunk = next(iterator)
            except StopIteration:
                return
            except Exception as e:  # requests/urllib3/socket errors of a broken transfer
                if deadline is not None and time.monotonic() >= deadline:
                    raise Failure(f"the download was not complete within its time limit (received "
                                  f"{received[0]} bytes; TENSORZOO_HUB_DOWNLOAD_TIMEOUT sets the limit)") from e
                of_total = "" if transfer.total is None else f" of {transfer.total}"
                raise Failure(f"the connection dropped after {received[0]}{of_total} bytes ({_reason(e)})",
                              retry=True) from e
            received[0] += len(chunk)
            yield chunk
    finally:
        if watchdog is not None:
            watchdog.cancel()
