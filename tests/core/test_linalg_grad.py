"""Hand-written gradient tests of the linalg family: every matmul rank combination
(broadcast batches, 1-D operands), every einsum form of the op matrix plus attention-style
chains, the add*mm family's beta/alpha, in-place forms, mixed requires_grad and dtypes."""
import string

import numpy as np
import pytest

import core
from core.autograd import gradcheck, gradgradcheck

from op_matrix.samples_linalg import EINSUM_FORMS, MATMUL_SHAPES


def leaf(shape, seed=0, dtype=np.float64):
    return core.tensor(np.random.default_rng(seed).uniform(-2, 2, shape).astype(dtype)).requires_grad_()


def check(fn, shapes):
    inputs = [leaf(s, seed=i) for i, s in enumerate(shapes)]
    assert gradcheck(fn, inputs, atol=1e-6, rtol=1e-4)
    assert gradgradcheck(fn, inputs, atol=1e-5, rtol=1e-3)


# ---------------------------------------------------------------- matmul
MATMUL_CASES = MATMUL_SHAPES + [((2, 3, 2, 3), (3,)), ((3,), (2, 2, 3, 4)), ((5, 1, 2, 3), (1, 4, 3, 2))]


@pytest.mark.parametrize("sa,sb", MATMUL_CASES, ids=[f"{a}@{b}" for a, b in MATMUL_CASES])
def test_matmul_every_rank(sa, sb):
    check(core.matmul, [sa, sb])


def test_matmul_one_d_values():
    a, b = leaf((3,)), leaf((3, 4), seed=1)
    g = np.arange(4.0)
    ga, gb = core.autograd.grad(core.matmul(a, b), [a, b], core.tensor(g))
    np.testing.assert_allclose(ga.numpy(), b.detach().numpy() @ g)
    np.testing.assert_allclose(gb.numpy(), np.outer(a.detach().numpy(), g))


def test_matmul_broadcast_batch_is_summed_back():
    a, b = leaf((2, 1, 2, 3)), leaf((3, 3, 4), seed=1)
    g = np.random.default_rng(2).uniform(-1, 1, (2, 3, 2, 4))
    ga, gb = core.autograd.grad(core.matmul(a, b), [a, b], core.tensor(g))
    an, bn = a.detach().numpy(), b.detach().numpy()
    np.testing.assert_allclose(ga.numpy(), (g @ np.swapaxes(bn, -1, -2)).sum(axis=1, keepdims=True))
    np.testing.assert_allclose(gb.numpy(), (np.swapaxes(an, -1, -2) @ g).sum(axis=0))


def test_matmul_batch_against_matrix_folds_the_batch():
    # A Linear-like product: the weight's gradient comes out in its own shape directly.
    x, w = leaf((4, 2, 3)), leaf((3, 5), seed=1)
    g = np.random.default_rng(2).uniform(-1, 1, (4, 2, 5))
    gx, gw = core.autograd.grad(core.matmul(x, w), [x, w], core.tensor(g))
    np.testing.assert_allclose(gw.numpy(), np.einsum("bik,bij->kj", x.detach().numpy(), g))
    np.testing.assert_allclose(gx.numpy(), g @ w.detach().numpy().T)


def test_matmul_mixed_requires_grad():
    a = core.tensor(np.ones((2, 3)))
    b = leaf((3, 4))
    y = a @ b
    assert y.grad_fn.name() == "MatmulBackward0"
    (gb,) = core.autograd.grad(y, b, core.tensor(np.ones((2, 4))))
    np.testing.assert_allclose(gb.numpy(), np.full((3, 4), 2.0))


# ---------------------------------------------------------------- other products
@pytest.mark.parametrize("name,fn,shapes", [
    ("mm", core.mm, [(2, 3), (3, 4)]),
    ("mm-empty-k", core.mm, [(2, 0), (0, 3)]),
    ("bmm", core.bmm, [(2, 2, 3), (2, 3, 1)]),
    ("mv", core.mv, [(2, 3), (3,)]),
    ("dot", core.dot, [(4,), (4,)]),
    ("vdot", core.vdot, [(4,), (4,)]),
    ("outer", core.outer, [(3,), (2,)]),
    ("ger", core.ger, [(3,), (2,)]),
    ("tensordot-2", lambda a, b: core.tensordot(a, b, dims=2), [(2, 3, 2), (3, 2, 2)]),
    ("tensordot-pairs", lambda a, b: core.tensordot(a, b, dims=([2, 0], [0, 1])), [(2, 3, 2), (2, 2, 3)]),
    ("tensordot-0", lambda a, b: core.tensordot(a, b, dims=0), [(2,), (2, 2)]),
    ("tensordot-all", lambda a, b: core.tensordot(a, b, dims=([1, 0], [0, 1])), [(2, 3), (3, 2)]),
])
def test_products(name, fn, shapes):
    check(fn, shapes)


ADD_FORMS = [
    ("addmm", core.addmm, [(2, 4), (2, 3), (3, 4)]),
    ("addmv", core.addmv, [(2,), (2, 3), (3,)]),
    ("baddbmm", core.baddbmm, [(2, 2, 4), (2, 2, 3), (2, 3, 4)]),
    ("addbmm", core.addbmm, [(2, 4), (3, 2, 3), (3, 3, 4)]),
]


@pytest.mark.parametrize("name,fn,shapes", ADD_FORMS, ids=[f[0] for f in ADD_FORMS])
@pytest.mark.parametrize("coefficients", [{}, {"beta": 0.5, "alpha": -2.0}, {"beta": 0, "alpha": 3}])
def test_add_products(name, fn, shapes, coefficients):
    check(lambda s, a, b: fn(s, a, b, **coefficients), shapes)


