"""A local HTTP server on 127.0.0.1 for download tests (hub, text): routes serve bytes and can
honour or ignore HTTP Range requests, cut transfers short, fail with a status, lie about
Content-Length, send HTTP/1.0 bodies without a length, or imitate Google Drive's confirmation page. Nothing is fetched from outside."""
import contextlib
import hashlib
import http.server
import re
import socket
import threading
import time

__all__ = ["LocalServer", "serving", "DRIP_BYTES"]

DRIP_BYTES = 2 * 8192  # (whole client chunks) what a "drip" or "cut_once" response sends before dropping the connection
_RANGE = re.compile(r"bytes=(\d+)-$")


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def _head(self, length, chunked=False, status=200, extra=()):
        self.send_response(status)
        self.send_header("Content-Type", "application/octet-stream")
        if chunked:
            self.send_header("Transfer-Encoding", "chunked")
        else:
            self.send_header("Content-Length", str(length))
        for key, value in extra:
            self.send_header(key, value)
        self.end_headers()

    def _abort(self):
        self.close_connection = True
        try:
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass  # the client hung up first: the connection is dropped either way

    def _ranged(self, data, limit=None):
        """200 or 206 (the Range header honoured, with a strong ETag); at most `limit` bytes
        of the body are sent before the connection drops."""
        etag = '"%s"' % hashlib.md5(data).hexdigest()
        match = _RANGE.match(self.headers.get("Range", ""))
        if_range = self.headers.get("If-Range")
        start = int(match.group(1)) if match and (if_range is None or if_range == etag) else 0
        if start >= len(data) and match:
            self.send_response(416)
            self.send_header("Content-Range", f"bytes */{len(data)}")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        body = data[start:]
        extra = [("ETag", etag), ("Accept-Ranges", "bytes")]
        if start:
            extra.append(("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}"))
        self._head(len(body), status=206 if start else 200, extra=extra)
        if limit is not None and limit < len(body):
            self.wfile.write(body[:limit])
            self._abort()
        else:
            self.wfile.write(body)

    def _unsized(self, data, cut, ranged):
        """HTTP/1.0 style: no Content-Length, the body ends when the connection closes; `cut`
        sends only its first half. `ranged` answers Range requests (416 past the end)."""
        match = _RANGE.match(self.headers.get("Range", ""))
        if ranged and match:
            self._ranged(data)
            return
        self.protocol_version = "HTTP/1.0"
        self.close_connection = True
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.end_headers()
        self.wfile.write(data[:len(data) // 2] if cut else data)
        self._abort()

    def do_GET(self):
        server = self.server
        server.hits.append(self.path)
        server.ranges.append(self.headers.get("Range"))
        route = server.routes.get(self.path)
        if route is None:
            self.send_error(404)
            return
        mode, data = route
        served = server.served[self.path] = server.served.get(self.path, 0) + 1
        if mode == "ok":
            self._ranged(data)
        elif mode == "norange":  # ignores Range: always the whole file
            self._head(len(data))
            self.wfile.write(data)
        elif mode == "cut_once":  # the first response drops after DRIP_BYTES, later ones are whole
            self._ranged(data, limit=DRIP_BYTES if served == 1 else None)
        elif mode.startswith("unsized"):  # unsized, unsized_cut, unsized_ranged, unsized_cut_ranged
            self._unsized(data, cut="_cut" in mode, ranged=mode.endswith("_ranged"))
        elif mode == "drip":  # every response drops after DRIP_BYTES
            self._ranged(data, limit=DRIP_BYTES)
        elif mode == "status":  # data is the HTTP status
            self.send_error(data)
        elif mode == "truncate":  # honest Content-Length, half the body, then close
            self._head(len(data))
            self.wfile.write(data[:len(data) // 2])
            self._abort()
        elif mode == "long_length":  # claims 100 bytes more than it sends
            self._head(len(data) + 100)
            self.wfile.write(data)
            self._abort()
        elif mode == "short_length":  # claims 100 bytes fewer than it sends
            self._head(len(data) - 100)
            self.wfile.write(data)
            self._abort()
        elif mode == "drop_chunked":  # chunked transfer cut after the first chunk
            self._head(None, chunked=True)
            half = data[:len(data) // 2]
            self.wfile.write(b"%x\r\n%s\r\n" % (len(half), half))
            self._abort()
        elif mode == "paired":  # waits for a second client, then trickles the body to both
            server.barrier.wait(timeout=30)
            self._head(len(data))
            for i in range(0, len(data), 4096):
                self.wfile.write(data[i:i + 4096])
                self.wfile.flush()
                time.sleep(0.002)
        elif mode == "named":  # data is (bytes, file name sent in Content-Disposition)
            body, name = data
            self._head(len(body), extra=[("Content-Disposition", f'attachment; filename="{name}"')])
            self.wfile.write(body)
        elif mode == "html":  # data is (page bytes, extra headers)
            page, headers = data
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(page)))
            for key, value in headers:
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(page)
        elif mode == "stall":  # honest length, half the body, then nothing (the connection stays open)
            self._head(len(data))
            self.wfile.write(data[:len(data) // 2])
            self.wfile.flush()
            time.sleep(30)
        elif mode == "trickle":  # honest length, then one byte every 0.2 s (slow loris)
            self._head(len(data))
            for i in range(len(data)):
                self.wfile.write(data[i:i + 1])
                self.wfile.flush()
                time.sleep(0.2)
        else:
            raise AssertionError(mode)


class LocalServer:
    def __init__(self):
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self.httpd.daemon_threads = True
        self.httpd.routes, self.httpd.served = {}, {}
        self.httpd.hits, self.httpd.ranges = [], []
        self.httpd.barrier = threading.Barrier(2)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()

    def add(self, path, data, mode="ok"):
        """Serves `data` at `path` (starting with /, a query string allowed) in `mode`; returns the URL."""
        self.httpd.routes[path] = (mode, data)
        return self.url + path

    @property
    def hits(self):
        return self.httpd.hits

    @property
    def ranges(self):
        """The Range header of each request (None when absent), in order."""
        return self.httpd.ranges

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@contextlib.contextmanager
def serving():
    """A LocalServer for the duration of the block."""
    s = LocalServer()
    try:
        yield s
    finally:
        s.close()
