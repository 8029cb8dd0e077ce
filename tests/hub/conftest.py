"""Fixtures of the hub tests: an isolated TENSORZOO_HOME and a local HTTP server on 127.0.0.1
whose routes can serve, truncate, drop the connection midway, fail with an HTTP status, or
lie about Content-Length. Nothing is ever downloaded from outside."""
import hashlib
import http.server
import os
import socket
import threading
import time

import pytest

import hub
import hub._dirs

_PROXY_VARS = ("http_proxy", "https_proxy", "all_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY")


@pytest.fixture
def hub_home(tmp_path, monkeypatch):
    """A fresh TENSORZOO_HOME; no mirror, no proxy, no set_dir() override."""
    home = tmp_path / "tzhome"
    monkeypatch.setenv("TENSORZOO_HOME", str(home))
    for var in ("TENSORZOO_HUB_MIRROR", "TENSORZOO_HUB_GITHUB", "XDG_CACHE_HOME") + _PROXY_VARS:
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr(hub._dirs, "_hub_dir", None)
    return home


def hashed_name(stem, data, ext=".pth"):
    """The official naming scheme: <stem>-<sha256[:8]><ext>."""
    return f"{stem}-{hashlib.sha256(data).hexdigest()[:8]}{ext}"


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def _head(self, length, chunked=False):
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        if chunked:
            self.send_header("Transfer-Encoding", "chunked")
        else:
            self.send_header("Content-Length", str(length))
        self.end_headers()

    def _abort(self):
        self.wfile.flush()
        self.close_connection = True
        self.connection.shutdown(socket.SHUT_RDWR)

    def do_GET(self):
        server = self.server
        server.hits.append(self.path)
        route = server.routes.get(self.path)
        if route is None:
            self.send_error(404)
            return
        mode, data = route
        if mode == "ok":
            self._head(len(data))
            self.wfile.write(data)
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
        else:
            raise AssertionError(mode)


class LocalServer:
    def __init__(self):
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self.httpd.daemon_threads = True
        self.httpd.routes = {}
        self.httpd.hits = []
        self.httpd.barrier = threading.Barrier(2)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()

    def add(self, path, data, mode="ok"):
        """Serves `data` at `path` (starting with /) in `mode`; returns the full URL."""
        self.httpd.routes[path] = (mode, data)
        return self.url + path

    @property
    def hits(self):
        return self.httpd.hits

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def server():
    s = LocalServer()
    try:
        yield s
    finally:
        s.close()


@pytest.fixture
def dead_url():
    """An http URL on a local port where nothing listens (connection refused: 'no network')."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}"


def listdir_recursive(root):
    out = []
    for dirpath, _, files in os.walk(root):
        out += [os.path.relpath(os.path.join(dirpath, f), root) for f in files]
    return sorted(out)


@pytest.fixture
def helpers():
    """Plain functions for the tests (conftest modules are not importable in importlib mode)."""
    class Helpers:
        hashed_name = staticmethod(hashed_name)
        listdir = staticmethod(listdir_recursive)
    return Helpers
