"""Folding an eval-mode batch norm into the preceding convolution."""
import copy

from core._native import _C
from core.nn.parameter import Parameter

__all__ = ["fuse_conv_bn_eval", "fuse_conv_bn_weights"]

_f = _C._functions


def fuse_conv_bn_eval(conv, bn):
    """A copy of `conv` whose weight and bias include the eval-mode `bn` after it."""
    assert not (conv.training or bn.training), "Fusion only for eval!"
    fused_conv = copy.deepcopy(conv)
    fused_conv.weight, fused_conv.bias = fuse_conv_bn_weights(
        fused_conv.weight, fused_conv.bias, bn.running_mean, bn.running_var, bn.eps, bn.weight, bn.bias)
    return fused_conv


def fuse_conv_bn_weights(conv_w, conv_b, bn_rm, bn_rv, bn_eps, bn_w, bn_b):
    """(weight, bias) Parameters of conv followed by batch norm; the output-channel dim is 0
    for any number of weight dims."""
    if conv_b is None:
        conv_b = _f["zeros_like"](bn_rm)
    if bn_w is None:
        bn_w = _f["ones_like"](bn_rm)
    if bn_b is None:
        bn_b = _f["zeros_like"](bn_rm)
    bn_var_rsqrt = _f["rsqrt"](bn_rv + bn_eps)
    conv_w = conv_w * (bn_w * bn_var_rsqrt).reshape([-1] + [1] * (conv_w.ndim - 1))
    conv_b = (conv_b - bn_rm) * bn_var_rsqrt * bn_w + bn_b
    return Parameter(conv_w), Parameter(conv_b)
