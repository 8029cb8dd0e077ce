"""The inference compiler: an op-level trace of the model on example inputs, rewritten for
inference and lowered to a C++ program (jit/program.h) that runs every op without coming
back to Python.

Passes, in order (each a function below):
  constants      calls on weights alone run once, now (the transposed Linear weight, ...)
  fold_bn        eval BatchNorm after a convolution goes into its weight and bias
  drop_identity  dropout in eval, contiguous() of what is already contiguous
  linear_as_conv Linear layers over several rows become 1x1 convolutions (packed weights)
  fuse_conv      conv2d + bias [+ residual add] [+ ReLU/ReLU6/Hardswish/Hardsigmoid] becomes one
                 _conv2d_fused, its epilogue applied by the kernels block by block
  channels_last  convolution weights are stored the way the NHWC kernels read them (1x1 ones
                 input-channel-major, as their GEMM reads them; depthwise ones taps-major), so
                 every activation after the first convolution is channels-last
  prepack        stride-1 3x3 convolutions run Winograd on their weight transformed once, at
                 compile time, where that wins; 1x1 convolutions, and the others on small
                 images, the tile kernel on their weight packed once
  fuse_inverted_residual
                 an inverted-residual block's 1x1 expansion, depthwise convolution and 1x1
                 projection run as one op, band by band in cache; with
                 squeeze-excitation before the projection, that too
  fold_excitation
                 a squeeze-excitation left at batch 1: its channel scale goes into the next 1x1
                 convolution's weight (packed or not) instead of over the activation
  chunk_batch    the first steps, while their values are large per image, run over chunks of
                 two images, each chunk's values still in cache for the next step
  in_place       other activations, adds and muls write over an operand that dies there
  lower          slots for values, each freed at its last use (the allocator hands the
                 memory to the next value of that size: the buffer plan)
The program is specialised to the example's shapes; CompiledModule keeps one per input
signature and compiles another on first sight of a new one.
"""
import operator

import core
from core import _C, nn
from core.fx.node import Node, map_aggregate
from core.fx.graph_module import GraphModule
from core.fx.interpreter import Interpreter
from core.jit._trace import OpTracer, trace_graph

_OPERATOR_OPS = {operator.add: "add", operator.sub: "sub", operator.mul: "mul", operator.truediv: "div",
                 operator.neg: "neg", operator.matmul: "matmul", operator.pos: "positive"}
# elementwise activations with an in-place form of the same arguments
_ACTIVATIONS = {"relu", "hardswish", "hardsigmoid", "hardtanh", "sigmoid", "tanh", "silu", "gelu", "leaky_relu",
                "elu", "mish", "clamp", "clamp_min", "clamp_max"}
_COMMUTATIVE = {"add", "mul"}
_OPS = set(_C._functions) | set(_C._internal) | set(getattr(_C, "_methods", {}))


class CompileError(RuntimeError):
    pass


class Step:
    """One call of the program: op name, arguments (Steps, tensors, Python values), and the
    value it had on the example inputs."""

    __slots__ = ("op", "args", "kwargs", "value", "users", "is_input", "index")

    def __init__(self, op, args=(), kwargs=None, value=None, is_input=False):
        self.op, self.args, self.kwargs, self.value = op, tuple(args), dict(kwargs or {}), value
        self.users, self.is_input, self.index = [], is_input, -1

    def inputs(self):
        found = []
        map_aggregate((self.args, self.kwargs), lambda a: found.append(a) if isinstance(a, Step) else None)
        return found

    def __repr__(self):
        return f"Step({self.op})"


# ---------------------------------------------------------------- from the traced graph
def _steps_from_graph(graph, values):
    steps, of, inputs = [], {}, []

    def arg(a):
        if isinstance(a, Node):
            return of[a]
        return a

    for node in graph.nodes:
        if node.op == "placeholder":
            value = values[node]
            if not isinstance(value, core.Tensor):
                of[node] = value  # a Python input: a constant of this specialisation
                continue
            step = Step("input", value=value, is_input=True)
            inputs.append(step)
        elif node.op == "get_attr":
            of[node] = values[node]
            continue
        elif node.op == "output":
            return steps, inputs, map_aggregate(node.args[0], arg)
        else:
            op = _op_name(node)
            args, kwargs = map_aggregate(node.args, arg), map_aggregate(node.kwargs, arg)
            if op == "getitem" and not (isinstance(args[0], Step) and isinstance(args[0].value, tuple)):
                raise CompileError(f"compile: indexing of tensors ({node.name}) is not supported by the compiler")
            step = Step("take" if op == "getitem" else op, args, kwargs, values[node])
        of[node] = step
        steps.append(step)
    raise CompileError("compile: the graph has no output")


def _op_name(node):
    if node.op == "call_method":
        name = node.target
    elif node.target in _OPERATOR_OPS:
        name = _OPERATOR_OPS[node.target]
    elif node.target is operator.getitem:
        return "getitem"
    else:
        name = getattr(node.target, "__name__", None)
    if name not in _OPS:
        raise CompileError(f"compile: {node.target!r} (node {node.name}) is not an op of the op table; "
                           "the compiler runs op-table calls only")
    return name


