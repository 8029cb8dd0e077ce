"""core.jit.trace: record the functions a model runs on example inputs, down to core ops and
core.nn.functional calls (no module calls remain), into a graph of the fx kind.

Tracing is by execution, like torch.jit.trace: every recorded call also runs on the example
values, so Python control flow and shape arithmetic see real values and take the branch
the example takes (the graph is specialised to it, as in PyTorch).
"""
import inspect
import warnings

import core
from core import fx, nn
from core.fx.node import map_aggregate
from core.fx.proxy import Attribute, Proxy


class TracerWarning(Warning):
    pass


class TracingCheckError(RuntimeError):
    pass


def _value(a):
    if isinstance(a, Attribute):
        return getattr(_value(a.root), a.attr)
    if isinstance(a, Proxy):
        return a.value
    return a


def _values(a):
    return map_aggregate(a, _value)


def _holds_tensor(value):
    found = []
    map_aggregate(value, lambda v: found.append(v) if isinstance(v, core.Tensor) else None)
    return bool(found)


def _fetch(root, target):
    # reads module attributes without Module.__getattr__, which tracing redirects
    value = root
    for atom in target.split("."):
        if isinstance(value, nn.Module):
            for table in (value._parameters, value._buffers, value._modules, value.__dict__):
                if atom in table:
                    value = table[atom]
                    break
            else:
                raise AttributeError(f"trace(): {target!r} not found")
        else:
            value = getattr(value, atom)
    return value


# tensor attributes a trace keeps as the example's (a dtype computed in the graph has no use)
_FIXED_ATTRIBUTES = frozenset({"dtype", "device", "is_cuda", "layout"})


class _ValueProxy(Proxy):
    """A Proxy that also carries the value it has on the example inputs."""

    def __init__(self, node, tracer, value):
        super().__init__(node, tracer)
        self.value = value

    def __getattr__(self, k):
        if k in _FIXED_ATTRIBUTES and isinstance(self.value, core.Tensor):
            return getattr(self.value, k)  # constants of the trace, as in torch.jit.trace
        return super().__getattr__(k)

    def __int__(self):
        return int(self.tracer.concrete(self, "a Python int"))

    def __float__(self):
        return float(self.tracer.concrete(self, "a Python float"))


def _defaults_beyond(root, n_examples):
    """Parameters after the examples that default to a Python value (targets=None): constants of
    the trace, as in torch.jit.trace, so that `if targets is not None` sees the real None."""
    fn = type(root).forward if isinstance(root, nn.Module) else root
    params = list(inspect.signature(fn).parameters.values())[1 if isinstance(root, nn.Module) else 0:]
    return {p.name: p.default for p in params[n_examples:]
            if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and p.default is not p.empty
            and not isinstance(p.default, core.Tensor)}


