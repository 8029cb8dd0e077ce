"""numpy references of the creation family's deterministic factories."""
import numpy as np

from .registry import reference


def _dtype(name, default=np.float32):
    return np.dtype(default) if name is None else np.dtype(name if name != "bool" else np.bool_)


@reference("eye")
def eye(n, m=None, dtype=None):
    return np.eye(n, n if m is None else m, dtype=_dtype(dtype))


def _to_dtype(values, dtype):
    dt = _dtype(dtype)
    # Integer results truncate towards zero, as a C cast does.
    return (np.trunc(values) if dt.kind in "iu" else values).astype(dt)


def _cast_bound(v, dtype):
    # The bounds are first cast to the dtype (integers truncate and wrap, like C casts).
    dt = _dtype(dtype)
    return float(np.array(np.trunc(v)).astype(np.int64).astype(dt)) if dt.kind in "iu" else float(v)


@reference("linspace", atol=1e-5, rtol=1e-5)
def linspace(start, end, steps, dtype=None):
    values = np.linspace(_cast_bound(start, dtype), _cast_bound(end, dtype), steps, dtype=np.float64)
    return _to_dtype(values, dtype)


@reference("logspace", atol=1e-5, rtol=1e-5)
def logspace(start, end, steps, base=10.0, dtype=None):
    values = np.logspace(_cast_bound(start, dtype), _cast_bound(end, dtype), steps, base=base, dtype=np.float64)
    return _to_dtype(np.round(values, 9), dtype)


def _like_dtype(a, dtype):
    return a.dtype if dtype is None else _dtype(dtype)


def _shape_and_dtype_only(ours, expected):
    # empty_like's values are uninitialised: only the shape and dtype are defined.
    assert tuple(ours.shape) == expected.shape
    name = str(ours.dtype).split(".")[-1]
    assert name == (expected.dtype.name if expected.dtype != np.bool_ else "bool")


@reference("empty_like", compare=_shape_and_dtype_only)
def empty_like(a, dtype=None):
    return np.empty(a.shape, dtype=_like_dtype(a, dtype))


@reference("zeros_like")
def zeros_like(a, dtype=None):
    return np.zeros(a.shape, dtype=_like_dtype(a, dtype))


@reference("ones_like")
def ones_like(a, dtype=None):
    return np.ones(a.shape, dtype=_like_dtype(a, dtype))


@reference("full_like")
def full_like(a, value, dtype=None):
    dt = _like_dtype(a, dtype)
    return np.full(a.shape, value, dtype=np.float64).astype(dt) if dt.kind != "b" else np.full(a.shape, bool(value))
