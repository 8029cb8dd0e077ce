"""Fixtures of the parity tests."""
import pytest


@pytest.fixture
def mirror(tmp_path, monkeypatch):
    """An empty local hub mirror directory, with a hub home of this test's own."""
    import hub._dirs

    directory = tmp_path / "mirror"
    directory.mkdir()
    monkeypatch.setenv("TENSORZOO_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("TENSORZOO_HUB_MIRROR", str(directory))
    monkeypatch.setattr(hub._dirs, "_hub_dir", None)
    return directory
