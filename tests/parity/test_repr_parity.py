"""repr(tensor) against PyTorch's, character for character (after torch. -> core.)."""
import math

import numpy as np
import pytest

import core

torch = pytest.importorskip("torch")

NAN, INF = math.nan, math.inf
RNG = np.random.default_rng(1234)


def _normal(*shape, scale=1.0, dtype=np.float32):
    return (RNG.standard_normal(shape) * scale).astype(dtype)


def _ints(*shape, low=-100, high=100, dtype=np.int64):
    return RNG.integers(low, high, shape).astype(dtype)


# (label, numpy data, dtype name or None to keep the array's own); complex arrays are complex64.
VALUE_CASES = [
    ("fixed", np.array([1.0, 2.5], np.float32), None),
    ("int_valued", np.array([1.0, 2.0, 3.0], np.float32), None),
    ("int_valued_neg", np.array([-1.0, 20.0, -300.0], np.float32), None),
    ("int_valued_sci_ratio", np.array([1.0, 2000.0], np.float32), None),
    ("int_valued_sci_big", np.array([1.0e9, 2.0e9], np.float32), None),
    ("sci_small", np.array([1e-5, 1.0], np.float32), None),
    ("sci_ratio", np.array([0.1, 1000.5], np.float32), None),
    ("sci_big", np.array([123456789.5], np.float64), None),
    ("nan_inf", np.array([NAN, INF, -INF, 1.5], np.float32), None),
    ("nan_int", np.array([NAN, 1.0], np.float32), None),
    ("all_nan", np.array([NAN, NAN], np.float32), None),
    ("all_inf", np.array([INF, -INF], np.float32), None),
    ("zeros", np.zeros(4, np.float32), None),
    ("neg_zero", np.array([0.0, -0.0, 1.0], np.float32), None),
    ("neg_zero_fixed", np.array([-0.0, 1.25], np.float32), None),
    ("scalar", np.array(3.0, np.float32), None),
    ("scalar_frac", np.array(-3.14159, np.float32), None),
    ("scalar_neg_zero", np.array(-0.0, np.float32), None),
    ("scalar_nan", np.array(NAN, np.float32), None),
    ("scalar_small", np.array(1e-5, np.float32), None),
    ("scalar_big", np.array(1e10, np.float64), None),
    ("scalar_int", np.array(7, np.int64), None),
    ("scalar_int8", np.array(-7, np.int8), None),
    ("scalar_bool", np.array(True), None),
    ("normal_2d", _normal(3, 4), None),
    ("normal_3d", _normal(2, 3, 4), None),
    ("normal_4d", _normal(2, 2, 2, 3), None),
    ("normal_wide", _normal(100), None),
    ("normal_wide_2d", _normal(3, 30), None),
    ("mixed_widths", np.array([1.5, -100.25, 3.0, 12345.5], np.float32), None),
    ("summarized_1d", _normal(1001), None),
    ("summarized_2d", _normal(40, 50, scale=100), None),
    ("summarized_3d", _normal(20, 20, 20), None),
    ("summarized_rows_only", _normal(500, 3), None),
    ("summarized_cols_only", _normal(3, 500), None),
    ("summarized_big_values", _normal(2000, scale=1e6), None),
    ("float64", _normal(2, 3, dtype=np.float64), None),
    ("float64_int_valued", np.array([1.0, 2.0], np.float64), None),
    ("float16", _normal(2, 3, dtype=np.float16), None),
    ("float16_int_valued", np.array([1.0, 65504.0], np.float16), None),
    ("bfloat16", _normal(2, 3), "bfloat16"),
    ("bfloat16_int_valued", np.array([1.0, 2.0, 256.0], np.float32), "bfloat16"),
    ("int64", _ints(3, 4), None),
    ("int64_range", np.array([-2 ** 63, 2 ** 63 - 1, 0]), None),
    ("int64_wide", _ints(100, low=-10 ** 6, high=10 ** 6), None),
    ("int64_summarized", np.arange(5000, dtype=np.int64).reshape(50, 100), None),
    ("int32", _ints(2, 3, dtype=np.int32), None),
    ("int16", _ints(5, dtype=np.int16), None),
    ("int8", _ints(2, 2, dtype=np.int8), None),
    ("uint8", _ints(6, low=0, high=255, dtype=np.uint8), None),
    ("bool", np.array([True, False, True]), None),
    ("bool_2d", RNG.random((3, 3)) < 0.5, None),
    ("bool_summarized", RNG.random(2000) < 0.5, None),
    ("complex", np.array([1 + 2j, -3.5 - 0.5j], np.complex64), None),
    ("complex_int_valued", np.array([1 + 2j, 3 - 4j], np.complex64), None),
    ("complex_zero", np.array([0j, 1j], np.complex64), None),
    ("complex_neg_zero_imag", np.array([complex(1.0, -0.0)], np.complex64), None),
    ("complex_nan", np.array([complex(NAN, 1.0), complex(1.0, INF)], np.complex64), None),
    ("complex_sci", np.array([1e-5 + 1j, 1e5 + 2j], np.complex64), None),
    ("complex_scalar", np.array(1.5 - 2.25j, np.complex64), None),
    ("complex_2d", (_normal(3, 3) + 1j * _normal(3, 3)).astype(np.complex64), None),
    ("complex_summarized", (_normal(1500) + 1j * _normal(1500)).astype(np.complex64), None),
    ("empty", np.zeros(0, np.float32), None),
    ("empty_2d", np.zeros((0, 3), np.float32), None),
    ("empty_3d", np.zeros((2, 0, 3), np.float32), None),
    ("empty_int", np.zeros(0, np.int64), None),
    ("empty_int_2d", np.zeros((3, 0), np.int32), None),
    ("empty_bool", np.zeros(0, np.bool_), None),
    ("empty_float64", np.zeros(0, np.float64), None),
    ("empty_complex", np.zeros(0, np.complex64), None),
    ("one_by_one", np.array([[5.0]], np.float32), None),
    ("column", np.arange(5, dtype=np.float32).reshape(5, 1) / 3, None),
]


