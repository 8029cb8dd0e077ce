"""Builders of core.Tensor's Python operators (used by the operator section of _tensor.py).

Each operator calls its op callable directly: no attribute or method lookup per call.
"""
import numbers

from core._native import _C

_functions = _C._functions
_methods = _C._methods


def _is_operand(value):
    return isinstance(value, (_C._TensorBase, numbers.Number))


def forward(name):
    """self OP other, through the function op `name`."""
    op = _functions[name]

    def operator(self, other, *modulo):
        if modulo and modulo[0] is not None:  # three-argument pow()
            return NotImplemented
        try:
            return op(self, other)
        except TypeError:
            if _is_operand(other):
                raise
            return NotImplemented

    operator.__name__ = name
    return operator


def reflected(name):
    """other OP self, for Python's reflected operators (2 - t)."""
    op = _functions[name]

    def operator(self, other, *modulo):
        if modulo and modulo[0] is not None:
            return NotImplemented
        try:
            return op(other, self)
        except TypeError:
            if _is_operand(other):
                raise
            return NotImplemented

    operator.__name__ = name
    return operator


def inplace(name):
    """self OP= other, through the in-place method op `name` (add_, ...)."""
    op = _methods[name]

    def operator(self, other):
        try:
            return op(self, other)
        except TypeError:
            if _is_operand(other):
                raise
            return NotImplemented

    operator.__name__ = name
    return operator
