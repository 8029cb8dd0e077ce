"""torch.nn.functional's dropout functions (core/_dropout.py holds the algorithm)."""
import core

__all__ = ["dropout", "dropout2d", "dropout3d", "alpha_dropout", "feature_alpha_dropout"]


def _check(p):
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def dropout(input, p=0.5, training=True, inplace=False):
    _check(p)
    return core.dropout_(input, p, training) if inplace else core.dropout(input, p, training)


def alpha_dropout(input, p=0.5, training=False, inplace=False):
    _check(p)
    return core.alpha_dropout_(input, p, training) if inplace else core.alpha_dropout(input, p, training)


def dropout2d(input, p=0.5, training=True, inplace=False):
    _check(p)
    return core.feature_dropout_(input, p, training) if inplace else core.feature_dropout(input, p, training)


def dropout3d(input, p=0.5, training=True, inplace=False):
    _check(p)
    return core.feature_dropout_(input, p, training) if inplace else core.feature_dropout(input, p, training)


def feature_alpha_dropout(input, p=0.5, training=False, inplace=False):
    _check(p)
    if inplace:
        return core.feature_alpha_dropout_(input, p, training)
    return core.feature_alpha_dropout(input, p, training)
