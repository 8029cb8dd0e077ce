import importlib

import pytest


@pytest.mark.parametrize("name", ["core", "vision", "audio", "text", "crypto_rng", "hub"])
def test_package_imports(name):
    assert importlib.import_module(name) is not None
