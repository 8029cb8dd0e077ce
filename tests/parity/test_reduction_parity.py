"""Reductions, sorting and softmax against PyTorch where its semantics are subtle: which
index wins on ties, NaN rules, variance corrections, unique outputs, result dtypes."""
import numpy as np
import pytest

import core

torch = pytest.importorskip("torch")


def both(a):
    return core.tensor(a), torch.from_numpy(np.array(a, copy=True))  # (keeps 0-d)


def same(ours, theirs, exact=True, **tol):
    if isinstance(theirs, (tuple, list)):
        assert len(ours) == len(theirs)
        for o, t in zip(ours, theirs):
            same(o, t, exact, **tol)
        return
    o, t = ours.numpy(), theirs.numpy()
    assert o.shape == t.shape, (o.shape, t.shape)
    assert str(ours.dtype).split(".")[-1] == str(theirs.dtype).split(".")[-1]
    if exact:
        np.testing.assert_array_equal(o, t)
    else:
        np.testing.assert_allclose(o, t, equal_nan=True, **tol)


def tie_arrays(rng):
    """Arrays with many ties: small ints, as ints and floats, 1-D and 2-D, short and long."""
    for n in (5, 16, 17, 40, 200, 1000, 5000):
        a = rng.integers(0, 4, n)
        yield a.astype(np.int64)
        yield a.astype(np.float32)
    yield rng.integers(-3, 3, (6, 300)).astype(np.float64)
    f = rng.integers(0, 5, 500).astype(np.float32)
    f[rng.integers(0, 500, 30)] = np.nan
    yield f


