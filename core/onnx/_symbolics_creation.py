"""Converters for tensors made in the graph (sizes computed from the inputs), type casts,
padding and whole-tensor reductions."""
import numpy as np

from core.fx.node import Node
from core.onnx._context import ONNX_TYPES, ExportError
from core.onnx._symbolics import REQUIRED, converter, need_opset, rank_of, shape_vector


def _shape(ctx, size):
    """The ONNX shape vector of a size argument: a list of numbers and graph scalars, or x.shape."""
    if isinstance(size, Node) and isinstance(ctx.value(size), tuple):
        return ctx.name_of(size)
    if len(size) == 1 and isinstance(ctx.value(size[0]), (list, tuple)):
        return _shape(ctx, size[0])
    return shape_vector(ctx, list(size))


def _filled(ctx, shape, fill):
    """A tensor of `shape` (an ONNX 1-d value) filled with `fill` in the node's dtype."""
    return ctx.emit("Expand", [ctx.cast(fill, ctx.out_dtype()), shape])


@converter("op:zeros", "op:ones", raw=True)
def _zeros(ctx, args, kwargs):
    fill = 1 if getattr(ctx.node.target, "__name__", "") == "ones" else 0
    return _filled(ctx, _shape(ctx, kwargs.get("size", args)), fill)


@converter("op:full", raw=True)
def _full(ctx, args, kwargs):
    size = args[0] if args else kwargs["size"]
    fill = args[1] if len(args) > 1 else kwargs["fill_value"]
    return _filled(ctx, _shape(ctx, size), fill)


@converter("op:full_like", "op:zeros_like", "op:ones_like", raw=True)
def _full_like(ctx, args, kwargs):
    name = getattr(ctx.node.target, "__name__", "")
    fill = {"zeros_like": 0, "ones_like": 1}.get(name)
    if fill is None:
        fill = args[1] if len(args) > 1 else kwargs["fill_value"]
    return _filled(ctx, ctx.emit("Shape", [ctx.name_of(args[0])]), fill)


@converter("op:arange", raw=True)
def _arange(ctx, args, kwargs):
    bounds = list(args) + [kwargs[k] for k in ("start", "end", "step") if k in kwargs]
    if len(bounds) == 1:
        bounds = [0, bounds[0]]
    start, end, step = (bounds + [1])[:3]
    need_opset(ctx, 11, "arange over a length computed from the inputs (Range)")
    dtype = ctx.out_dtype()
    return ctx.emit("Range", [ctx.cast(start, dtype), ctx.cast(end, dtype), ctx.cast(step, dtype)])


@converter("core.tensor")
def _tensor(ctx, a):
    data = a["data"]
    if isinstance(data, Node):  # sizes or a number computed in the graph
        return ctx.cast(data, ctx.out_dtype())
    if isinstance(data, (list, tuple)) and any(isinstance(d, Node) for d in data):
        return ctx.emit("Cast", [shape_vector(ctx, list(data), np.float64)], to=ONNX_TYPES[ctx.out_dtype()])
    return ctx.constant(ctx.value(ctx.node).numpy().copy(), "tensor")


# ---- types and Python values
@converter("method:to", "method:float", "method:long", "method:int", "method:type_as", "method:double", raw=True)
def _to(ctx, args, kwargs):
    return ctx.cast(args[0], ctx.out_dtype())  # the target type is the example result's


@converter("method:item", params=(("input", REQUIRED),))
def _item(ctx, a):
    return ctx.emit("Reshape", [ctx.name_of(a["input"]), ctx.int64s([], "scalar")])


@converter("method:dim", params=(("input", REQUIRED),))
def _dim(ctx, a):
    return ctx.int64s(ctx.value(ctx.node), "rank")  # the rank is fixed by the trace


# ---- padding and reductions
_PAD_MODES = {"constant": "constant", "reflect": "reflect", "replicate": "edge"}


@converter("core.nn.functional.pad")
def _pad(ctx, a):
    if a["mode"] not in _PAD_MODES:
        raise ExportError(f"onnx.export: pad mode {a['mode']!r} has no ONNX form")
    need_opset(ctx, 11, "pad")
    r = rank_of(ctx, a["input"])
    begins, ends = [0] * r, [0] * r
    pads = list(a["pad"])
    for i in range(len(pads) // 2):  # PyTorch pads the last dimension first
        begins[r - 1 - i], ends[r - 1 - i] = pads[2 * i], pads[2 * i + 1]
    inputs = [ctx.name_of(a["input"]), shape_vector(ctx, begins + ends)]
    if a["mode"] == "constant":
        inputs.append(ctx.cast(a["value"], ctx.dtype_of(a["input"])))
    return ctx.emit("Pad", inputs, mode=_PAD_MODES[a["mode"]])


def _reduce_all(onnx_op, *keys):
    def convert(ctx, args, kwargs):
        if len(args) > 1 or kwargs:
            raise ExportError(f"onnx.export: {ctx.node.target} over a dimension is not supported (over all is)")
        return ctx.emit(onnx_op, [ctx.name_of(args[0])], keepdims=0)

    converter(*keys, raw=True)(convert)


_reduce_all("ReduceMax", "method:max", "op:max")
_reduce_all("ReduceMin", "method:min", "op:min")
