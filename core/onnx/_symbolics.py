"""One converter per function the traced graphs call: fx node -> ONNX nodes.

Keys are the names core/jit/_targets.py gives functions ("op:conv2d",
"core.nn.functional.relu", "operator.add", "builtins.getattr") and "method:<name>" for
tensor methods. A converter gets (ctx, args) with args bound to the function's parameter
names (defaults filled in) and returns the ONNX name of the node's value.
"""
import inspect

import numpy as np

import core
from core.fx.node import Node
from core.onnx._context import ExportError

CONVERTERS = {}
_PARAMS = {}  # key -> ((name, default), ...) for callables without a Python signature
RAW = set()   # keys whose converters take (ctx, args, kwargs) as called (variadic methods)


def converter(*keys, params=None, raw=False):
    def register(fn):
        for key in keys:
            CONVERTERS[key] = fn
            if params is not None:
                _PARAMS[key] = params
            if raw:
                RAW.add(key)
        return fn

    return register


REQUIRED = object()


def bind(key, target, args, kwargs):
    """{parameter name: argument} for a call, defaults included."""
    spec = _PARAMS.get(key)
    if spec is None:
        bound = inspect.signature(target).bind(*args, **kwargs)
        bound.apply_defaults()
        return dict(bound.arguments)
    out = {}
    for i, (name, default) in enumerate(spec):
        if i < len(args):
            out[name] = args[i]
        elif name in kwargs:
            out[name] = kwargs[name]
        elif default is REQUIRED:
            raise ExportError(f"onnx.export: {key} called without its argument {name!r}")
        else:
            out[name] = default
    return out


def _pair(v):
    return list(v) if isinstance(v, (tuple, list)) else [v, v]


def _static(ctx, arg, what):
    if isinstance(arg, Node):
        raise ExportError(f"onnx.export: {what} must be fixed, not computed from the inputs")
    return arg


def rank_of(ctx, arg):
    return ctx.value(arg).dim()


# ---- convolution, normalisation, linear
@converter("op:conv2d", "core.nn.functional.conv2d",
           params=(("input", REQUIRED), ("weight", REQUIRED), ("bias", None), ("stride", 1), ("padding", 0),
                   ("dilation", 1), ("groups", 1)))
