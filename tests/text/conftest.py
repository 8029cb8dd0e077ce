"""Fixtures of the text tests: a local HTTP server (tests/support_http.py) and `serve`, which
publishes a dataset's files there and points the dataset tables (URLS, MD5) at them for the
test. Nothing is fetched from outside."""
import hashlib
import os
import urllib.parse

import pytest
from support_http import serving

from text import datasets

_PROXY_VARS = ("http_proxy", "https_proxy", "all_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY")


@pytest.fixture
def server(monkeypatch):
    for var in _PROXY_VARS:  # requests would send 127.0.0.1 through a configured proxy
        monkeypatch.delenv(var, raising=False)
    with serving() as s:
        yield s


@pytest.fixture
def root(tmp_path):
    return str(tmp_path / "data")


@pytest.fixture
def serve(server, monkeypatch):
    """serve(name, files, mode="ok", md5=None): `files` is the bytes of the dataset's one
    download, or {split: bytes} for datasets with a file per split. The URLs keep the file
    names of the real ones; `md5` overrides the checksum put in the table (default: the
    files' own)."""
    def _serve(name, files, mode="ok", md5=None):
        original = datasets.URLS[name]

        def publish(key, url, data):
            base = os.path.basename(urllib.parse.urlparse(url).path)
            return server.add(f"/{name}/{key}/{base}", data, mode=mode)

        if isinstance(files, dict):
            urls = {split: publish(split, original[split], data) for split, data in files.items()}
            md5s = md5 or {split: hashlib.md5(data).hexdigest() for split, data in files.items()}
        else:
            urls, md5s = publish("all", original, files), md5 or hashlib.md5(files).hexdigest()
        monkeypatch.setitem(datasets.URLS, name, urls)
        monkeypatch.setitem(datasets.MD5, name, md5s)
        return urls
    return _serve
