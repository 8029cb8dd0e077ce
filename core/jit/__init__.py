"""core.jit: a model leaves Python as a graph of core ops that is saved, loaded and run with
no model code (the project's answer to TorchScript for deployment).

trace(model, example_inputs) records what the model computes on the example; save/load
write and read it as one zip file (format in _archive.py); loading runs nothing from the
file. Files: _trace (tracing by execution), _targets (the functions a file may call),
_archive (the file format).
"""
import core
from core import nn
from core.fx.graph_module import GraphModule
from core.jit import _archive
from core.jit._archive import ArchiveError
from core.jit._compile import CompileError, CompiledModule
from core.jit._targets import UnsafeTargetError
from core.jit._trace import TracerWarning, TracingCheckError, check_outputs, reject_mutable_outputs, trace_graph

__all__ = ["trace", "save", "load", "optimize_for_inference", "compile", "ScriptModule", "TracedModule",
           "CompiledModule", "TracerWarning", "TracingCheckError", "ArchiveError", "UnsafeTargetError", "CompileError"]


class ScriptModule(GraphModule):
    """A module made of a graph of core functions: runs, saves and loads without Python model code."""

    def save(self, f):
        """core.jit.save(self, f)."""
        save(self, f)


class TracedModule(ScriptModule):
    """What core.jit.trace returns."""


def trace(func, example_inputs, check_trace=True, strict=True, check_inputs=None, check_tolerance=1e-5):
    """Records func (a Module or a function of tensors) as run on example_inputs (a tensor or
    a tuple of them) and returns a TracedModule. Python control flow is resolved with the
    example's values (a TracerWarning says where a tensor was turned into a Python value).
    check_trace re-runs both on the examples (and on check_inputs) and raises
    TracingCheckError if they disagree. strict=True refuses list or dict outputs."""
    inputs = example_inputs if isinstance(example_inputs, tuple) else (example_inputs,)
    root, graph = trace_graph(func, inputs)
    name = type(func).__name__ if isinstance(func, nn.Module) else getattr(func, "__name__", "function")
    traced = TracedModule(root, graph, name)
    if isinstance(func, nn.Module):
        traced.train(func.training)
    if strict or check_trace:
        with core.no_grad():
            want = func(*inputs)
        if strict:
            reject_mutable_outputs(want)
        if check_trace:
            for args in [inputs, *(check_inputs or [])]:
                args = args if isinstance(args, tuple) else (args,)
                with core.no_grad():
                    check_outputs(f"trace({name})", traced(*args), want if args is inputs else func(*args))
    return traced


def save(m, f, _extra_files=None):
    """Writes a ScriptModule (from trace or load) to a path or binary file object, atomically."""
    if not isinstance(m, ScriptModule):
        raise TypeError(f"core.jit.save: expected a ScriptModule (from core.jit.trace), got {type(m).__name__}")
    if _extra_files:
        raise NotImplementedError("core.jit.save: _extra_files are not supported")
    _archive.save_module(m, f)


def load(f, map_location=None, _extra_files=None):
    """Reads a file written by core.jit.save and returns a ScriptModule. Only the graph's
    JSON and the safe tensor unpickler are read: a hostile or corrupt file raises and runs
    nothing."""
    graph, attributes = _archive.load_archive(f, map_location)
    root = nn.Module()
    for path, (tensor, kind) in attributes.items():
        _install(root, path, tensor, kind)
    module = ScriptModule(root, graph, "ScriptModule")
    module.eval()
    return module


def _install(root, path, tensor, kind):
    *parents, field = path.split(".")
    for atom in parents:
        child = root._modules.get(atom)
        if child is None:
            child = nn.Module()
            root.add_module(atom, child)
        root = child
    if kind == "parameter":
        root.register_parameter(field, tensor if isinstance(tensor, nn.Parameter) else nn.Parameter(tensor))
    elif kind == "buffer":
        root.register_buffer(field, tensor)
    else:
        setattr(root, field, tensor)


def optimize_for_inference(mod, other_methods=None):
    """An inference-only CompiledModule of mod (a traced, loaded or plain module in eval
    mode): BatchNorm folded into convolutions, activations and residual adds applied in
    place on the convolution's output, channels-last activations, values freed at their
    last use, and every op run from C++ (see _compile.py). It compiles on its first call,
    and again for each new input shape."""
    if other_methods:
        raise NotImplementedError("optimize_for_inference(): other_methods is not supported")
    if isinstance(mod, nn.Module) and mod.training:
        raise RuntimeError("optimize_for_inference(): the module is in training mode; call .eval() first")
    return CompiledModule(mod)


def compile(model, example_inputs=None):  # noqa: A001 - torch.compile's name
    """core.compile(model, example_inputs): optimize_for_inference in one call, compiled now
    for example_inputs (a tensor or a tuple) when they are given."""
    compiled = optimize_for_inference(model)
    if example_inputs is not None:
        compiled.program_for(*(example_inputs if isinstance(example_inputs, tuple) else (example_inputs,)))
    return compiled