def _link_users(steps, outputs):
    for step in steps:
        step.users = []
    for step in steps:
        for source in step.inputs():
            source.users.append(step)
    out = []
    map_aggregate(outputs, lambda a: out.append(a) if isinstance(a, Step) else None)
    return set(out)


def _replace(steps, old, new):
    """Every use of step old becomes new (a Step or a constant)."""
    swap = lambda a: new if a is old else a  # noqa: E731
    for step in steps:
        step.args, step.kwargs = map_aggregate(step.args, swap), map_aggregate(step.kwargs, swap)


# ---------------------------------------------------------------- passes
def constants(steps, outputs):
    """Steps that read no program value are computed already: their values become constants."""
    kept = []
    for step in steps:
        if step.op not in ("input", "take") and not step.inputs() and not step.op.endswith("_"):
            _replace(steps, step, step.value)
            outputs = _swap(outputs, step, step.value)
            continue
        kept.append(step)
    return kept, outputs


def _swap(outputs, old, new):
    return map_aggregate(outputs, lambda a: new if a is old else a)


def fold_bn(steps, outputs):
    """conv2d -> native_batch_norm (eval) -> [0]: one conv2d with the normalisation folded in."""
    live_outputs = _link_users(steps, outputs)
    dead = set()
    for bn in steps:
        if bn.op != "native_batch_norm" or bn.args[5] is not False:
            continue
        conv, weight, bias, mean, var = bn.args[:5]
        eps = bn.args[7]
        if not (isinstance(conv, Step) and conv.op == "conv2d" and len(conv.users) == 1 and conv not in live_outputs
                and all(isinstance(t, core.Tensor) or t is None for t in (weight, bias, mean, var))
                and isinstance(conv.args[1], core.Tensor) and (len(conv.args) < 3 or not isinstance(conv.args[2], Step))
                and all(u.op == "take" and u.args[1] == 0 for u in bn.users) and mean is not None):
            continue
        scale = (var + eps).rsqrt()
        if weight is not None:
            scale = scale * weight
        conv_w = conv.args[1]
        conv_b = conv.args[2] if len(conv.args) > 2 else None
        shift = -mean if conv_b is None else conv_b - mean
        new_b = shift * scale + (bias if bias is not None else 0)
        new_w = conv_w * scale.reshape(-1, *([1] * (conv_w.dim() - 1)))
        conv.args = (conv.args[0], new_w, new_b, *conv.args[3:])
        conv.value = bn.users[0].value
        for take in bn.users:
            _replace(steps, take, conv)
            outputs = _swap(outputs, take, conv)
            dead.add(take)
        dead.add(bn)
    return [s for s in steps if s not in dead], outputs


def drop_identity(steps, outputs):
    """Dropout in eval mode and contiguous() of an already contiguous value pass their input on."""
    kept = []
    for step in steps:
        source = step.args[0] if step.args else None
        same = False
        if step.op in ("dropout", "feature_dropout", "alpha_dropout") and step.args[2] is False:
            same = True
        elif step.op in ("contiguous", "detach", "alias") and isinstance(source, Step):
            fmt = step.kwargs.get("memory_format", step.args[1] if len(step.args) > 1 else core.contiguous_format)
            same = step.op != "contiguous" or source.value.is_contiguous(memory_format=fmt)
        if same:
            _replace(steps, step, source)
            outputs = _swap(outputs, step, source)
            continue
        kept.append(step)
    return kept, outputs


# Linear layers run as 1x1 convolutions (so on a packed weight) from this many rows on: the
# tile kernel reads each block of the weight once for six rows, where BLAS's path packs the
# whole weight first (MobileNetV3-Large's classifier at batch 8, 2 threads, in the program:
# 960 -> 1280 620 -> 324 us, 1280 -> 1000 521 -> 364 us). One row stays on BLAS's
# matrix-vector product, which streams the weight faster (226 vs 218 us, 220 vs 296 us).
_LINEAR_AS_CONV_MIN_ROWS = 2


def linear_as_conv(steps, outputs):
    """A Linear layer's product over rows x (N, K), N >= _LINEAR_AS_CONV_MIN_ROWS, of a constant
    weight: addmm(bias, x, weight.t()), or matmul(x, weight.t()) without a bias, becomes that
    1x1 convolution of x viewed as (N, K, 1, 1), viewed back as (N, O); the later passes give
    it a packed weight."""
    out = []
    for step in steps:
        parts = _linear_parts(step)
        if parts is None:
            out.append(step)
            continue
        x, weight_t, bias = parts
        rows, in_features = x.value.shape
        out_features = weight_t.shape[1]
        pixels = Step("reshape", (x, [rows, in_features, 1, 1]), value=x.value.reshape(rows, in_features, 1, 1))
        weight = weight_t.t().reshape(out_features, in_features, 1, 1)
        conv = Step("conv2d", (pixels, weight, bias), value=step.value.reshape(rows, out_features, 1, 1))
        flat = Step("reshape", (conv, [rows, out_features]), value=step.value)
        _replace(steps, step, flat)
        outputs = _swap(outputs, step, flat)
        out += [pixels, conv, flat]
    return out, outputs


