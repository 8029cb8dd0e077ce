"""Registries the op matrix is built from: the op table's entries, sample kinds and numpy
references."""
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional

import numpy as np

import core
from core import _C


@dataclass(frozen=True)
class Entry:
    """One op-table entry as the generated tests see it."""
    name: str        # full name: "add", "max.dim"
    kind: str        # sample kind ("" = none)
    where: str       # how Python reaches it: "function" (core.x), "method" (Tensor.x) or "internal" (_C._internal)
    derivative: str  # "yes", "first-order", "no" or "missing"


def table_entries():
    """Every entry of the core op table (functions, Tensor methods and internal ops), by name."""
    seen = {}
    for where, table in (("function", _C._functions), ("method", _C._methods), ("internal", _C._internal)):
        for name, op in table.items():
            for sig, kind, deriv in zip(op.signatures, op.samples, op.derivatives):
                full = sig.split("(")[0]
                seen.setdefault(full, Entry(full, kind, where, deriv))
    return sorted(seen.values(), key=lambda e: e.name)


def op_function(entry, as_method=False):
    """A callable taking the op's arguments (self first), reaching the entry the way Python does."""
    base = entry.name.split(".")[0]
    if as_method or entry.where == "method":
        return lambda self, *args, **kwargs: getattr(self, base)(*args, **kwargs)
    if entry.where == "internal":
        return _C._internal[base]
    return getattr(core, base)


@dataclass
class Case:
    """One call: positional args and kwargs; numpy arrays stand for tensors."""
    args: tuple
    kwargs: dict = field(default_factory=dict)
    label: str = ""


@dataclass
class Reference:
    fn: Callable                     # numpy implementation with the op's signature
    atol: float = 1e-6
    rtol: float = 1e-5
    method: bool = False             # call as a Tensor method (first arg is self)
    skip_dtypes: tuple = ()          # dtype names the op does not support
    compare: Optional[Callable] = None  # custom comparison (ours, expected) -> None
    contiguous_only: bool = False    # the op requires contiguous input (view)


SAMPLES: Dict[str, Callable[[np.random.Generator], List[Case]]] = {}
REFERENCES: Dict[str, Reference] = {}


def sample(kind):
    """Registers a generator of cases for a sample kind."""
    def register(fn):
        assert kind not in SAMPLES, f"sample kind {kind} registered twice"
        SAMPLES[kind] = fn
        return fn
    return register


def reference(name, **options):
    """Registers the numpy reference of op `name` ("add", or "max.dim" for an overload)."""
    def register(fn):
        assert name not in REFERENCES, f"reference {name} registered twice"
        REFERENCES[name] = Reference(fn, **options)
        return fn
    return register


_CATEGORY = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3}


def torch_result_type(*values, default_float=np.float32):
    """PyTorch's result_type for numpy arrays and Python numbers: arrays with dims outrank
    0-d arrays, which outrank Python numbers, unless a lower group has a higher category."""
    def pt_promote(a, b):
        # numpy widens int + float16 to float64 etc.; PyTorch keeps the float type.
        if a.kind in "fc" and b.kind in "biu":
            return a
        if b.kind in "fc" and a.kind in "biu":
            return b
        if {a, b} == {np.dtype(np.uint8), np.dtype(np.int8)}:
            return np.dtype(np.int16)
        return np.promote_types(a, b)

    groups = [[], [], []]
    for v in values:
        if isinstance(v, np.ndarray):
            groups[0 if v.ndim else 1].append(v.dtype)
        elif isinstance(v, bool):
            groups[2].append(np.dtype(np.bool_))
        elif isinstance(v, int):
            groups[2].append(np.dtype(np.int64))
        elif isinstance(v, float):
            groups[2].append(np.dtype(default_float))
        elif isinstance(v, complex):
            groups[2].append(np.dtype(np.complex64))
    result = None
    for group in groups:
        g = None
        for d in group:
            g = d if g is None else pt_promote(g, d)
        if g is None:
            continue
        if result is None or _CATEGORY[g.kind] > _CATEGORY[result.kind]:
            # a lower-priority group only matters when its category is higher; bool
            # tensors take the number's type (bool + 1 -> int64)
            result = g if result is None or result.kind != "b" or g.kind != "b" else result
    return result