@pytest.mark.parametrize("largest", [True, False])
@pytest.mark.parametrize("sorted_", [True, False])
def test_topk_tie_indices(largest, sorted_):
    rng = np.random.default_rng(0)
    for a in tie_arrays(rng):
        x, t = both(a)
        n = a.shape[-1]
        for k in sorted({1, 2, 3, n // 64, n // 10, n // 2, n}):
            if not 1 <= k <= n:
                continue
            same(x.topk(k, largest=largest, sorted=sorted_), t.topk(k, largest=largest, sorted=sorted_))


def test_sort_tie_indices():
    # stable=True fixes the order of ties; with stable=False PyTorch's order among ties is
    # up to its sorting library (x86-simd-sort or std::sort): ours is stable, so only the
    # values and the validity of the indices are compared there.
    rng = np.random.default_rng(1)
    for a in tie_arrays(rng):
        x, t = both(a)
        for desc in (False, True):
            same(x.sort(descending=desc, stable=True), t.sort(descending=desc, stable=True))
            same(x.argsort(descending=desc, stable=True), t.argsort(descending=desc, stable=True))
            v, i = x.sort(descending=desc)
            same(v, t.sort(descending=desc).values)
            np.testing.assert_array_equal(np.take_along_axis(a, i.numpy(), -1), v.numpy())
        if a.ndim == 2:
            same(x.sort(0, stable=True), t.sort(dim=0, stable=True))


def test_kthvalue_tie_indices():
    rng = np.random.default_rng(2)
    for a in tie_arrays(rng):
        x, t = both(a)
        n = a.shape[-1]
        for k in sorted({1, 2, n // 3 + 1, n // 2, n}):
            same(x.kthvalue(k), t.kthvalue(k))
            same(x.kthvalue(k, -1, True), t.kthvalue(k, -1, True))
        if a.ndim == 2:
            same(x.kthvalue(3, 0), t.kthvalue(3, 0))


def test_median_and_mode_tie_indices():
    rng = np.random.default_rng(3)
    for a in tie_arrays(rng):
        x, t = both(a)
        same(x.median(), t.median())
        same(x.nanmedian(), t.nanmedian())
        same(x.median(-1), t.median(-1))
        same(x.nanmedian(-1, keepdim=True), t.nanmedian(-1, keepdim=True))
        same(x.mode(), t.mode())
        if a.ndim == 2:
            same(x.median(0), t.median(0))
            same(x.mode(0), t.mode(0))
    all_nan = np.full((3, 4), np.nan, np.float32)
    x, t = both(all_nan)
    same(x.nanmedian(1), t.nanmedian(1))


def test_max_min_arg_ties_and_nan():
    rng = np.random.default_rng(4)
    for a in tie_arrays(rng):
        x, t = both(a)
        same(x.argmax(), t.argmax())
        same(x.argmin(), t.argmin())
        same(x.max(-1), t.max(-1))
        same(x.min(-1, True), t.min(-1, True))
        same(x.amax(-1), t.amax(-1))
        if a.ndim == 2:
            same(x.max(0), t.max(0))
            same(x.argmin(0), t.argmin(0))


def test_unique_outputs():
    rng = np.random.default_rng(5)
    for a in [rng.integers(0, 6, 50), rng.integers(0, 3, (4, 5)), rng.normal(size=7).round(),
              np.array([True, False, True]), np.zeros(0, np.float32), np.array(3)]:
        x, t = both(a)
        for inv in (False, True):
            for cnt in (False, True):
                same(x.unique(return_inverse=inv, return_counts=cnt),
                     torch.unique(t, return_inverse=inv, return_counts=cnt))
    rows = rng.integers(0, 2, (8, 3))
    x, t = both(rows)
    for dim in (0, 1):
        same(x.unique(dim=dim, return_inverse=True, return_counts=True),
             torch.unique(t, dim=dim, return_inverse=True, return_counts=True))
    x, t = both(np.array([np.nan, 1.0, np.nan], np.float32))
    same(x.unique(return_counts=True), torch.unique(t, return_counts=True))


def test_var_std_corrections():
    rng = np.random.default_rng(6)
    a = rng.normal(size=(4, 6, 5)).astype(np.float32)
    c = (rng.normal(size=(3, 4)) + 1j * rng.normal(size=(3, 4))).astype(np.complex64)
    for arr in (a, c):
        x, t = both(arr)
        for fn in ("var", "std"):
            same(getattr(x, fn)(), getattr(t, fn)(), False, rtol=1e-5)
            same(getattr(x, fn)(False), getattr(t, fn)(False), False, rtol=1e-5)
            same(getattr(x, fn)(1, True, True), getattr(t, fn)(1, True, True), False, rtol=1e-5)
            for corr in (0, 1, 2, 0.5):
                same(getattr(x, fn)((0, -1), correction=corr), getattr(t, fn)((0, -1), correction=corr),
                     False, rtol=1e-5)
            same(getattr(core, fn + "_mean")(x, 0), getattr(torch, fn + "_mean")(t, 0), False, rtol=1e-5)
    x, t = both(a[:1, :1, :2])
    with pytest.warns(UserWarning):  # PyTorch warns about the degrees of freedom; we do not
        same(x.var(0, correction=3), t.var(0, correction=3), False)


def test_all_any_dtypes():
    rng = np.random.default_rng(7)
    for dt in (np.bool_, np.uint8, np.int8, np.int64, np.float32, np.float64, np.complex64):
        a = (rng.integers(0, 3, (3, 4)) * (rng.random((3, 4)) > 0.3)).astype(dt)
        x, t = both(a)
        for fn in ("all", "any"):
            same(getattr(x, fn)(), getattr(t, fn)())
            same(getattr(x, fn)(1), getattr(t, fn)(1))
            same(getattr(x, fn)(0, True), getattr(t, fn)(0, True))
        same(x.count_nonzero(), t.count_nonzero())
        same(x.count_nonzero(0), t.count_nonzero(0))
    x, t = both(np.array([0, 2, 255], np.uint8))
    same(x.all(), t.all())


def test_sum_mean_prod_dtypes():
    for dt in (np.bool_, np.uint8, np.int8, np.int16, np.int32, np.int64, np.float16, np.float32, np.float64):
        a = np.arange(1, 7).reshape(2, 3).astype(dt)
        x, t = both(a)
        same(x.sum(), t.sum())
        same(x.sum(0, True), t.sum(0, True))
        same(x.prod(1), t.prod(1))
        same(x.cumsum(1), t.cumsum(1))
        same(x.cumprod(0), t.cumprod(0))
        same(x.nansum(), t.nansum())
        same(x.sum(dtype=core.float64), t.sum(dtype=torch.float64))
        if np.dtype(dt).kind == "f":
            same(x.mean(1), t.mean(1), False, rtol=1e-3)
        else:
            same(x.mean(dtype=core.float32), t.mean(dtype=torch.float32))


def test_norms_softmax_logsumexp_values():
    rng = np.random.default_rng(8)
    a = (rng.normal(size=(5, 300)) * 10).astype(np.float32)
    x, t = both(a)
    for p in (2, 1, 3, 0.5, 0, float("inf"), float("-inf"), -1):
        same(x.norm(p), t.norm(p), False, rtol=1e-5)
        same(x.norm(p, 1, True), t.norm(p, 1, True), False, rtol=1e-5)
    same(x.norm("fro", (0, 1)), t.norm("fro", (0, 1)), False, rtol=1e-5)
    for dim in (0, 1):
        same(x.softmax(dim), t.softmax(dim), False, rtol=1e-5, atol=1e-7)
        same(x.log_softmax(dim), t.log_softmax(dim), False, rtol=1e-5, atol=1e-5)
        same(x.logsumexp(dim), t.logsumexp(dim), False, rtol=1e-6)
    same(x.softmax(1, dtype=core.float64), t.softmax(1, dtype=torch.float64), False, rtol=1e-12)
    h, th = both(a.astype(np.float16))
    same(h.softmax(1), th.softmax(1), False, rtol=1e-3, atol=1e-4)
