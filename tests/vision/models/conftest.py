"""Fixtures of the vision.models tests: an isolated hub home with a local mirror directory."""
import hashlib

import pytest

import hub
import hub._dirs


@pytest.fixture
def mirror(tmp_path, monkeypatch):
    """(mirror directory, publish) where publish(module, arch, model) saves model's state_dict there
    under its sha256-prefixed name and points module.model_urls[arch] at it."""
    import core

    directory = tmp_path / "mirror"
    directory.mkdir()
    monkeypatch.setenv("TENSORZOO_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("TENSORZOO_HUB_MIRROR", directory.as_uri())
    monkeypatch.setattr(hub._dirs, "_hub_dir", None)

    def publish(module, arch, model):
        staging = directory / "staging.pth"
        core.save(model.state_dict(), str(staging))
        name = f"{arch}-{hashlib.sha256(staging.read_bytes()).hexdigest()[:8]}.pth"
        staging.rename(directory / name)
        monkeypatch.setitem(module.model_urls, arch, hub.OFFICIAL_BASE + name)
        return name

    return directory, publish
