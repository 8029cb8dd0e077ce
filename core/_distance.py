"""torch.pairwise_distance and torch.cosine_similarity (PyTorch 1.8's formulas: eps is added to
the difference, and cosine similarity clamps the product of squared norms at eps^2)."""
from core._native import _C

__all__ = ["pairwise_distance", "cosine_similarity"]

_ops = _C._functions


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    dim = max(x1.dim(), x2.dim()) - 1
    if dim < 0:
        dim = 0
    return _ops["norm"](x1 - x2 + eps, p, [dim] if max(x1.dim(), x2.dim()) else None, keepdim)


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    # The norms run over the broadcast pair: an operand broadcast along `dim` counts each time.
    x1, x2 = _ops["broadcast_tensors"]((x1, x2))
    w12 = (x1 * x2).sum(dim)
    w1 = (x1 * x1).sum(dim)
    w2 = (x2 * x2).sum(dim)
    n12 = (w1 * w2).clamp_min(eps * eps).sqrt()
    return w12 / n12


from core._argcheck import check_module as _check_module  # noqa: E402

_check_module(globals(), __all__)
