"""Fixtures of the hub tests: an isolated TENSORZOO_HOME and a local HTTP server on 127.0.0.1
(tests/support_http.py) whose routes can serve (with HTTP Range), truncate, drop the
connection midway, fail with an HTTP status, or lie about Content-Length. Nothing is ever
downloaded from outside."""
import hashlib
import os
import socket

import pytest
from support_http import serving

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


@pytest.fixture
def server():
    with serving() as s:
        yield s


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