def _linear_parts(step):
    """(x, weight.t(), bias or None) of a Linear layer's product, or None."""
    if step.kwargs or (step.op, len(step.args)) not in (("addmm", 3), ("matmul", 2)):
        return None
    bias, x, weight_t = step.args if step.op == "addmm" else (None, *step.args)
    if not (isinstance(x, Step) and isinstance(x.value, core.Tensor) and x.value.dim() == 2
            and x.value.shape[0] >= _LINEAR_AS_CONV_MIN_ROWS and isinstance(weight_t, core.Tensor)
            and weight_t.dim() == 2 and weight_t.dtype in (core.float32, core.float64)
            and x.value.dtype == weight_t.dtype):
        return None
    if bias is not None and not (isinstance(bias, core.Tensor) and bias.dim() == 1 and bias.dtype == weight_t.dtype
                                 and bias.shape[0] == weight_t.shape[1]):
        return None
    return x, weight_t, bias


# activations the fused convolution applies itself: op -> its name for _conv2d_fused
_FUSED_ACTS = {"relu": "relu", "relu_": "relu", "hardswish": "hardswish", "hardswish_": "hardswish",
               "hardsigmoid": "hardsigmoid", "hardsigmoid_": "hardsigmoid"}
_CONV_DEFAULTS = (None, 1, 0, 1, 1)  # bias, stride, padding, dilation, groups


def _fused_act(step):
    if step.op in _FUSED_ACTS and len(step.args) == 1 and not step.kwargs:
        return _FUSED_ACTS[step.op]
    if step.op in ("hardtanh", "hardtanh_") and not step.kwargs and tuple(step.args[1:]) == (0.0, 6.0):
        return "relu6"
    return None


def _conv_args(conv):
    names = ("bias", "stride", "padding", "dilation", "groups")
    rest = list(conv.args[2:]) + [conv.kwargs.get(n, d) for n, d in zip(names, _CONV_DEFAULTS)][len(conv.args) - 2:]
    return (conv.args[0], conv.args[1], *rest)


def _conv_call(conv):
    """(x, weight, bias, stride, padding, dilation, groups, activation, residual) of a conv2d or
    _conv2d_fused step (not the Winograd weight prepack may add)."""
    if conv.op == "conv2d":
        return (*_conv_args(conv), "none", None)
    return conv.args[:9]


def fuse_conv(steps, outputs):
    """conv2d [+ residual add] [+ ReLU / ReLU6 / Hardswish / Hardsigmoid] -> one _conv2d_fused,
    whose kernels apply the epilogue to each block of output they write."""
    live_outputs = _link_users(steps, outputs)

    dead, moved = set(), {}

    def only_user(step):  # (users as linked before this pass; a fused chain's steps are dead)
        if len(step.users) != 1 or step in live_outputs or step.users[0] in dead or step.users[0] in moved.values():
            return None
        return step.users[0]

    for conv in steps:
        if conv.op != "conv2d" or not isinstance(conv.args[1], core.Tensor) or conv.args[1].dim() != 4:
            continue
        x, w, b, stride, padding, dilation, groups = _conv_args(conv)
        if isinstance(b, Step) or isinstance(padding, str) or conv.value.dim() != 4:
            continue
        residual, act, chain = None, "none", [conv]
        user = only_user(conv)
        if user is not None and user.op in ("add", "add_") and not user.kwargs and len(user.args) == 2 \
                and (user.op == "add" or user.args[0] is conv):  # add_ into another value mutates it: keep
            other = user.args[1] if user.args[0] is conv else user.args[0]
            if isinstance(other, Step) and other is not conv and isinstance(other.value, core.Tensor) \
                    and other.value.shape == conv.value.shape and other.value.dtype == conv.value.dtype:
                residual = other
                chain.append(user)
                user = only_user(user)
        if user is not None and _fused_act(user) and user.args[0] is chain[-1]:
            act = _fused_act(user)
            chain.append(user)
        if len(chain) == 1:
            continue
        conv.op, conv.kwargs = "_conv2d_fused", {}
        conv.args = (x, w, b, stride, padding, dilation, groups, act, residual)
        conv.value = chain[-1].value
        for step in chain[1:]:
            dead.add(step)
            _replace(steps, step, conv)
            outputs = _swap(outputs, step, conv)
        moved[chain[-1]] = conv  # runs where the chain ended: the residual may come after the conv
    order = []
    for step in steps:
        if step in moved:
            order.append(moved[step])
        elif step not in dead and step not in moved.values():
            order.append(step)
    return order, outputs


