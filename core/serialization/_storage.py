"""Storages: torch's storage type names <-> our dtypes, and the flat buffers tensors view.

A checkpoint stores each storage once as raw little-endian bytes; tensors are (storage,
offset, size, stride) views of it. On load a `Storage` owns a numpy buffer holding those
bytes and a 1-d core tensor over the same memory; every rebuilt tensor is an `as_strided`
view of that tensor, so tensors that shared a storage when saved share it again.
"""
import numpy as np

from core._native import _C
from core.serialization._errors import corrupt, refuse

# torch storage class name -> our dtype (None: a torch type with no counterpart here).
STORAGE_DTYPES = {
    "FloatStorage": _C.float32, "DoubleStorage": _C.float64, "HalfStorage": _C.float16,
    "BFloat16Storage": _C.bfloat16, "LongStorage": _C.int64, "IntStorage": _C.int32,
    "ShortStorage": _C.int16, "CharStorage": _C.int8, "ByteStorage": _C.uint8,
    "BoolStorage": _C.bool, "ComplexFloatStorage": _C.complex64, "ComplexDoubleStorage": _C.complex128,
    "QUInt8Storage": _C.quint8, "QInt8Storage": _C.qint8, "QInt32Storage": _C.qint32,
    "UntypedStorage": _C.uint8,
    "QUInt4x2Storage": None, "QUInt2x4Storage": None,
}
STORAGE_NAME_OF = {dtype: name for name, dtype in STORAGE_DTYPES.items()
                   if dtype is not None and name != "UntypedStorage"}

# How the bytes of each dtype sit in numpy (bfloat16 and quantized types as raw integers).
_RAW_NUMPY = {
    _C.bool: np.bool_, _C.uint8: np.uint8, _C.int8: np.int8, _C.int16: np.int16,
    _C.int32: np.int32, _C.int64: np.int64, _C.float16: np.float16, _C.float32: np.float32,
    _C.float64: np.float64, _C.complex64: np.complex64, _C.complex128: np.complex128, _C.bfloat16: np.uint16,
    _C.quint8: np.uint8, _C.qint8: np.int8, _C.qint32: np.int32,
}
# numpy's byteswap swaps the two halves of a complex number separately, as it should.


class StorageType:
    """What a `torch.FloatStorage`-like global stands for inside a checkpoint."""

    def __init__(self, name):
        self.name = name
        self.dtype = STORAGE_DTYPES[name]

    def __repr__(self):
        return f"torch.{self.name}"


class Storage:
    """A loaded storage: `numel` elements of `dtype` in a numpy buffer, and `tensor`, a 1-d
    core tensor over them (a view starting at `offset` for legacy storage views)."""

    def __init__(self, dtype, raw, tensor, offset=0, numel=None):
        self.dtype = dtype
        self.raw = raw          # numpy array of the stored bytes (see _RAW_NUMPY)
        self.tensor = tensor    # the core tensor whose storage every view shares
        self.offset = offset
        self.numel = raw.size if numel is None else numel

    def size(self):
        return self.numel

    __len__ = size

    def nbytes(self):
        return self.numel * self.dtype.itemsize

    def cpu(self):
        return self

    def __repr__(self):
        return f"Storage(dtype={self.dtype}, numel={self.numel})"

    def view(self, offset, numel):
        """A legacy storage view: elements [offset, offset + numel) of this storage."""
        if not (_is_int(offset) and _is_int(numel) and offset >= 0 and numel >= 0
                and offset + numel <= self.numel):
            raise corrupt(f"storage view [{offset!r}, +{numel!r}) is outside its storage "
                          f"of {self.numel} elements")
        return Storage(self.dtype, self.raw, self.tensor, self.offset + offset, numel)


def _is_int(value):
    return type(value) is int


def numpy_dtype(dtype):
    if dtype not in _RAW_NUMPY:
        raise corrupt(f"storages of dtype {dtype} are not supported")
    return np.dtype(_RAW_NUMPY[dtype])


def allocate(dtype, numel):
    """A writable numpy buffer for `numel` elements of `dtype` (filled later)."""
    return np.empty(numel, dtype=numpy_dtype(dtype))


def finish(dtype, raw, byteswap=False):
    """The Storage over `raw` once its bytes are in place (swapped from big-endian if asked)."""
    if byteswap:
        raw.byteswap(inplace=True)
    if dtype == _C.bfloat16:
        # bfloat16 is the top half of a float32: widen exactly, then narrow (values and
        # NaN-ness survive; a signalling NaN comes back quiet).
        wide = (raw.astype(np.uint32) << 16).view(np.float32)
        tensor = _C.from_numpy(wide).to(_C.bfloat16)
    elif dtype.is_quantized:
        tensor = _C.from_numpy(raw)  # the integer representation; see _rebuild_qtensor
    else:
        tensor = _C.from_numpy(raw)
    return Storage(dtype, raw, tensor)


def refill_bfloat16(storage):
    """Legacy files fill buffers after tensors were built: copy bfloat16 values in place."""
    wide = (storage.raw.astype(np.uint32) << 16).view(np.float32)
    storage.tensor.copy_(_C.from_numpy(wide))


# ---- the save side

def storage_bytes(tensor):
    """The bytes of the whole storage under `tensor` (little-endian) as a flat uint8 array,
    and its element count."""
    dtype = tensor.dtype
    numel = tensor._storage_nbytes() // dtype.itemsize
    base = tensor.detach() if getattr(tensor, "requires_grad", False) else tensor
    if _C._has_names(base):  # the storage has no dims to name
        base = base.rename(None)
    if dtype.is_quantized:  # the stored integers, viewed without the quantizer
        base = _C._internal["_int_view"](base)
    flat = base.as_strided((numel,), (1,), 0)
    if dtype == _C.bfloat16:
        wide = _C._to_numpy(flat.to(_C.float32))
        array = (wide.view(np.uint32) >> 16).astype(np.uint16)
    else:
        array = _C._to_numpy(flat)
    if array.dtype.byteorder == ">":  # never on the little-endian hosts we build for
        array = array.astype(array.dtype.newbyteorder("<"))
    return np.ascontiguousarray(array).reshape(-1).view(np.uint8), numel


def _ascii(value):
    return value.decode("ascii") if isinstance(value, bytes) else value


def check_storage_pid(pid, length):
    """(dtype, key, location, numel) of a ('storage', type, key, location, numel[, ...]) id."""
    if type(pid) is not tuple or len(pid) != length:
        raise refuse(f"malformed storage persistent id {pid!r}")
    storage_type, key, location, numel = pid[1], _ascii(pid[2]), _ascii(pid[3]), pid[4]
    if not isinstance(storage_type, StorageType):
        raise refuse(f"storage type must be a torch storage class, got {storage_type!r}")
    if storage_type.dtype is None:
        raise corrupt(f"storages of type torch.{storage_type.name} are not supported by tensorzoo")
    if type(key) is not str or type(location) is not str:
        raise refuse("storage key and location must be strings")
    if type(numel) is not int or numel < 0:
        raise corrupt(f"storage {key!r}: invalid element count {numel!r}")
    return storage_type.dtype, key, location, numel
