"""core.onnx.export: trace the model (core.jit's tracer), run the graph once on the example to
know every value's dtype and shape, and convert node by node into an ONNX ModelProto."""
import enum

import numpy as np

import core
from core.fx.graph_module import GraphModule
from core.fx.interpreter import Interpreter
from core.fx.node import map_aggregate
from core.jit import _targets
from core.jit._trace import trace_graph
from core.onnx import _symbolics
from core.onnx import _symbolics_creation, _symbolics_detection, _symbolics_indexing  # noqa: F401 (they register)
from core.onnx._context import ONNX_TYPES, ExportContext, ExportError
from core.serialization._io import open_sink
from core.serialization._storage import numpy_dtype

DEFAULT_OPSET = 9  # torch 1.8's default
MIN_OPSET = 9


class TrainingMode(enum.IntEnum):
    EVAL = 0
    PRESERVE = 1
    TRAINING = 2


class OperatorExportTypes(enum.IntEnum):
    ONNX = 0
    ONNX_ATEN = 1
    ONNX_ATEN_FALLBACK = 2
    ONNX_FALLTHROUGH = 3


_exporting = [False]  # while export() traces and runs the model


def is_in_onnx_export():
    """Whether the code calling it runs inside core.onnx.export (torch.onnx.is_in_onnx_export)."""
    return _exporting[0]


def _import_onnx():
    try:
        import onnx
        from onnx import helper, numpy_helper
    except ImportError:
        raise ImportError("core.onnx.export needs the onnx package: pip install 'tensorzoo[onnx]'") from None
    return onnx, helper, numpy_helper


def export(model, args, f, export_params=True, verbose=False, training=TrainingMode.EVAL, input_names=None,
           output_names=None, operator_export_type=OperatorExportTypes.ONNX, opset_version=None,
           do_constant_folding=True, dynamic_axes=None, keep_initializers_as_inputs=None, custom_opsets=None):
    """Writes model (a Module or function) as run on args to f (a path or binary file) as ONNX.

    input_names/output_names name the graph's inputs and outputs (default input_<i>,
    output_<i>; an argument that is a list of tensors, as detection models take, gives one
    input per tensor, and nested outputs one output per tensor); dynamic_axes
    ({"input": {0: "batch"}} or {"input": [0]}) leaves those dimensions free. The default opset is 9, as in torch 1.8; HardSwish is a single node
    from opset 14 on. Constants computed only from weights are folded when
    do_constant_folding is set."""
    onnx, helper, numpy_helper = _import_onnx()
    opset = DEFAULT_OPSET if opset_version is None else int(opset_version)
    newest = onnx.defs.onnx_opset_version()
    if not MIN_OPSET <= opset <= newest:
        raise ValueError(f"onnx.export: opset_version must be in [{MIN_OPSET}, {newest}], got {opset}")
    if operator_export_type not in (None, OperatorExportTypes.ONNX):
        raise ValueError("onnx.export: only operator_export_type=OperatorExportTypes.ONNX is supported")
    if custom_opsets:
        raise ValueError("onnx.export: custom_opsets are not supported")
    if training == TrainingMode.TRAINING:
        raise ExportError("onnx.export: exporting in training mode is not supported; use TrainingMode.EVAL")
    inputs = args if isinstance(args, tuple) else (args,)
    restore = None
    if training == TrainingMode.EVAL and isinstance(model, core.nn.Module) and model.training:
        restore = model.training
        model.eval()
    _exporting[0] = True
    try:
        root, graph = trace_graph(model, inputs)
        values = _run(root, graph, inputs)
    finally:
        _exporting[0] = False
        if restore is not None:
            model.train(restore)
    fold = do_constant_folding and export_params  # weights given as inputs are not constants
    proto = _build(onnx, helper, numpy_helper, graph, values, opset, export_params, input_names, output_names,
                   fold, dynamic_axes or {}, bool(keep_initializers_as_inputs))
    if verbose:
        print(helper.printable_graph(proto.graph))
    data = proto.SerializeToString()
    with open_sink(f) as stream:
        stream.write(data)


class _Recorder(Interpreter):
    def __init__(self, module):
        super().__init__(module, garbage_collect_values=False)


def _run(root, graph, inputs):
    recorder = _Recorder(GraphModule(root, graph))
    with core.no_grad():
        recorder.run(*inputs)
    return recorder.env


def _value_info(helper, name, value, dynamic):
    if isinstance(value, core.Tensor):
        elem, dims = ONNX_TYPES[numpy_dtype(value.dtype)], list(value.shape)
    elif isinstance(value, (int, bool)):
        elem, dims = ONNX_TYPES[np.dtype("int64")], []
    elif isinstance(value, core.Size):
        elem, dims = ONNX_TYPES[np.dtype("int64")], [len(value)]
    else:
        raise ExportError(f"onnx.export: {name} is a {type(value).__name__}; only tensors can be graph inputs "
                          "and outputs")
    for axis, label in dynamic.items():
        dims[axis] = label
    return helper.make_tensor_value_info(name, elem, dims)


def _dynamic(spec, name):
    axes = spec.get(name, {})
    if isinstance(axes, (list, tuple)):
        return {int(a): f"{name}_dynamic_axes_{i + 1}" for i, a in enumerate(axes)}
    return {int(a): str(label) for a, label in axes.items()}