def channels_last(steps, outputs):
    """Conv weights laid out for the NHWC kernels (depthwise ones over (KH, KW, C) memory), so
    convolution outputs are channels-last (and what follows them); a 4-d float input read by
    anything but convolutions is turned channels-last once (the convolutions read either layout
    where it is)."""
    _link_users(steps, outputs)
    out = []
    for step in steps:
        out.append(step)
        if step.is_input and step.value.dim() == 4 and step.value.dtype.is_floating_point \
                and not all(u.op in ("conv2d", "_conv2d_fused") for u in step.users):
            converted = Step("contiguous", (step,), {"memory_format": core.channels_last},
                             step.value.contiguous(memory_format=core.channels_last))
            _replace(steps, step, converted)  # converted itself is not in steps: it keeps reading step
            outputs = _swap(outputs, step, converted)
            out.append(converted)
        if step.op in ("conv2d", "_conv2d_fused") and isinstance(step.args[1], core.Tensor):
            w = step.args[1]
            groups = step.args[6] if len(step.args) > 6 else step.kwargs.get("groups", 1)
            if groups == 1 and w.dim() == 4:
                w = _input_major(w) if _is_pointwise(step) else w.contiguous(memory_format=core.channels_last)
                step.args = (step.args[0], w, *step.args[2:])
            elif w.dim() == 4 and w.shape[1] == 1 and groups == w.shape[0]:
                step.args = (step.args[0], _taps_major(w), *step.args[2:])
    return out, outputs


def _taps_major(w):
    """A depthwise (C, 1, KH, KW) weight over (KH, KW, C) memory, the NHWC kernels' order: they
    read it as it is instead of transposing it at every call."""
    return w.permute(1, 2, 3, 0).contiguous().permute(3, 0, 1, 2)


def _pair(v):
    return tuple(v) if isinstance(v, (tuple, list)) else (v, v)


def _is_pointwise(conv):
    """A 1x1 convolution of stride 1 without padding: one GEMM of the pixels by the weight."""
    _, w, _, stride, padding, _, _, _, _ = _conv_call(conv)
    return tuple(w.shape[2:]) == (1, 1) and _pair(stride) == (1, 1) and _pair(padding) == (0, 0)


def _input_major(w):
    """The (O, C, 1, 1) weight over (C, O) memory: the pointwise kernel's GEMM then reads it
    untransposed, BLAS's fastest operand."""
    out_channels, in_channels = w.shape[:2]
    return w.reshape(out_channels, in_channels).t().contiguous().t().unsqueeze(-1).unsqueeze(-1)


# Regular (not 1x1) convolutions take a packed weight up to this many output pixels per image,
# where the GEMM path of _conv2d_fused (im2col, BLAS's packing) costs most; at larger images,
# stride-1 3x3 ones are faster through Winograd (64 -> 64 at 56x56: 1.6-1.8x slower packed).
_PREPACKED_MAX_PIXELS = 7 * 7


def prepack(steps, outputs):
    """Convolutions with a constant weight (groups 1, float, undilated) run on a weight prepared
    once, now, instead of at every call:
    - stride-1 3x3 ones where Winograd on a transformed weight wins (_conv_winograd_pays: all of
      ResNet's at batch 1 and 8, 0.4-0.95x their time) keep _conv2d_fused, given that weight
      (_conv_winograd_pack);
    - the others on the tile kernel with the weight packed (_conv_tile_pack), where BLAS or the
      tile kernel would pack it: every 1x1 convolution, and the others on small images of more
      than one output pixel in all (a single one reads mostly padding at every tap).
      Measured per layer on the 2-core AVX2 EPYC, one thread, against _conv2d_fused (batch 1 /
      8): MobileNetV3-Large's 1x1 layers 0.85-1.01x / 0.78-1.03x their time, ResNet-50's
      0.79-1.13x / 0.83-1.02x, its 3x3 ones at 7x7 0.76x / 0.89x. That includes those of a
      single output pixel (squeeze-excitation at batch 1), though BLAS's matrix-vector product
      is faster alone with the weight in cache (960 -> 240: 21 vs 26 us): in the program their
      weights come from memory, and BLAS's path packs them first, reading them twice
      (MobileNetV3-Large at batch 1, 2 threads: 960 -> 240 109 -> 57 us, 240 -> 960 83 -> 57
      us, the program 0.94-0.96x its time)."""
    for step in steps:
        if step.op not in ("conv2d", "_conv2d_fused") or not isinstance(step.args[1], core.Tensor):
            continue
        x, w, b, stride, padding, dilation, groups, act, residual = _conv_call(step)
        y = step.value
        if not (isinstance(y, core.Tensor) and y.dim() == 4 and w.dim() == 4 and groups == 1
                and w.dtype in (core.float32, core.float64) and not isinstance(b, Step)
                and _pair(dilation) == (1, 1) and not isinstance(padding, str)):
            continue
        if _winograd_pays(x, w, stride, padding):
            step.op, step.kwargs = "_conv2d_fused", {}
            step.args = (x, w, b, list(_pair(stride)), list(_pair(padding)), [1, 1], 1, act, residual,
                         _C._internal["_conv_winograd_pack"](w.detach()))
            continue
        if not (tuple(w.shape[2:]) == (1, 1)
                or (y.shape[2] * y.shape[3] <= _PREPACKED_MAX_PIXELS and y.shape[0] * y.shape[2] * y.shape[3] > 1)):
            continue
        packed = _C._internal["_conv_tile_pack"](w.detach())
        step.op, step.kwargs = "_conv2d_prepacked", {}
        step.args = (x, packed, b, w.shape[0], list(_pair(stride)), list(_pair(padding)), [1, 1], act, residual)
    return steps, outputs


