"""Safetensors files: save_file / load_file / save / load / safe_open, byte-compatible with
the reference `safetensors` package.

Layout: an 8-byte little-endian header size N, N bytes of UTF-8 JSON (padded with spaces to
a multiple of 8), then the tensors' bytes back to back. The header maps each name to
{"dtype": "F32", "shape": [...], "data_offsets": [begin, end]} (offsets relative to the data
section) plus an optional "__metadata__" {str: str}. Tensors are written largest dtype first,
then by name, as the reference writer does; non-contiguous tensors are written contiguous;
tensors whose memory overlaps are refused (as the reference refuses shared tensors).
Loading validates the header size, the JSON, every dtype and shape, and that the offsets
tile the data section exactly (no gaps, overlaps or out-of-range spans).
"""
import json
import os
import struct

import numpy as np

from core._native import _C
from core.serialization._io import open_sink, open_source

__all__ = ["save_file", "load_file", "save", "load", "safe_open", "SafetensorError"]

MAX_HEADER_SIZE = 100_000_000  # the reference's limit

# name -> (our dtype, the reference's sort rank: larger dtypes are written first)
_DTYPES = {
    "BOOL": (_C.bool, 0), "U8": (_C.uint8, 1), "I8": (_C.int8, 2), "I16": (_C.int16, 3),
    "F16": (_C.float16, 4), "BF16": (_C.bfloat16, 5), "I32": (_C.int32, 6), "F32": (_C.float32, 7),
    "C64": (_C.complex64, 8), "F64": (_C.float64, 9), "I64": (_C.int64, 10),
}
_NAME_OF = {dtype: name for name, (dtype, _) in _DTYPES.items()}
_UNSUPPORTED = {"U16", "U32", "U64", "F8_E5M2", "F8_E4M3", "F8_E8M0", "F4", "F6_E2M3", "F6_E3M2", "C128"}


class SafetensorError(ValueError):
    """A malformed safetensors file or an unsavable set of tensors."""


# ---- writing

def _flat_bytes(tensor):
    from core.serialization._storage import storage_bytes

    contiguous = tensor if tensor.is_contiguous() else tensor.contiguous()
    array, _ = storage_bytes(contiguous)
    start = contiguous.storage_offset() * tensor.dtype.itemsize
    return array[start:start + tensor.numel() * tensor.dtype.itemsize]


def _check_shared(tensors):
    spans = {}
    for name, t in tensors.items():
        if t.numel() == 0:
            continue
        ptr = t._storage_ptr()
        item = t.dtype.itemsize
        first = t.storage_offset() * item
        last = first + sum((n - 1) * s for n, s in zip(t._sizes, t._strides)) * item + item
        spans.setdefault(ptr, []).append((first, last, name))
    failing = []
    for group in spans.values():
        group.sort()
        for (a0, a1, a), (b0, b1, b) in zip(group, group[1:]):
            if b0 < a1:
                failing.append([a, b])
    if failing:
        raise SafetensorError(f"save(): some tensors share memory, this will lead to duplicate "
                              f"memory on disk and potential differences when loading them "
                              f"again: {failing}. Save clones (t.clone()) of all but one of them.")


