"""Gradient clipping: clip_grad_norm_ and clip_grad_value_."""
import math
import warnings

from core._creation import tensor
from core._native import _C

__all__ = ["clip_grad_norm_", "clip_grad_norm", "clip_grad_value_"]

_f = _C._functions


def _with_grads(parameters):
    if isinstance(parameters, _C._TensorBase):
        parameters = [parameters]
    return [p for p in parameters if p.grad is not None]


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False):
    """Scales the gradients in place so that their total norm (all grads seen as one vector)
    is at most max_norm; returns the total norm before clipping."""
    parameters = _with_grads(parameters)
    max_norm = float(max_norm)
    norm_type = float(norm_type)
    if not parameters:
        return tensor(0.0)
    grads = [p.grad.detach() for p in parameters]
    if norm_type == math.inf:
        norms = [g.abs().max() for g in grads]
        total_norm = norms[0] if len(norms) == 1 else _f["stack"](norms).max()
    else:
        total_norm = _f["stack"]([g.norm(norm_type) for g in grads]).norm(norm_type)
    if error_if_nonfinite and not math.isfinite(total_norm.item()):
        raise RuntimeError(f"The total norm of order {norm_type} for gradients from `parameters` is "
                           "non-finite, so it cannot be clipped. To disable this error and scale the "
                           "gradients by the non-finite norm anyway, set `error_if_nonfinite=False`")
    clip_coef = max_norm / (total_norm + 1e-6)
    if clip_coef.item() < 1:
        for g in grads:
            g.mul_(clip_coef.to(g.dtype))
    return total_norm


def clip_grad_norm(parameters, max_norm, norm_type=2.0):
    warnings.warn("torch.nn.utils.clip_grad_norm is now deprecated in favor of "
                  "torch.nn.utils.clip_grad_norm_.", stacklevel=2)
    return clip_grad_norm_(parameters, max_norm, norm_type)


def clip_grad_value_(parameters, clip_value):
    """Clamps every gradient in place to [-clip_value, clip_value]."""
    clip_value = float(clip_value)
    for p in _with_grads(parameters):
        p.grad.detach().clamp_(min=-clip_value, max=clip_value)
