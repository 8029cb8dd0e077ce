"""Python faces of the joining ops that take their tensors as varargs (`*tensors`).

The C++ op table entries take one `Tensor[]`; these wrappers accept PyTorch's calling
forms (`meshgrid(a, b)`, `meshgrid([a, b])`) and pack them into that list.
"""
from core._native import _C

_ops = _C._functions


def _tensor_list(tensors):
    # f(a, b) and f([a, b]) (or a tuple) mean the same thing.
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        return list(tensors[0])
    return list(tensors)


def meshgrid(*tensors, indexing="ij"):
    """Coordinate grids (views) from 0-d/1-d tensors; indexing 'ij' (matrix) or 'xy' (Cartesian)."""
    return _ops["meshgrid"](_tensor_list(tensors), indexing=indexing)


def cartesian_prod(*tensors):
    """The Cartesian product of 1-d tensors, one row per combination."""
    return _ops["cartesian_prod"](_tensor_list(tensors))


def broadcast_tensors(*tensors):
    """The tensors expanded (as views) to their common broadcast shape."""
    return _ops["broadcast_tensors"](_tensor_list(tensors))


def _atleast(name, tensors):
    op = _ops[name]
    if len(tensors) == 1 and not isinstance(tensors[0], (list, tuple)):
        return op(tensors[0])
    return op(_tensor_list(tensors))


def atleast_1d(*tensors):
    """Each tensor viewed with at least 1 dim: one tensor in, one out; several: a tuple."""
    return _atleast("atleast_1d", tensors)


def atleast_2d(*tensors):
    """Each tensor viewed with at least 2 dims (a vector becomes a row)."""
    return _atleast("atleast_2d", tensors)


def atleast_3d(*tensors):
    """Each tensor viewed with at least 3 dims ((n,) -> (1, n, 1), (m, n) -> (m, n, 1))."""
    return _atleast("atleast_3d", tensors)
