"""Argument helpers of torch.nn.modules.utils: an int (or a sequence) as an n-tuple."""
from itertools import repeat

__all__ = []


def _ntuple(n):
    def parse(x):
        if isinstance(x, (list, tuple)):
            return tuple(x)
        return tuple(repeat(x, n))
    return parse


_single = _ntuple(1)
_pair = _ntuple(2)
_triple = _ntuple(3)
_quadruple = _ntuple(4)
