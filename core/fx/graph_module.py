"""fx.GraphModule: a Module whose forward() is Python generated from a Graph."""
import copy
import os
import types

from core import nn
from core.fx._codegen import python_source
from core.fx.graph import Graph


def _copy_attr(from_module, to_module, target):
    """Makes to_module.<target> the object from_module.<target> (sharing it), creating empty
    intermediate Modules on the way."""
    *prefix, field = target.split(".")
    for item in prefix:
        f = getattr(from_module, item)
        t = getattr(to_module, item, None)
        if t is None or t is f:  # a fresh container, so the source's other children stay out
            t = nn.Module()
            setattr(to_module, item, t)
        from_module, to_module = f, t
    value = getattr(from_module, field)
    if isinstance(from_module, nn.Module) and field in from_module._buffers:  # stays a buffer
        to_module.register_buffer(field, value, persistent=field not in from_module._non_persistent_buffers_set)
    else:
        setattr(to_module, field, value)


def _assign_attr(value, to_module, target):
    *prefix, field = target.split(".")
    for item in prefix:
        t = getattr(to_module, item, None)
        if t is None:
            t = nn.Module()
            setattr(to_module, item, t)
        to_module = t
    setattr(to_module, field, value)


class GraphModule(nn.Module):
    """GraphModule(root, graph): holds the submodules, parameters and buffers the graph uses
    (taken from root, a Module or a dict of them) and runs graph as its forward()."""

    def __new__(cls, *args, **kwargs):
        # each instance gets a class of its own, so recompile() can set forward on it
        class GraphModuleImpl(cls):
            pass

        return super().__new__(GraphModuleImpl)

    def __init__(self, root, graph, class_name="GraphModule"):
        super().__init__()
        self.__class__.__name__ = class_name
        if isinstance(root, nn.Module):
            if hasattr(root, "training"):
                self.training = root.training
            for node in graph.nodes:
                if node.op in ("get_attr", "call_module"):
                    _copy_attr(root, self, node.target)
        elif isinstance(root, dict):
            for node in graph.nodes:
                if node.op in ("get_attr", "call_module"):
                    if node.target not in root:
                        raise RuntimeError(f"Node {node} referenced target {node.target} but that target "
                                           "was not provided in root!")
                    _assign_attr(root[node.target], self, node.target)
        else:
            raise RuntimeError(f"GraphModule(): unsupported type {type(root).__name__} for root")
        self.graph = graph

    @property
    def graph(self):
        return self._graph

    @graph.setter
    def graph(self, g):
        if not isinstance(g, Graph):
            raise TypeError(f"GraphModule.graph must be a Graph, got {type(g).__name__}")
        self.__dict__["_graph"] = g
        self.recompile()

    @property
    def code(self):
        """The Python source of forward()."""
        return self._code

    def recompile(self):
        """Regenerates forward() from self.graph (call after editing the graph)."""
        source, globals_ = python_source(self._graph, "self")
        self.__dict__["_code"] = source
        namespace = dict(globals_)
        exec(compile(source, f"<fx-generated {type(self).__name__}>", "exec"), namespace)  # noqa: S102
        type(self).forward = namespace["forward"]
        return source

    def to_folder(self, folder, module_name="FxModule"):
        """Writes a package to folder: module.py (a Module class with the generated forward)
        and state.pt (its tensors), importable without this GraphModule."""
        import core

        os.makedirs(folder, exist_ok=True)
        source, globals_ = python_source(self._graph, "self")
        imports = []
        for name, value in globals_.items():
            if isinstance(value, types.ModuleType):
                imports.append(f"import {value.__name__}" if name == value.__name__
                               else f"import {value.__name__} as {name}")
            elif name not in ("inf", "nan"):
                raise NotImplementedError(f"to_folder(): the code refers to {value!r}, which cannot be written as source")
        builds, attrs = [], {}
        for node in self._graph.nodes:
            if node.op == "call_module":
                builds.append(f"        _install(self, {node.target!r}, {_module_source(self.get_submodule(node.target))})")
            elif node.op == "get_attr":
                value = _fetch(self, node.target)
                kind = "parameter" if isinstance(value, nn.Parameter) else "buffer" if _is_buffer(self, node.target) else "constant"
                attrs[node.target] = (kind, value)
        state = {"state_dict": self.state_dict(), "attrs": {k: v for k, (_, v) in attrs.items()}}
        core.save(state, os.path.join(folder, "state.pt"))
        kinds = {k: kind for k, (kind, _) in attrs.items()}
        forward = source.strip().replace("\n", "\n    ")
        text = "\n".join([
            '"""Written by core.fx.GraphModule.to_folder."""', "import os", "",
            *sorted(set(imports) | {"import core"}), "from core import nn", "", "",
            "def _install(root, path, value, kind='module'):",
            "    *parents, field = path.split('.')",
            "    for atom in parents:",
            "        if not hasattr(root, atom):",
            "            setattr(root, atom, nn.Module())",
            "        root = getattr(root, atom)",
            "    if kind == 'buffer':",
            "        root.register_buffer(field, value)",
            "    else:",
            "        setattr(root, field, nn.Parameter(value) if kind == 'parameter' else value)",
            "", "", f"class {module_name}(nn.Module):", "    def __init__(self):", "        super().__init__()",
            *builds,
            "        state = core.load(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'state.pt'))",
            f"        kinds = {kinds!r}",
            "        for path, value in state['attrs'].items():",
            "            _install(self, path, value, kinds[path])",
            "        self.load_state_dict(state['state_dict'])",
            "", f"    {forward}", ""])
        with open(os.path.join(folder, "module.py"), "w") as f:
            f.write(text)
        with open(os.path.join(folder, "__init__.py"), "w") as f:
            f.write(f"from .module import {module_name}  # noqa: F401\n")

    def __copy__(self):
        return GraphModule(self, self._graph, type(self).__name__)

    def __deepcopy__(self, memo):
        fake = nn.Module()
        fake.__dict__ = copy.deepcopy({k: v for k, v in self.__dict__.items() if k != "_graph"}, memo)
        new_graph = Graph()
        output = new_graph.graph_copy(self._graph, {})
        new_graph.output(output)
        return GraphModule(fake, new_graph, type(self).__name__)

    def __str__(self):
        return super().__str__() + "\n\n\n" + self._code.strip() + "\n"


def _fetch(root, target):
    for atom in target.split("."):
        root = getattr(root, atom)
    return root


def _is_buffer(root, target):
    *parents, field = target.split(".")
    owner = _fetch(root, ".".join(parents)) if parents else root
    return isinstance(owner, nn.Module) and field in owner._buffers


def _module_source(module):
    """`nn.Conv2d(3, 16, kernel_size=(3, 3), ...)` for a core.nn module whose repr rebuilds it."""
    text = repr(module)
    cls = type(module).__name__
    if "\n" in text or getattr(nn, cls, None) is not type(module) or not text.startswith(cls + "("):
        raise NotImplementedError(f"to_folder(): cannot write {cls} as source")
    return f"nn.{text}"