def _prepare(tensors, metadata):
    if not isinstance(tensors, dict):
        raise SafetensorError(f"save(): expected a dict of name -> tensor, got {type(tensors).__name__}")
    for name, t in tensors.items():
        if type(name) is not str:
            raise SafetensorError(f"save(): tensor names must be str, got {name!r}")
        if not isinstance(t, _C._TensorBase):
            raise SafetensorError(f"save(): {name!r} is a {type(t).__name__}, not a tensor")
        if t.dtype not in _NAME_OF:
            raise SafetensorError(f"save(): {name!r} has dtype {t.dtype}, which safetensors cannot store")
    if metadata is not None:
        if not isinstance(metadata, dict) or not all(
                type(k) is str and type(v) is str for k, v in metadata.items()):
            raise SafetensorError("save(): metadata must be a dict of str -> str")
    if "__metadata__" in tensors:
        raise SafetensorError("save(): '__metadata__' is reserved and cannot name a tensor")
    _check_shared(tensors)
    order = sorted(tensors, key=lambda n: (-_DTYPES[_NAME_OF[tensors[n].dtype]][1], n))
    header, payloads, offset = {}, [], 0
    if metadata:
        header["__metadata__"] = metadata
    for name in order:
        t = tensors[name]
        data = _flat_bytes(t)
        header[name] = {"dtype": _NAME_OF[t.dtype], "shape": list(t._sizes),
                        "data_offsets": [offset, offset + data.nbytes]}
        payloads.append(data)
        offset += data.nbytes
    text = json.dumps(header, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    text += b" " * (-len(text) % 8)
    return struct.pack("<Q", len(text)) + text, payloads


def save(tensors, metadata=None):
    """The safetensors bytes of a dict of tensors."""
    head, payloads = _prepare(tensors, metadata)
    return b"".join([head] + [p.tobytes() for p in payloads])


def save_file(tensors, filename, metadata=None):
    """Writes a dict of tensors to `filename` (atomically: temp file + rename)."""
    head, payloads = _prepare(tensors, metadata)
    with open_sink(filename) as stream:
        stream.write(head)
        for p in payloads:
            stream.write(memoryview(p))


# ---- reading

def _error(message):
    return SafetensorError(f"safetensors load(): {message}")


def _parse_header(source):
    if source.size < 8:
        raise _error(f"file too small ({source.size} bytes) to hold a header size")
    (n,) = struct.unpack("<Q", source.read(0, 8))
    if n > MAX_HEADER_SIZE:
        raise _error(f"header size {n} is larger than the limit {MAX_HEADER_SIZE}")
    if 8 + n > source.size:
        raise _error(f"header size {n} runs past the end of the file ({source.size} bytes)")
    raw = source.read(8, n)
    if not raw.startswith(b"{"):
        raise _error("the header is not a JSON object")
    try:
        header = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise _error(f"invalid JSON header: {e}") from None
    if not isinstance(header, dict):
        raise _error("the header is not a JSON object")
    metadata = header.pop("__metadata__", None)
    if metadata is not None and (not isinstance(metadata, dict) or not all(
            isinstance(v, str) for v in metadata.values())):
        raise _error("__metadata__ must map strings to strings")
    data_size = source.size - 8 - n
    entries = {}
    for name, info in header.items():
        entries[name] = _parse_entry(name, info)
    end = 0
    for name, (dtype, shape, begin, stop) in sorted(entries.items(), key=lambda kv: kv[1][2:]):
        if begin != end:
            raise _error(f"tensor {name!r}: data_offsets [{begin}, {stop}] leave a gap or overlap "
                         f"(expected to start at {end})")
        end = stop
    if end != data_size:
        raise _error(f"the tensors cover {end} bytes but the data section holds {data_size}")
    return entries, metadata, 8 + n


def _parse_entry(name, info):
    if not isinstance(info, dict) or set(info) != {"dtype", "shape", "data_offsets"}:
        raise _error(f"tensor {name!r}: entry must have exactly dtype, shape and data_offsets")
    dtype_name, shape, offsets = info["dtype"], info["shape"], info["data_offsets"]
    if dtype_name in _UNSUPPORTED:
        raise _error(f"tensor {name!r}: dtype {dtype_name} is not supported by tensorzoo")
    if dtype_name not in _DTYPES:
        raise _error(f"tensor {name!r}: unknown dtype {dtype_name!r}")
    if not isinstance(shape, list) or not all(type(s) is int and s >= 0 for s in shape):
        raise _error(f"tensor {name!r}: shape must be a list of non-negative ints, got {shape!r}")
    if (not isinstance(offsets, list) or len(offsets) != 2
            or not all(type(o) is int and o >= 0 for o in offsets) or offsets[0] > offsets[1]):
        raise _error(f"tensor {name!r}: data_offsets must be [begin, end] with 0 <= begin <= end")
    dtype = _DTYPES[dtype_name][0]
    numel = 1
    for s in shape:
        numel *= s
    if numel * dtype.itemsize != offsets[1] - offsets[0]:
        raise _error(f"tensor {name!r}: shape {shape} of {dtype_name} needs {numel * dtype.itemsize} "
                     f"bytes, but data_offsets {offsets} span {offsets[1] - offsets[0]}")
    return dtype, shape, offsets[0], offsets[1]


def _read_tensor(source, data_start, entry):
    from core.serialization._storage import allocate, finish

    dtype, shape, begin, stop = entry
    numel = (stop - begin) // dtype.itemsize
    raw = allocate(dtype, numel)
    source.read_into(data_start + begin, memoryview(raw.view(np.uint8)))
    return finish(dtype, raw).tensor.reshape(shape)


def load(data):
    """A dict of tensors from safetensors bytes."""
    from core.serialization._io import BufferSource

    source = BufferSource(data)
    entries, _, start = _parse_header(source)
    return {name: _read_tensor(source, start, entry) for name, entry in entries.items()}


def load_file(filename, device="cpu"):
    """A dict of tensors from a safetensors file, in the file's header order."""
    with safe_open(filename, framework="pt", device=device) as f:
        return {name: f.get_tensor(name) for name in f.keys()}


class safe_open:  # noqa: N801 - the reference's name
    """Lazy access to a safetensors file: keys(), metadata(), get_tensor(name)."""

    def __init__(self, filename, framework="pt", device="cpu"):
        if str(device).split(":")[0] != "cpu":
            raise SafetensorError(f"safe_open(): only the 'cpu' device is available, got {device!r}")
        if not isinstance(filename, (str, os.PathLike)):
            raise TypeError("safe_open(): filename must be a path")
        self._context = open_source(filename)
        self._source = self._context.__enter__()
        try:
            self._entries, self._metadata, self._start = _parse_header(self._source)
        except BaseException:
            self.close()
            raise

    def keys(self):
        return list(self._entries)

    def metadata(self):
        return self._metadata

    def get_tensor(self, name):
        if name not in self._entries:
            raise SafetensorError(f"safe_open(): no tensor named {name!r} in the file")
        return _read_tensor(self._source, self._start, self._entries[name])

    def close(self):
        if self._context is not None:
            self._context.__exit__(None, None, None)
            self._context = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
