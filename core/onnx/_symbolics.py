"""One converter per function the traced graphs call: fx node -> ONNX nodes.

Keys are the names core/jit/_targets.py gives functions ("op:conv2d",
"core.nn.functional.relu", "operator.add", "builtins.getattr") and "method:<name>" for
tensor methods. A converter gets (ctx, args) with args bound to the function's parameter
names (defaults filled in) and returns the ONNX name of the node's value.
"""
import inspect

import numpy as np

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


_REQUIRED = object()


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
        elif default is _REQUIRED:
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


def _rank(ctx, arg):
    return ctx.value(arg).dim()


# ---- convolution, normalisation, linear
@converter("op:conv2d", "core.nn.functional.conv2d",
           params=(("input", _REQUIRED), ("weight", _REQUIRED), ("bias", None), ("stride", 1), ("padding", 0),
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


@converter("op:addmm", params=(("input", _REQUIRED), ("mat1", _REQUIRED), ("mat2", _REQUIRED), ("beta", 1),
                               ("alpha", 1)))
def _addmm(ctx, a):
    return ctx.emit("Gemm", [ctx.name_of(a["mat1"]), ctx.name_of(a["mat2"]), ctx.name_of(a["input"])],
                    alpha=float(a["alpha"]), beta=float(a["beta"]))


@converter("core.nn.functional.linear", "op:linear", params=(("input", _REQUIRED), ("weight", _REQUIRED),
                                                             ("bias", None)))
def _linear(ctx, a):
    x, w = ctx.name_of(a["input"]), ctx.name_of(a["weight"])
    if _rank(ctx, a["input"]) == 2 and a["bias"] is not None:
        return ctx.emit("Gemm", [x, w, ctx.name_of(a["bias"])], transB=1)
    y = ctx.emit("MatMul", [x, ctx.emit("Transpose", [w], perm=[1, 0])])
    return ctx.emit("Add", [y, ctx.name_of(a["bias"])]) if a["bias"] is not None else y


@converter("op:matmul", "operator.matmul", params=(("input", _REQUIRED), ("other", _REQUIRED)))
def _matmul(ctx, a):
    return ctx.emit("MatMul", [ctx.name_of(a["input"]), ctx.name_of(a["other"])])


@converter("method:t", "op:t", params=(("input", _REQUIRED),))
def _t(ctx, a):
    return ctx.emit("Transpose", [ctx.name_of(a["input"])], perm=[1, 0])


# ---- activations
def _unary(onnx_op, *keys):
    converter(*keys, params=(("input", _REQUIRED), ("inplace", False)))(
        lambda ctx, a: ctx.emit(onnx_op, [ctx.name_of(a["input"])]))


_unary("Relu", "core.nn.functional.relu", "op:relu", "method:relu", "op:relu_", "method:relu_")
_unary("Sigmoid", "core.nn.functional.sigmoid", "op:sigmoid", "method:sigmoid")
_unary("Tanh", "core.nn.functional.tanh", "op:tanh", "method:tanh")
_unary("Identity", "method:contiguous", "method:detach", "op:detach")


def _hardsigmoid_of(ctx, x):
    return ctx.emit("HardSigmoid", [x], alpha=1.0 / 6.0, beta=0.5)


@converter("core.nn.functional.hardsigmoid", params=(("input", _REQUIRED), ("inplace", False)))
def _hardsigmoid(ctx, a):
    return _hardsigmoid_of(ctx, ctx.name_of(a["input"]))


@converter("core.nn.functional.hardswish", params=(("input", _REQUIRED), ("inplace", False)))
def _hardswish(ctx, a):
    x = ctx.name_of(a["input"])
    if ctx.opset >= 14:
        return ctx.emit("HardSwish", [x])
    return ctx.emit("Mul", [x, _hardsigmoid_of(ctx, x)])


@converter("core.nn.functional.silu", params=(("input", _REQUIRED), ("inplace", False)))
def _silu(ctx, a):
    x = ctx.name_of(a["input"])
    return ctx.emit("Mul", [x, ctx.emit("Sigmoid", [x])])


def _clip(ctx, x_arg, low, high):
    x = ctx.name_of(x_arg)
    if ctx.opset < 11:
        return ctx.emit("Clip", [x], min=float(low), max=float(high))
    return ctx.emit("Clip", [x, ctx.like(low, x_arg), ctx.like(high, x_arg)])


@converter("core.nn.functional.hardtanh")
def _hardtanh(ctx, a):
    return _clip(ctx, a["input"], a["min_val"], a["max_val"])


@converter("core.nn.functional.relu6", params=(("input", _REQUIRED), ("inplace", False)))
def _relu6(ctx, a):
    return _clip(ctx, a["input"], 0.0, 6.0)


@converter("core.nn.functional.softmax", "method:softmax", "op:softmax",
           params=(("input", _REQUIRED), ("dim", _REQUIRED), ("_stacklevel", 3), ("dtype", None)))
def _softmax(ctx, a):
    rank = _rank(ctx, a["input"])
    axis = a["dim"] % rank
    if ctx.opset < 13 and axis != rank - 1:
        raise ExportError("onnx.export: softmax over a dimension other than the last needs opset_version >= 13")
    return ctx.emit("Softmax", [ctx.name_of(a["input"])], axis=axis)


@converter("core.nn.functional.dropout", params=(("input", _REQUIRED), ("p", 0.5), ("training", True),
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
    if _rank(ctx, x) != 4 or mode not in ("nearest", "bilinear"):
        raise ExportError(f"onnx.export: interpolate of a {_rank(ctx, x)}-d input in mode {mode!r} is not supported "
                          "(4-d nearest and bilinear are)")
    if a["recompute_scale_factor"]:
        raise ExportError("onnx.export: interpolate with recompute_scale_factor=True is not supported")
    if mode == "bilinear":
        attrs = {"mode": "linear",
                 "coordinate_transformation_mode": "align_corners" if a["align_corners"] else "pytorch_half_pixel"}
    else:
        attrs = {"mode": "nearest", "coordinate_transformation_mode": "asymmetric", "nearest_mode": "floor"}
    empty = ctx.constant(np.zeros(0, np.float32), "empty")
    if size is None:  # the kernels use the scale itself, as Resize does
        scales = ctx.constant(np.asarray([1.0, 1.0, *_pair(a["scale_factor"])], np.float32), "scales")
        return ctx.emit("Resize", [ctx.name_of(x), empty, scales], **attrs)
    if isinstance(size, Node):  # x.shape[-2:] of another tensor
        spatial = ctx.name_of(size)
    else:
        spatial = _shape_vector(ctx, _pair(size))
    batch_channels = _slice0(ctx, ctx.emit("Shape", [ctx.name_of(x)]), 0, 2)
    sizes = ctx.emit("Concat", [batch_channels, spatial], axis=0)
    return ctx.emit("Resize", [ctx.name_of(x), empty, empty, sizes], **attrs)


# ---- arithmetic
def _binary(onnx_op, *keys):
    def convert(ctx, a):
        x, y = a["input"], a["other"]
        tensor = x if isinstance(x, Node) else y
        names = [ctx.name_of(v) if isinstance(v, Node) else ctx.like(v, tensor) for v in (x, y)]
        return ctx.emit(onnx_op, names)

    converter(*keys, params=(("input", _REQUIRED), ("other", _REQUIRED)))(convert)


_binary("Add", "operator.add", "op:add", "method:add", "method:add_", "op:add_")
_binary("Sub", "operator.sub", "op:sub", "method:sub")
_binary("Mul", "operator.mul", "op:mul", "method:mul", "method:mul_", "op:mul_")
_binary("Div", "operator.truediv", "op:div", "method:div")


# ---- shapes
@converter("op:flatten", "method:flatten", params=(("input", _REQUIRED), ("start_dim", 0), ("end_dim", -1)))
def _flatten(ctx, a):
    rank = _rank(ctx, a["input"])
    start, end = a["start_dim"] % max(rank, 1), a["end_dim"] % max(rank, 1)
    x = ctx.name_of(a["input"])
    if end == rank - 1 and start == 1:
        return ctx.emit("Flatten", [x], axis=1)
    shape = [0] * start + [-1] + [0] * (rank - 1 - end)  # 0 keeps a dimension of the input
    return ctx.emit("Reshape", [x, ctx.int64s(shape, "shape")])


def _shape_vector(ctx, items):
    """A 1-d int64 ONNX value from a list of Python ints and size values."""
    if all(not isinstance(i, Node) for i in items):
        return ctx.int64s(list(items), "shape")
    parts = [_unsqueeze0(ctx, ctx.name_of(i)) if isinstance(i, Node) else ctx.int64s([i], "dim") for i in items]
    return ctx.emit("Concat", parts, axis=0)


def _unsqueeze0(ctx, x):
    if ctx.opset < 13:
        return ctx.emit("Unsqueeze", [x], axes=[0])
    return ctx.emit("Unsqueeze", [x, ctx.int64s([0], "axes")])


def _reshape(ctx, x_arg, shape_items):
    if len(shape_items) == 1 and isinstance(shape_items[0], (tuple, list)):
        shape_items = list(shape_items[0])
    return ctx.emit("Reshape", [ctx.name_of(x_arg), _shape_vector(ctx, list(shape_items))])


@converter("method:view", "method:reshape", raw=True)
def _view(ctx, args, kwargs):
    shape = kwargs.get("shape", kwargs.get("size"))
    return _reshape(ctx, args[0], args[1:] if shape is None else [shape])


@converter("builtins.getattr", params=(("object", _REQUIRED), ("name", _REQUIRED)))
def _getattr(ctx, a):
    if a["name"] != "shape":
        raise ExportError(f"onnx.export: reading attribute {a['name']!r} of a tensor has no ONNX form")
    return ctx.emit("Shape", [ctx.name_of(a["object"])])


@converter("method:size", params=(("input", _REQUIRED), ("dim", None)))
def _size(ctx, a):
    shape = ctx.emit("Shape", [ctx.name_of(a["input"])])
    if a["dim"] is None:
        return shape
    return ctx.emit("Gather", [shape, ctx.int64s(a["dim"] % _rank(ctx, a["input"]), "index")], axis=0)


@converter("operator.getitem", params=(("object", _REQUIRED), ("index", _REQUIRED)))
def _getitem(ctx, a):
    index, size = a["index"], ctx.value(a["object"])
    if size.__class__.__name__ == "Size":
        if isinstance(index, int):
            return ctx.emit("Gather", [ctx.name_of(a["object"]), ctx.int64s(index, "index")], axis=0)
        if isinstance(index, slice) and index.step in (None, 1):
            start, stop, _ = index.indices(len(size))  # the rank is fixed: bounds are too
            return _slice0(ctx, ctx.name_of(a["object"]), start, max(start, stop))
    raise ExportError("onnx.export: indexing of this kind has no ONNX form here (only sizes: x.shape[i], "
                      "x.shape[i:j])")


def _slice0(ctx, x, start, stop):
    """x[start:stop] along axis 0."""
    if ctx.opset < 10:
        return ctx.emit("Slice", [x], starts=[start], ends=[stop], axes=[0])
    return ctx.emit("Slice", [x, ctx.int64s([start], "starts"), ctx.int64s([stop], "ends"), ctx.int64s([0], "axes")])


@converter("op:cat", params=(("tensors", _REQUIRED), ("dim", 0)))
def _cat(ctx, a):
    rank = _rank(ctx, a["tensors"][0])
    return ctx.emit("Concat", [ctx.name_of(t) for t in a["tensors"]], axis=a["dim"] % rank)


@converter("op:mean", "method:mean", params=(("input", _REQUIRED), ("dim", None), ("keepdim", False),
                                              ("dtype", None)))
def _mean(ctx, a):
    rank = _rank(ctx, a["input"])
    dims = a["dim"]
    axes = list(range(rank)) if dims is None else [d % rank for d in (dims if isinstance(dims, (tuple, list)) else [dims])]
    x = ctx.name_of(a["input"])
    if ctx.opset >= 18:
        return ctx.emit("ReduceMean", [x, ctx.int64s(axes, "axes")], keepdims=int(bool(a["keepdim"])))
    return ctx.emit("ReduceMean", [x], axes=axes, keepdims=int(bool(a["keepdim"])))
