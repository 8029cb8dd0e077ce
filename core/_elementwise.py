"""Builders of core.Tensor's Python operators (used by the operator section of _tensor.py).

Each operator calls its op callable directly: no attribute or method lookup per call.
"""
import numbers

from core._native import _C


def _operator(op, name, reflected=False):
    call = (lambda self, other: op(other, self)) if reflected else op

    def operator(self, other, *modulo):
        if modulo and modulo[0] is not None:  # three-argument pow()
            return NotImplemented
        try:
            return call(self, other)
        except TypeError:
            # Neither a tensor nor a number: let Python try the other operand (t == None is False).
            if isinstance(other, (_C._TensorBase, numbers.Number)):
                raise
            return NotImplemented

    operator.__name__ = name
    return operator


def forward(name):
    """self OP other, through the function op `name`."""
    return _operator(_C._functions[name], name)


def reflected(name):
    """other OP self, for Python's reflected operators (2 - t)."""
    return _operator(_C._functions[name], name, reflected=True)


def inplace(name):
    """self OP= other, through the in-place method op `name` (add_, ...)."""
    return _operator(_C._methods[name], name)
