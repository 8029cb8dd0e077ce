"""Inference fast path of Sequential: a Conv2d followed by an eval-mode BatchNorm2d runs as one
convolution with the normalisation folded into its weight and bias (y = conv(x, w*s) + (b-mean)*s
+ beta, s = gamma / sqrt(var + eps)), saving a full pass over the activation.

Only used when nothing could observe the difference: no autograd recording, BatchNorm in eval
with running statistics, and no hooks on either module. The folded tensors are cached on the
BatchNorm and rebuilt whenever any source tensor changes (version counter or storage).
Other modules fuse with the ones after them through `_fuse_following` (a quantized Conv2d and
its Hardswish: nn/quantized/modules.py), under the same conditions.
"""
import core
from core.nn.modules import module as _module
from core.nn.modules.batchnorm import BatchNorm2d
from core.nn.modules.conv import Conv2d
from core.nn.modules.linear import Identity


def _foldable(conv, bn):
    return (type(conv) is Conv2d and type(bn) is BatchNorm2d and not bn.training
            and bn.running_mean is not None and bn.running_var is not None
            and bn.num_features == conv.out_channels and not conv._has_hooks() and not bn._has_hooks())


def _signature(conv, bn):
    tensors = (conv.weight, conv.bias, bn.weight, bn.bias, bn.running_mean, bn.running_var)
    return (bn.eps,) + tuple(None if t is None else (t.data_ptr(), t._version, t.dtype) for t in tensors)


def _folded(conv, bn):
    signature = _signature(conv, bn)
    cached = bn.__dict__.get("_folded_conv")
    if cached is not None and cached[0] == signature:
        return cached[1], cached[2]
    scale = bn.running_var.add(bn.eps).rsqrt()
    if bn.weight is not None:
        scale = scale * bn.weight
    weight = conv.weight * scale.reshape(-1, 1, 1, 1)
    bias = -bn.running_mean if conv.bias is None else conv.bias - bn.running_mean
    bias = bias * scale
    if bn.bias is not None:
        bias = bias + bn.bias
    bn.__dict__["_folded_conv"] = (signature, weight, bias)
    return weight, bias


def run_folded(modules, input):
    """Sequential.forward over `modules` (a list), folding each foldable Conv2d-BatchNorm2d pair,
    letting a module whose class has `_fuse_following(modules, i, input)` run itself and the
    modules after it as one op (it returns None where it cannot), and passing over Identity
    modules without hooks (fuse_modules leaves one per BatchNorm and activation it folds)."""
    i, n = 0, len(modules)
    while i < n:
        module = modules[i]
        if type(module) is Identity and not module._has_hooks():
            i += 1
            continue
        if i + 1 < n and _foldable(module, modules[i + 1]):
            weight, bias = _folded(module, modules[i + 1])
            input = module._conv_forward(core.nn.functional.conv2d, input, weight, bias)
            i += 2
            continue
        fuse = getattr(type(module), "_fuse_following", None)
        fused = fuse(module, modules, i, input) if fuse is not None and not module._has_hooks() else None
        if fused is not None:
            input, i = fused
            continue
        input = module(input)
        i += 1
    return input


def applicable(sequential, input):
    """Whether this call may take the folding path (no recording, no global hooks, a real
    tensor: graph tracers (core.fx, core.jit) see the modules themselves)."""
    return (isinstance(input, core.Tensor) and not sequential.training and not core.is_grad_enabled()
            and not _module._global_forward_pre_hooks and not _module._global_forward_hooks)
