"""Reductions, scans and softmax: errors, edge cases, NaN and tie rules, accuracy, determinism."""

import numpy as np
import pytest

import core
from support import assert_isa_builds_agree


def T(values, dtype=None):
    return core.tensor(np.asarray(values, dtype=dtype))


# ---------------------------------------------------------------- errors
@pytest.mark.parametrize("call, exc, fragment", [
    (lambda: T([1, 2]).mean(), RuntimeError, "Input dtype must be either a floating point or complex dtype. Got: Long"),
    (lambda: T([1.0]).mean(dtype=core.int64), RuntimeError, "Optional dtype must be either a floating point"),
    (lambda: T([1, 2]).var(), RuntimeError, "std and var only support floating point and complex dtypes"),
    (lambda: T([True]).std(), RuntimeError, "std and var only support"),
    (lambda: T(np.zeros(0, np.float32)).max(), RuntimeError, "Expected reduction dim to be specified for input.numel() == 0"),
    (lambda: T(np.zeros(0, np.float32)).min(), RuntimeError, "Specify the reduction dim with the 'dim' argument"),
    (lambda: T(np.zeros((0, 3), np.float32)).max(0), IndexError, "Expected reduction dim 0 to have non-zero size"),
    (lambda: T(np.zeros((0, 3), np.float32)).amax(), RuntimeError, "Expected reduction dim to be specified"),
    (lambda: T(np.zeros((0, 3), np.float32)).amin(0), IndexError, "dim 0 to have non-zero size"),
    (lambda: T(np.zeros((0, 3), np.float32)).argmax(), IndexError, "Expected reduction dim to be specified"),
    (lambda: T(np.zeros((0, 3), np.float32)).argmin(0), IndexError, "dim 0 to have non-zero size"),
    (lambda: T(np.ones((2, 3), np.float32)).sum(2), IndexError, "out of range"),
    (lambda: T(np.ones((2, 3), np.float32)).sum(-3), IndexError, "out of range"),
    (lambda: T(np.ones((2, 3), np.float32)).sum((0, 0)), RuntimeError, "dim 0 appears multiple times"),
    (lambda: T(np.ones((2, 3), np.float32)).sum((1, -1)), RuntimeError, "appears multiple times"),
    (lambda: T(1.0).sum(1), IndexError, "out of range"),
    (lambda: T([True, False]).argmax(), RuntimeError, "does not support bool input"),
    (lambda: T([1 + 1j], np.complex64).argmax(), RuntimeError, "does not support complex input"),
    (lambda: T([1 + 1j], np.complex64).max(), NotImplementedError, "not implemented for 'ComplexFloat'"),
    (lambda: T([1 + 1j], np.complex64).max(0), RuntimeError, "does not support complex input"),
    (lambda: T([1 + 1j], np.complex64).amax(), NotImplementedError, "ComplexFloat"),
    (lambda: T([1 + 1j], np.complex64).nansum(), RuntimeError, "does not support complex"),
    (lambda: T([1, 2]).norm(), RuntimeError, "Expected a floating point or complex tensor as input. Got Long"),
    (lambda: T([1.0, 2.0]).norm("nuc"), NotImplementedError, "nuclear"),
    (lambda: T([1.0, 2.0]).norm("abc"), RuntimeError, "not supported"),
    (lambda: T(np.zeros(0, np.float32)).norm(float("inf")), RuntimeError, "does not have an identity"),
    (lambda: T(np.zeros((0, 3), np.float32)).norm(-1, 0), RuntimeError, "does not have an identity"),
    (lambda: T([1, 2]).softmax(0), NotImplementedError, "not implemented for 'Long'"),
    (lambda: T([[1, 2]]).log_softmax(0), NotImplementedError, "log_softmax_kernel_impl"),
    (lambda: T([1.0, 2.0]).softmax(0, dtype=core.int32), NotImplementedError, "not implemented for 'Int'"),
    (lambda: T([1.0, 2.0]).softmax(1), IndexError, "out of range"),
    (lambda: T([1.0, 2.0]).cumsum(1), IndexError, "out of range"),
    (lambda: T([1.0, 2.0]).logsumexp(), TypeError, "dim"),
    (lambda: T([1.0, 2.0]).var(0, 1), TypeError, ""),
    (lambda: T([1.0, 2.0]).sum(0, 1), TypeError, "keepdim"),
    (lambda: core.max(T([1.0]), dim=(0, 1)), TypeError, "max"),
])
def test_errors(call, exc, fragment):
    with pytest.raises(exc) as info:
        call()
    assert fragment in str(info.value)