def _winograd_pays(x, w, stride, padding):
    value = x.value if isinstance(x, Step) else x
    return isinstance(value, core.Tensor) and _C._internal["_conv_winograd_pays"](
        value, w, list(_pair(stride)), list(_pair(padding)), [1, 1], 1)


def fold_excitation(steps, outputs):
    """Squeeze-excitation at batch 1: x * scale (scale (1, C, 1, 1)) read only by a 1x1
    convolution becomes that convolution of x with its (C, O) weight rows scaled per input
    channel: a pass over the weight instead of one over the activation, where the weight is
    a quarter of x's size or less (scaling it broadcasts along rows, about 3x slower per element).
    Runs after channels_last, which made the weight input-channel-major, and prepack: a packed
    weight is scaled along its channel dim; and after fuse_inverted_residual, which takes
    MobileNetV3's excitations whole (at batch 1, 2 threads: 1.73 ms against 1.75-1.77 with its
    28x28 blocks' scale folded here, the rest fused)."""
    live_outputs = _link_users(steps, outputs)
    out = []
    for step in steps:
        folded = _excitation_fold(step, live_outputs)
        if folded is None:
            out.append(step)
            continue
        x, weight_steps, conv = folded
        out.extend(weight_steps)
        conv.args = (x, weight_steps[-1], *conv.args[2:])
    return out, outputs


def _excitation_fold(mul, live_outputs):
    """(x, the steps computing the scaled weight, the convolution) when mul can fold, else None."""
    if mul.op != "mul" or mul.kwargs or len(mul.args) != 2 or len(mul.users) != 1 or mul in live_outputs:
        return None
    conv = mul.users[0]
    if conv.op not in ("conv2d", "_conv2d_fused", "_conv2d_prepacked") or conv.args[0] is not mul \
            or conv.inputs().count(mul) != 1:
        return None
    x, scale = mul.args if _is_channel_scale(mul.args[1]) else reversed(mul.args)
    weight = conv.args[1]
    packed = conv.op == "_conv2d_prepacked"  # weight (blocks, 1, 1, C, block): C at dim 3
    if not (isinstance(x, Step) and _is_channel_scale(scale) and isinstance(weight, core.Tensor)
            and (packed or (_is_pointwise(conv) and _conv_call(conv)[6] == 1))):
        return None
    value = x.value
    out_channels, channels = (conv.args[3], weight.shape[3]) if packed else weight.shape[:2]
    if not (isinstance(value, core.Tensor) and value.dim() == 4 and value.shape[0] == 1 and value.shape[1] == channels
            and value.shape[2] * value.shape[3] >= 4 * out_channels
            and (packed or weight.stride()[:2] == (1, out_channels))
            and value.dtype == weight.dtype == scale.value.dtype):
        return None
    if packed:
        made = [Step("view", (scale, [1, 1, 1, channels, 1]), value=scale.value.view(1, 1, 1, channels, 1))]
        made.append(Step("mul", (weight, made[-1]), value=weight * made[-1].value))
        return x, made, conv
    rows = weight.reshape(out_channels, channels).t()  # (C, O), contiguous: the input-major memory
    made = [Step("view", (scale, [channels, 1]), value=scale.value.view(channels, 1))]
    made.append(Step("mul", (rows, made[-1]), value=rows * made[-1].value))
    made.append(Step("t", (made[-1],), value=made[-1].value.t()))  # back to (O, C) over (C, O) memory
    for _ in range(2):
        made.append(Step("unsqueeze", (made[-1], -1), value=made[-1].value.unsqueeze(-1)))
    return x, made, conv


def _is_channel_scale(a):
    return isinstance(a, Step) and isinstance(a.value, core.Tensor) and a.value.dim() == 4 \
        and a.value.shape[0] == 1 and tuple(a.value.shape[2:]) == (1, 1) and a.value.dtype.is_floating_point


