"""torch.dropout and its variants with PyTorch's CPU algorithm: a bernoulli_(1 - p) mask drawn
from the default generator, of the input's shape (or (N, C, 1, ...) for feature dropout),
applied with its scale (and alpha dropout's shift) in one pass by the _dropout_apply op."""
import math

from core._native import _C

__all__ = [
    "dropout", "dropout_", "feature_dropout", "feature_dropout_",
    "alpha_dropout", "alpha_dropout_", "feature_alpha_dropout", "feature_alpha_dropout_",
]

_ops = _C._functions
_apply, _apply_ = _C._internal["_dropout_apply"], _C._internal["_dropout_apply_"]
_ALPHA = 1.7580993408473766  # -selu's negative saturation value (scale * alpha)


def _dropout(input, p, train, feature, alpha, inplace):
    if p < 0 or p > 1:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if p == 0 or not train or input.numel() == 0:
        return input
    if p == 1:
        zero = _ops["zeros"]([], dtype=input.dtype)
        return input.mul_(zero) if inplace else input * zero
    shape = list(input.shape)
    if feature:
        if input.dim() < 2:
            raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
        shape = shape[:2] + [1] * (input.dim() - 2)
    mask = _ops["empty"](shape, dtype=_C.bool).bernoulli_(1 - p)
    if alpha:
        a = 1.0 / math.sqrt((_ALPHA * _ALPHA * p + 1) * (1 - p))
        args = (a, _ALPHA * a * p, _ALPHA * a * (p - 1))  # kept: a * x + ALPHA * a * p
    else:
        args = (1 / (1 - p),)
    return _apply_(input, mask, *args) if inplace else _apply(input, mask, *args)


def dropout(input, p, train):
    return _dropout(input, p, train, False, False, False)


def dropout_(input, p, train):
    return _dropout(input, p, train, False, False, True)


def feature_dropout(input, p, train):
    return _dropout(input, p, train, True, False, False)


def feature_dropout_(input, p, train):
    return _dropout(input, p, train, True, False, True)


def alpha_dropout(input, p, train):
    return _dropout(input, p, train, False, True, False)


def alpha_dropout_(input, p, train):
    return _dropout(input, p, train, False, True, True)


def feature_alpha_dropout(input, p, train):
    return _dropout(input, p, train, True, True, False)


def feature_alpha_dropout_(input, p, train):
    return _dropout(input, p, train, True, True, True)


from core._argcheck import check_module as _check_module  # noqa: E402

_check_module(globals(), __all__)
