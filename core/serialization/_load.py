"""core.load: checkpoints written by torch.save (zip format, or the pre-1.6 legacy format)
or by core.save, safely by default."""
import io
import os
import pickle

import numpy as np

from core.serialization import _legacy
from core.serialization._errors import corrupt, refuse
from core.serialization._io import open_source
from core.serialization._rebuild import PARAMETER_CLASS, TORCH_GLOBALS
from core.serialization._safe_unpickler import SafeUnpickler, _new_parameter
from core.serialization._storage import Storage, allocate, check_storage_pid, finish, numpy_dtype
from core.serialization._zip import ZipReader, is_zip


def load(f, map_location=None, pickle_module=None, *, weights_only=True, mmap=None, **pickle_load_args):
    """Loads an object saved with core.save or torch.save from a path, pathlib.Path or binary
    file-like object (seekable or not).

    weights_only=True (the default) only builds tensors, storages, dtypes, state-dict
    containers and primitive values; anything else in the file (a class, a function, an
    opcode applied to the wrong kind of object, a storage shorter than its tensors) raises
    pickle.UnpicklingError or RuntimeError and nothing from the file runs.
    weights_only=False uses Python's full unpickler: UNSAFE, a malicious file can run
    arbitrary code. Use it only for files you trust.

    map_location: None or 'cpu' (or a torch.device-like object whose str() is one), a dict
    {saved location: new location}, or a callable (storage, location) -> storage or None.
    Only the CPU exists here: a storage that would land on another device raises.
    mmap=True maps a zip checkpoint's file copy-on-write instead of reading it.
    """
    if weights_only is None:
        weights_only = True
    if weights_only and pickle_module is not None:
        raise RuntimeError("load(): can not safely load weights when an explicit pickle_module "
                           "is specified; pass weights_only=False to use it")
    encoding = pickle_load_args.get("encoding", "utf-8")
    options = _Options(map_location, weights_only, pickle_module or pickle, encoding, pickle_load_args)
    with open_source(f, use_mmap=bool(mmap)) as source:
        head = source.read(0, min(source.size, 512))
        if is_zip(head):
            return _load_zip(ZipReader(source, _describe(f)), options, bool(mmap))
        if mmap:
            raise RuntimeError("load(): mmap can only be used with files saved with "
                               "save(_use_new_zipfile_serialization=True)")
        return _legacy.load_legacy(source, head, options)


class _Options:
    def __init__(self, map_location, weights_only, pickle_module, encoding, pickle_load_args):
        self.map_location = map_location
        self.weights_only = weights_only
        self.pickle_module = pickle_module
        self.encoding = encoding
        self.pickle_load_args = pickle_load_args

    def unpickle(self, data, persistent_load, start=0):
        """(object, end offset) of the pickle at data[start:]."""
        if self.weights_only:
            unpickler = SafeUnpickler(data, persistent_load, self.encoding, start)
            return unpickler.load(), unpickler.end
        stream = io.BytesIO(data)
        stream.seek(start)
        unpickler = _full_unpickler_class(self.pickle_module)(stream, **self.pickle_load_args)
        unpickler.persistent_load = persistent_load
        return unpickler.load(), stream.tell()

    def restore(self, storage, location):
        """Applies map_location to a loaded storage; only CPU destinations exist here."""
        if type(location) is not str:
            raise refuse(f"storage location must be a string, got {type(location).__name__}")
        ml = self.map_location
        target = location
        if isinstance(ml, dict):
            target = ml.get(location, location)
        elif ml is not None and not isinstance(ml, str) and callable(ml):
            result = ml(storage, location)
            if isinstance(result, Storage):
                return result
            if result is not None:
                raise TypeError(f"load(): map_location returned a {type(result).__name__}; "
                                "expected a storage or None")
        elif ml is not None:
            target = ml
        target = str(target)
        if target.split(":")[0] != "cpu":
            raise RuntimeError(
                f"load(): attempting to deserialize a storage saved on {location!r} to {target!r}, "
                "but tensorzoo runs on the CPU only. Use load(..., map_location='cpu') to map "
                "your storages to the CPU.")
        return storage


def _full_unpickler_class(pickle_module):
    class FullUnpickler(pickle_module.Unpickler):
        """Python's unpickler (unsafe) with torch's names resolved to ours."""

        def find_class(self, module, name):
            full = f"{module}.{name}"
            if full in TORCH_GLOBALS:
                return TORCH_GLOBALS[full]
            if full in (PARAMETER_CLASS, "torch.nn.Parameter"):
                return _new_parameter
            if module == "torch" or module.startswith("torch."):
                raise pickle.UnpicklingError(f"load(): the checkpoint needs the torch object "
                                             f"'{full}', which tensorzoo does not provide")
            return super().find_class(module, name)

    return FullUnpickler


def _load_zip(reader, options, use_mmap):
    if reader.has("constants.pkl") or not reader.has("data.pkl"):
        raise RuntimeError("load(): this zip archive is not a torch.save checkpoint "
                           "(TorchScript archives, saved by torch.jit.save, are not supported)")
    byteorder = reader.read("byteorder").decode("ascii", "replace") if reader.has("byteorder") else "little"
    if byteorder not in ("little", "big"):
        raise corrupt(f"unknown byte order record {byteorder!r}")
    swap = byteorder == "big"
    loaded = {}

    def persistent_load(pid):
        dtype, key, location, numel = check_storage_pid(pid, 5)
        if key in loaded:
            storage = loaded[key]
            if storage.dtype != dtype or storage.numel != numel:
                raise corrupt(f"storage {key!r} is declared twice with different types or sizes")
            return storage
        record = reader.get(f"data/{key}")
        nbytes = numel * dtype.itemsize
        if record.size != nbytes:
            raise corrupt(f"storage {key!r} declares {numel} elements of {dtype} ({nbytes} bytes), "
                          f"but the archive holds {record.size} bytes for it")
        raw = None
        if use_mmap and record.method == 0 and not swap:
            start = reader.payload_at(record)
            view = reader.source.view(start, nbytes)
            reader.check_crc(record, view)
            raw = np.frombuffer(reader.source.buffer.obj, dtype=numpy_dtype(dtype), count=numel,
                                offset=start) if numel else allocate(dtype, 0)
        if raw is None:
            raw = allocate(dtype, numel)
            reader.read_into(record, raw)
        storage = options.restore(finish(dtype, raw, byteswap=swap), location)
        loaded[key] = storage
        return storage

    result, _ = options.unpickle(reader.read("data.pkl"), persistent_load)
    return result


__all__ = ["load"]


def _describe(f):
    """How messages name the checkpoint: its path, or the kind of object it came from."""
    if isinstance(f, (str, bytes)) or hasattr(f, "__fspath__"):
        return repr(os.fspath(f))
    return getattr(f, "name", None) and repr(f.name) or f"a {type(f).__name__}"
