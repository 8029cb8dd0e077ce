"""Inference fast path of Sequential: a Conv2d followed by an eval-mode BatchNorm2d runs as one
convolution with the normalisation folded into its weight and bias (y = conv(x, w*s) + (b-mean)*s
+ beta, s = gamma / sqrt(var + eps)), saving a full pass over the activation.

Only used when nothing could observe the difference: no autograd recording, BatchNorm in eval
with running statistics, and no hooks on either module. The folded tensors are cached per
BatchNorm and rebuilt whenever any source tensor changes (version counter or storage).
Other modules fuse with the ones after them through `_fused_step` (a quantized Conv2d and its
Hardswish: nn/quantized/modules.py), under the same conditions.

What to run is decided once per Sequential and kept as a plan of steps, each with a
`forward(input)`, the steps of nested Sequentials spliced in: deciding, and a call per nested
Sequential, cost more than running a small int8 layer. A plan holds while the Sequential and
the nested ones keep their children and no module anywhere has changed an attribute, a hook or
a registration since (module.structure_epoch).
"""
import weakref

import core
from core._native import _C
from core.nn.modules import module as _module
from core.nn.modules.activation import ReLU
from core.nn.modules.batchnorm import BatchNorm2d
from core.nn.modules.conv import Conv2d
from core.nn.modules.linear import Identity

_conv2d_fused = _C._internal["_conv2d_fused"]
_winograd_pack = _C._internal["_conv_winograd_pack"]
_winograd_pays = _C._internal["_conv_winograd_pays"]

# Sequential -> (structure epoch, children, steps, nested Sequentials with their children); kept
# off the module so pickles and copies never carry it.
_plans = weakref.WeakKeyDictionary()
# BatchNorm2d -> [signature, folded weight, folded bias, that weight transformed for Winograd or
# None]; off the module for the same reason.
_folds = weakref.WeakKeyDictionary()


def _foldable(conv, bn):
    return (type(conv) is Conv2d and type(bn) is BatchNorm2d and not bn.training
            and bn.running_mean is not None and bn.running_var is not None
            and bn.num_features == conv.out_channels and not conv._has_hooks() and not bn._has_hooks())


def _signature(conv, bn):
    tensors = (conv.weight, conv.bias, bn.weight, bn.bias, bn.running_mean, bn.running_var)
    return (bn.eps,) + tuple(None if t is None else (t.data_ptr(), t._version, t.dtype) for t in tensors)


def _folded(conv, bn):
    signature = _signature(conv, bn)
    cached = _folds.get(bn)
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
    _folds[bn] = [signature, weight, bias, None]
    return weight, bias


def conv_bn_fusable(conv, bn):
    """Whether bn(conv(x)) may run as fused_conv_bn: a foldable pair whose convolution pads
    with zeros by numbers."""
    return _foldable(conv, bn) and conv.padding_mode == "zeros" and not isinstance(conv.padding, str)


def plain_relu(module):
    """Whether module is an nn.ReLU that only applies itself (no hooks): a fused convolution
    may apply it instead."""
    return type(module) is ReLU and not module._has_hooks()


def fused_conv_bn(conv, bn, input, activation="none", residual=None):
    """bn(conv(input)), plus residual, then activation ("none" or "relu"), as one convolution:
    the normalisation folded into its weight and bias, the rest applied by the kernel as it
    writes each block. For callers that checked conv_bn_fusable and applicable."""
    weight, bias = _folded(conv, bn)
    return _conv2d_fused(input, weight, bias, list(conv.stride), list(conv.padding), list(conv.dilation), conv.groups,
                         activation, residual, _winograd_weight(conv, bn, weight, input))


def _winograd_weight(conv, bn, weight, input):
    """The folded weight (just cached by _folded) transformed for Winograd, made once with it,
    where this convolution of input runs Winograd on it; else None."""
    if not _winograd_pays(input, weight, list(conv.stride), list(conv.padding), list(conv.dilation), conv.groups):
        return None
    cached = _folds[bn]
    if cached[3] is None:
        cached[3] = _winograd_pack(weight)
    return cached[3]


