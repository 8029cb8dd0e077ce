"""References of the conversion family: dtype casts, copy_, item, type predicates."""
import numpy as np

from .registry import reference


def _bfloat16(a):
    """Values rounded to bfloat16 (nearest, ties to even), held in float32."""
    f = np.asarray(np.real(a) if np.iscomplexobj(a) else a).astype(np.float32)
    bits = f.view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return rounded.astype(np.uint32).view(np.float32)


def _cast(a, dtype):
    a = np.asarray(a)
    if np.iscomplexobj(a) and np.dtype(dtype).kind != "c":
        a = a.real if np.dtype(dtype) != np.bool_ else a  # complex -> bool: either part nonzero
    return a.astype(dtype)


@reference("to.dtype", method=True)
def to_dtype(a, dtype=None, non_blocking=False, copy=False):
    return _bfloat16(a) if dtype == "bfloat16" else _cast(a, dtype)


@reference("to.other", method=True)
def to_other(a, other, non_blocking=False, copy=False):
    return _cast(a, other.dtype)


@reference("type_as", method=True)
def type_as(a, other):
    return _cast(a, other.dtype)


@reference("copy_", method=True)
def copy_(dst, src, non_blocking=False):
    return _cast(np.broadcast_to(src, dst.shape), dst.dtype)


def _cast_ref(name, dtype):
    reference(name, method=True)(lambda a: _cast(a, dtype))


for _name, _dtype in [("float", np.float32), ("double", np.float64), ("half", np.float16),
                      ("int", np.int32), ("long", np.int64), ("short", np.int16), ("char", np.int8),
                      ("byte", np.uint8), ("bool", np.bool_), ("cfloat", np.complex64)]:
    _cast_ref(_name, _dtype)


@reference("bfloat16", method=True)
def bfloat16(a):
    return _bfloat16(a)


@reference("cpu", method=True)
def cpu(a):
    return a


def _same_python_value(ours, expected):
    assert type(ours) is type(expected), f"{type(ours)} != {type(expected)}"
    assert ours == expected, f"{ours} != {expected}"


@reference("item", method=True, compare=_same_python_value)
def item(a):
    return a.item()


@reference("is_floating_point", compare=_same_python_value)
def is_floating_point(a):
    return a.dtype.kind == "f"


@reference("is_complex", compare=_same_python_value)
def is_complex(a):
    return a.dtype.kind == "c"


@reference("numel", compare=_same_python_value)
def numel(a):
    return int(a.size)
