"""Gradients of the reduction and sorting families beyond the gradcheck matrix: ties (even
splits), prod/cumprod with zeros, dim tuples and keepdim, double backward of softmax and
log_softmax, dtype= arguments, 0-d and empty inputs."""
import numpy as np
import pytest

import core
from core import autograd

_rng = np.random.default_rng(3)
A34 = _rng.standard_normal((3, 4))
A234 = _rng.standard_normal((2, 3, 4))
TIES = np.array([[1.0, 3.0, 3.0, 0.5], [2.0, 2.0, 1.0, 2.0], [5.0, 5.0, 5.0, 5.0]])


def leaf(a, dtype=None):
    t = core.tensor(np.asarray(a, dtype=np.float64))
    if dtype is not None:
        t = t.to(dtype)
    return t.detach().requires_grad_()


def grad_of(out, x, seed=None):
    (g,) = autograd.grad([out], [x], None if seed is None else [seed])
    return g.numpy()


def check(fn, *arrays, second=True):
    inputs = [leaf(a) for a in arrays]
    assert autograd.gradcheck(fn, inputs, atol=1e-6, rtol=1e-4)
    if second:
        assert autograd.gradgradcheck(fn, inputs, atol=1e-5, rtol=1e-3)


# ---- ties: the gradient is split evenly (max/min/median of all, amax/amin per slice)
def test_max_min_of_all_split_the_gradient_over_ties():
    x = leaf(TIES)
    np.testing.assert_allclose(grad_of(x.max(), x), np.where(TIES == 5.0, 0.25, 0.0))
    np.testing.assert_allclose(grad_of(core.min(x), x), np.where(TIES == 0.5, 1.0, 0.0))


def test_median_of_all_splits_over_ties():
    x = leaf(TIES)  # sorted: 0.5 1 1 2 2 2 3 3 5 5 5 5 -> lower median 2 (three of them)
    np.testing.assert_allclose(grad_of(x.median(), x), np.where(TIES == 2.0, 1 / 3, 0.0))


def test_max_of_all_with_nan_goes_to_the_nans():
    a = np.array([1.0, np.nan, 3.0, np.nan])
    x = leaf(a)
    np.testing.assert_allclose(grad_of(x.max(), x), [0.0, 0.5, 0.0, 0.5])


@pytest.mark.parametrize("dim,keepdim", [(1, False), (0, True), ((0, 1), False), ([], True)])
def test_amax_amin_split_per_slice(dim, keepdim):
    x = leaf(TIES)
    for fn, ref in ((core.amax, np.max), (core.amin, np.min)):
        out = fn(x, dim, keepdim)
        axis = tuple(dim) if isinstance(dim, (tuple, list)) and dim else (None if dim == [] else dim)
        target = ref(TIES, axis=axis, keepdims=True)
        mask = TIES == target
        expected = mask / mask.sum(axis=axis, keepdims=True)
        np.testing.assert_allclose(grad_of(out.sum(), x), expected)


def test_max_dim_sends_the_gradient_to_the_returned_index():
    x = leaf(TIES)
    values, indices = x.max(1)
    g = grad_of(values, x, core.tensor([1.0, 2.0, 3.0]))
    expected = np.zeros_like(TIES)
    expected[np.arange(3), indices.numpy()] = [1.0, 2.0, 3.0]
    np.testing.assert_allclose(g, expected)
    assert (g != 0).sum() == 3  # one element per row, even with ties


# ---- prod and cumprod with zeros
def test_prod_with_one_zero_is_the_product_of_the_others():
    a = np.array([[2.0, 0.0, 3.0], [0.5, 4.0, -1.0]])
    x = leaf(a)
    expected = np.zeros_like(a)
    expected[0, 1] = 2.0 * 3.0 * 0.5 * 4.0 * -1.0
    np.testing.assert_allclose(grad_of(x.prod(), x), expected)


def test_prod_with_two_zeros_has_zero_gradient():
    x = leaf([[2.0, 0.0], [0.0, 5.0]])
    np.testing.assert_array_equal(grad_of(x.prod(), x), np.zeros((2, 2)))


