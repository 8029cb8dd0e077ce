"""core.Tensor <-> numpy for the vision package.

Pixel kernels that core does not have yet (grid sampling, resampling, reductions, colour
space maths) run in numpy on a view of the tensor's memory and come back as new tensors.
"""
import numpy as np

import core

_CORE_TO_NUMPY = {
    core.uint8: np.uint8, core.int8: np.int8, core.int16: np.int16, core.int32: np.int32,
    core.int64: np.int64, core.float16: np.float16, core.float32: np.float32,
    core.float64: np.float64, core.bool: np.bool_,
}


def is_tensor(x):
    return isinstance(x, core.Tensor)


def numpy_dtype(dtype):
    """The numpy dtype standing for a core dtype."""
    try:
        return np.dtype(_CORE_TO_NUMPY[dtype])
    except KeyError:
        raise TypeError(f"dtype {dtype} has no numpy equivalent here") from None


def to_numpy(t):
    """A numpy view of a tensor's data (shares memory; strides preserved)."""
    if t.requires_grad:
        t = t.detach()
    return t.numpy()


def from_numpy(a):
    """A tensor adopting a numpy array (copied first when it is read-only or not C-contiguous);
    uint16 becomes int32 and uint32 int64 (core has no unsigned types beyond uint8)."""
    a = np.asarray(a)
    if a.dtype == np.uint16 or a.dtype == np.uint32:
        a = a.astype(np.int32 if a.dtype == np.uint16 else np.int64)
    if not a.flags["C_CONTIGUOUS"] or not a.flags["WRITEABLE"]:
        a = np.array(a, order="C")  # tensors need their own writable memory
    return core.from_numpy(a)
