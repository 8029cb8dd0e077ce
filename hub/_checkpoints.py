"""load_state_dict_from_url: download once into <hub>/checkpoints, verify, load with core.load."""
import os
import re
import sys
import urllib.parse
import warnings
import zipfile

from hub._atomic import atomic_open
from hub._dirs import checkpoint_dir
from hub._download import download_url_to_file
from hub._hashing import sha256_file
from hub._errors import CorruptCacheError

__all__ = ["load_state_dict_from_url", "HASH_REGEX"]

# matches bfd8deac from resnet18-bfd8deac.pth
HASH_REGEX = re.compile(r"-([a-f0-9]*)\.")

_verified = {}  # (path, size, mtime_ns) -> hash prefix already checked in this process


def _check_cached_hash(path, hash_prefix):
    stat = os.stat(path)
    key = (os.path.abspath(path), stat.st_size, stat.st_mtime_ns)
    if _verified.get(key) == hash_prefix:
        return
    got = sha256_file(path)
    if got[:len(hash_prefix)] != hash_prefix:
        raise CorruptCacheError(
            f'load_state_dict_from_url(): the cached file {path} is corrupt: its sha256 is "{got}", '
            f'expected a hash starting with "{hash_prefix}". Delete it to download it again.')
    _verified[key] = hash_prefix


def _load_file(path, map_location):
    import core

    load = getattr(core, "load", None)
    if load is None:
        raise RuntimeError("load_state_dict_from_url(): core.load is not available in this build")
    try:
        return load(path, map_location=map_location)
    except Exception as e:
        raise CorruptCacheError(
            f"load_state_dict_from_url(): cannot load the cached checkpoint {path} "
            f"({type(e).__name__}: {e}). The file may be corrupt or not a checkpoint; "
            f"delete it to download it again.") from e


def _is_legacy_zip_format(path):
    """torch < 1.6 checkpoints were sometimes shipped as a zip holding one file."""
    if zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as z:
            infolist = z.infolist()
        return len(infolist) == 1 and not infolist[0].is_dir()
    return False


def _legacy_zip_load(path, model_dir, map_location):

    warnings.warn("Falling back to the old format < 1.6. This support will be deprecated in favor of default "
                  "zipfile format introduced in 1.6. Please redo torch.save() to save it in the new "
                  "zipfile format.")
    with zipfile.ZipFile(path) as z:
        member = z.infolist()[0]
        # only the member's base name: an archive cannot write outside model_dir
        extracted = os.path.join(model_dir, os.path.basename(member.filename.replace("\\", "/")))
        if not os.path.basename(extracted):
            raise CorruptCacheError(f"load_state_dict_from_url(): the legacy zip {path} holds no file name")
        with z.open(member) as src, atomic_open(extracted, "wb") as dst:
            for chunk in iter(lambda: src.read(1 << 20), b""):
                dst.write(chunk)
    return _load_file(extracted, map_location)


def load_state_dict_from_url(url, model_dir=None, map_location=None, progress=True, check_hash=True,
                             file_name=None):
    """Loads the serialized object at `url`, downloading it into the cache on first use.

    The file lands in `model_dir` (default ``<hub_dir>/checkpoints``) under `file_name` or the
    URL's base name. With `check_hash` (our default; torch.hub's is False) the sha256 of the
    file must start with the hex digits after the last ``-`` of the file name, for fresh
    downloads and for files already in the cache. Legacy single-file zips are extracted.
    """
    if os.getenv("TORCH_MODEL_ZOO"):
        warnings.warn("TORCH_MODEL_ZOO is deprecated and ignored by tensorzoo's hub; "
                      "use TENSORZOO_HOME or hub.set_dir()")
    model_dir = checkpoint_dir() if model_dir is None else os.path.expanduser(os.fspath(model_dir))
    os.makedirs(model_dir, exist_ok=True)
    filename = file_name or os.path.basename(urllib.parse.urlparse(url).path)
    cached_file = os.path.join(model_dir, filename)
    hash_prefix = None
    if check_hash:
        match = HASH_REGEX.search(filename)
        hash_prefix = match.group(1) if match else None
    if not os.path.exists(cached_file):
        sys.stderr.write(f'Downloading: "{url}" to {cached_file}\n')
        download_url_to_file(url, cached_file, hash_prefix, progress=progress)
    elif hash_prefix:
        _check_cached_hash(cached_file, hash_prefix)
    if _is_legacy_zip_format(cached_file):
        return _legacy_zip_load(cached_file, model_dir, map_location)
    return _load_file(cached_file, map_location)