def test_error_names_the_op():
    with pytest.raises(IndexError, match=r"^sum\(\)"):
        T(np.ones(3, np.float32)).sum(3)
    with pytest.raises(RuntimeError, match=r"^var\(\)"):
        T([1, 2]).var()
    with pytest.raises(RuntimeError, match=r"^mean\(\)"):
        T([1, 2]).mean()


# ---------------------------------------------------------------- argument forms
def test_positional_keepdim_and_unbiased():
    x = T(np.arange(6, dtype=np.float32).reshape(2, 3))
    assert x.sum(0, True).shape == (1, 3)
    assert x.amax(1, True).shape == (2, 1)
    assert x.var(0, True, True).shape == (1, 3)
    assert x.var(True).item() == pytest.approx(3.5)
    assert x.var(False).item() == pytest.approx(35 / 12)
    assert x.std(unbiased=False).item() == pytest.approx(np.std(np.arange(6)))
    assert x.var(1, correction=0).numpy() == pytest.approx([2 / 3, 2 / 3])
    assert x.count_nonzero(0, 1).item() == 5  # varargs dims, like PyTorch
    assert x.sum(dim=None).item() == 15
    assert x.sum(()).item() == 15          # an empty dim list reduces everything
    assert x.amax([]).item() == 5


def test_max_returns_named_tuple():
    x = T([[1.0, 5.0, 5.0], [7.0, 2.0, 7.0]])
    r = x.max(1)
    assert type(r).__name__ == "max"
    np.testing.assert_array_equal(r.values.numpy(), [5, 7])
    np.testing.assert_array_equal(r.indices.numpy(), [1, 0])  # first occurrence on ties
    values, indices = core.min(x, 0, keepdim=True)
    assert values.shape == (1, 3) and indices.dtype == core.int64


def test_var_mean_returns_pair():
    x = T([1.0, 2.0, 4.0])
    v, m = core.var_mean(x)
    assert v.item() == pytest.approx(np.var([1, 2, 4], ddof=1))
    assert m.item() == pytest.approx(7 / 3)
    s, m2 = core.std_mean(x, unbiased=False)
    assert s.item() == pytest.approx(np.std([1, 2, 4]))


# ---------------------------------------------------------------- dtypes and empties
def test_result_dtypes():
    assert T([1, 2], np.int32).sum().dtype == core.int64
    assert T([True, True]).sum().item() == 2
    assert T([True, True]).sum().dtype == core.int64
    assert T([1, 2], np.int8).prod().dtype == core.int64
    assert T([1, 2], np.float16).sum().dtype == core.float16
    assert T([1, 2], np.float16).mean().dtype == core.float16
    assert T([1, 2], np.int8).max().dtype == core.int8
    assert T([1, 2], np.int8).cumsum(0).dtype == core.int64
    assert T([True, False]).cumprod(0).dtype == core.int64
    assert T([1, 2], np.int32).cumsum(0, dtype=core.int32).dtype == core.int32
    assert T([1, 2], np.uint8).all().dtype == core.uint8   # as in PyTorch 1.8 and 2.x
    assert T([1, 2], np.uint8).any(0).dtype == core.uint8
    assert T([1.0, 2.0]).all().dtype == core.bool
    assert T([1, 2]).logsumexp(0).dtype == core.float32
    assert T([1 + 2j, 3 - 1j], np.complex64).var().dtype == core.float32
    assert T([1 + 2j, 3 - 1j], np.complex64).norm().dtype == core.float32
    assert T([1, 2], np.int32).sum(dtype=core.float64).dtype == core.float64
    assert T([0.5, 0.7]).sum(dtype=core.int32).item() == 0  # the input is cast first