def fuse_inverted_residual(steps, outputs):
    """An inverted-residual block's depthwise convolution takes in the prepacked 1x1 expansion
    it alone reads, and the prepacked 1x1 projection (+ residual) that alone reads it: one
    _conv2d_inverted_residual, which runs them band by band of output rows
    with the rows in cache. The expanded tensor (6x or more the block's input) and the
    depthwise output are neither written out nor read back. A squeeze-excitation between the
    depthwise convolution and the projection (pooling, two prepacked 1x1 layers, the mul) goes
    in too, at any size: the op then runs each image whole, its depthwise output in L2 from the
    pooling to the projection, rather than three passes over it in memory."""
    live_outputs = _link_users(steps, outputs)
    dead = set()
    for dw in steps:
        if not _is_depthwise(dw):
            continue
        x, w, b, stride, padding, dilation, _, act, _ = _conv_call(dw)
        expand = x if _is_plain_pointwise(x, live_outputs) else None
        excitation = _squeeze_excitation(dw, live_outputs)
        if excitation is not None:
            project = excitation[-1].users[0]
        else:
            project = dw.users[0] if len(dw.users) == 1 and dw not in live_outputs else None
            # (at every size: MobileNetV3-Large's 14x14 blocks, 160 KB of depthwise output that
            # stays in L2 between separate steps, still 1% of its batch-1 time faster fused)
            if not (_is_plain_pointwise(project, live_outputs, projection=True) and project.args[0] is dw):
                project = None
        if expand is None and project is None:
            continue
        if expand is not None:
            x = expand.args[0]
            dead.add(expand)
        channels = w.shape[0]
        # (weight, bias, channels, activation) of the expansion; (weight, bias, channels, residual) of the projection
        head = tuple(expand.args[i] for i in (1, 2, 3, 7)) if expand else (None, None, channels, "none")
        tail = tuple(project.args[i] for i in (1, 2, 3, 8)) if project else (None, None, channels, None)
        excite = ()
        if excitation is not None:
            _, fc1, fc2, _ = excitation
            excite = (*(fc1.args[i] for i in (1, 2, 3, 7)), *(fc2.args[i] for i in (1, 2, 7)))
            dead.update(excitation)
        fused = project if project is not None else dw
        fused.args = (x, *head, w, b, list(_pair(stride)), list(_pair(padding)), list(_pair(dilation)), act, *tail,
                      *excite)
        fused.op, fused.kwargs = "_conv2d_inverted_residual", {}
        if project is not None:
            dead.add(dw)
    return [s for s in steps if s not in dead], outputs


def _squeeze_excitation(dw, live_outputs):
    """(pooling, fc1, fc2, mul) where dw's output goes only through a squeeze-excitation of
    prepacked 1x1 layers into a projection: global average pooling, two 1x1 convolutions, their
    scale times dw's output, which a plain 1x1 projection alone reads; else None. (The fused op
    runs it image by image in cache where an image has as many pixels as squeeze channels, and
    otherwise the two layers once over every image, their weights read once.)"""
    if len(dw.users) != 2 or dw in live_outputs:
        return None
    pool = next((u for u in dw.users if u.op == "adaptive_avg_pool2d"), None)
    if pool is None or pool.kwargs or len(pool.args) != 2 or pool.args[0] is not dw or _pair(pool.args[1]) != (1, 1) \
            or len(pool.users) != 1 or pool in live_outputs:
        return None
    fc1 = pool.users[0]
    if not (_is_plain_pointwise(fc1, live_outputs) and fc1.args[0] is pool):
        return None
    fc2 = fc1.users[0]
    if not (_is_plain_pointwise(fc2, live_outputs) and fc2.args[0] is fc1 and fc2.args[3] == dw.value.shape[1]):
        return None
    mul = fc2.users[0]
    if not (mul.op == "mul" and not mul.kwargs and len(mul.args) == 2 and set(mul.args) == {dw, fc2}
            and mul in dw.users and len(mul.users) == 1 and mul not in live_outputs):
        return None
    project = mul.users[0]
    if not (_is_plain_pointwise(project, live_outputs, projection=True) and project.args[0] is mul):
        return None
    return pool, fc1, fc2, mul


def _is_depthwise(step):
    """A depthwise convolution (groups == channels) with a constant, finite weight and no
    residual. (The fused op's NHWC path skips the padding's taps, but a border output must see
    0 * w where w is infinite or nan, as eager convolutions do.)"""
    if step.op not in ("conv2d", "_conv2d_fused") or not isinstance(step.value, core.Tensor):
        return False
    x, w, b, _, padding, _, groups, _, residual = _conv_call(step)
    return (isinstance(x, Step) and isinstance(w, core.Tensor) and w.dim() == 4 and w.shape[1] == 1
            and groups == w.shape[0] == x.value.shape[1] and residual is None and not isinstance(b, Step)
            and not isinstance(padding, str) and (len(step.args) < 10 or step.args[9] is None)
            and w.dtype == x.value.dtype and step.value.dim() == 4 and bool(core.isfinite(w).all()))


def _is_plain_pointwise(step, live_outputs, projection=False):
    """A prepacked 1x1 convolution of stride 1 without padding: as an expansion, read by one
    step only, without a residual; as a projection, without an activation."""
    if not (isinstance(step, Step) and step.op == "_conv2d_prepacked"):
        return False
    _, packed, _, _, stride, padding, _, act, residual = step.args
    if projection:
        fits = act == "none"
    else:
        fits = len(step.users) == 1 and step not in live_outputs and residual is None
    return fits and tuple(packed.shape[1:3]) == (1, 1) and _pair(stride) == (1, 1) and _pair(padding) == (0, 0)


