"""A GraphDef of a module for TensorBoard's graph view, without a tracer (core.fx/core.jit do
not exist yet).

With example inputs, the model runs once under autograd: every node of the autograd graph
becomes an op node, scoped by the module whose forward created it (torch's naming:
"Net/Sequential[features]/Conv2d[0]/Convolution"), with parameter and input/output nodes
at the leaves. Ops that record no gradient (integer results, no_grad blocks) do not appear.
Without inputs, the graph is the module tree alone: one node per module, no edges.
"""
import re
from collections import defaultdict

import core
from core._tensor import Tensor
from core.utils.tensorboard._proto import proto


def _tensors(value):
    """The tensors in a (nested) forward input or output, in order."""
    if isinstance(value, Tensor):
        return [value]
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, (list, tuple)):
        return [t for item in value for t in _tensors(item)]
    return []


def _scope_names(model):
    """module -> its scope: "Net/Sequential[features]/Conv2d[0]"."""
    scopes = {model: type(model).__name__}
    for name, module in model.named_modules():
        if module is model:
            continue
        parent, _, attr = name.rpartition(".")
        parent_scope = scopes[model.get_submodule(parent)] if parent else scopes[model]
        scopes.setdefault(module, f"{parent_scope}/{type(module).__name__}[{attr}]")
    return scopes


def _op_name(node):
    return re.sub(r"Backward\d*$", "", node.name()) or node.name()


class _Recorder:
    """Assigns each autograd node the innermost module whose forward created it."""

    def __init__(self, scopes):
        self.scopes = scopes
        self.scope_of = {}      # autograd node -> scope
        self.boundaries = []    # per active module call: the grad_fns of its inputs

    def pre_hook(self, module, inputs):
        self.boundaries.append({t.grad_fn for t in _tensors(inputs) if t.grad_fn is not None})

    def hook(self, module, inputs, output):
        # Walk back from the outputs to the inputs: the unclaimed nodes on the way are this
        # module's own (those of submodules were claimed when their forwards returned).
        boundary = self.boundaries.pop()
        stack = [t.grad_fn for t in _tensors(output) if t.grad_fn is not None]
        seen = set()
        while stack:
            node = stack.pop()
            if node is None or node in seen or node in boundary or node.name() == "AccumulateGrad":
                continue
            seen.add(node)
            self.scope_of.setdefault(node, self.scopes[module])
            stack.extend(next_node for next_node, _ in node.next_functions)


def _node_def(name, op, inputs=(), attrs=None):
    attr_value = proto("attr_value").AttrValue
    attr = {k: attr_value(s=str(v).encode()) for k, v in (attrs or {}).items()}
    return proto("node_def").NodeDef(name=name, op=op, input=list(inputs), attr=attr)


def _graph_def(nodes):
    return proto("graph").GraphDef(node=nodes, versions=proto("versions").VersionDef(producer=22))


def structure_graph(model):
    """One node per module, named by its scope, with the module's settings as an attribute."""
    scopes = _scope_names(model)
    return _graph_def([_node_def(scope, type(m).__name__, attrs={"extra_repr": m.extra_repr()})
                       for m, scope in scopes.items()])


def traced_graph(model, example_inputs):
    """The op graph of one forward of `model` on `example_inputs` (a tensor or a tuple)."""
    if isinstance(example_inputs, Tensor):
        example_inputs = (example_inputs,)
    # Inputs become leaves that require grad, so that every op on them is recorded.
    inputs = tuple(t.detach().requires_grad_(t.is_floating_point()) if isinstance(t, Tensor) else t
                   for t in example_inputs)
    scopes = _scope_names(model)
    recorder = _Recorder(scopes)
    handles = []
    for module in scopes:
        handles.append(module.register_forward_pre_hook(recorder.pre_hook))
        handles.append(module.register_forward_hook(recorder.hook))
    try:
        with core.enable_grad():
            output = model(*inputs)
    finally:
        for handle in handles:
            handle.remove()

    input_ids = {id(t) for t in _tensors(inputs)}
    leaf_names = {id(t): f"input/input.{i}" for i, t in enumerate(_tensors(inputs))}
    for module, scope in scopes.items():
        for pname, p in module.named_parameters(recurse=False):
            leaf_names.setdefault(id(p), f"{scope}/{pname}")

    nodes, names, counts = [], {}, defaultdict(int)
    for node in _producers_first([t.grad_fn for t in _tensors(output)]):
        if node.name() == "AccumulateGrad":
            leaf = node.variable
            name = leaf_names.get(id(leaf), f"{scopes[model]}/tensor.{len(names)}")
            op = "IO Node" if id(leaf) in input_ids else "Parameter"
            nodes.append(_node_def(name, op, attrs={"shape": list(leaf.shape), "dtype": leaf.dtype}))
        else:
            base = f"{recorder.scope_of.get(node, scopes[model])}/{_op_name(node)}"
            counts[base] += 1
            name = base if counts[base] == 1 else f"{base}_{counts[base] - 1}"
            sources = [names[n] for n, _ in node.next_functions if n is not None]
            nodes.append(_node_def(name, _op_name(node), sources))
        names[node] = name
    for i, t in enumerate(_tensors(output)):
        sources = [names[t.grad_fn]] if t.grad_fn is not None else []
        nodes.append(_node_def(f"output/output.{i}", "IO Node", sources,
                               attrs={"shape": list(t.shape), "dtype": t.dtype}))
    return _graph_def(nodes)


def _producers_first(roots):
    """The autograd nodes reachable from `roots`, each after the nodes feeding it."""
    order, done = [], set()
    stack = [(node, False) for node in roots if node is not None]
    while stack:
        node, expanded = stack.pop()
        if expanded:
            order.append(node)
            continue
        if node in done:
            continue
        done.add(node)
        stack.append((node, True))
        stack.extend((n, False) for n, _ in reversed(node.next_functions) if n is not None and n not in done)
    return order