def test_empty_reductions():
    e = T(np.zeros(0, np.float32))
    assert e.sum().item() == 0
    assert e.prod().item() == 1
    assert np.isnan(e.mean().item())
    assert np.isnan(e.var().item())
    assert e.norm().item() == 0
    assert e.logsumexp(0).item() == -np.inf
    assert e.all().item() is True
    assert e.any().item() is False
    assert e.count_nonzero().item() == 0
    assert T(np.zeros(0, np.int64)).sum().dtype == core.int64
    m = T(np.zeros((2, 0), np.float32))
    np.testing.assert_array_equal(m.sum(1).numpy(), [0, 0])
    np.testing.assert_array_equal(m.prod(1).numpy(), [1, 1])
    assert np.isnan(m.mean(1).numpy()).all()
    assert m.amax(0).shape == (0,)
    assert T(np.zeros((0, 3), np.float32)).max(1).values.shape == (0,)


def test_zero_dim():
    s = T(5.0)
    assert s.sum(0).item() == 5 and s.sum(-1).item() == 5
    assert s.max(0).indices.item() == 0
    assert s.argmax(0).item() == 0
    assert s.softmax(0).item() == 1
    assert s.log_softmax(0).item() == 0
    assert s.logsumexp(0).item() == 5
    assert s.cumsum(0).item() == 5
    assert np.isnan(s.var().item())
    assert s.sum(0, keepdim=True).shape == ()


# ---------------------------------------------------------------- NaN and ties
def test_nan_propagation():
    x = T([1.0, np.nan, 3.0, np.nan])
    assert np.isnan(x.max().item()) and np.isnan(x.min().item())
    assert np.isnan(x.amax().item())
    assert x.argmax().item() == 1 and x.argmin().item() == 1
    r = x.max(0)
    assert np.isnan(r.values.item()) and r.indices.item() == 1
    assert x.nansum().item() == 4
    assert np.isnan(x.sum().item())
    assert np.isnan(x.norm(float("inf")).item())
    m = T([[1.0, 2.0], [np.nan, 0.0], [3.0, np.nan]])
    np.testing.assert_array_equal(m.argmax(0).numpy(), [1, 2])   # column kernel
    np.testing.assert_array_equal(m.argmin(1).numpy(), [0, 0, 1])