def _build(onnx, helper, numpy_helper, graph, values, opset, export_params, input_names, output_names,
           fold, dynamic_axes, initializers_as_inputs):
    ctx = ExportContext(helper, numpy_helper, opset)
    ctx.values = values
    graph_inputs, graph_outputs, constants = [], [], set()
    placeholders = [n for n in graph.nodes if n.op == "placeholder"]
    input_names = list(input_names or [])
    for node in placeholders:
        value = values[node]
        # a list of tensors (detection models take [image]) is one graph input per tensor
        is_list = isinstance(value, (list, tuple)) and not isinstance(value, core.Size)
        items = list(value) if is_list else [value]
        names = []
        for item in items:
            i = len(graph_inputs)
            name = input_names[i] if i < len(input_names) else f"input_{i}"
            ctx._used.add(name)
            names.append(name)
            graph_inputs.append(_value_info(helper, name, item, _dynamic(dynamic_axes, name)))
        ctx.names[node] = names if is_list else names[0]
    weight_inputs = []
    for node in graph.nodes:
        if node.op == "placeholder":
            continue
        if node.op == "get_attr":
            name = ctx.constant(_numpy(values[node]), node.target)
            ctx.names[node] = name
            constants.add(node)
            if not export_params or initializers_as_inputs:
                weight_inputs.append(_value_info(helper, name, values[node], {}))
            continue
        if node.op == "output":
            graph_outputs = _outputs(ctx, helper, node, values, output_names, dynamic_axes)
            continue
        if fold and _foldable(node) and all(n in constants for n in node.all_input_nodes) \
                and isinstance(values[node], core.Tensor):
            ctx.names[node] = ctx.constant(_numpy(values[node]), node.name)
            constants.add(node)
            continue
        ctx.names[node] = _convert(ctx, node)
    ctx.nodes = _live_nodes(ctx.nodes, [o.name for o in graph_outputs])
    used = {name for n in ctx.nodes for name in n.input}
    initializers = [i for i in ctx.initializers if i.name in used]  # weights only folded constants read
    weight_inputs = [w for w in weight_inputs if w.name in used]
    if not export_params:
        kept = {i.name for i in initializers} - {w.name for w in weight_inputs}
        initializers = [i for i in initializers if i.name in kept]
    onnx_graph = helper.make_graph(ctx.nodes, "tensorzoo", graph_inputs + weight_inputs, graph_outputs,
                                   initializer=initializers)
    model = helper.make_model(onnx_graph, opset_imports=[helper.make_opsetid("", opset)],
                              producer_name="tensorzoo", producer_version=core.__version__)
    model.ir_version = min(model.ir_version, _ir_version_for(onnx, opset))
    onnx.checker.check_model(model)
    return model


# functions of no input that are constants of the model (random ones are not)
_CREATIONS = {"core.tensor", "op:tensor", "op:zeros", "op:ones", "op:full", "op:arange", "op:linspace", "op:eye"}


def _foldable(node):
    if node.all_input_nodes:
        return True
    return node.op == "call_function" and _key(node) in _CREATIONS


def _live_nodes(nodes, outputs):
    """The nodes the outputs depend on, in order (converters may leave some results unused)."""
    needed, live = set(outputs), []
    for n in reversed(nodes):
        if any(o in needed for o in n.output):
            live.append(n)
            needed.update(n.input)
    return live[::-1]


def _ir_version_for(onnx, opset):
    # the newest IR version that readers of this opset are sure to know
    for ir, op in ((3, 8), (4, 9), (5, 10), (6, 11), (7, 12), (7, 13), (7, 14), (8, 15), (8, 16), (8, 17),
                   (8, 18), (9, 19), (9, 20), (10, 21)):
        if opset <= op:
            return ir
    return onnx.IR_VERSION


def _numpy(value):
    if isinstance(value, core.Tensor):
        return value.detach().contiguous().numpy().copy()
    return np.asarray(value)


def _key(node):
    if node.op == "call_method":
        return f"method:{node.target}"
    try:
        return _targets.name_of(node.target)
    except _targets.UnsafeTargetError:
        return repr(node.target)


def _convert(ctx, node):
    key = _key(node)
    fn = _symbolics.CONVERTERS.get(key)
    if fn is None:
        raise ExportError(f"onnx.export: no ONNX conversion for {key} (node {node.name})")
    ctx.node = node
    if key in _symbolics.RAW:
        return fn(ctx, node.args, node.kwargs)
    return fn(ctx, _symbolics.bind(key, node.target, node.args, node.kwargs))


def _outputs(ctx, helper, node, values, output_names, dynamic_axes):
    leaves = []
    map_aggregate(node.args[0], leaves.append)
    output_names = list(output_names or [])
    infos = []
    for i, leaf in enumerate(leaves):
        name = output_names[i] if i < len(output_names) else f"output_{i}"
        ctx._used.add(name)
        ctx.emit("Identity", [ctx.name_of(leaf)], out=name)
        infos.append(_value_info(helper, name, ctx.value(leaf), _dynamic(dynamic_axes, name)))
    return infos