def test_prod_dim_with_zeros_per_row():
    a = np.array([[2.0, 0.0, 3.0], [0.0, 0.0, 1.0], [1.0, 2.0, 4.0]])
    x = leaf(a)
    expected = np.array([[0.0, 6.0, 0.0], [0.0, 0.0, 0.0], [8.0, 4.0, 2.0]])
    np.testing.assert_allclose(grad_of(x.prod(1).sum(), x), expected)


@pytest.mark.parametrize("dim", [None, 0, 1])
def test_prod_with_zeros_gradcheck_and_gradgradcheck(dim):
    a = np.array([[1.5, 0.0, 2.0], [0.0, 0.0, 3.0], [0.5, -1.0, 2.0]])
    check(lambda t: t.prod() if dim is None else t.prod(dim, keepdim=True), a)


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_cumprod_with_zeros_gradcheck_and_gradgradcheck(dim):
    a = np.array([[1.5, 0.0, 2.0, -0.7], [0.0, 0.0, 3.0, 1.1], [0.5, -1.0, 2.0, 0.0]])
    check(lambda t: t.cumprod(dim), a)


def test_cumprod_with_zeros_exact_values():
    x = leaf([2.0, 0.0, 3.0, 4.0])
    # d/dx_k sum_j cumprod_j: x1 = 0 kills every term through it except d/dx1.
    np.testing.assert_allclose(grad_of(x.cumprod(0).sum(), x), [1.0, 2.0 + 6.0 + 24.0, 0.0, 0.0])


# ---- dim tuples, keepdim, correction
@pytest.mark.parametrize("keepdim", [False, True])
@pytest.mark.parametrize("dims", [(0, 2), (2, 0), (-1,), (0, 1, 2)])
def test_dim_tuples(dims, keepdim):
    check(lambda t: t.mean(dims, keepdim=keepdim), A234)
    check(lambda t: t.var(dims, keepdim=keepdim), A234)
    check(lambda t: t.std(dims, False, keepdim), A234)
    check(lambda t: core.amax(t, dims, keepdim), A234)
    check(lambda t: core.logsumexp(t, dims, keepdim), A234)
    check(lambda t: core.norm(t, 2, dims, keepdim), A234)
    check(lambda t: core.nansum(t, dims, keepdim), A234)
    check(lambda t: core.var_mean(t, dims, correction=0, keepdim=keepdim), A234)
    check(lambda t: core.std_mean(t, dims, keepdim=keepdim), A234)


@pytest.mark.parametrize("correction", [0, 1, 2, 0.5])
def test_var_std_corrections(correction):
    check(lambda t: t.var(1, correction=correction), A34)
    check(lambda t: t.std(1, correction=correction), A34)


def test_std_of_constant_rows_has_zero_gradient_like_torch():
    x = leaf([[1.0, 1.0, 1.0], [1.0, 2.0, 3.0]])
    g = grad_of(x.std(1).sum(), x)
    np.testing.assert_array_equal(g[0], [0.0, 0.0, 0.0])
    assert np.all(np.isfinite(g))


def test_std_of_one_element_double_backward_is_finite():
    # PyTorch's formula gives nan here (0 * inf in the masked branch); ours keeps it finite.
    check(lambda t: t.std(0, False), np.array([1.5]))
    check(lambda t: core.std_mean(t, 1, correction=0), np.array([[1.5], [2.0]]))


@pytest.mark.parametrize("p", [2, 1, float("inf"), float("-inf"), 3, 1.5, 0.5, -1])
def test_norm_first_order(p):
    check(lambda t: core.norm(t, p, 1), A34, second=False)


@pytest.mark.parametrize("p", [2, 1, float("inf"), 0, "fro"])
def test_norm_double_backward(p):
    check(lambda t: core.norm(t, p, (0, 1)) if p != "fro" else core.norm(t, "fro"), A34)


def test_norm_p0_has_zero_gradient():
    x = leaf(A34)
    np.testing.assert_array_equal(grad_of(core.norm(x, 0), x), np.zeros((3, 4)))


def test_norm_2_of_zeros_has_zero_gradient():
    x = leaf(np.zeros((2, 3)))
    np.testing.assert_array_equal(grad_of(core.norm(x), x), np.zeros((2, 3)))


# ---- softmax / log_softmax: double backward through the saved result
@pytest.mark.parametrize("fn", [core.softmax, core.log_softmax])
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_softmax_double_backward(fn, dim):
    check(lambda t: fn(t, dim), A234)


