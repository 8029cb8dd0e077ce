"""Converters for indexing, selection and the functions that return lists of tensors
(x[...], where, split, unbind, stack, meshgrid, index_put): the detection models' glue."""
import numpy as np

import core
from core.fx.node import Node
from core.onnx._context import ExportError
from core.onnx._symbolics import REQUIRED, converter, need_opset, rank_of, slice_axis, squeeze, unsqueeze

_END = np.iinfo(np.int64).max  # a slice without a stop


def _is_tensor(ctx, arg):
    return isinstance(arg, Node) and isinstance(ctx.value(arg), core.Tensor)


# ---- x[index]
@converter("operator.getitem", params=(("object", REQUIRED), ("index", REQUIRED)))
def _getitem(ctx, a):
    obj, index = a["object"], a["index"]
    value = ctx.value(obj)
    if isinstance(obj, Node) and isinstance(ctx.names.get(obj), list):  # an item of a list of tensors
        return ctx.names[obj][index]
    if isinstance(value, core.Size):
        if isinstance(index, int):
            return ctx.emit("Gather", [ctx.name_of(obj), ctx.int64s(index, "index")], axis=0)
        if isinstance(index, slice) and index.step in (None, 1):
            start, stop, _ = index.indices(len(value))  # the rank is fixed: so are these bounds
            return slice_axis(ctx, ctx.name_of(obj), 0, start, max(start, stop))
    if isinstance(value, core.Tensor):
        return _index_tensor(ctx, obj, index if isinstance(index, tuple) else (index,))
    raise ExportError(f"onnx.export: indexing a {type(value).__name__} by {index!r} has no ONNX form here")


def _index_tensor(ctx, x_arg, items):
    tensors = [i for i in items if _is_tensor(ctx, i)]
    if tensors:
        return _advanced_index(ctx, x_arg, items, tensors)
    x = ctx.name_of(x_arg)
    consumed = sum(1 for i in items if i is not None and i is not Ellipsis)
    axis = 0  # in the result so far
    for item in items:
        if item is Ellipsis:
            axis += rank_of(ctx, x_arg) - consumed
        elif item is None:
            x = unsqueeze(ctx, x, [axis])
            axis += 1
        elif isinstance(item, slice):
            step = 1 if item.step is None else item.step
            if isinstance(step, Node) or step < 1:
                raise ExportError("onnx.export: slicing with a negative or computed step is not supported")
            start = 0 if item.start is None else item.start
            stop = _END if item.stop is None else item.stop
            if (start, stop, step) != (0, _END, 1):
                x = slice_axis(ctx, x, axis, start, stop, step)
            axis += 1
        else:  # an integer removes the axis
            x = ctx.emit("Gather", [x, ctx.cast(item, np.int64)], axis=axis)
    return x


def _advanced_index(ctx, x_arg, items, tensors):
    """x[mask], x[idx] and x[i0, i1, ...] (index tensors first, full slices after)."""
    leading = items[:len(tensors)]
    if any(not _is_tensor(ctx, i) for i in leading) or \
            any(i != slice(None) for i in items[len(tensors):]):
        raise ExportError("onnx.export: indexing with tensors is supported as x[t0, t1, ...] with the index tensors "
                          "first (and full slices after)")
    x = ctx.name_of(x_arg)
    if len(tensors) == 1 and ctx.value(tensors[0]).dtype == core.bool:
        positions = ctx.emit("Transpose", [ctx.emit("NonZero", [ctx.name_of(tensors[0])])], perm=[1, 0])
        return ctx.emit("GatherND", [x, positions])
    if len(tensors) == 1:
        return ctx.emit("Gather", [x, ctx.cast(tensors[0], np.int64)], axis=0)
    if any(ctx.value(t).dtype == core.bool for t in tensors):
        raise ExportError("onnx.export: several boolean index tensors are not supported")
    indices = [ctx.cast(t, np.int64) for t in tensors]
    total = indices[0]
    for i in indices[1:]:
        total = ctx.emit("Add", [total, i])
    shape = ctx.emit("Shape", [total])  # the broadcast shape of the indices
    columns = [unsqueeze(ctx, ctx.emit("Expand", [i, shape]), [-1]) for i in indices]
    need_opset(ctx, 11, "indexing by several tensors")
    return ctx.emit("GatherND", [x, ctx.emit("Concat", columns, axis=-1)])


# ---- selection
@converter("op:where", raw=True)
def _where(ctx, args, kwargs):
    args = list(args) + [kwargs[k] for k in ("condition", "input", "other") if k in kwargs]
    if len(args) == 1:  # the indices of the non-zeros, per dimension
        positions = ctx.emit("NonZero", [ctx.name_of(args[0])])
        return [squeeze(ctx, slice_axis(ctx, positions, 0, d, d + 1), [0]) for d in range(rank_of(ctx, args[0]))]
    dtype = ctx.out_dtype()
    return ctx.emit("Where", [ctx.cast(args[0], np.bool_), ctx.cast(args[1], dtype), ctx.cast(args[2], dtype)])