def _pair(data, dtype):
    ours = core.from_numpy(data.copy())
    theirs = torch.from_numpy(data.copy())
    if dtype is not None:
        ours, theirs = ours.to(getattr(core, dtype)), theirs.to(getattr(torch, dtype))
    return ours, theirs


def _expected(t):
    return repr(t).replace("torch.", "core.")


@pytest.mark.parametrize("label,data,dtype", VALUE_CASES, ids=[c[0] for c in VALUE_CASES])
def test_repr_matches_torch(label, data, dtype):
    ours, theirs = _pair(data, dtype)
    assert repr(ours) == _expected(theirs)
    assert str(ours) == str(theirs).replace("torch.", "core.")


@pytest.mark.parametrize("label,data,dtype", VALUE_CASES[:30], ids=[c[0] for c in VALUE_CASES[:30]])
def test_repr_of_non_contiguous_matches_torch(label, data, dtype):
    while data.ndim < 2:
        data = np.stack([data, data])
    ours, theirs = _pair(data, dtype)
    assert repr(ours.transpose(0, 1)) == _expected(theirs.transpose(0, 1))


OPTION_CASES = [
    dict(precision=2),
    dict(precision=8),
    dict(precision=0),
    dict(sci_mode=True),
    dict(sci_mode=False),
    dict(threshold=5),
    dict(threshold=5, edgeitems=1),
    dict(threshold=5, edgeitems=0),
    dict(edgeitems=5, threshold=10),
    dict(linewidth=40),
    dict(linewidth=200),
    dict(linewidth=10),
    dict(profile="short"),
    dict(profile="full"),
    dict(profile="short", precision=6),
]


@pytest.fixture
def restore_printoptions():
    yield
    core.set_printoptions(profile="default")
    torch.set_printoptions(profile="default")


@pytest.mark.parametrize("options", OPTION_CASES, ids=[str(o) for o in OPTION_CASES])
def test_printoptions_match_torch(options, restore_printoptions):
    core.set_printoptions(**options)
    torch.set_printoptions(**options)
    for label, data, dtype in VALUE_CASES:
        if data.size > 2000:
            continue  # 'full' prints every element: keep the test quick
        ours, theirs = _pair(data, dtype)
        assert repr(ours) == _expected(theirs), f"{label} with {options}"


def test_default_dtype_float64_changes_suffixes():
    try:
        core.set_default_dtype(core.float64)
        torch.set_default_dtype(torch.float64)
        for label, data, dtype in VALUE_CASES:
            ours, theirs = _pair(data, dtype)
            assert repr(ours) == _expected(theirs), label
    finally:
        core.set_default_dtype(core.float32)
        torch.set_default_dtype(torch.float32)


def test_random_tensors_match_torch():
    rng = np.random.default_rng(7)
    for trial in range(200):
        ndim = int(rng.integers(0, 4))
        shape = tuple(int(s) for s in rng.integers(1, 6, ndim))
        scale = 10.0 ** rng.integers(-6, 10)
        data = np.asarray(rng.standard_normal(shape) * scale, np.float32)
        if rng.random() < 0.3:
            data = np.asarray(np.round(data), np.float32)
        ours, theirs = _pair(data, None)
        assert repr(ours) == _expected(theirs), f"trial {trial}: {shape} scale {scale}"


def test_format_and_tolist_match_torch():
    for data in [np.array(2.5, np.float32), np.array(3), np.array(True)]:
        ours, theirs = _pair(data, None)
        assert f"{ours:.3f}" == f"{theirs:.3f}" if data.dtype.kind == "f" else f"{ours}" == f"{theirs}"
        assert ours.tolist() == theirs.tolist()
