"""float64 gradcheck (and gradgradcheck) for every differentiable entry of the op table.

Inputs come from the op matrix's sample kinds (tests/core/op_matrix): floating cases are
promoted to float64, including broadcast and non-contiguous (transposed) layouts. Floating
arrays inside Tensor[] arguments (cat, stack, meshgrid...) are inputs too, one per element.
"""
import importlib
import pkgutil

import numpy as np
import pytest

import core
from core import autograd

import op_matrix
from op_matrix import registry

for _mod in pkgutil.iter_modules(op_matrix.__path__):
    importlib.import_module(f"op_matrix.{_mod.name}")

MAX_CASES = 3  # per op: gradcheck is O(numel^2); the op matrix covers breadth

# Entries with complex inputs or outputs: gradcheck is real-valued. tests/core/test_indexing_grad.py
# checks the views by hand, tests/parity/test_elementwise_grad_parity.py imag, and
# tests/core/test_fft_grad.py the FFT primitives (through view_as_real in float64).
COMPLEX_ONLY = {"view_as_real", "view_as_complex", "imag", "_fft_c2c", "_fft_r2c", "_fft_c2r"}


# Quantization takes float32 only (as in PyTorch), too coarse for finite differences; the
# straight-through gradients are checked exactly in tests/core/quantization/test_qtensor.py.
FLOAT32_ONLY = {"fake_quantize_per_tensor_affine", "fake_quantize_per_channel_affine"}


# Casts to a lower precision: finite differences in their output dtype are meaningless;
# tests/core/test_autograd_engine.py checks that their gradients come back cast.
LOWER_PRECISION_CASTS = {"float", "half", "bfloat16"}


ENTRIES = registry.table_entries()
DIFFERENTIABLE = [e for e in ENTRIES if e.kind and e.derivative in ("yes", "first-order")]


def _is_float(a):
    return isinstance(a, np.ndarray) and a.dtype.kind == "f"


def _arrays_of(arg):
    """The arrays an argument holds: itself, or the elements of a Tensor[] list."""
    if isinstance(arg, np.ndarray):
        return [arg]
    if isinstance(arg, list) and arg and all(isinstance(a, np.ndarray) for a in arg):
        return arg
    return []


def _to64(a):
    return a.astype(np.float64) if _is_float(a) else a


def _float_case(case):
    """The case with floating arrays in float64, or None if it has no floating input.
    Tensor[] arguments (lists of arrays) count element by element."""
    if not any(_is_float(a) for arg in case.args for a in _arrays_of(arg)):
        return None
    args = tuple([_to64(a) for a in arg] if _arrays_of(arg) and isinstance(arg, list) else _to64(arg)
                 for arg in case.args)
    if any(_is_float(a) and a.size > 40 for arg in args for a in _arrays_of(arg)):
        return None  # keep finite differences cheap
    return args, case.kwargs


def _tensor(array, transposed):
    if transposed and array.ndim >= 2:
        t = core.from_numpy(np.asfortranarray(array)).detach()
    else:
        t = core.tensor(array)
    return t.requires_grad_()


def _callable(entry, as_method, args, kwargs, transposed):
    op = registry.op_function(entry, as_method)
    # (argument index, list index or None) of every floating array: those become inputs.
    positions = [(i, None) for i, a in enumerate(args) if _is_float(a)]
    positions += [(i, j) for i, a in enumerate(args) if isinstance(a, list)
                  for j, x in enumerate(_arrays_of(a)) if _is_float(x)]
    inputs = [_tensor(args[i] if j is None else args[i][j], transposed) for i, j in positions]

    def static(a):
        if isinstance(a, np.ndarray):
            return core.tensor(a)
        if _arrays_of(a) and isinstance(a, list):
            return [core.tensor(x) for x in a]
        return a

    static_args = [static(a) for a in args]
    kwargs = {k: getattr(core, v) if k == "dtype" and isinstance(v, str) else v for k, v in kwargs.items()}

    def fn(*tensors):
        call = [list(a) if isinstance(a, list) else a for a in static_args]
        for (i, j), t in zip(positions, tensors):
            if j is None:
                call[i] = t
            else:
                call[i][j] = t
        if entry.name.split(".")[0].endswith("_"):
            call[0] = call[0].clone()  # in-place ops can't run on leaves
        return op(*call, **kwargs)

    return fn, inputs


@pytest.mark.parametrize("entry", DIFFERENTIABLE, ids=[e.name for e in DIFFERENTIABLE])
def test_gradcheck(entry):
    name, kind, deriv = entry.name, entry.kind, entry.derivative
    if name in COMPLEX_ONLY:
        pytest.skip("complex input or output: checked by hand (see COMPLEX_ONLY)")
    if name in FLOAT32_ONLY:
        pytest.skip("float32-only op: see FLOAT32_ONLY")
    if name in LOWER_PRECISION_CASTS:
        pytest.skip("cast to a lower precision: checked in tests/core/test_autograd_engine.py")
    ref = registry.REFERENCES.get(name)
    cases = [c for c in (_float_case(c) for c in registry.SAMPLES[kind](np.random.default_rng(0))) if c]
    assert cases, f"{name}: sample kind {kind} has no floating case to gradcheck"
    for i, (args, kwargs) in enumerate(cases[:MAX_CASES]):
        transposed = i == 1 and not (ref and ref.contiguous_only)
        fn, inputs = _callable(entry, ref is not None and ref.method, args, kwargs, transposed)
        assert autograd.gradcheck(fn, inputs, atol=1e-6, rtol=1e-4), name
        if deriv == "yes":
            assert autograd.gradgradcheck(fn, inputs, atol=1e-5, rtol=1e-3), name


def _first_float_output(entry):
    ref = registry.REFERENCES.get(entry.name)
    for case in registry.SAMPLES[entry.kind](np.random.default_rng(0)):
        float_case = _float_case(case)
        if float_case is None:
            continue
        args, kwargs = float_case
        fn, inputs = _callable(entry, ref is not None and ref.method, args, kwargs, False)
        try:
            with core.no_grad():
                outs = fn(*inputs)
        except (TypeError, RuntimeError, ValueError, IndexError):
            continue  # not defined for this floating case (integer-only ops)
        outs = outs if isinstance(outs, (tuple, list)) else (outs,)
        return any(isinstance(o, core.Tensor) and o.dtype.is_floating_point for o in outs)
    return False


def test_no_differentiable_entry_lacks_a_derivative():
    # Every entry whose floating inputs give floating outputs must say how it differentiates
    # (a formula, or explicitly not differentiable); otherwise autograd would raise mid-training.
    missing = [e.name for e in ENTRIES if e.kind and e.derivative == "missing" and _first_float_output(e)]
    assert not missing, f"op table entries without a derivative decision: {missing}"
