"""hub.load_state_dict_from_url: cache layout, hash checks of fresh and cached files, loading,
legacy zips, and the faults (each a clear exception, nothing left in the cache)."""
import os
import zipfile

import numpy as np
import pytest

import core
import hub

OFFICIAL = "https://download.pytorch.org/models/"


def _state_dict():
    return {"weight": core.tensor(np.arange(6, dtype=np.float32).reshape(2, 3)),
            "num_batches_tracked": core.tensor(7)}


def _checkpoint_bytes(tmp_path):
    path = tmp_path / "made.pth"
    core.save(_state_dict(), str(path))
    return path.read_bytes()


def _assert_state_dict(sd):
    assert sorted(sd) == ["num_batches_tracked", "weight"]
    np.testing.assert_array_equal(sd["weight"].numpy(), np.arange(6, dtype=np.float32).reshape(2, 3))
    assert sd["num_batches_tracked"].item() == 7


def test_dirs(hub_home, tmp_path, monkeypatch):
    assert hub.get_dir() == str(hub_home / "hub")
    hub.set_dir(str(tmp_path / "elsewhere"))
    assert hub.get_dir() == str(tmp_path / "elsewhere")
    monkeypatch.setattr(hub._dirs, "_hub_dir", None)
    monkeypatch.delenv("TENSORZOO_HOME")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert hub.get_dir() == str(tmp_path / "xdg" / "tensorzoo" / "hub")
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert hub.get_dir() == os.path.expanduser("~/.cache/tensorzoo/hub")


def test_hash_regex():
    assert hub.HASH_REGEX.search("resnet18-bfd8deac.pth").group(1) == "bfd8deac"
    assert hub.HASH_REGEX.search("mobilenet_v3_large_qnnpack-5bcacf28.pth").group(1) == "5bcacf28"
    assert hub.HASH_REGEX.search("plain.pth") is None


def test_hash_mismatch_leaves_cache_empty(server, hub_home, helpers):
    url = server.add("/m/w-00000000.pth", b"not the right bytes")
    with pytest.raises(hub.HashMismatchError, match='expected "00000000"'):
        hub.load_state_dict_from_url(url, progress=False)
    assert helpers.listdir(hub_home) == []


def test_check_hash_false_skips_the_check(server, hub_home, helpers):
    url = server.add("/m/w-00000000.pth", b"garbage")
    with pytest.raises(RuntimeError):  # downloaded, then fails to load (or core.load is missing)
        hub.load_state_dict_from_url(url, progress=False, check_hash=False)
    assert helpers.listdir(hub_home) == ["hub/checkpoints/w-00000000.pth"]


def test_no_network_message_names_the_cache_path(dead_url, hub_home, monkeypatch, helpers):
    monkeypatch.setenv("TENSORZOO_HUB_MIRROR", dead_url)
    with pytest.raises(hub.DownloadError) as info:
        hub.load_state_dict_from_url(OFFICIAL + "resnet18-f37072fd.pth", progress=False)
    message = str(info.value)
    assert OFFICIAL + "resnet18-f37072fd.pth" in message
    assert str(hub_home / "hub" / "checkpoints" / "resnet18-f37072fd.pth") in message
    assert helpers.listdir(hub_home) == []


@pytest.mark.parametrize("status", [404, 500])
def test_http_errors(server, hub_home, helpers, status):
    url = server.add("/m/w-12345678.pth", status, mode="status")
    with pytest.raises(hub.DownloadError, match=str(status)):
        hub.load_state_dict_from_url(url, progress=False)
    assert helpers.listdir(hub_home) == []


@pytest.mark.parametrize("mode", ["truncate", "long_length", "drop_chunked"])
def test_broken_transfers(server, hub_home, helpers, mode):
    url = server.add("/m/w-12345678.pth", os.urandom(40_000), mode=mode)
    with pytest.raises(hub.DownloadError):
        hub.load_state_dict_from_url(url, progress=False)
    assert helpers.listdir(hub_home) == []


def test_corrupt_cached_file_is_rechecked(hub_home, helpers):
    checkpoints = hub_home / "hub" / "checkpoints"
    checkpoints.mkdir(parents=True)
    cached = checkpoints / "resnet18-f37072fd.pth"
    cached.write_bytes(b"half a file")
    with pytest.raises(hub.CorruptCacheError) as info:
        hub.load_state_dict_from_url(OFFICIAL + "resnet18-f37072fd.pth", progress=False)
    assert str(cached) in str(info.value) and "Delete it" in str(info.value)
    assert cached.read_bytes() == b"half a file"  # never deleted behind the user's back


# ---------------------------------------------------------------- loading (needs core.load)

def test_download_cache_and_reuse(server, hub_home, tmp_path, helpers):
    data = _checkpoint_bytes(tmp_path)
    name = helpers.hashed_name("tiny", data)
    url = server.add("/models/" + name, data)
    _assert_state_dict(hub.load_state_dict_from_url(url, progress=False))
    assert (hub_home / "hub" / "checkpoints" / name).read_bytes() == data
    _assert_state_dict(hub.load_state_dict_from_url(url, map_location="cpu", progress=False))
    assert server.hits == ["/models/" + name]  # the second call used the cache


def test_model_dir_and_file_name(server, hub_home, tmp_path, helpers):
    data = _checkpoint_bytes(tmp_path)
    url = server.add("/models/anything.pth", data)
    name = helpers.hashed_name("renamed", data)
    sd = hub.load_state_dict_from_url(url, model_dir=str(tmp_path / "md"), file_name=name, progress=False)
    _assert_state_dict(sd)
    assert (tmp_path / "md" / name).exists()
    assert not (hub_home / "hub").exists()


def test_through_mirror(hub_home, tmp_path, monkeypatch, helpers):
    data = _checkpoint_bytes(tmp_path)
    name = helpers.hashed_name("tiny", data)
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    (mirror / name).write_bytes(data)
    monkeypatch.setenv("TENSORZOO_HUB_MIRROR", mirror.as_uri())
    _assert_state_dict(hub.load_state_dict_from_url(OFFICIAL + name, progress=False))
    assert helpers.listdir(hub_home) == ["hub/checkpoints/" + name]


def test_cached_file_that_fails_to_load(hub_home, helpers):
    checkpoints = hub_home / "hub" / "checkpoints"
    checkpoints.mkdir(parents=True)
    garbage = b"\x00not a checkpoint\xff" * 10
    name = helpers.hashed_name("broken", garbage)  # right hash, unloadable content
    (checkpoints / name).write_bytes(garbage)
    with pytest.raises(hub.CorruptCacheError) as info:
        hub.load_state_dict_from_url(OFFICIAL + name, progress=False)
    assert str(checkpoints / name) in str(info.value) and "delete it" in str(info.value)


def test_legacy_single_file_zip(server, hub_home, tmp_path, helpers):
    inner = tmp_path / "inner.pth"
    inner.write_bytes(_checkpoint_bytes(tmp_path))
    archive = tmp_path / "legacy.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.write(inner, "inner.pth")
    data = archive.read_bytes()
    name = helpers.hashed_name("legacy", data)
    url = server.add("/models/" + name, data)
    with pytest.warns(UserWarning, match="old format"):
        sd = hub.load_state_dict_from_url(url, progress=False)
    _assert_state_dict(sd)
    assert (hub_home / "hub" / "checkpoints" / "inner.pth").exists()
