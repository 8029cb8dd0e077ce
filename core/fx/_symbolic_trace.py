"""symbolic_trace / Tracer / wrap: run forward() on Proxies and record what it does."""
import builtins
import functools
import inspect
import sys
import types

import core
from core import nn
from core.fx.graph import Graph
from core.fx.graph_module import GraphModule
from core.fx.node import map_aggregate
from core.fx.proxy import Proxy, TracerBase

# Namespaces whose functions record a call_function node when a Proxy reaches them (the
# role __torch_function__ plays in PyTorch): module attributes and the traced code's globals.
_AUTOWRAP_NAMESPACES = ("core", "core.nn.functional")
_wrapped_fns_to_patch = []  # (globals dict, name) registered by wrap()


def wrap(fn_or_name):
    """At module scope: calls of this free function are recorded as call_function leaves
    instead of being traced through. Takes the function or its name."""
    caller = inspect.currentframe().f_back
    if caller.f_code.co_name != "<module>":
        raise NotImplementedError("wrap must be called at the top level of a module")
    if callable(fn_or_name):
        name = getattr(fn_or_name, "__name__", None)
        if not isinstance(name, str) or caller.f_globals.get(name) is not fn_or_name:
            raise ValueError("wrap(): the function must be a global of the calling module under its own name")
    elif isinstance(fn_or_name, str):
        name = fn_or_name
    else:
        raise TypeError("wrap(): expected a function or a function name")
    _wrapped_fns_to_patch.append((caller.f_globals, name))
    return fn_or_name


def _has_proxy(args, kwargs):
    found = []
    map_aggregate((args, kwargs), lambda a: found.append(a) if isinstance(a, Proxy) else None)
    return found[0] if found else None


def _leaf_function(original):
    """original, but recorded as a call_function node when any argument is a Proxy."""

    @functools.wraps(original)
    def wrapper(*args, **kwargs):
        proxy = _has_proxy(args, kwargs)
        if proxy is not None:
            return proxy.tracer.create_proxy("call_function", original, args, kwargs)
        return original(*args, **kwargs)

    wrapper.__fx_original__ = original
    return wrapper


_OP_TYPE = type(core._C._op("add"))  # the C++ op callables


def _is_autowrappable(value):
    return isinstance(value, (types.FunctionType, _OP_TYPE)) and not getattr(value, "__fx_original__", None)


class _Patcher:
    """Swaps attributes for the duration of a trace and puts everything back afterwards."""

    def __init__(self):
        self._saved = []

    def patch(self, owner, name, new, is_dict=False):
        old = (owner if is_dict else owner.__dict__).get(name, _ABSENT)
        self._saved.append((owner, name, old, is_dict))
        if is_dict:
            owner[name] = new
        else:
            setattr(owner, name, new)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        for owner, name, old, is_dict in reversed(self._saved):
            if is_dict:
                if old is _ABSENT:
                    del owner[name]
                else:
                    owner[name] = old
            elif old is _ABSENT:
                delattr(owner, name)
            else:
                setattr(owner, name, old)
        self._saved.clear()


_ABSENT = object()