@converter("method:index_put", params=(("input", REQUIRED), ("indices", REQUIRED), ("values", REQUIRED),
                                       ("accumulate", False)))
def _index_put(ctx, a):
    indices = a["indices"]
    if a["accumulate"] or len(indices) != 1 or ctx.value(indices[0]).dtype == core.bool:
        raise ExportError("onnx.export: index_put is supported with one integer index tensor, without accumulate")
    need_opset(ctx, 11, "index_put")
    positions = unsqueeze(ctx, ctx.cast(indices[0], np.int64), [-1])
    return ctx.emit("ScatterND", [ctx.name_of(a["input"]), positions, ctx.cast(a["values"], ctx.out_dtype())])


# ---- lists of tensors
@converter("method:split", "core.split", raw=True)
def _split(ctx, args, kwargs):
    x_arg = args[0]
    sizes = args[1] if len(args) > 1 else kwargs.get("split_size_or_sections", kwargs.get("split_size"))
    dim = (args[2] if len(args) > 2 else kwargs.get("dim", 0)) % rank_of(ctx, x_arg)
    if not isinstance(sizes, (list, tuple)):  # chunks of one size: their count is the example's
        length = ctx.value(x_arg).shape[dim]
        sizes = [min(sizes, length - s) for s in range(0, length, sizes)]
    x, start, parts = ctx.name_of(x_arg), 0, []
    for size in sizes:
        stop = _add(ctx, start, size)
        parts.append(slice_axis(ctx, x, dim, start, stop))
        start = stop
    return parts


def _add(ctx, a, b):
    """a + b of sizes, in the graph where either is computed there."""
    if not isinstance(a, (Node, str)) and not isinstance(b, (Node, str)):
        return a + b
    names = [v if isinstance(v, str) else ctx.cast(v, np.int64) for v in (a, b)]
    return ctx.emit("Add", names)  # a name: slice_axis takes it as it takes a graph scalar


@converter("method:unbind", "op:unbind", params=(("input", REQUIRED), ("dim", 0)))
def _unbind(ctx, a):
    dim = a["dim"] % rank_of(ctx, a["input"])
    x = ctx.name_of(a["input"])
    return [ctx.emit("Gather", [x, ctx.int64s(i, "index")], axis=dim) for i in range(ctx.value(a["input"]).shape[dim])]


@converter("op:stack", params=(("tensors", REQUIRED), ("dim", 0)))
def _stack(ctx, a):
    dim = ctx.value(a["dim"]) % (rank_of(ctx, a["tensors"][0]) + 1)  # x.dim() computed in the graph is fixed
    dtype = ctx.out_dtype()
    return ctx.emit("Concat", [unsqueeze(ctx, ctx.cast(t, dtype), [dim]) for t in a["tensors"]], axis=dim)


@converter("core.meshgrid")
def _meshgrid(ctx, a):
    tensors = list(a["tensors"][0] if len(a["tensors"]) == 1 and isinstance(a["tensors"][0], (list, tuple))
                   else a["tensors"])
    if a["indexing"] == "xy":
        tensors[0], tensors[1] = tensors[1], tensors[0]
    n = len(tensors)
    shape = ctx.emit("Concat", [ctx.emit("Shape", [ctx.name_of(t)]) for t in tensors], axis=0)
    grids = []
    for i, t in enumerate(tensors):
        along = ctx.emit("Reshape", [ctx.name_of(t), ctx.int64s([1] * i + [-1] + [1] * (n - 1 - i), "shape")])
        grids.append(ctx.emit("Expand", [along, shape]))
    if a["indexing"] == "xy":
        grids = [ctx.emit("Transpose", [g], perm=[1, 0] + list(range(2, n))) for g in grids]
        grids[0], grids[1] = grids[1], grids[0]
    return grids


# ---- views
@converter("method:expand_as", params=(("input", REQUIRED), ("other", REQUIRED)))
def _expand_as(ctx, a):
    return ctx.emit("Expand", [ctx.name_of(a["input"]), ctx.emit("Shape", [ctx.name_of(a["other"])])])


@converter("method:permute", "op:permute", raw=True)
def _permute(ctx, args, kwargs):
    dims = kwargs.get("dims", args[1:])
    if len(dims) == 1 and isinstance(dims[0], (list, tuple)):
        dims = dims[0]
    r = rank_of(ctx, args[0])
    return ctx.emit("Transpose", [ctx.name_of(args[0])], perm=[d % r for d in dims])

