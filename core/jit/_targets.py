"""The callables a saved graph may name, and their names in the file.

A jit archive never holds code: each call_function node names its function by one of these
forms, and core.jit.load resolves only these, so a hostile file can call nothing else.

  "op:<name>"                     an op of the C++ op table (core._C._op(name))
  "core.<name>"                   a tensor function core defines in Python (split, einsum, ...)
  "core.nn.functional.<name>"     a public core.nn.functional function
  "operator.<name>"               Python's arithmetic, comparison and indexing operators
  "builtins.getattr"              attribute reads (x.shape, x.dtype); public names only
"""
import builtins
import operator

import core
from core import _C
from core.nn import functional as F

_OP_TYPE = type(_C._op("add"))
# core's Python modules of pure tensor functions (not save/load, threads or RNG state)
_CORE_FUNCTION_MODULES = ("core._creation", "core._distance", "core._dropout", "core._indexing",
                          "core._joining", "core._linalg", "core._normalization", "core._spectral",
                          "core.nn._torch_losses")
_OPERATORS = ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "lshift", "rshift",
              "and_", "or_", "xor", "eq", "ne", "lt", "le", "gt", "ge", "neg", "pos", "invert", "abs",
              "getitem")


class UnsafeTargetError(RuntimeError):
    pass


def name_of(fn):
    """The file name of a call_function target; raises for anything not in the allowed forms."""
    if isinstance(fn, _OP_TYPE):
        return f"op:{fn.__name__}"
    if fn is builtins.getattr or fn is _public_getattr:
        return "builtins.getattr"
    name = getattr(fn, "__name__", None)
    if isinstance(name, str):
        if name in _OPERATORS and getattr(operator, name) is fn:
            return f"operator.{name}"
        if getattr(F, name, None) is fn and not name.startswith("_"):
            return f"core.nn.functional.{name}"
        if getattr(core, name, None) is fn and getattr(fn, "__module__", None) in _CORE_FUNCTION_MODULES:
            return f"core.{name}"
    raise UnsafeTargetError(f"core.jit.save: cannot store a call to {fn!r}: only core ops, core.nn.functional "
                            "functions and Python operators can be saved (wrap other code in core ops)")


def resolve(name):
    """The callable a file name stands for; raises for any name outside the allowed forms."""
    if not isinstance(name, str):
        raise UnsafeTargetError(f"core.jit.load: call target must be a string, got {type(name).__name__}")
    prefix, _, attr = name.rpartition(".") if not name.startswith("op:") else ("op", None, name[3:])
    if not attr or not attr.isidentifier():
        raise UnsafeTargetError(f"core.jit.load: malformed call target {name!r}")
    if prefix == "op":
        try:
            return _C._op(attr)
        except AttributeError:
            raise UnsafeTargetError(f"core.jit.load: the file calls op {attr!r}, which the op table does not have") from None
    if name == "builtins.getattr":
        return _public_getattr
    if prefix == "operator" and attr in _OPERATORS:
        return getattr(operator, attr)
    if prefix == "core.nn.functional" and not attr.startswith("_"):
        fn = getattr(F, attr, None)
        if callable(fn) and getattr(fn, "__module__", "").startswith("core.nn.functional"):
            return fn
    if prefix == "core":
        fn = getattr(core, attr, None)
        if getattr(fn, "__module__", None) in _CORE_FUNCTION_MODULES:
            return fn
    raise UnsafeTargetError(f"core.jit.load: the file calls {name!r}, which is not an allowed function")


def _public_getattr(obj, name):
    if not isinstance(name, str) or name.startswith("_"):
        raise UnsafeTargetError(f"core.jit: reading attribute {name!r} is not allowed in a saved graph")
    return getattr(obj, name)


_public_getattr.__name__ = "getattr"


def check_attribute_read(args):
    """getattr nodes: (value, public attribute name) and nothing else."""
    if len(args) != 2 or not isinstance(args[1], str) or args[1].startswith("_"):
        raise UnsafeTargetError(f"core.jit.load: attribute read {args[1:]!r} is not allowed in a saved graph")


def check_method_name(name):
    """call_method targets: public identifiers only (no dunders, no private helpers)."""
    if not isinstance(name, str) or not name.isidentifier() or name.startswith("_"):
        raise UnsafeTargetError(f"core.jit.load: method name {name!r} is not allowed in a saved graph")
    return name
