"""The named-tensor rule of every op-table entry, generated from the table: each sampled entry
runs on named versions of its sample case with the most dims (dims named by their position from the right,
so broadcasting inputs agree), and its result's names must follow the entry's rule."""
import importlib
import pkgutil

import numpy as np
import pytest

import core

import op_matrix
from op_matrix import registry

for _mod in pkgutil.iter_modules(op_matrix.__path__):
    importlib.import_module(f"op_matrix.{_mod.name}")

RULES = {}
for _table in (core._C._functions, core._C._methods, core._C._internal):
    for _op in _table.values():
        for _sig, _rule in zip(_op.signatures, _op.name_rules):
            RULES.setdefault(_sig.split("(")[0], _rule)
SAMPLED = [e for e in registry.table_entries() if e.kind and RULES[e.name] != "factory"]
UNSUPPORTED = "is not yet supported with named tensors"


def from_right(ndim):
    return tuple(f"d{ndim - 1 - i}" for i in range(ndim))


def named_args(values, first_only):
    """Tensors from the case's arrays (lists of arrays too), named from the right: every one, or
    only the first (contracted dims named apart, or outer()'s two dims named alike, would be rejected)."""
    seen = [0]

    def convert(value):
        if isinstance(value, np.ndarray):
            t = core.tensor(value)
            if not first_only or seen[0] == 0:
                t.names = from_right(t.ndim)
            seen[0] += 1
            return t
        if isinstance(value, list) and value and all(isinstance(v, np.ndarray) for v in value):
            return [convert(v) for v in value]
        return value
    return [convert(v) for v in values]


def arrays_of(case):
    return [a for a in list(case.args) + list(case.kwargs.values()) if isinstance(a, np.ndarray)]


def first_dtype(case):
    first = case.args[0] if case.args else None
    return first.dtype.name if isinstance(first, np.ndarray) else ""


def dims_of_case(case):
    """The sample case to name: the one whose tensors have the most dims, floating point first."""
    arrays = arrays_of(case)
    return (arrays[0].ndim if arrays else 0, sum(a.ndim for a in arrays),
            arrays[0].dtype.kind == "f" if arrays else False)


def result_tensors(value):
    if isinstance(value, core.Tensor):
        return [value]
    if isinstance(value, (tuple, list)):
        return [t for v in value for t in result_tensors(v)]
    return []


def test_every_entry_has_a_real_rule():
    rules = {"keep", "unify", "reduce", "permute", "contract", "factory", "custom", "unsupported", "none"}
    assert set(RULES.values()) <= rules


@pytest.mark.parametrize("entry", SAMPLED, ids=[e.name for e in SAMPLED])
def test_result_names_follow_the_rule(entry):
    rule = RULES[entry.name]
    ref = registry.REFERENCES[entry.name]
    op = registry.op_function(entry, as_method=ref.method)
    cases = [c for c in registry.SAMPLES[entry.kind](np.random.default_rng(0)) if first_dtype(c) not in ref.skip_dtypes]
    case = max(cases, key=dims_of_case)
    named = named_args(list(case.args) + list(case.kwargs.values()), rule in ("contract", "custom"))
    args = named[:len(case.args)]
    kwargs = {k: getattr(core, v) if k == "dtype" and isinstance(v, str) else v
              for k, v in zip(case.kwargs, named[len(case.args):])}
    inputs = [t for a in args + list(kwargs.values()) for t in result_tensors(a)]
    if not any(t.ndim for t in inputs):
        pytest.skip("no input with dims to name")
    if rule == "unsupported":
        with pytest.raises(RuntimeError, match=UNSUPPORTED):
            op(*args, **kwargs)
        return
    result = op(*args, **kwargs)
    first = inputs[0].names
    for out in result_tensors(result):
        names = out.names
        assert len(names) == out.ndim
        if rule == "none":
            assert names == (None,) * out.ndim
        elif rule == "keep" and out.ndim == len(first):
            assert names == first
        elif rule == "unify":
            assert names == from_right(out.ndim)
        elif rule == "reduce":
            kept = [n for n in names if n is not None]
            assert kept == [n for n in first if n in kept] and len(kept) == out.ndim
        elif rule == "permute":
            assert sorted(n for n in names if n) == sorted(n for n in first if n)
        else:  # contract, custom: names drawn from the inputs' (or None for new dims)
            known = {n for t in inputs for n in t.names}
            assert set(names) <= known | {None}