class Tracer(TracerBase):
    """Turns a Module or function into a Graph by calling it on Proxies.

    Override is_leaf_module to choose which submodules stay single call_module nodes, and
    call_module / create_proxy / create_arg to change what gets recorded.
    """

    # namespaces whose functions are recorded as calls rather than traced into
    autowrap_namespaces = _AUTOWRAP_NAMESPACES

    def __init__(self, autowrap_modules=()):
        super().__init__()
        self._autowrap_modules = tuple(autowrap_modules)

    # ---- customisation points
    def is_leaf_module(self, m, module_qualified_name):
        """Modules of core.nn (but Sequential) are leaves: recorded, not traced through."""
        return type(m).__module__.startswith("core.nn") and not isinstance(m, nn.Sequential)

    def path_of_module(self, mod):
        path = self._module_paths.get(id(mod))
        if path is None:
            raise NameError("module is not installed as a submodule")
        return path

    def call_module(self, m, forward, args, kwargs):
        qualname = self.path_of_module(m)
        if not self.is_leaf_module(m, qualname):
            return forward(*args, **kwargs)
        return self.create_proxy("call_module", qualname, args, kwargs)

    def create_arg(self, a):
        if isinstance(a, core.Tensor):
            qualname = self._tensor_paths.get(id(a))
            if qualname is None:  # a constant made during tracing: keep it on the root
                qualname = self._add_constant(a)
            return self.create_node("get_attr", qualname, (), {})
        if isinstance(a, nn.Module):
            raise NotImplementedError(f"argument of type: {type(a)} (modules must be called, not passed)")
        return super().create_arg(a)

    def _add_constant(self, tensor):
        i = 0
        while hasattr(self.root, f"_tensor_constant{i}"):
            i += 1
        qualname = f"_tensor_constant{i}"
        setattr(self.root, qualname, tensor)
        self._tensor_paths[id(tensor)] = qualname
        return qualname

    # ---- tracing
    def trace(self, root, concrete_args=None):
        """The Graph of root's forward (or of the function root)."""
        if isinstance(root, nn.Module):
            self.root = root
            fn = type(root).forward
        else:
            self.root = nn.Module()
            fn = root
        self.graph = Graph()
        self._module_paths = {id(m): name for name, m in self.root.named_modules()}
        self._tensor_paths = {}
        for name, t in [*self.root.named_parameters(), *self.root.named_buffers()]:
            self._tensor_paths.setdefault(id(t), name)
        for name, value in _tensor_attributes(self.root):
            self._tensor_paths.setdefault(id(value), name)

        fn_args = self._placeholders(fn, isinstance(root, nn.Module), concrete_args or {})
        with _Patcher() as patcher:
            self._patch(patcher, fn)
            result = fn(*fn_args)
        self.create_node("output", "output", (self.create_arg(result),), {})
        return self.graph

    def _placeholders(self, fn, is_method, concrete_args):
        signature = inspect.signature(fn)
        params = list(signature.parameters.values())
        if is_method:
            params = params[1:]
        args = [self.root] if is_method else []
        unknown = set(concrete_args) - {p.name for p in params}
        if unknown:
            raise TypeError(f"trace(): concrete_args names {sorted(unknown)}, which {fn.__name__}() does not take")
        for p in params:
            if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                raise NotImplementedError(f"trace(): {fn.__name__}() takes *{p.name}; "
                                          "tracing needs named parameters")
            if p.name in concrete_args:
                args.append(concrete_args[p.name])
                continue
            default = () if p.default is inspect.Parameter.empty else (p.default,)
            args.append(self.create_proxy("placeholder", p.name, default, {}))
        return args

    def _patch(self, patcher, fn):
        tracer = self
        module_call = nn.Module.__call__
        module_getattr = nn.Module.__getattr__

        def traced_call(mod, *args, **kwargs):
            return tracer.call_module(mod, lambda *a, **k: module_call(mod, *a, **k), args, kwargs)

        def traced_getattr(mod, name):
            value = module_getattr(mod, name)
            if isinstance(value, nn.Parameter) and id(value) in tracer._tensor_paths:
                return tracer.create_proxy("get_attr", tracer._tensor_paths[id(value)], (), {})
            return value

        patcher.patch(nn.Module, "__call__", traced_call)
        patcher.patch(nn.Module, "__getattr__", traced_getattr)
        wrappers = {}
        for module_name in (*self.autowrap_namespaces, *(m.__name__ for m in self._autowrap_modules)):
            namespace = sys.modules[module_name]
            for name, value in list(vars(namespace).items()):
                if not name.startswith("__") and _is_autowrappable(value):
                    wrapper = wrappers.setdefault(id(value), _leaf_function(value))
                    patcher.patch(namespace, name, wrapper)
        for cls in _module_classes():  # layers holding a function as a class attribute (_fn)
            for name, value in list(vars(cls).items()):
                inner = value.__func__ if isinstance(value, staticmethod) else None
                if inner is not None and id(inner) in wrappers:
                    patcher.patch(cls, name, staticmethod(wrappers[id(inner)]))
        fn_globals = getattr(fn, "__globals__", {})
        for name, value in list(fn_globals.items()):
            if id(value) in wrappers and not name.startswith("__"):
                patcher.patch(fn_globals, name, wrappers[id(value)], is_dict=True)
        for globals_, name in _wrapped_fns_to_patch:
            original = globals_[name] if name in globals_ else getattr(builtins, name, None)
            if original is not None:
                patcher.patch(globals_, name, _leaf_function(original), is_dict=True)


def _module_classes():
    pending, seen = [nn.Module], set()
    while pending:
        cls = pending.pop()
        if cls not in seen:
            seen.add(cls)
            pending.extend(cls.__subclasses__())
    return seen


def _tensor_attributes(root):
    """(qualified name, tensor) of plain tensor attributes (not parameters or buffers)."""
    for prefix, m in root.named_modules():
        for name, value in vars(m).items():
            if isinstance(value, core.Tensor):
                yield (f"{prefix}.{name}" if prefix else name), value


def symbolic_trace(root, concrete_args=None):
    """A GraphModule recording root's forward (root: a Module or a function)."""
    tracer = Tracer()
    graph = tracer.trace(root, concrete_args)
    name = type(root).__name__ if isinstance(root, nn.Module) else root.__name__
    return GraphModule(tracer.root, graph, name)
