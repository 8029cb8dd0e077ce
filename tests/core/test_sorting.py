"""Sorting and selection: errors, NaN placement, stability, ties, unique."""
import numpy as np
import pytest

import core


def T(values, dtype=None):
    return core.tensor(np.asarray(values, dtype=dtype))


@pytest.mark.parametrize("call, exc, fragment", [
    (lambda: T([1 + 1j], np.complex64).sort(), RuntimeError, "Sort does not support complex"),
    (lambda: T([1 + 1j], np.complex64).topk(1), RuntimeError, "topk does not support complex"),
    (lambda: T([True, False]).topk(1), RuntimeError, "topk does not support bool"),
    (lambda: T([1.0, 2.0]).topk(3), RuntimeError, "selected index k out of range"),
    (lambda: T([1.0, 2.0]).topk(-1), RuntimeError, "selected index k out of range"),
    (lambda: T([[1.0, 2.0]]).topk(2, 0), RuntimeError, "k out of range"),
    (lambda: T([1.0, 2.0]).topk(1, dim=1), IndexError, "out of range"),
    (lambda: T([[1.0, 2.0, 3.0]]).kthvalue(4), RuntimeError, "kthvalue(): selected number k out of range for dimension 1"),
    (lambda: T([1.0]).kthvalue(0), RuntimeError, "out of range"),
    (lambda: T(np.zeros(0, np.float32)).kthvalue(1), IndexError, "Expected reduction dim 0 to have non-zero size"),
    (lambda: T([True]).kthvalue(1), NotImplementedError, "not implemented for 'Bool'"),
    (lambda: T([1 + 1j], np.complex64).median(), NotImplementedError, "ComplexFloat"),
    (lambda: T([True]).median(), NotImplementedError, "'Bool'"),
    (lambda: T(np.zeros((0, 2), np.float32)).median(0), IndexError, "dim 0 to have non-zero size"),
    (lambda: T(np.zeros(0, np.int64)).median(), RuntimeError, "does not have an identity"),
    (lambda: T(np.zeros(0, np.float32)).mode(), IndexError, "dim 0 to have non-zero size"),
    (lambda: T([1, 2]).unique(dim=1), IndexError, "out of range"),
    (lambda: T([1, 2]).sort(2), IndexError, "out of range"),
])
def test_errors(call, exc, fragment):
    with pytest.raises(exc) as info:
        call()
    assert fragment in str(info.value)


def test_nan_sorts_last_ascending_first_descending():
    x = T([3.0, np.nan, 1.0, -np.inf, np.nan, np.inf, 2.0])
    v, i = x.sort()
    np.testing.assert_array_equal(v.numpy()[:5], [-np.inf, 1, 2, 3, np.inf])
    assert np.isnan(v.numpy()[5:]).all()
    np.testing.assert_array_equal(i.numpy(), [3, 2, 6, 0, 5, 1, 4])
    v, i = x.sort(descending=True)
    np.testing.assert_array_equal(i.numpy(), [1, 4, 5, 0, 6, 2, 3])
    np.testing.assert_array_equal(x.argsort(descending=True).numpy(), i.numpy())


def test_sort_is_stable_both_ways():
    rng = np.random.default_rng(0)
    a = rng.integers(0, 4, 1000)
    idx = T(a).sort(stable=True).indices.numpy()
    np.testing.assert_array_equal(idx, np.argsort(a, kind="stable"))
    idx = T(a).sort(descending=True, stable=True).indices.numpy()
    np.testing.assert_array_equal(idx, np.argsort(-a, kind="stable"))
    # ties keep input order on the default (stable=False) path too, like PyTorch on CPU
    np.testing.assert_array_equal(T([1, 1, 0, 1]).argsort().numpy(), [2, 0, 1, 3])