def _conv2d(ctx, a):
    weight = ctx.value(a["weight"])
    kernel = list(weight.shape[2:])
    dilation = _pair(_static(ctx, a["dilation"], "dilation"))
    padding = _static(ctx, a["padding"], "padding")
    if padding == "valid":
        padding = [0, 0]
    if padding == "same":
        totals = [d * (k - 1) for d, k in zip(dilation, kernel)]
        pads = [t // 2 for t in totals] + [t - t // 2 for t in totals]
    else:
        pads = _pair(padding) * 2
    inputs = [ctx.name_of(a["input"]), ctx.name_of(a["weight"])]
    if a["bias"] is not None:
        inputs.append(ctx.name_of(a["bias"]))
    return ctx.emit("Conv", inputs, kernel_shape=kernel, strides=_pair(a["stride"]), pads=pads,
                    dilations=dilation, group=int(a["groups"]))


@converter("core.nn.functional.batch_norm")
def _batch_norm(ctx, a):
    if a["training"]:
        raise ExportError("onnx.export: batch_norm in training mode; call model.eval() before exporting")
    channels = ctx.value(a["running_mean"]).shape[0]
    dtype = np.float32 if ctx.value(a["running_mean"]).dtype.is_floating_point else np.float64
    scale = ctx.name_of(a["weight"]) if a["weight"] is not None else ctx.constant(np.ones(channels, dtype), "bn_scale")
    bias = ctx.name_of(a["bias"]) if a["bias"] is not None else ctx.constant(np.zeros(channels, dtype), "bn_bias")
    return ctx.emit("BatchNormalization", [ctx.name_of(a["input"]), scale, bias, ctx.name_of(a["running_mean"]),
                                           ctx.name_of(a["running_var"])], epsilon=float(a["eps"]))


@converter("op:addmm", params=(("input", REQUIRED), ("mat1", REQUIRED), ("mat2", REQUIRED), ("beta", 1),
                               ("alpha", 1)))
def _addmm(ctx, a):
    return ctx.emit("Gemm", [ctx.name_of(a["mat1"]), ctx.name_of(a["mat2"]), ctx.name_of(a["input"])],
                    alpha=float(a["alpha"]), beta=float(a["beta"]))


@converter("core.nn.functional.linear", "op:linear", params=(("input", REQUIRED), ("weight", REQUIRED),
                                                             ("bias", None)))
def _linear(ctx, a):
    x, w = ctx.name_of(a["input"]), ctx.name_of(a["weight"])
    if rank_of(ctx, a["input"]) == 2 and a["bias"] is not None:
        return ctx.emit("Gemm", [x, w, ctx.name_of(a["bias"])], transB=1)
    y = ctx.emit("MatMul", [x, ctx.emit("Transpose", [w], perm=[1, 0])])
    return ctx.emit("Add", [y, ctx.name_of(a["bias"])]) if a["bias"] is not None else y


@converter("op:matmul", "operator.matmul", params=(("input", REQUIRED), ("other", REQUIRED)))
def _matmul(ctx, a):
    return ctx.emit("MatMul", [ctx.name_of(a["input"]), ctx.name_of(a["other"])])


@converter("method:t", "op:t", params=(("input", REQUIRED),))
def _t(ctx, a):
    return ctx.emit("Transpose", [ctx.name_of(a["input"])], perm=[1, 0])


# ---- activations
def _unary(onnx_op, *keys):
    converter(*keys, params=(("input", REQUIRED), ("inplace", False)))(
        lambda ctx, a: ctx.emit(onnx_op, [ctx.name_of(a["input"])]))


_unary("Relu", "core.nn.functional.relu", "op:relu", "method:relu", "op:relu_", "method:relu_")
_unary("Sigmoid", "core.nn.functional.sigmoid", "op:sigmoid", "method:sigmoid")
_unary("Tanh", "core.nn.functional.tanh", "op:tanh", "method:tanh")
_unary("Identity", "method:contiguous", "method:detach", "op:detach")


def _hardsigmoid_of(ctx, x):
    return ctx.emit("HardSigmoid", [x], alpha=1.0 / 6.0, beta=0.5)


@converter("core.nn.functional.hardsigmoid", params=(("input", REQUIRED), ("inplace", False)))
def _hardsigmoid(ctx, a):
    return _hardsigmoid_of(ctx, ctx.name_of(a["input"]))


@converter("core.nn.functional.hardswish", params=(("input", REQUIRED), ("inplace", False)))
def _hardswish(ctx, a):
    x = ctx.name_of(a["input"])
    if ctx.opset >= 14:
        return ctx.emit("HardSwish", [x])
    return ctx.emit("Mul", [x, _hardsigmoid_of(ctx, x)])


@converter("core.nn.functional.silu", params=(("input", REQUIRED), ("inplace", False)))
def _silu(ctx, a):
    x = ctx.name_of(a["input"])
    return ctx.emit("Mul", [x, ctx.emit("Sigmoid", [x])])


def _clip(ctx, x_arg, low, high):
    """Clip to [low, high]; a bound may be None (no bound) or computed in the graph."""
    x = ctx.name_of(x_arg)
    if ctx.opset < 11:
        bounds = {"min": low, "max": high}
        if any(isinstance(b, Node) for b in bounds.values()):
            raise ExportError("onnx.export: clamp to bounds computed from the inputs needs opset_version >= 11")
        return ctx.emit("Clip", [x], **{k: float(v) for k, v in bounds.items() if v is not None})
    dtype = ctx.dtype_of(x_arg)
    bounds = ["" if b is None else ctx.cast(b, dtype) for b in (low, high)]  # "": an omitted input
    return ctx.emit("Clip", [x, *bounds])


@converter("op:clamp", "method:clamp", "method:clamp_", params=(("input", REQUIRED), ("min", None), ("max", None)))
def _clamp(ctx, a):
    return _clip(ctx, a["input"], a["min"], a["max"])


@converter("core.nn.functional.hardtanh")
def _hardtanh(ctx, a):
    return _clip(ctx, a["input"], a["min_val"], a["max_val"])


@converter("core.nn.functional.relu6", params=(("input", REQUIRED), ("inplace", False)))
def _relu6(ctx, a):
    return _clip(ctx, a["input"], 0.0, 6.0)


@converter("core.nn.functional.softmax", "method:softmax", "op:softmax",
           params=(("input", REQUIRED), ("dim", REQUIRED), ("_stacklevel", 3), ("dtype", None)))
def _softmax(ctx, a):
    rank = rank_of(ctx, a["input"])
    axis = a["dim"] % rank
    if ctx.opset < 13 and axis != rank - 1:
        raise ExportError("onnx.export: softmax over a dimension other than the last needs opset_version >= 13")
    return ctx.emit("Softmax", [ctx.name_of(a["input"])], axis=axis)


@converter("core.nn.functional.dropout", params=(("input", REQUIRED), ("p", 0.5), ("training", True),
                                                 ("inplace", False)))
def _dropout(ctx, a):
    if a["training"]:
        raise ExportError("onnx.export: dropout in training mode; call model.eval() before exporting")
    return ctx.emit("Identity", [ctx.name_of(a["input"])])


# ---- pooling
@converter("core.nn.functional.adaptive_avg_pool2d")
def _adaptive_avg_pool2d(ctx, a):
    x = ctx.name_of(a["input"])
    size = _pair(_static(ctx, a["output_size"], "output_size"))
    if size == [1, 1]:
        return ctx.emit("GlobalAveragePool", [x])
    in_h, in_w = ctx.value(a["input"]).shape[-2:]
    if None in size or in_h % size[0] or in_w % size[1]:
        raise ExportError("onnx.export: adaptive_avg_pool2d needs an output size that divides the input size")
    kernel = [in_h // size[0], in_w // size[1]]
    return ctx.emit("AveragePool", [x], kernel_shape=kernel, strides=kernel)


@converter("core.nn.functional.max_pool2d")
def _max_pool2d(ctx, a):
    if a["return_indices"]:
        raise ExportError("onnx.export: max_pool2d with return_indices=True is not supported")
    kernel = _pair(a["kernel_size"])
    stride = _pair(a["stride"]) if a["stride"] not in (None, [], ()) else kernel
    dilation = _pair(a["dilation"])
    extra = {}
    if ctx.opset >= 10:
        extra = {"ceil_mode": int(bool(a["ceil_mode"])), "dilations": dilation}
    elif a["ceil_mode"] or dilation != [1, 1]:
        raise ExportError("onnx.export: max_pool2d with ceil_mode or dilation needs opset_version >= 10")
    return ctx.emit("MaxPool", [ctx.name_of(a["input"])], kernel_shape=kernel, strides=stride,
                    pads=_pair(a["padding"]) * 2, **extra)


@converter("core.nn.functional.avg_pool2d")
def _avg_pool2d(ctx, a):
    if a["divisor_override"] is not None:
        raise ExportError("onnx.export: avg_pool2d with divisor_override is not supported")
    kernel = _pair(a["kernel_size"])
    stride = _pair(a["stride"]) if a["stride"] not in (None, [], ()) else kernel
    extra = {"ceil_mode": int(bool(a["ceil_mode"]))} if ctx.opset >= 10 else {}
    return ctx.emit("AveragePool", [ctx.name_of(a["input"])], kernel_shape=kernel, strides=stride,
                    pads=_pair(a["padding"]) * 2, count_include_pad=int(bool(a["count_include_pad"])), **extra)


@converter("core.nn.functional.interpolate")
def _interpolate(ctx, a):
    """Resize with PyTorch's coordinate rules: half pixels clamped at 0 (bilinear), or corners
    aligned; nearest takes floor(dst / scale)."""
    x, mode, size = a["input"], a["mode"], a["size"]
    if ctx.opset < 11:
        raise ExportError("onnx.export: interpolate needs opset_version >= 11 (Resize)")
    if rank_of(ctx, x) != 4 or mode not in ("nearest", "bilinear"):
        raise ExportError(f"onnx.export: interpolate of a {rank_of(ctx, x)}-d input in mode {mode!r} is not supported "
                          "(4-d nearest and bilinear are)")
    scale = a["scale_factor"]
    recompute = a["recompute_scale_factor"]
    if size is None and (recompute or isinstance(scale, Node) or any(isinstance(f, Node) for f in _pair(scale))):
        if not recompute:
            raise ExportError("onnx.export: interpolate by a scale computed from the inputs needs "
                              "recompute_scale_factor=True")
        # the size eager computes, floor(in * scale) in double; the kernels then scale by in/out as Resize does
        in_size = ctx.emit("Cast", [slice_axis(ctx, ctx.emit("Shape", [ctx.name_of(x)]), 0, 2, 4)], to=11)
        out = ctx.emit("Floor", [ctx.emit("Mul", [in_size, shape_vector(ctx, _pair(scale), np.float64)])])
        size = ctx.emit("Cast", [out], to=7)
    if mode == "bilinear":
        attrs = {"mode": "linear",
                 "coordinate_transformation_mode": "align_corners" if a["align_corners"] else "pytorch_half_pixel"}
    else:
        attrs = {"mode": "nearest", "coordinate_transformation_mode": "asymmetric", "nearest_mode": "floor"}
    empty = ctx.constant(np.zeros(0, np.float32), "empty")
    if size is None:  # the kernels use the scale itself, as Resize does
        scales = ctx.constant(np.asarray([1.0, 1.0, *_pair(a["scale_factor"])], np.float32), "scales")
        return ctx.emit("Resize", [ctx.name_of(x), empty, scales], **attrs)
    if isinstance(size, str):  # computed above
        spatial = size
    elif isinstance(size, Node):  # x.shape[-2:] of another tensor
        spatial = ctx.name_of(size)
    else:
        spatial = shape_vector(ctx, _pair(size))
    batch_channels = slice_axis(ctx, ctx.emit("Shape", [ctx.name_of(x)]), 0, 0, 2)
    sizes = ctx.emit("Concat", [batch_channels, spatial], axis=0)
    return ctx.emit("Resize", [ctx.name_of(x), empty, empty, sizes], **attrs)


# ---- arithmetic
def _binary(onnx_op, *keys):
    def convert(ctx, a):
        if isinstance(ctx.value(ctx.node), tuple):  # sizes: x.shape[:2] + (7, 7) joins them
            if onnx_op != "Add":
                raise ExportError(f"onnx.export: {onnx_op} of sizes has no ONNX form")
            parts = [ctx.name_of(v) if isinstance(v, Node) else shape_vector(ctx, list(v)) for v in a.values()]
            return ctx.emit("Concat", parts, axis=0)
        dtype = ctx.out_dtype()  # ONNX does not promote: both sides in the result's type
        return ctx.emit(onnx_op, [ctx.cast(a["input"], dtype), ctx.cast(a["other"], dtype)])

    converter(*keys, params=(("input", REQUIRED), ("other", REQUIRED)))(convert)


_binary("Add", "operator.add", "op:add", "method:add", "method:add_", "op:add_")
_binary("Sub", "operator.sub", "op:sub", "method:sub")
_binary("Mul", "operator.mul", "op:mul", "method:mul", "method:mul_", "op:mul_")
_binary("Div", "operator.truediv", "op:div", "method:div")
_binary("Min", "op:minimum", "method:minimum")
_binary("Max", "op:maximum", "method:maximum")
_binary("And", "operator.and_")
_binary("Or", "operator.or_")


@converter("operator.floordiv", params=(("input", REQUIRED), ("other", REQUIRED)))
def _floordiv(ctx, a):
    dtype = ctx.out_dtype()
    quotient = ctx.emit("Div", [ctx.cast(a["input"], dtype), ctx.cast(a["other"], dtype)])
    if dtype.kind == "f":
        return ctx.emit("Floor", [quotient])
    return quotient  # integer Div truncates: floor for the sizes and counts it divides


def _operand_dtype(ctx, x, y):
    """The type two sides of a comparison meet in: a float side wins, a tensor's type before a number's."""
    dtypes = [ctx.dtype_of(v) for v in (x, y)]
    tensors = [d for v, d in zip((x, y), dtypes) if isinstance(ctx.value(v), core.Tensor)]
    for group in (tensors, dtypes):
        floats = [d for d in group if d.kind == "f"]
        if floats:
            return floats[0]
    return tensors[0] if tensors else dtypes[0]


def _comparison(onnx_op, negate, *keys):
    def convert(ctx, a):
        dtype = _operand_dtype(ctx, a["input"], a["other"])
        op, neg = onnx_op, negate
        if op in ("LessOrEqual", "GreaterOrEqual") and ctx.opset < 12:  # x >= y is not (x < y)
            op, neg = ("Greater" if op == "LessOrEqual" else "Less"), not neg
        out = ctx.emit(op, [ctx.cast(a["input"], dtype), ctx.cast(a["other"], dtype)])
        return ctx.emit("Not", [out]) if neg else out

    converter(*keys, params=(("input", REQUIRED), ("other", REQUIRED)))(convert)


_comparison("Equal", False, "operator.eq", "op:eq", "method:eq")
_comparison("Equal", True, "operator.ne", "op:ne", "method:ne")
_comparison("Less", False, "operator.lt", "op:lt", "method:lt")
_comparison("LessOrEqual", False, "operator.le", "op:le", "method:le")
_comparison("Greater", False, "operator.gt", "op:gt", "method:gt")
_comparison("GreaterOrEqual", False, "operator.ge", "op:ge", "method:ge")


@converter("operator.neg", "op:neg", "method:neg", params=(("input", REQUIRED),))
def _neg(ctx, a):
    return ctx.emit("Neg", [ctx.name_of(a["input"])])


# ---- shapes
@converter("op:flatten", "method:flatten", params=(("input", REQUIRED), ("start_dim", 0), ("end_dim", -1)))
def _flatten(ctx, a):
    rank = rank_of(ctx, a["input"])
    start, end = a["start_dim"] % max(rank, 1), a["end_dim"] % max(rank, 1)
    x = ctx.name_of(a["input"])
    if end == rank - 1 and start == 1:
        return ctx.emit("Flatten", [x], axis=1)
    if end == rank - 1:
        return ctx.emit("Reshape", [x, ctx.int64s([0] * start + [-1], "shape")])  # 0 keeps an input dimension
    shape = ctx.emit("Shape", [x])
    parts = [slice_axis(ctx, shape, 0, 0, start), ctx.int64s([-1], "dim"), slice_axis(ctx, shape, 0, end + 1, rank)]
    return ctx.emit("Reshape", [x, ctx.emit("Concat", parts, axis=0)])


def shape_vector(ctx, items, dtype=np.int64):
    """A 1-d ONNX value (int64 unless told) from a list of Python numbers, graph scalars and names
    of 0-d ONNX values (str) that converters computed."""
    if all(not isinstance(i, (Node, str)) for i in items):
        return ctx.constant(np.asarray(list(items), dtype=dtype), "shape")
    parts = []
    for i in items:
        if isinstance(i, (Node, str)):
            parts.append(unsqueeze(ctx, i if isinstance(i, str) else ctx.cast(i, dtype), [0]))
        else:
            parts.append(ctx.constant(np.asarray([i], dtype), "dim"))
    return ctx.emit("Concat", parts, axis=0)


def _reshape(ctx, x_arg, shape_items):
    if len(shape_items) == 1 and isinstance(shape_items[0], (tuple, list)):
        shape_items = list(shape_items[0])
    elif len(shape_items) == 1 and isinstance(shape_items[0], Node):  # x.reshape(y.shape)
        return ctx.emit("Reshape", [ctx.name_of(x_arg), ctx.name_of(shape_items[0])])
    return ctx.emit("Reshape", [ctx.name_of(x_arg), shape_vector(ctx, list(shape_items))])


@converter("method:view", "method:reshape", raw=True)
def _view(ctx, args, kwargs):
    shape = kwargs.get("shape", kwargs.get("size"))
    return _reshape(ctx, args[0], args[1:] if shape is None else [shape])


@converter("builtins.getattr", params=(("object", REQUIRED), ("name", REQUIRED)))
def _getattr(ctx, a):
    if a["name"] in ("dtype", "device"):
        return None  # fixed by the trace: converters read it from the example value
    if a["name"] != "shape":
        raise ExportError(f"onnx.export: reading attribute {a['name']!r} of a tensor has no ONNX form")
    return ctx.emit("Shape", [ctx.name_of(a["object"])])


@converter("method:size", params=(("input", REQUIRED), ("dim", None)))
def _size(ctx, a):
    shape = ctx.emit("Shape", [ctx.name_of(a["input"])])
    if a["dim"] is None:
        return shape
    return ctx.emit("Gather", [shape, ctx.int64s(a["dim"] % rank_of(ctx, a["input"]), "index")], axis=0)


@converter("op:cat", params=(("tensors", REQUIRED), ("dim", 0)))
def _cat(ctx, a):
    rank = rank_of(ctx, a["tensors"][0])
    return ctx.emit("Concat", [ctx.name_of(t) for t in a["tensors"]], axis=a["dim"] % rank)


@converter("op:mean", "method:mean", params=(("input", REQUIRED), ("dim", None), ("keepdim", False),
                                              ("dtype", None)))
def _mean(ctx, a):
    rank = rank_of(ctx, a["input"])
    dims = a["dim"]
    axes = list(range(rank)) if dims is None else [d % rank for d in (dims if isinstance(dims, (tuple, list)) else [dims])]
    x = ctx.name_of(a["input"])
    if ctx.opset >= 18:
        return ctx.emit("ReduceMean", [x, ctx.int64s(axes, "axes")], keepdims=int(bool(a["keepdim"])))
    return ctx.emit("ReduceMean", [x], axes=axes, keepdims=int(bool(a["keepdim"])))


# ---- helpers the other converter files share
def need_opset(ctx, opset, what):
    if ctx.opset < opset:
        raise ExportError(f"onnx.export: {what} needs opset_version >= {opset}")


def unsqueeze(ctx, x, axes):
    if ctx.opset < 13:
        return ctx.emit("Unsqueeze", [x], axes=list(axes))
    return ctx.emit("Unsqueeze", [x, ctx.int64s(list(axes), "axes")])


def squeeze(ctx, x, axes):
    if ctx.opset < 13:
        return ctx.emit("Squeeze", [x], axes=list(axes))
    return ctx.emit("Squeeze", [x, ctx.int64s(list(axes), "axes")])


def slice_axis(ctx, x, axis, start, stop, step=1):
    """x[start:stop:step] along one axis; start and stop may be computed in the graph."""
    if not any(isinstance(v, (Node, str)) for v in (start, stop)) and ctx.opset < 10:
        if step != 1:
            raise ExportError("onnx.export: slicing with a step needs opset_version >= 10")
        return ctx.emit("Slice", [x], starts=[start], ends=[stop], axes=[axis])
    need_opset(ctx, 10, "slicing by bounds computed from the inputs")
    return ctx.emit("Slice", [x, shape_vector(ctx, [start]), shape_vector(ctx, [stop]), ctx.int64s([axis], "axes"),
                              ctx.int64s([step], "steps")])


# ---- elementwise math
def _math(onnx_op, *keys):
    converter(*keys, params=(("input", REQUIRED),))(lambda ctx, a: ctx.emit(onnx_op, [ctx.name_of(a["input"])]))


_math("Exp", "op:exp", "method:exp")
_math("Floor", "op:floor", "method:floor")
_math("Sqrt", "op:sqrt", "method:sqrt")
_math("Round", "op:round", "method:round")  # both round half to even
_math("Log", "op:log", "method:log")
_math("Abs", "op:abs", "method:abs", "operator.abs")


@converter("op:log2", "method:log2", params=(("input", REQUIRED),))
def _log2(ctx, a):
    x = ctx.name_of(a["input"])
    return ctx.emit("Div", [ctx.emit("Log", [x]), ctx.cast(float(np.log(2.0)), ctx.dtype_of(a["input"]))])