def test_ties_pick_the_first_index_in_every_path():
    for n in (7, 100_000):  # plain and chunked (parallel) regions
        a = np.zeros(n, np.float32)
        a[n // 3] = a[2 * n // 3] = 5
        assert T(a).argmax().item() == n // 3
        assert T(a).max(0).indices.item() == n // 3
        assert T(-a).argmin().item() == n // 3
    cols = np.zeros((50, 200), np.float32)
    cols[[10, 30], :] = 1
    np.testing.assert_array_equal(T(cols).argmax(0).numpy(), np.full(200, 10))
    assert T(np.array([0.0, -0.0], np.float32)).argmax().item() == 0
    rng = np.random.default_rng(9)
    for n in range(1, 140):  # every split into vector sets, single vectors and overlapping tails
        for dt in (np.float32, np.float64, np.int64):
            a = rng.integers(-3, 4, n).astype(dt)
            if dt != np.int64 and n > 5:
                a[rng.integers(0, n, 2)] = np.nan
            assert T(a).argmax().item() == np.argmax(a), (n, dt)
            assert T(a).argmin().item() == np.argmin(a), (n, dt)
            assert T(a).max(0).indices.item() == np.argmax(a)


def test_logsumexp_is_stable():
    x = T([[1000.0, 1000.0], [-1000.0, -1000.0], [-np.inf, -np.inf], [np.inf, 1.0]])
    r = x.logsumexp(1).numpy()
    assert r[0] == pytest.approx(1000 + np.log(2))
    assert r[1] == pytest.approx(-1000 + np.log(2))
    assert r[2] == -np.inf and r[3] == np.inf


def test_softmax_is_stable_and_normalised():
    x = T(np.array([[1000.0, 0.0, -1000.0], [1e4, 1e4, 1e4]], np.float32))
    s = x.softmax(1).numpy()
    assert np.isfinite(s).all()
    np.testing.assert_allclose(s.sum(1), 1, rtol=1e-6)
    ls = x.log_softmax(-1).numpy()
    assert ls[0, 0] == 0 and ls[0, 2] == -2000
    nan_row = T([[np.nan, 1.0], [1.0, 2.0]]).softmax(1).numpy()
    assert np.isnan(nan_row[0]).all() and np.isfinite(nan_row[1]).all()
    assert T([1.0, 2.0]).softmax(0, dtype=core.float64).dtype == core.float64
    assert T([1.0, 2.0], np.float16).softmax(0).dtype == core.float16


def test_softmax_along_every_layout():
    rng = np.random.default_rng(1)
    a = rng.normal(size=(3, 70, 5)).astype(np.float32)
    x = core.from_numpy(np.asfortranarray(a))
    for dim in range(3):
        e = np.exp(a - a.max(dim, keepdims=True))
        np.testing.assert_allclose(x.softmax(dim).numpy(), e / e.sum(dim, keepdims=True), rtol=1e-5, atol=1e-7)
        assert x.softmax(dim).is_contiguous()


# ---------------------------------------------------------------- accuracy and determinism
def test_float32_sum_of_10m_elements_is_accurate():
    rng = np.random.default_rng(0)
    x = rng.random(10_000_000, dtype=np.float32)
    exact = x.astype(np.float64).sum()
    ours = float(T(x).sum().item())
    naive = float(np.cumsum(x, dtype=np.float32)[-1])  # one sequential float32 accumulator
    assert abs(ours - exact) / exact < 2e-7
    assert abs(ours - exact) < abs(naive - exact) / 100
    m = float(T(x).mean().item())
    assert abs(m - exact / x.size) / (exact / x.size) < 2e-7
    # columns: 10M elements folded into 16 outputs
    cols = x.reshape(-1, 16)
    exact_cols = cols.astype(np.float64).sum(0)
    rel = np.abs(T(cols).sum(0).numpy() - exact_cols) / exact_cols
    assert rel.max() < 2e-7


def test_accuracy_not_worse_than_torch():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(3)
    x = (rng.random(10_000_000, dtype=np.float32) - 0.3).astype(np.float32)
    exact = x.astype(np.float64).sum()
    ours = abs(float(T(x).sum().item()) - exact)
    theirs = abs(float(torch.from_numpy(x).sum().item()) - exact)
    assert ours <= max(theirs * 2, abs(exact) * 1e-7)


def test_variance_two_pass_accuracy():
    x = (np.random.default_rng(4).random(100_000) + 10_000).astype(np.float32)
    exact = np.var(x.astype(np.float64), ddof=1)
    assert abs(T(x).var().item() - exact) / exact < 1e-3


def test_results_do_not_depend_on_threads():
    rng = np.random.default_rng(5)
    big = T(rng.normal(size=3_000_000).astype(np.float32))
    mat = T(rng.normal(size=(700, 900)).astype(np.float32))
    calls = [lambda: big.sum(), lambda: big.norm(), lambda: big.var(), lambda: big.argmax(),
             lambda: mat.sum(0), lambda: mat.sum(1), lambda: mat.logsumexp(1), lambda: mat.softmax(0),
             lambda: mat.mean((0, 1))]
    before = core.get_num_threads()
    try:
        core.set_num_threads(1)
        single = [c().numpy().copy() for c in calls]
        core.set_num_threads(max(2, before))
        multi = [c().numpy() for c in calls]
    finally:
        core.set_num_threads(before)
    for s, m in zip(single, multi):
        assert s.tobytes() == m.tobytes()


_ISA_SCRIPT = r"""
import json, numpy as np, core
rng = np.random.default_rng(7)
a = rng.normal(size=(37, 1031)).astype(np.float32)
d = rng.normal(size=(5, 333)).astype(np.float64)
x, y = core.tensor(a), core.tensor(d)
f = core.from_numpy(np.asfortranarray(a))
out = {
  "cap": core._C._cpu_capability(),
  "sum": x.sum().numpy().tobytes().hex(), "sum1": x.sum(1).numpy().tobytes().hex(),
  "sum0": x.sum(0).numpy().tobytes().hex(), "fsum1": f.sum(1).numpy().tobytes().hex(),
  "sum_narrow": core.tensor(np.ascontiguousarray(a[:, :9])).sum(0).numpy().tobytes().hex(),
  "sum_mid": core.tensor(np.ascontiguousarray(a[:, :40])).sum(0).numpy().tobytes().hex(),
  "sum_slide": core.tensor(np.ascontiguousarray(a[:, :100])).sum(0).numpy().tobytes().hex(),
  "var": x.var(1).numpy().tobytes().hex(), "norm": x.norm(3, 1).numpy().tobytes().hex(),
  "lse": x.logsumexp(1).numpy().tobytes().hex(), "sm": x.softmax(1).numpy().tobytes().hex(),
  "sm0": x.softmax(0).numpy().tobytes().hex(), "lsm": x.log_softmax(1).numpy().tobytes().hex(),
  "dsum": y.sum(1).numpy().tobytes().hex(), "dsm": y.softmax(1).numpy().tobytes().hex(),
  "max": x.amax(1).numpy().tobytes().hex(), "arg": x.argmax(1).numpy().tobytes().hex(),
  "exp": core._C._internal["_vec_exp"](core.tensor(np.linspace(-100, 80, 10007).astype(np.float32))).numpy().tobytes().hex(),
}
print(json.dumps(out))
"""


def test_every_isa_build_gives_the_same_bits():
    assert_isa_builds_agree(_ISA_SCRIPT)


def test_vec_exp_is_within_two_ulp():
    # Every 97th float in [-104, 89], plus the special values, against float64 exp.
    lo, hi = np.float32(-104).view(np.uint32), np.float32(89).view(np.uint32)
    bits = np.concatenate([np.arange(0, hi, 97, dtype=np.uint32),
                           np.arange(0x80000000, lo, 97, dtype=np.uint32)])
    x = bits.view(np.float32)
    ours = core._C._internal["_vec_exp"](core.tensor(x)).numpy().astype(np.float64)
    ref = np.exp(x.astype(np.float64))
    with np.errstate(over="ignore"):
        ref32 = ref.astype(np.float32)
    normal = (ref32 >= np.finfo(np.float32).tiny) & np.isfinite(ref32)
    ulp = np.spacing(ref32[normal]).astype(np.float64)
    assert (np.abs(ours[normal] - ref[normal]) / ulp).max() <= 2.0
    tiny = ~normal & np.isfinite(ref32)
    assert (np.abs(ours[tiny] - ref[tiny]) <= 2 * 1.5e-45).all()  # denormals: absolute
    special = np.array([np.nan, np.inf, -np.inf, 88.8, 89.0, -104.0, -150.0, 0.0], np.float32)
    got = core._C._internal["_vec_exp"](core.tensor(special)).numpy()
    assert np.isnan(got[0]) and got[1] == np.inf and got[2] == 0 and got[3] == np.inf
    assert got[4] == np.inf and got[6] == 0 and got[7] == 1


# ---------------------------------------------------------------- scans
def test_cumsum_accumulates_floats_in_double():
    x = np.full(10_000_000 // 100, 0.1, np.float32)
    ours = T(x).cumsum(0).numpy()[-1]
    assert abs(ours - 0.1 * x.size) < 1e-3 * 0.1 * x.size / 100
    np.testing.assert_array_equal(T([[1, 2], [3, 4]]).cumprod(0).numpy(), [[1, 2], [3, 8]])
    assert T(np.zeros((0, 3), np.float32)).cumsum(0).shape == (0, 3)


def test_results_are_new_tensors():
    x = T(np.ones((2, 3), np.float32))
    s = x.sum(0)
    s.add_(1)
    assert x.numpy().sum() == 6
    c = x.cumsum(1)
    c.add_(1)
    assert x.numpy().sum() == 6
