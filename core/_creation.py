"""Tensors from Python data: core.tensor, core.as_tensor, core.from_numpy, core.from_dlpack."""
import warnings

import numpy as np

from core._native import _C

_NUMPY_OF = {
    _C.bool: np.bool_, _C.uint8: np.uint8, _C.int8: np.int8, _C.int16: np.int16,
    _C.int32: np.int32, _C.int64: np.int64, _C.float16: np.float16, _C.float32: np.float32,
    _C.float64: np.float64, _C.complex64: np.complex64, _C.complex128: np.complex128,
}


def from_numpy(array):
    """A tensor sharing memory with `array` (no copy): writes show through both ways."""
    if isinstance(array, np.ndarray) and not array.flags.writeable:
        warnings.warn("The given NumPy array is not writable, and tensors do not support "
                      "non-writable memory: writing to the tensor is undefined behavior. Copy the "
                      "array (array.copy()) or make it writable first.", UserWarning, stacklevel=2)
    return _C.from_numpy(array)


def from_dlpack(ext_tensor):
    """A tensor sharing memory with a DLPack producer: an object with __dlpack__ (a numpy
    array, a tensor) or a "dltensor" / "dltensor_versioned" capsule, which is consumed
    (renamed "used_dltensor..."); the producer's deleter runs when the tensor's memory dies."""
    if hasattr(ext_tensor, "__dlpack__"):
        device = tuple(ext_tensor.__dlpack_device__())
        if device[0] not in (1, 3):  # kDLCPU, kDLCUDAHost
            raise RuntimeError(f"from_dlpack(): only CPU tensors can be imported (device {device})")
        try:
            ext_tensor = ext_tensor.__dlpack__(max_version=(1, 0))
        except TypeError:  # a producer from before DLPack 1.0
            ext_tensor = ext_tensor.__dlpack__()
    return _C._from_dlpack(ext_tensor)


def _rebuild_tensor(cls, dtype, shape, data, requires_grad=False, names=None):
    """Unpickles Tensor.__reduce_ex__'s (dtype, shape, C-ordered bytes)."""
    stored = dtype if dtype in _NUMPY_OF else _C.float32  # bfloat16 travels as float32
    array = np.frombuffer(data, dtype=_NUMPY_OF[stored]).reshape(shape).copy()
    t = _C.from_numpy(array)
    if stored != dtype:
        t = t.to(dtype)
    if cls is not None and type(t) is not cls:
        t = _C._make_subclass(cls, t)
    if names is not None:
        _C._set_names(t, list(names))
    if requires_grad:
        t.requires_grad_(True)
    return t


def _infer_dtype(array):
    # Python data follows PyTorch: ints -> int64, floats -> the default dtype.
    kind = array.dtype.kind
    if kind == "b":
        return _C.bool
    if kind in "iu":
        return _C.int64
    if kind == "f":
        return _C.get_default_dtype()
    if kind == "c":  # the complex type that pairs with the default float
        return _C.complex128 if _C.get_default_dtype() == _C.float64 else _C.complex64
    raise TypeError(f"tensor(): could not infer dtype of {array.dtype} data")


def _to_array(data, name):
    if isinstance(data, _C._TensorBase):
        return (data if data.dtype in _NUMPY_OF else data.to(_C.float32)).numpy()
    try:
        array = np.asarray(data)
    except ValueError as e:
        raise ValueError(f"{name}(): {e}") from None
    if array.dtype == object or array.dtype.kind in "USV":
        raise TypeError(f"{name}(): could not convert {type(data).__name__} data to a tensor "
                        "(ragged nested sequences or unsupported element types)")
    return array


def tensor(data, dtype=None, device=None, requires_grad=False, pin_memory=False, names=None):
    """A new tensor holding a copy of `data` (nested lists, numbers, numpy arrays, tensors)."""
    from core._device import checked, check_pin_memory

    checked(device, "tensor")
    check_pin_memory(pin_memory)
    out = _new_tensor(data, dtype)
    if names is not None:
        _C._set_names(out, list(names))
    return out.requires_grad_() if requires_grad else out


def _new_tensor(data, dtype):
    array = _to_array(data, "tensor")
    if dtype is None:
        if isinstance(data, _C._TensorBase):
            dtype = data.dtype
        elif isinstance(data, np.ndarray):
            dtype = _from_numpy_dtype(array.dtype)
        else:
            dtype = _infer_dtype(array)
    target = _NUMPY_OF.get(dtype)
    if target is None:  # bfloat16 and quantized types go through float32
        return _C.from_numpy(np.asarray(array, dtype=np.float32, order="C")).to(dtype)
    # Copied into the allocator's memory: its big blocks lie on huge pages, which stream faster
    # than numpy's 4 KiB ones (a 1M-element mul of such inputs: 5-8% faster).
    return _C.from_numpy(np.asarray(array, dtype=target, order="C")).clone()


def _from_numpy_dtype(np_dtype):
    for ours, theirs in _NUMPY_OF.items():
        if np.dtype(theirs) == np_dtype:
            return ours
    raise TypeError(f"tensor(): can't convert np.ndarray of type {np_dtype}")


def as_tensor(data, dtype=None, device=None):
    """Like tensor(), but shares memory with tensors and numpy arrays when it can."""
    from core._device import checked

    checked(device, "as_tensor")
    if isinstance(data, _C._TensorBase):
        return data if dtype is None or data.dtype == dtype else data.to(dtype)
    if isinstance(data, np.ndarray) and (dtype is None or _NUMPY_OF.get(dtype) == data.dtype.type):
        try:
            return _C.from_numpy(data)
        except (TypeError, ValueError):
            pass
    return tensor(data, dtype=dtype)