# Ops that compute each image of a batch from that image alone (their other operands are
# constants or other images' values of the same kind).
_PER_IMAGE = {"_conv2d_fused", "_conv2d_prepacked", "_conv2d_inverted_residual", "conv2d", "add", "mul"} | _ACTIVATIONS
# Activations of at least this many bytes per image are made image chunk by image chunk.
_CHUNKED_IMAGE_MIN_BYTES = 256 << 10
# Images per chunk: one per thread of a 2-thread run, each image's values in its own core's L2.
_CHUNK_IMAGES = 2


def chunk_batch(steps, outputs):
    """The first steps after the input, while every value they make is large per image, run
    over chunks of the batch: each chunk's values are still in cache when the next step reads
    them, and its buffers, freed, come back hot for the next chunk; the chunks' last values are
    concatenated. (MobileNetV3-Large at batch 8, 2 threads: its stem and first three blocks
    wrote and read back 6.4 MB tensors through memory, 2.1x ONNX Runtime's time for the stem
    and first block.)"""
    live_outputs = _link_users(steps, outputs)
    inputs = [s for s in steps if s.is_input]
    if len(inputs) != 1 or not isinstance(inputs[0].value, core.Tensor) or inputs[0].value.dim() != 4:
        return steps, outputs
    batch = inputs[0].value.shape[0]
    if batch < 2 * _CHUNK_IMAGES or batch % _CHUNK_IMAGES:
        return steps, outputs
    body = [s for s in steps if not s.is_input]
    prefix = []
    for step in body:
        value = step.value
        if not (step.op in _PER_IMAGE and not step.kwargs and isinstance(value, core.Tensor) and value.dim() == 4
                and value.shape[0] == batch and value[0].numel() * value.element_size() >= _CHUNKED_IMAGE_MIN_BYTES
                and set(step.inputs()) <= {*prefix, inputs[0]} and _batch_free(step)):
            break
        prefix.append(step)
    # only the last step's value is read past the chunks (the input is the program's own)
    while prefix and any(s in live_outputs or not set(s.users) <= set(prefix) for s in prefix[:-1]):
        prefix.pop()
    if len(prefix) < 2:
        return steps, outputs
    last = prefix[-1]
    chunk_lasts, made = [], []
    for start in range(0, batch, _CHUNK_IMAGES):
        def cut(value):
            return value.narrow(0, start, _CHUNK_IMAGES)
        of = {inputs[0]: Step("narrow", (inputs[0], 0, start, _CHUNK_IMAGES), value=cut(inputs[0].value))}
        made.append(of[inputs[0]])
        for step in prefix:
            args = map_aggregate(step.args, lambda a: of.get(a, a) if isinstance(a, Step) else a)
            of[step] = Step(step.op, args, value=cut(step.value))
            made.append(of[step])
        chunk_lasts.append(of[last])
    joined = Step("cat", (chunk_lasts, 0), value=last.value)
    chunked = set(prefix)
    rest = [s for s in body if s not in chunked]
    _replace(rest, last, joined)
    outputs = _swap(outputs, last, joined)
    return inputs + made + [joined] + rest, outputs


def _batch_free(step):
    """Whether the step's constants hold nothing per image: a convolution's are its weights;
    an elementwise op's must broadcast over the batch."""
    if step.op.startswith("_conv2d") or step.op == "conv2d":
        return True
    return all(not isinstance(a, core.Tensor) or a.dim() < 4 or a.shape[0] == 1 for a in step.args)


def in_place(steps, outputs):
    """Activations, adds and muls write over an operand that nobody reads afterwards: its other
    readers ran before, and made new tensors rather than views of it (squeeze-excitation's
    scale multiplies the block's output in place after the pooling read it)."""
    live_outputs = _link_users(steps, outputs)
    order = {step: i for i, step in enumerate(steps)}

    def reusable(a, result, step):
        return (isinstance(a, Step) and _fresh(a) and a not in live_outputs
                and all(u is step or (order.get(u, len(steps)) < order[step] and u.op in _FRESH) for u in a.users)
                and isinstance(a.value, core.Tensor) and isinstance(result, core.Tensor)
                and a.value.shape == result.shape and a.value.dtype == result.dtype)

    for step in steps:
        if step.op in _ACTIVATIONS and f"{step.op}_" in _OPS and reusable(step.args[0], step.value, step):
            step.op += "_"
        elif step.op in ("add", "sub", "mul", "div") and f"{step.op}_" in _OPS and not step.kwargs:
            a, b = step.args[:2]
            if reusable(a, step.value, step):
                step.op += "_"
            elif step.op in _COMMUTATIVE and reusable(b, step.value, step):
                step.args = (b, a, *step.args[2:])
                step.op += "_"
    return steps, outputs