@pytest.mark.parametrize("fn", [core.softmax, core.log_softmax])
def test_softmax_dtype_argument(fn):
    x = leaf(A34, core.float32)
    out = fn(x, 1, dtype=core.float64)
    assert out.dtype == core.float64
    (g,) = autograd.grad([out.sum() if fn is core.softmax else out[:, 0].sum()], [x])
    assert g.dtype == core.float32
    check(lambda t: fn(t, 1, dtype=core.float64), A34)


def test_softmax_with_minus_inf_has_finite_gradients():
    x = leaf([[0.0, -np.inf, 1.0]])
    for fn in (core.softmax, core.log_softmax):
        g = grad_of(fn(x, 1)[:, 0].sum(), x)
        assert np.all(np.isfinite(g))
        assert g[0, 1] == 0.0


# ---- scans, sorting
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_scans(dim):
    check(lambda t: t.cumsum(dim), A34)
    check(lambda t: t.cumprod(dim), A34)


def test_scan_dtype_argument_gives_the_input_dtype_back():
    x = leaf(A34, core.float32)
    for fn in (core.cumsum, core.cumprod):
        (g,) = autograd.grad([fn(x, 1, dtype=core.float64).sum()], [x])
        assert g.dtype == core.float32


@pytest.mark.parametrize("fn", [
    lambda t: t.sort(1)[0], lambda t: t.sort(0, True)[0], lambda t: t.msort(),
    lambda t: t.topk(2, 1)[0], lambda t: t.topk(1, 0, largest=False)[0],
    lambda t: t.kthvalue(2, 1)[0], lambda t: t.kthvalue(1, 0, True)[0],
    lambda t: t.median(1)[0], lambda t: t.nanmedian(0, True)[0], lambda t: t.mode(1)[0],
    lambda t: t.max(1)[0], lambda t: t.min(0, True)[0], lambda t: t.max(), lambda t: t.median(),
])
def test_value_selecting_ops(fn):
    check(fn, A34)


def test_sort_gradient_is_the_inverse_permutation():
    a = np.array([3.0, 1.0, 2.0])
    x = leaf(a)
    g = grad_of(x.sort(0, True)[0], x, core.tensor([10.0, 20.0, 30.0]))
    np.testing.assert_array_equal(g, [10.0, 30.0, 20.0])


# ---- 0-d and empty inputs
@pytest.mark.parametrize("fn", [
    lambda t: t.max(0)[0], lambda t: t.sort(0)[0], lambda t: t.cumprod(0), lambda t: t.cumsum(0),
    lambda t: t.prod(), lambda t: t.softmax(0), lambda t: t.log_softmax(0), lambda t: t.kthvalue(1)[0],
    lambda t: t.median(0)[0], lambda t: t.mode()[0], lambda t: t.topk(1)[0], lambda t: t.amax(),
    lambda t: t.logsumexp(0), lambda t: t.norm(), lambda t: t.mean(), lambda t: t.msort(),
])
def test_zero_dim_inputs(fn):
    check(fn, np.array(1.5))


@pytest.mark.parametrize("fn", [
    lambda t: t.mean(1), lambda t: t.sum(1), lambda t: t.prod(1), lambda t: t.cumsum(1), lambda t: t.cumprod(0),
    lambda t: t.softmax(1), lambda t: t.log_softmax(0), lambda t: t.sort(1)[0], lambda t: t.var(1),
    lambda t: t.norm(2, 1), lambda t: t.logsumexp(1), lambda t: t.nansum(),
])
def test_empty_inputs(fn):
    x = leaf(np.zeros((2, 0, 3)))
    out = fn(x)
    (g,) = autograd.grad([out], [x], [core.ones(out.shape, dtype=out.dtype)], allow_unused=True)
    assert g is None or tuple(g.shape) == (2, 0, 3)


def test_integer_outputs_need_no_derivative():
    x = leaf(A34)
    for out in (x.argmax(), x.argmin(1), x.argsort(), core.all(x), core.any(x, 1), core.count_nonzero(x),
                x.sort()[1], x.topk(2)[1]):
        assert not out.requires_grad
    assert not core.unique(x).requires_grad