def test_sort_along_dims_and_layouts():
    rng = np.random.default_rng(1)
    a = rng.normal(size=(4, 5, 6)).astype(np.float32)
    x = core.from_numpy(np.asfortranarray(a))
    for dim in (0, 1, 2, -1):
        v, i = x.sort(dim)
        np.testing.assert_array_equal(v.numpy(), np.sort(a, axis=dim))
        np.testing.assert_array_equal(i.numpy(), np.argsort(a, axis=dim, kind="stable"))
        assert v.is_contiguous() and i.dtype == core.int64
    np.testing.assert_array_equal(core.msort(x).numpy(), np.sort(a, axis=0))
    assert T(np.zeros((0, 3), np.float32)).sort(0).values.shape == (0, 3)
    v, i = T(5.0).sort()
    assert v.shape == () and i.item() == 0


def test_topk_orders_and_nan():
    x = T([1.0, 5.0, np.nan, 3.0, 4.0])
    v, i = x.topk(2)
    assert np.isnan(v.numpy()[0]) and v.numpy()[1] == 5 and list(i.numpy()) == [2, 1]
    v, i = x.topk(2, largest=False)
    np.testing.assert_array_equal(v.numpy(), [1, 3])
    v, i = T(np.arange(100.0)).topk(10, sorted=False)
    assert sorted(v.numpy().tolist()) == list(range(90, 100))
    np.testing.assert_array_equal(np.sort(i.numpy()), np.arange(90, 100))
    assert T([1.0, 2.0]).topk(0).values.shape == (0,)


def test_kthvalue_and_median():
    x = T([[5.0, 1.0, 3.0, 2.0], [np.nan, 0.0, 1.0, 2.0]])
    v, i = x.kthvalue(2, 1)
    np.testing.assert_array_equal(v.numpy(), [2, 1])
    np.testing.assert_array_equal(i.numpy(), [3, 2])
    v, i = x.kthvalue(4, 1, keepdim=True)
    assert v.shape == (2, 1) and np.isnan(v.numpy()[1, 0])  # NaN is the largest
    assert T([1.0, 2.0, 3.0, 4.0]).median().item() == 2      # the lower median
    v, i = T([[2, 1, 2, 1]]).median(1)
    assert v.item() == 1 and i.item() == 3  # element (n-1)//2 in (value, index) order, as PyTorch
    v, i = x.median(1)
    assert v.numpy()[0] == 2 and np.isnan(v.numpy()[1]) and i.numpy()[1] == 0
    v, i = x.nanmedian(1)
    np.testing.assert_array_equal(v.numpy(), [2, 1])
    assert np.isnan(T([1.0, np.nan]).median().item())
    assert T([1.0, np.nan, 3.0]).nanmedian().item() == 1
    assert np.isnan(T(np.zeros(0, np.float32)).median().item())


def test_mode():
    v, i = T([2, 3, 3, 2]).mode()
    assert v.item() == 2 and i.item() == 3
    v, i = T([[1, 2], [2, 1]]).mode(1)
    np.testing.assert_array_equal(v.numpy(), [1, 1])
    np.testing.assert_array_equal(i.numpy(), [0, 1])


def test_unique():
    x = T([3, 1, 2, 1, 5, 3])
    np.testing.assert_array_equal(x.unique().numpy(), [1, 2, 3, 5])
    u, inv, cnt = core.unique(x, return_inverse=True, return_counts=True)
    np.testing.assert_array_equal(inv.numpy(), [2, 0, 1, 0, 3, 2])
    np.testing.assert_array_equal(cnt.numpy(), [2, 1, 2, 1])
    u, cnt = x.unique(return_counts=True)
    assert cnt.dtype == core.int64
    nan = T([np.nan, np.nan, 1.0]).unique().numpy()  # every NaN is its own value
    assert nan[0] == 1 and np.isnan(nan[1:]).all() and len(nan) == 3
    u, inv = T(5).unique(return_inverse=True)
    assert u.shape == (1,) and inv.shape == ()
    rows = T([[1, 2], [1, 2], [0, 5]])
    u, cnt = rows.unique(dim=0, return_counts=True)
    np.testing.assert_array_equal(u.numpy(), [[0, 5], [1, 2]])
    np.testing.assert_array_equal(cnt.numpy(), [1, 2])
    assert T(np.zeros(0, np.float32)).unique().shape == (0,)
    assert T([True, False, True]).unique().dtype == core.bool