class ValueTracer(fx.Tracer):
    """fx.Tracer that descends into every module and runs each call on example values."""

    def is_leaf_module(self, m, module_qualified_name):
        return False

    def trace_with_values(self, root, example_inputs):
        self._examples = list(example_inputs)
        self._static = set()  # nodes computed from the model's tensors alone
        return self.trace(root, _defaults_beyond(root, len(self._examples)))

    def create_proxy(self, kind, target, args, kwargs, name=None, type_expr=None):
        if kind == "placeholder":
            if self._examples:
                value = self._examples.pop(0)
            elif args:
                value = args[0]  # the parameter's default
            else:
                raise TypeError(f"trace(): no example input for parameter {target!r}")
        elif kind == "get_attr":
            value = _fetch(self.root, target)
        else:
            value = self._run(kind, target, _values(args), _values(kwargs))
            if not _holds_tensor(value) and self._folds(target, args, kwargs):
                return value  # e.g. shape arithmetic on weights: a constant of the traced model
        node = self.create_node(kind, target, self.create_arg(args), self.create_arg(kwargs), name, type_expr)
        if kind == "get_attr" or (kind != "placeholder" and self._from_attributes_only(args, kwargs)):
            self._static.add(node)
        return _ValueProxy(node, self, value)

    def _folds(self, target, args, kwargs):
        return self._from_attributes_only(args, kwargs)

    def _from_attributes_only(self, args, kwargs):
        proxies = []
        map_aggregate((args, kwargs), lambda a: proxies.append(a) if isinstance(a, Proxy) else None)
        return bool(proxies) and all(self._is_static(p) for p in proxies)

    def _is_static(self, proxy):
        while isinstance(proxy, Attribute):
            proxy = proxy.root
        return proxy.node in self._static

    def create_arg(self, a):
        if isinstance(a, Attribute) and self._is_static(a) and not isinstance(_value(a), core.Tensor):
            return _value(a)  # e.g. weight.shape: a constant
        return super().create_arg(a)

    @staticmethod
    def _run(kind, target, args, kwargs):
        if kind == "call_function":
            return target(*args, **kwargs)
        if kind == "call_method":
            return getattr(args[0], target)(*args[1:], **kwargs)
        raise RuntimeError(f"trace(): unexpected {kind} node")

    def concrete(self, proxy, use):
        value = _value(proxy)
        if isinstance(value, core.Tensor):
            warnings.warn(f"Converting a tensor to {use} might cause the trace to be incorrect: the "
                          "traced graph keeps the value of this example and will not change with "
                          "other inputs", TracerWarning, stacklevel=3)
        return value

    def to_bool(self, obj):
        return bool(self.concrete(obj, "a Python boolean"))

    def len(self, obj):
        return len(self.concrete(obj, "len()"))

    def index(self, obj):
        return self.concrete(obj, "an index or size of a Python object").__index__()

    def iter(self, obj):
        return iter([obj[i] for i in range(len(self.concrete(obj, "an iterator")))])

    def keys(self, obj):
        return self.concrete(obj, "dict keys").keys()


class OpTracer(ValueTracer):
    """Records op-table calls only (core.nn.functional runs its Python on the values) and
    specialises to the example's shapes: sizes and other Python values become constants."""

    autowrap_namespaces = ()

    def _folds(self, target, args, kwargs):
        if target in ("item", "tolist"):
            warnings.warn(f"{target}() of a tensor becomes a constant of the compiled program",
                          TracerWarning, stacklevel=4)
        return True


def trace_graph(func, example_inputs, tracer_class=ValueTracer):
    """(root module, graph) of func (a Module or a function) run on example_inputs."""
    if isinstance(example_inputs, core.Tensor) or not isinstance(example_inputs, (tuple, list)):
        example_inputs = (example_inputs,)
    tracer = tracer_class()
    with core.no_grad():
        graph = tracer.trace_with_values(func, example_inputs)
    if tracer._examples:
        raise TypeError(f"trace(): {len(tracer._examples)} example input(s) more than the function takes")
    graph.eliminate_dead_code()
    return tracer.root, graph


def check_outputs(name, got, want):
    """Raises TracingCheckError when the traced graph disagrees with eager on the examples."""
    got_leaves, want_leaves = [], []
    map_aggregate(got, got_leaves.append)
    map_aggregate(want, want_leaves.append)
    if len(got_leaves) != len(want_leaves):
        raise TracingCheckError(f"{name}: the traced graph returns a different structure than the module")
    for g, w in zip(got_leaves, want_leaves):
        if isinstance(w, core.Tensor):
            if not isinstance(g, core.Tensor) or g.shape != w.shape or not core.allclose(g, w, rtol=1e-5, atol=1e-5,
                                                                                          equal_nan=True):
                raise TracingCheckError(f"{name}: the traced graph's outputs differ from the Python function's "
                                        "on the example inputs (does it depend on randomness or mutate state?)")
        elif g != w:
            raise TracingCheckError(f"{name}: traced output {g!r} differs from the Python function's {w!r}")


def reject_mutable_outputs(result):
    if isinstance(result, (list, dict)):
        raise RuntimeError("Encountering a list or dict at the output of the tracer might cause the trace to be "
                           "incorrect; return a tuple instead, or pass strict=False")
    if isinstance(result, tuple):
        for item in result:
            reject_mutable_outputs(item)


def is_module(obj):
    return isinstance(obj, nn.Module)
