"""References for the foundation ops (creation, views, conversion); arithmetic is in refs_elementwise.py."""
import numpy as np

from .registry import reference


@reference("clone")
def clone(a):
    return a.copy()


@reference("contiguous", method=True)
def contiguous(a):
    return a


def _as_dtype(name):
    return None if name is None else np.dtype(name)


@reference("zeros")
def zeros(size, dtype=None):
    return np.zeros(size, dtype=_as_dtype(dtype) or np.float32)


@reference("ones")
def ones(size, dtype=None):
    return np.ones(size, dtype=_as_dtype(dtype) or np.float32)


@reference("full")
def full(size, value, dtype=None):
    natural = np.bool_ if isinstance(value, bool) else np.int64 if isinstance(value, int) else np.float32
    return np.full(size, value, dtype=_as_dtype(dtype) or natural)


@reference("arange")
def arange(*args):
    integral = all(isinstance(a, int) for a in args)
    return np.arange(*args, dtype=np.int64 if integral else np.float32)


@reference("arange.start")
def arange_start(*args):
    return arange(*args)


@reference("fill_", method=True)
def fill_(a, value):
    return np.full_like(a, value)


@reference("zero_", method=True)
def zero_(a):
    return np.zeros_like(a)


@reference("view", method=True, contiguous_only=True)
def view(a, shape):
    return a.reshape(shape)


@reference("reshape")
def reshape(a, shape):
    return a.reshape(shape)


@reference("permute")
def permute(a, dims):
    return np.transpose(a, dims)


@reference("transpose")
def transpose(a, d0, d1):
    return np.swapaxes(a, d0, d1) if a.ndim else a


@reference("expand", method=True)
def expand(a, shape):
    shape = tuple(a.shape[i - (len(shape) - a.ndim)] if s == -1 else s for i, s in enumerate(shape))
    return np.broadcast_to(a, shape)