# ops whose result is a new tensor (never a view or an input handed back)
_FRESH = {"conv2d", "_conv2d_fused", "_conv2d_prepacked", "_conv2d_inverted_residual", "addmm", "mm", "matmul",
          "add", "sub", "mul", "div",
          "adaptive_avg_pool2d", "max_pool2d", "avg_pool2d", "mean", "cat", "softmax", "log_softmax",
          "upsample_bilinear2d", "upsample_nearest2d"} | _ACTIVATIONS


def _fresh(step):
    while step.op.endswith("_") and isinstance(step.args[0], Step):  # in place: the buffer of its operand
        step = step.args[0]
    return step.op in _FRESH


PASSES = (constants, fold_bn, drop_identity, linear_as_conv, fuse_conv, channels_last, prepack, fuse_inverted_residual,
          fold_excitation, chunk_batch, in_place)


# ---------------------------------------------------------------- lowering
class Program:
    """A compiled specialisation: the C++ program and how to rebuild the output structure."""

    def __init__(self, program, output_template, leaf_count, input_count):
        self._program, self._template = program, output_template
        self._leaf_count, self._inputs = leaf_count, input_count

    def __call__(self, *tensors):
        results = iter(self._program.run(*tensors))
        return map_aggregate(self._template, lambda a: next(results) if a is _LEAF else a)

    def __len__(self):
        return len(self._program)

    def profile(self, *tensors):
        """[(op name, calls, seconds)] of one run, the most expensive first."""
        _, seconds = self._program.run_profiled(*tensors)
        totals = {}
        for i, s in enumerate(seconds):
            entry = totals.setdefault(self._program.name(i), [0, 0.0])
            entry[0] += 1
            entry[1] += s
        return sorted(((op, calls, s) for op, (calls, s) in totals.items()), key=lambda row: -row[2])


_LEAF = object()


def lower(steps, inputs, outputs):
    live_outputs = _link_users(steps, outputs)
    slot_of, next_slot = {}, [0]

    def new_slot():
        next_slot[0] += 1
        return next_slot[0] - 1

    last_use = {}
    for i, step in enumerate(steps):
        for source in step.inputs():
            last_use[source] = i
    for step in steps:
        if step.op.endswith("_") and isinstance(step.args[0], Step):
            slot_of[step] = slot_of[step.args[0]]  # written in place
        else:
            slot_of[step] = new_slot()
    program = _C._JitProgram(next_slot[0])
    output_steps = [s for s in live_outputs]
    for i, step in enumerate(steps):
        if step.is_input:
            continue
        dying = {slot_of[s] for s in step.inputs() if last_use.get(s) == i and s not in live_outputs
                 and not _aliases_output(s, output_steps, slot_of)}
        dying.discard(slot_of[step])
        as_operand = lambda a: _C._JitSlot(slot_of[a], a.value) if isinstance(a, Step) else a  # noqa: E731
        if step.op == "take":
            program.add_take(slot_of[step.args[0]], step.args[1], slot_of[step], sorted(dying))
        else:
            program.add_call(step.op, tuple(map_aggregate(step.args, as_operand)),
                             map_aggregate(step.kwargs, as_operand), slot_of[step], -1, sorted(dying))
    leaves = []
    template = map_aggregate(outputs, lambda a: (leaves.append(slot_of[a]), _LEAF)[1] if isinstance(a, Step) else a)
    program.set_io([slot_of[s] for s in inputs], leaves)
    return Program(program, template, len(leaves), len(inputs))


def _aliases_output(step, output_steps, slot_of):
    return any(slot_of[o] == slot_of[step] for o in output_steps)


# ---------------------------------------------------------------- entry points
def compile_program(model, example_inputs, passes=PASSES):
    """A Program for model (a Module or function) specialised to example_inputs."""
    inputs = tuple(example_inputs)
    root, graph = trace_graph(model, inputs, OpTracer)
    recorder = Interpreter(GraphModule(root, graph), garbage_collect_values=False)
    with core.no_grad():
        recorder.run(*inputs)
    steps, input_steps, outputs = _steps_from_graph(graph, recorder.env)
    for run_pass in passes:
        steps, outputs = run_pass(steps, outputs)
    return lower(steps, input_steps, outputs)


def _signature(inputs):
    return tuple((tuple(a.shape), a.dtype) if isinstance(a, core.Tensor) else ("value", repr(a)) for a in inputs)


class CompiledModule(nn.Module):
    """model compiled for inference: each call runs a C++ program for the inputs' shapes
    (compiled on the first call with new shapes). No autograd: outputs never require grad."""

    def __init__(self, model, passes=PASSES):
        super().__init__()
        self.model = model
        self.__dict__["_passes"] = tuple(passes)
        self.__dict__["_programs"] = {}

    def program_for(self, *inputs):
        key = _signature(inputs)
        program = self._programs.get(key)
        if program is None:
            if isinstance(self.model, nn.Module) and self.model.training:
                raise RuntimeError("compile(): the model is in training mode; call model.eval() first")
            program = self._programs[key] = compile_program(self.model, inputs, self._passes)
        return program

    def forward(self, *inputs):
        program = self.program_for(*inputs)
        return program(*(a for a in inputs if isinstance(a, core.Tensor)))
