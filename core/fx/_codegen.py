"""Python source for a Graph: `def forward(self, ...)` plus the globals it refers to."""
import builtins
import importlib
import math
import types

import core
from core.fx._qualname import qualified_name
from core.fx.node import BINARY_SYNTAX, UNARY_SYNTAX, Node


class _Globals:
    """The names generated code uses besides its own variables, each bound once."""

    def __init__(self, taken):
        self.values = {"inf": math.inf, "nan": math.nan}
        self._taken = set(taken) | set(self.values)

    def _bind(self, wanted, value):
        name, n = wanted, 0
        while True:
            bound = self.values.get(name, _MISSING)
            if bound is value:
                return name
            if bound is _MISSING and name not in self._taken and not hasattr(builtins, name):
                break
            n += 1
            name = f"{wanted}_{n}"
        self.values[name] = value
        self._taken.add(name)
        return name

    def reference(self, obj):
        """An expression naming obj: 'core.nn.functional.relu', 'getattr', or a bound name."""
        if isinstance(obj, types.ModuleType):
            return self._bind(obj.__name__.replace(".", "_"), obj)
        if getattr(builtins, getattr(obj, "__name__", ""), None) is obj:
            return obj.__name__
        path = qualified_name(obj)
        if path is None:
            return self._bind(f"_{getattr(obj, '__name__', type(obj).__name__)}", obj)
        module_name, _, attrs = path.partition(":")
        top = module_name.split(".")[0]
        alias = self._bind(top, importlib.import_module(top))
        return ".".join([alias, *module_name.split(".")[1:], attrs])

    def constant(self, value):
        return self._bind(f"_{type(value).__name__.lower()}_constant", value)


_MISSING = object()


def format_value(v, names):
    """Python source for an argument value (nodes by name, containers recursively)."""
    if isinstance(v, Node):
        return v.name
    if isinstance(v, tuple):
        items = [format_value(x, names) for x in v]
        if hasattr(v, "_fields"):
            return f"{names.reference(type(v))}({', '.join(items)})"
        return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"
    if isinstance(v, list):
        return f"[{', '.join(format_value(x, names) for x in v)}]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{format_value(k, names)}: {format_value(x, names)}" for k, x in v.items()) + "}"
    if isinstance(v, slice):
        return f"slice({format_value(v.start, names)}, {format_value(v.stop, names)}, {format_value(v.step, names)})"
    if isinstance(v, float) and not math.isfinite(v):
        return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")
    if v is None or v is Ellipsis or isinstance(v, (bool, int, float, str, complex)):
        return repr(v)
    text = repr(v)
    if text.startswith("core.") and getattr(core, text[5:], None) is v:  # dtypes, memory formats
        return f"{names.reference(core)}.{text[5:]}"
    return names.constant(v)


def _call_args(args, kwargs, names):
    parts = [format_value(a, names) for a in args]
    parts += [f"{k}={format_value(v, names)}" for k, v in kwargs.items()]
    return ", ".join(parts)


def _attribute(base, attr_path):
    """`self.layer1.conv`, or getattr(...) for atoms that are not identifiers ('features.0')."""
    expr = base
    for atom in attr_path.split("."):
        expr = f"{expr}.{atom}" if atom.isidentifier() else f"getattr({expr}, {atom!r})"
    return expr


def _node_expr(node, root, names):
    op, target = node.op, node.target
    if op == "get_attr":
        return _attribute(root, target)
    if op == "call_module":
        return f"{_attribute(root, target)}({_call_args(node.args, node.kwargs, names)})"
    if op == "call_method":
        receiver = format_value(node.args[0], names)
        return f"{receiver}.{target}({_call_args(node.args[1:], node.kwargs, names)})"
    if not node.kwargs and target in BINARY_SYNTAX and len(node.args) == 2:
        return BINARY_SYNTAX[target].format(*(format_value(a, names) for a in node.args))
    if not node.kwargs and target in UNARY_SYNTAX and len(node.args) == 1:
        return UNARY_SYNTAX[target].format(format_value(node.args[0], names))
    if (target is builtins.getattr and len(node.args) == 2 and isinstance(node.args[1], str)
            and node.args[1].isidentifier()):
        return f"{format_value(node.args[0], names)}.{node.args[1]}"
    return f"{names.reference(target)}({_call_args(node.args, node.kwargs, names)})"


def python_source(graph, root="self"):
    """(source of `def forward(self, ...)`, globals dict it needs)."""
    nodes = list(graph.nodes)
    names = _Globals(n.name for n in nodes)
    last_use = {}
    for node in nodes:
        for arg in node.all_input_nodes:
            last_use[arg] = node
    dies_at = {}
    for value, user in last_use.items():
        dies_at.setdefault(user, []).append(value.name)

    params, body = [], []
    for node in nodes:
        if node.op == "placeholder":
            default = f" = {format_value(node.args[0], names)}" if node.args else ""
            params.append(f"{node.target}{default}")
            if node.target != node.name:
                body.append(f"{node.name} = {node.target}")
            continue
        if node.op == "output":
            body.append(f"return {format_value(node.args[0], names)}")
            continue
        line = f"{node.name} = {_node_expr(node, root, names)}"
        freed = [v for v in dies_at.get(node, ()) if v != node.name]
        if not node.users:
            freed.append(node.name)
        if freed:
            line += "".join(f";  {v} = None" for v in freed)
        body.append(line)
    if not body or not body[-1].startswith("return"):
        body.append("return None")
    signature = ", ".join([root, *params])
    source = f"\n\ndef forward({signature}):\n" + "".join(f"    {line}\n" for line in body)
    return source, names.values