class _FoldedConvBatchNorm:
    """A Conv2d and the eval-mode BatchNorm2d after it, as one convolution."""

    __slots__ = ("conv", "bn")

    def __init__(self, conv, bn):
        self.conv, self.bn = conv, bn

    def forward(self, input):
        weight, bias = _folded(self.conv, self.bn)
        return self.conv._conv_forward(core.nn.functional.conv2d, input, weight, bias)


class _Called:
    """A module run through its __call__ (it has hooks, or a __call__ of its own)."""

    __slots__ = ("module",)

    def __init__(self, module):
        self.module = module

    def forward(self, input):
        return self.module(input)


def _steps(modules):
    """The plan for `modules` (a list): each foldable Conv2d-BatchNorm2d pair as one step, a
    module whose class has `_fused_step(modules, i)` with the modules it fuses (it returns
    (step, index past them) or None), no step for an Identity without hooks (fuse_modules
    leaves one per BatchNorm and activation it folds), the steps of a nested Sequential in its
    place, every other module as itself: its forward, looked up at each call, is what __call__
    runs when there are no hooks. Returns the steps and the nested Sequentials with their
    children, which must stay the same for the steps to hold."""
    steps, nested, i, n = [], [], 0, len(modules)
    while i < n:
        module = modules[i]
        hooked = module._has_hooks()
        plain = not hooked and type(module).__call__ is _module.Module.__call__
        if type(module) is Identity and not hooked:
            i += 1
        elif i + 1 < n and _foldable(module, modules[i + 1]):
            steps.append(_FoldedConvBatchNorm(module, modules[i + 1]))
            i += 2
        elif plain and type(module).forward is sequential_forward and not module.training:
            children = tuple(module._modules.values())
            inner, inner_nested = _steps(list(children))
            steps += inner
            nested += [(module, children)] + inner_nested
            i += 1
        else:
            fuse = getattr(type(module), "_fused_step", None)
            fused = fuse(module, modules, i) if fuse is not None and not hooked else None
            if fused is not None:
                step, i = fused
                steps.append(step)
                continue
            steps.append(module if plain else _Called(module))
            i += 1
    return steps, nested


def _holds(plan, children):
    if plan is None or plan[0] != _module.structure_epoch or plan[1] != children:
        return False
    for sequential, kept_children in plan[3]:
        if tuple(sequential._modules.values()) != kept_children:
            return False
    return True


def _current_steps(sequential):
    """The steps of the Sequential's plan, made anew when the plan no longer holds."""
    children = tuple(sequential._modules.values())
    try:
        plan, kept = _plans.get(sequential), True
    except TypeError:  # a subclass with __eq__ and no __hash__: planned anew at each call
        plan, kept = None, False
    if not _holds(plan, children):
        plan = (_module.structure_epoch, children) + _steps(list(children))
        if kept:
            _plans[sequential] = plan
    return plan[2]


def run_planned(sequential, input):
    """Sequential.forward through its plan."""
    for step in _current_steps(sequential):
        input = step.forward(input)
    return input


def inference_steps(sequential, input):
    """The steps that calling `sequential` on `input` would run, or None where the call would
    not go through a plan (recording, training, hooks, a forward or __call__ of its own): a
    caller may then run all but the last and fuse that one with what follows."""
    if (type(sequential).forward is not sequential_forward or type(sequential).__call__ is not _module.Module.__call__
            or sequential._has_hooks() or not applicable(sequential, input)):
        return None
    return _current_steps(sequential)


def sequential_forward(self, input):
    """Sequential.forward: each module on the output of the one before; at inference (see
    `applicable`), through the plan."""
    if applicable(self, input):
        return run_planned(self, input)
    for module in self._modules.values():
        input = module(input)
    return input


def applicable(sequential, input):
    """Whether this call may take the folding path (no recording, no global hooks, a real
    tensor: graph tracers (core.fx, core.jit) see the modules themselves)."""
    return (isinstance(input, core.Tensor) and not sequential.training and not core.is_grad_enabled()
            and not _module._global_forward_pre_hooks and not _module._global_forward_hooks)
