"""Every op in the op table against its numpy reference (see op_matrix/__init__.py)."""
import importlib
import pathlib
import pkgutil

import numpy as np
import pytest

import core

from op_matrix import registry
from op_matrix.exempt import EXEMPT

# Import every refs_*/samples module so they register themselves.
import op_matrix

for _mod in pkgutil.iter_modules(op_matrix.__path__):
    importlib.import_module(f"op_matrix.{_mod.name}")


ENTRIES = registry.table_entries()
SAMPLED = [e for e in ENTRIES if e.kind]


def test_every_entry_is_sampled_or_exempt():
    loose = [e.name for e in ENTRIES if not e.kind and e.name not in EXEMPT]
    assert not loose, f"op table entries with neither a sample kind nor an exemption (op_matrix/exempt.py): {loose}"


def test_exemptions_are_honest():
    by_name = {e.name: e for e in ENTRIES}
    problems = []
    for name, why in EXEMPT.items():
        entry = by_name.get(name)
        if entry is None:
            problems.append(f"{name}: not in the op table")
        elif entry.kind:
            problems.append(f"{name}: has sample kind {entry.kind!r} now, drop the exemption")
        if why.backward_of:
            forward = by_name.get(why.backward_of)
            if forward is None or not forward.kind or forward.derivative not in ("yes", "first-order"):
                problems.append(f"{name}: {why.backward_of} is not a sampled, differentiable entry")
        if why.tested_in:
            path = pathlib.Path(__file__).resolve().parents[1] / why.tested_in
            via = why.via or name.split(".")[0]
            if not path.is_file() or via not in path.read_text():
                problems.append(f"{name}: {why.tested_in} does not exist or never mentions {via!r}")
    assert not problems, "\n".join(problems)


def test_every_sampled_op_has_a_reference():
    missing = [e.name for e in SAMPLED if e.name not in registry.REFERENCES]
    assert not missing, f"ops with a sample kind but no numpy reference: {missing}"


def test_every_sample_kind_exists():
    unknown = sorted({e.kind for e in SAMPLED if e.kind not in registry.SAMPLES})
    assert not unknown, f"op table names unknown sample kinds: {unknown}"


def _layouts(array):
    """The same values as contiguous, transposed (Fortran-order) and strided tensors."""
    yield core.tensor(array)
    if array.ndim >= 2:
        yield core.from_numpy(np.asfortranarray(array))
    if array.ndim >= 1 and array.size > 0:
        wide = np.zeros(array.shape[:-1] + (array.shape[-1] * 2,), dtype=array.dtype)
        wide[..., ::2] = array
        strides = tuple(s // array.itemsize for s in wide.strides)
        yield core.as_strided(core.from_numpy(wide), array.shape, strides[:-1] + (2,))


def _to_core(value, layout_index, key=None):
    if key == "dtype" and isinstance(value, str):
        return getattr(core, value)
    if isinstance(value, np.ndarray):
        layouts = list(_layouts(value))
        return layouts[min(layout_index, len(layouts) - 1)]
    if isinstance(value, list) and value and all(isinstance(v, np.ndarray) for v in value):
        return [_to_core(v, layout_index) for v in value]  # a Tensor[] argument
    return value


def _to_numpy(value):
    if isinstance(value, core.Tensor):
        if value.dtype == core.bfloat16:
            return value.to(core.float32).numpy()
        return value.numpy()
    if isinstance(value, (tuple, list)):
        return type(value)(_to_numpy(v) for v in value)
    return value


def _assert_close(ours, expected, ref, label):
    if ref.compare is not None:
        ref.compare(ours, expected)
        return
    if isinstance(expected, (tuple, list)):
        assert len(ours) == len(expected), label
        for o, e in zip(ours, expected):
            _assert_close(o, e, ref, label)
        return
    ours = _to_numpy(ours)
    expected = np.asarray(expected)
    assert np.shape(ours) == expected.shape, f"{label}: shape {np.shape(ours)} != {expected.shape}"
    if expected.dtype.kind in "fc":
        tol = max(ref.atol, 1e-2) if ours.dtype == np.float16 or expected.dtype == np.float16 else ref.atol
        rtol = max(ref.rtol, 1e-2) if ours.dtype == np.float16 else ref.rtol
        np.testing.assert_allclose(ours.astype(expected.dtype), expected, rtol=rtol, atol=tol,
                                   equal_nan=True, err_msg=label)
        assert ours.dtype == expected.dtype, f"{label}: dtype {ours.dtype} != {expected.dtype}"
    else:
        np.testing.assert_array_equal(ours, expected, err_msg=label)
        assert ours.dtype == expected.dtype, f"{label}: dtype {ours.dtype} != {expected.dtype}"


@pytest.mark.parametrize("entry", SAMPLED, ids=[e.name for e in SAMPLED])
def test_op_against_numpy(entry):
    name = entry.name
    ref = registry.REFERENCES[name]
    op = registry.op_function(entry, as_method=ref.method)
    cases = registry.SAMPLES[entry.kind](np.random.default_rng(0))
    assert cases, f"sample kind {entry.kind} produced no cases"
    for case in cases:
        first = case.args[0] if case.args else None
        dtype = first.dtype.name if isinstance(first, np.ndarray) else ""
        if dtype in ref.skip_dtypes:
            continue
        expected = ref.fn(*[a.copy() if isinstance(a, np.ndarray) else a for a in case.args], **case.kwargs)
        for layout in range(1 if ref.contiguous_only else 3):
            args = [_to_core(a, layout) for a in case.args]
            kwargs = {k: _to_core(v, layout, k) for k, v in case.kwargs.items()}
            ours = op(*args, **kwargs)
            _assert_close(ours, expected, ref, f"{name} {case.label} layout={layout}")
