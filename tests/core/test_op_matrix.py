"""Every op in the op table against its numpy reference (see op_matrix/__init__.py)."""
import importlib
import pkgutil

import numpy as np
import pytest

import core
from core import _C

from op_matrix import registry

# Import every refs_*/samples module so they register themselves.
import op_matrix

for _mod in pkgutil.iter_modules(op_matrix.__path__):
    importlib.import_module(f"op_matrix.{_mod.name}")


def _table_entries():
    """(full name, sample kind, is_method_only) for every op table entry with a sample."""
    seen = {}
    for table, method in ((_C._functions, False), (_C._methods, True)):
        for name, op in table.items():
            for sig, kind in zip(op.signatures, op.samples):
                full = sig.split("(")[0]
                if full not in seen:
                    seen[full] = (kind, method)
    return sorted((name, kind, method) for name, (kind, method) in seen.items())


ENTRIES = _table_entries()


def test_every_sampled_op_has_a_reference():
    missing = [name for name, kind, _ in ENTRIES if kind and name not in registry.REFERENCES]
    assert not missing, f"ops with a sample kind but no numpy reference: {missing}"


def test_every_sample_kind_exists():
    unknown = sorted({kind for _, kind, _ in ENTRIES if kind and kind not in registry.SAMPLES})
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


@pytest.mark.parametrize("name,kind,method", [e for e in ENTRIES if e[1]], ids=[e[0] for e in ENTRIES if e[1]])
def test_op_against_numpy(name, kind, method):
    ref = registry.REFERENCES[name]
    base = name.split(".")[0]
    cases = registry.SAMPLES[kind](np.random.default_rng(0))
    assert cases, f"sample kind {kind} produced no cases"
    for case in cases:
        first = case.args[0] if case.args else None
        dtype = first.dtype.name if isinstance(first, np.ndarray) else ""
        if dtype in ref.skip_dtypes:
            continue
        expected = ref.fn(*[a.copy() if isinstance(a, np.ndarray) else a for a in case.args], **case.kwargs)
        for layout in range(1 if ref.contiguous_only else 3):
            args = [_to_core(a, layout) for a in case.args]
            kwargs = {k: _to_core(v, layout, k) for k, v in case.kwargs.items()}
            if method or ref.method:
                ours = getattr(args[0], base)(*args[1:], **kwargs)
            else:
                ours = getattr(core, base)(*args, **kwargs)
            _assert_close(ours, expected, ref, f"{name} {case.label} layout={layout}")