@pytest.mark.parametrize("name,fn,shapes", ADD_FORMS, ids=[f[0] for f in ADD_FORMS])
def test_add_products_in_place(name, fn, shapes):
    method = name + "_"
    check(lambda s, a, b: getattr(s * 1, method)(a, b, beta=1.5, alpha=0.5), shapes)


@pytest.mark.parametrize("name,fn,shapes", [
    ("addmm", core.addmm, [(4,), (2, 3), (3, 4)]), ("addmv", core.addmv, [(), (2, 3), (3,)]),
    ("baddbmm", core.baddbmm, [(2, 1), (2, 2, 3), (2, 3, 4)]), ("addbmm", core.addbmm, [(), (3, 2, 3), (3, 3, 4)]),
])
def test_add_products_broadcast_self(name, fn, shapes):
    check(lambda s, a, b: fn(s, a, b, beta=2.0), shapes)


def test_addmm_beta_zero_ignores_nan_self():
    s = core.tensor(np.full((2, 2), np.nan)).requires_grad_()
    a, b = leaf((2, 3)), leaf((3, 2), seed=1)
    gs, ga, gb = core.autograd.grad(core.addmm(s, a, b, beta=0), [s, a, b], core.tensor(np.ones((2, 2))))
    np.testing.assert_array_equal(gs.numpy(), np.zeros((2, 2)))
    assert np.isfinite(ga.numpy()).all() and np.isfinite(gb.numpy()).all()


def test_outer_mixed_dtypes():
    a = leaf((3,), dtype=np.float32)
    b = leaf((2,), seed=1)
    ga, gb = core.autograd.grad(core.outer(a, b), [a, b], core.tensor(np.ones((3, 2))))
    assert ga.dtype == core.float32 and gb.dtype == core.float64
    np.testing.assert_allclose(ga.numpy(), np.full(3, b.detach().numpy().sum()), rtol=1e-6)


def test_in_place_product_on_leaf_raises():
    with pytest.raises(RuntimeError, match="leaf Variable that requires grad"):
        leaf((2, 4)).addmm_(leaf((2, 3)), leaf((3, 4)))


# ---------------------------------------------------------------- einsum
@pytest.mark.parametrize("eq,shapes", EINSUM_FORMS, ids=[f"{e!r}{s}" for e, s in EINSUM_FORMS])
def test_einsum_every_sample_form(eq, shapes):
    check(lambda *xs: core.einsum(eq, *xs), shapes)


@pytest.mark.parametrize("eq,shapes", [
    ("iii->i", [(3, 3, 3)]), ("iij,jk->ik", [(3, 3, 2), (2, 4)]), ("iijj->ij", [(2, 2, 3, 3)]),
    ("ijji,k->k", [(2, 3, 3, 2), (2,)]), ("bii->b", [(2, 3, 3)]), ("ij,jk,ki->", [(2, 3), (3, 2), (2, 2)]),
    ("...ii->...i", [(2, 3, 3)]),
])
def test_einsum_repeated_subscripts(eq, shapes):
    check(lambda *xs: core.einsum(eq, *xs), shapes)


def test_einsum_attention_chain():
    # scores = q k^T, then the scores weight v: gradients flow through both einsums.
    def attention(q, k, v):
        scores = core.einsum("bhqd,bhkd->bhqk", q, k)
        return core.einsum("bhqk,bhkd->bhqd", scores, v)
    check(attention, [(1, 2, 3, 2), (1, 2, 2, 2), (1, 2, 2, 2)])


def test_einsum_attention_layout_and_sublist_form():
    check(lambda q, k: core.einsum("bqhd,bkhd->bhqk", q, k), [(1, 2, 2, 2), (1, 3, 2, 2)])
    check(lambda a, b: core.einsum(a, [0, 1], b, [1, 2], [0, 2]), [(2, 3), (3, 2)])


def test_einsum_same_operand_twice():
    x = leaf((3,))
    (gx,) = core.autograd.grad(core.einsum("i,i->", x, x), x, core.tensor(np.array(1.0)))
    np.testing.assert_allclose(gx.numpy(), 2 * x.detach().numpy())


def test_einsum_trace_values():
    x = leaf((3, 3))
    (gx,) = core.autograd.grad(core.einsum("ii", x), x, core.tensor(np.array(2.0)))
    np.testing.assert_array_equal(gx.numpy(), 2 * np.eye(3))


def test_einsum_without_free_letters_raises_not_implemented():
    # Every letter is taken, so the ellipsis dim has no letter in the backward equation.
    x = core.tensor(np.ones((2,) + (1,) * 52)).requires_grad_()
    y = core.einsum("..." + string.ascii_letters + "->...", x)
    with pytest.raises(NotImplementedError, match="einsum.*derivative"):
        core.autograd.grad(y, x, core.tensor(np.ones(2)))


# ---------------------------------------------------------------- complex
def test_complex_dot_conjugates_the_other_factor():
    a = core.tensor(np.array([1 + 2j, 3 - 1j], dtype=np.complex64)).requires_grad_()
    b = core.tensor(np.array([2 - 1j, 1j], dtype=np.complex64)).requires_grad_()
    y = core.dot(a, b)
    g = core.tensor(np.array(1 + 1j, dtype=np.complex64))
    ga, gb = core.autograd.grad(y, [a, b], g)
    np.testing.assert_allclose(ga.numpy(), (1 + 1j) * np.conj(b.detach().numpy()), rtol=1e-6)
    np.testing.assert_allclose(gb.numpy(), (1 + 1j) * np.conj(a.detach().numpy()), rtol=1e-6)
