"""torch-level functions of the nn activation/normalization/dropout/distance family that are
compositions of op-table entries (torch.batch_norm, torch.instance_norm, torch.dropout...)."""
import math

from core._native import _C

__all__ = [
    "batch_norm", "layer_norm", "group_norm", "instance_norm",
    "dropout", "dropout_", "feature_dropout", "feature_dropout_",
    "alpha_dropout", "alpha_dropout_", "feature_alpha_dropout", "feature_alpha_dropout_",
    "pairwise_distance", "cosine_similarity",
]

_ops = _C._functions


def batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, cudnn_enabled=True):
    return _ops["native_batch_norm"](input, weight, bias, running_mean, running_var, training, momentum, eps)[0]


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5, cudnn_enable=True):
    if isinstance(normalized_shape, int):
        normalized_shape = (normalized_shape,)
    return _ops["native_layer_norm"](input, list(normalized_shape), weight, bias, eps)[0]


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5, cudnn_enabled=True):
    if input.dim() < 2:
        raise RuntimeError(f"group_norm(): Expected at least 2 dimensions for input tensor but received {input.dim()}")
    n, c = input.shape[0], input.shape[1]
    hxw = 1
    for s in input.shape[2:]:
        hxw *= s
    return _ops["native_group_norm"](input, weight, bias, n, c, hxw, num_groups, eps)[0]


def instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps,
                  cudnn_enabled=True):
    # Batch norm over the input viewed as (1, N * C, *): PyTorch's own formulation.
    if not use_input_stats and (running_mean is None or running_var is None):
        raise RuntimeError("instance_norm(): Expected running_mean and running_var to be defined when "
                           "use_input_stats is false")
    if input.dim() < 2:
        raise RuntimeError(f"instance_norm(): Expected at least 2 dimensions for input tensor but received {input.dim()}")
    shape = tuple(input.shape)
    b, c = shape[0], shape[1]
    x = input.contiguous().view(1, b * c, *shape[2:])

    def repeat(t):
        return None if t is None else t.repeat(b)

    rm, rv = repeat(running_mean), repeat(running_var)
    out = batch_norm(x, repeat(weight), repeat(bias), rm, rv, use_input_stats, momentum, eps)
    if use_input_stats:
        from core.autograd.grad_mode import no_grad
        with no_grad():
            if running_mean is not None:
                running_mean.copy_(rm.view(b, c).mean(0))
            if running_var is not None:
                running_var.copy_(rv.view(b, c).mean(0))
    return out.view(shape)


# ---- dropout (PyTorch's CPU algorithm: a bernoulli_(1 - p) mask of the input's shape, or of
# (N, C, 1, ...) for feature dropout, drawn from the default generator, scaled by 1 / (1 - p)).
_ALPHA = 1.7580993408473766  # -selu's negative saturation value (scale * alpha)


def _dropout_impl(input, p, train, feature, alpha, inplace):
    if p < 0 or p > 1:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if p == 0 or not train or input.numel() == 0:
        return input
    if p == 1:
        zero = _ops["zeros"]([], dtype=input.dtype)
        return input.mul_(zero) if inplace else input * zero
    if feature:
        if input.dim() < 2:
            raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
        noise = _ops["empty"]([input.shape[0], input.shape[1]] + [1] * (input.dim() - 2), dtype=input.dtype)
    else:
        noise = _ops["empty"](list(input.shape), dtype=input.dtype)
    noise.bernoulli_(1 - p)
    if alpha:
        a = 1.0 / math.sqrt((_ALPHA * _ALPHA * p + 1) * (1 - p))
        b = (noise - 1) * (_ALPHA * a) + _ALPHA * a * p
        noise = noise * a
        return input.mul_(noise).add_(b) if inplace else input * noise + b
    noise = noise / (1 - p)
    return input.mul_(noise) if inplace else input * noise


def dropout(input, p, train):
    return _dropout_impl(input, p, train, False, False, False)


def dropout_(input, p, train):
    return _dropout_impl(input, p, train, False, False, True)


def feature_dropout(input, p, train):
    return _dropout_impl(input, p, train, True, False, False)


def feature_dropout_(input, p, train):
    return _dropout_impl(input, p, train, True, False, True)


def alpha_dropout(input, p, train):
    return _dropout_impl(input, p, train, False, True, False)


def alpha_dropout_(input, p, train):
    return _dropout_impl(input, p, train, False, True, True)


def feature_alpha_dropout(input, p, train):
    return _dropout_impl(input, p, train, True, True, False)


def feature_alpha_dropout_(input, p, train):
    return _dropout_impl(input, p, train, True, True, True)


# ---- distances (PyTorch 1.8's formulas: eps is added to the difference, and cosine
# similarity clamps the product of squared norms at eps^2).
def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    dim = max(x1.dim(), x2.dim()) - 1
    if dim < 0:
        dim = 0
    return _ops["norm"](x1 - x2 + eps, p, [dim] if max(x1.dim(), x2.dim()) else None, keepdim)


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    w12 = (x1 * x2).sum(dim)
    w1 = (x1 * x1).sum(dim)
    w2 = (x2 * x2).sum(dim)
    n12 = (w1 * w2).clamp_min(eps * eps).sqrt()
    return w12 / n12
