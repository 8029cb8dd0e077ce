"""Hand-written gradient tests of the joining family: cases the op-matrix samples miss
(mixed requires_grad, legacy empty cat inputs, every pad mode, repeat_interleave with a
tensor of counts, views of views, in-place triangles), checked by float64 gradcheck and
gradgradcheck and, where the answer is easy to state, against numpy."""
import numpy as np
import pytest

import core
from core.autograd import gradcheck, gradgradcheck

from op_matrix.samples_joining import PAD_SPECS


def leaf(shape, seed=0):
    return core.tensor(np.random.default_rng(seed).uniform(-2, 2, shape)).requires_grad_()


def ones(shape):
    return core.tensor(np.ones(shape))


def check(fn, *shapes):
    inputs = [leaf(s, seed=i) for i, s in enumerate(shapes)]
    assert gradcheck(fn, inputs, atol=1e-6, rtol=1e-4)
    assert gradgradcheck(fn, inputs, atol=1e-5, rtol=1e-3)


# ---------------------------------------------------------------- gradcheck + gradgradcheck
CASES = [
    ("cat-3", lambda a, b, c: core.cat([a, b, c], 1), [(2, 3), (2, 1), (2, 2)]),
    ("cat-neg-dim", lambda a, b: core.cat([a, b], -3), [(1, 2, 2), (2, 2, 2)]),
    ("cat-legacy-empty", lambda a, b, c: core.cat([a, b, c]), [(0,), (2, 3), (1, 3)]),
    ("cat-same-tensor-twice", lambda a: core.cat([a, a * 2, a]), [(2, 2)]),
    ("concat", lambda a, b: core.concat([a, b], 1), [(2, 1), (2, 2)]),
    ("stack", lambda a, b: core.stack([a, b], 2), [(2, 3), (2, 3)]),
    ("stack-0d", lambda a, b: core.stack([a, b]), [(), ()]),
    ("hstack", lambda a, b: core.hstack([a, b]), [(2, 1), (2, 3)]),
    ("hstack-0d-1d", lambda a, b: core.hstack([a, b]), [(), (3,)]),
    ("vstack", lambda a, b: core.vstack([a, b]), [(3,), (2, 3)]),
    ("dstack", lambda a, b: core.dstack([a, b]), [(3,), (1, 3)]),
    ("column_stack", lambda a, b: core.column_stack([a, b]), [(3,), (3, 2)]),
    ("atleast-seq", lambda a, b, c: core.atleast_3d(a, b, c), [(), (2,), (2, 2)]),
    ("atleast_2d-seq", lambda a, b: core.atleast_2d([a, b]), [(2,), (1, 2, 2)]),
    ("flip-3d", lambda a: a.flip([0, -1]), [(2, 3, 2)]),
    ("roll-flat", lambda a: a.roll(-4), [(2, 3)]),
    ("roll-two-dims", lambda a: core.roll(a, (1, -1), (0, 2)), [(2, 2, 3)]),
    ("rot90-every-k", lambda a: core.cat([core.rot90(a, k, [1, 2]).reshape(-1) for k in range(-2, 5)]), [(1, 2, 3)]),
    ("repeat-new-dims", lambda a: a.repeat(2, 1, 2, 1), [(2, 3)]),
    ("repeat-zero", lambda a: a.repeat(0, 2), [(2, 3)]),
    ("repeat-9d", lambda a: a.repeat(*(2,) * 9), [(1, 2, 1, 1, 2, 1, 1, 1, 2)]),
    ("tile", lambda a: a.tile((2, 1, 2)), [(3, 2)]),
    ("repeat_interleave-int-dim", lambda a: a.repeat_interleave(2, dim=-1), [(2, 3)]),
    ("repeat_interleave-int-flat", lambda a: core.repeat_interleave(a, 3), [(2, 2)]),
    ("repeat_interleave-0d", lambda a: core.repeat_interleave(a, 2), [()]),
    ("repeat_interleave-one-count", lambda a: a.repeat_interleave(core.tensor([3]), dim=0), [(2, 2)]),
    ("tril-batch", lambda a: core.tril(a, 1), [(2, 3, 4)]),
    ("triu-neg", lambda a: a.triu(-1), [(4, 3)]),
    ("tril_-non-leaf", lambda a: (a * 1).tril_(), [(3, 3)]),
    ("triu_-non-leaf", lambda a: (a + 0).triu_(2), [(3, 4)]),
    ("diag-vec-offsets", lambda a: core.cat([core.diag(a, k).reshape(-1) for k in (-2, 0, 1)]), [(3,)]),
    ("diag-mat-offsets", lambda a: core.cat([core.diag(a, k) for k in (-3, -1, 0, 2, 4)]), [(3, 4)]),
    ("diag_embed", lambda a: core.diag_embed(a, -1, 2, 0), [(2, 3)]),
    ("diagonal-batch", lambda a: core.diagonal(a, 1, -1, 0), [(3, 2, 4)]),
    ("diagonal-of-transpose", lambda a: core.diagonal(a.transpose(0, 1), -1), [(3, 4)]),
    ("diagonal-of-diagonal", lambda a: core.diagonal(core.diagonal(a, 0, 0, 1), 0, 0, 1), [(3, 3, 3)]),
    ("diagonal-empty", lambda a: core.diagonal(a, 5), [(3, 4)]),
    ("trace", lambda a: core.trace(a), [(2, 4)]),
    ("meshgrid", lambda a, b, c: core.meshgrid(a, b, c, indexing="xy"), [(2,), (), (3,)]),
    ("meshgrid-one-output-used", lambda a, b: core.meshgrid(a, b)[1] * 3, [(2,), (3,)]),
    ("cartesian_prod", lambda a, b: core.cartesian_prod(a, b), [(2,), (3,)]),
    ("cartesian_prod-one", lambda a: core.cartesian_prod(a), [(3,)]),
]


@pytest.mark.parametrize("name,fn,shapes", CASES, ids=[c[0] for c in CASES])
def test_gradients(name, fn, shapes):
    check(fn, *shapes)


@pytest.mark.parametrize("shape,widths,mode,value", PAD_SPECS, ids=[f"{s}{w}{m}" for s, w, m, _ in PAD_SPECS])
def test_pad_every_sample(shape, widths, mode, value):
    check(lambda x: core.pad(x, widths, mode=mode, value=value), shape)


@pytest.mark.parametrize("mode", ["reflect", "replicate", "circular"])
def test_pad_borders_accumulate(mode):
    # (1, 1, 4) padded by (3, 2): the border elements are read several times.
    x = leaf((1, 1, 4))
    y = core.pad(x, (3, 2), mode=mode)
    g = np.arange(1.0, 10.0).reshape(1, 1, 9)
    (gx,) = core.autograd.grad(y, x, core.tensor(g))
    index = {"reflect": [3, 2, 1, 0, 1, 2, 3, 2, 1], "replicate": [0, 0, 0, 0, 1, 2, 3, 3, 3],
             "circular": [1, 2, 3, 0, 1, 2, 3, 0, 1]}[mode]
    expected = np.zeros(4)
    np.add.at(expected, index, g.reshape(-1))
    np.testing.assert_allclose(gx.numpy().reshape(-1), expected)


def test_pad_constant_crop_gives_zero_gradient_outside():
    x = leaf((2, 4))
    (gx,) = core.autograd.grad(core.pad(x, (-1, -2), value=3.0), x, ones((2, 1)))
    np.testing.assert_array_equal(gx.numpy(), [[0, 1, 0, 0], [0, 1, 0, 0]])


@pytest.mark.parametrize("fn,shapes", [
    (lambda a, b: core.broadcast_tensors(a, b), [(2, 1), (3,)]),
    (lambda a, b: core.broadcast_tensors(a, b), [(2, 1), (1, 3)]),
    (lambda a: core.broadcast_to(a, (2, 3, 2)), [(3, 1)]),
])
def test_broadcasting(fn, shapes):
    check(fn, *shapes)


# ---------------------------------------------------------------- cat: mixed inputs
def test_cat_mixed_requires_grad():
    a, b = leaf((2, 3)), core.tensor(np.ones((1, 3)))
    y = core.cat([b, a, b])
    assert y.requires_grad and y.grad_fn.name() == "CatBackward0"
    g = np.arange(12.0).reshape(4, 3)
    (ga,) = core.autograd.grad(y, a, core.tensor(g))
    np.testing.assert_array_equal(ga.numpy(), g[1:3])
    assert b.grad is None


def test_cat_mixed_dtypes_grad_has_each_input_dtype():
    a = core.tensor(np.ones((1, 2), dtype=np.float32)).requires_grad_()
    b = leaf((2, 2))
    y = core.cat([a, b, core.tensor(np.ones((1, 2), dtype=np.int64))])
    assert y.dtype == core.float64
    y.backward(core.tensor(np.arange(8.0).reshape(4, 2)))
    assert a.grad.dtype == core.float32 and b.grad.dtype == core.float64
    np.testing.assert_array_equal(a.grad.numpy(), [[0, 1]])
    np.testing.assert_array_equal(b.grad.numpy(), [[2, 3], [4, 5]])


def test_cat_legacy_empty_inputs_get_empty_gradients():
    e1, e2 = leaf((0,)), leaf((0,), seed=1)
    x = leaf((2, 2))
    y = core.cat([e1, x, e2], 1)
    ge1, gx, ge2 = core.autograd.grad(y, [e1, x, e2], ones((2, 2)))
    assert ge1.shape == (0,) and ge2.shape == (0,)
    np.testing.assert_array_equal(gx.numpy(), np.ones((2, 2)))
    # Every input skipped: the result is (0,) and so are the gradients.
    z = core.cat([e1, e2])
    assert [g.shape for g in core.autograd.grad(z, [e1, e2], core.tensor(np.zeros(0)))] == [(0,), (0,)]


# ---------------------------------------------------------------- identity-shaped views
def test_atleast_keeps_the_input_a_leaf():
    x = leaf((2, 3))
    for fn in (core.atleast_1d, core.atleast_2d):
        y = fn(x)
        assert x.is_leaf and x.grad_fn is None
        assert y.grad_fn is not None and y._storage_ptr() == x._storage_ptr()
    a, b = core.atleast_1d(x, leaf((3,)))
    assert a.grad_fn.name() == b.grad_fn.name() == "Atleast1dBackward1"  # the list overload
    single = core.cartesian_prod(leaf((3,)))
    assert single.grad_fn is not None


# ---------------------------------------------------------------- repeat_interleave
@pytest.mark.parametrize("counts,dim,shape", [([2, 0, 3], 1, (2, 3)), ([1, 0, 2, 1], None, (2, 2)),
                                               ([0, 0], 0, (2, 3)), ([3], None, (2, 2))])
def test_repeat_interleave_tensor_counts(counts, dim, shape):
    x = leaf(shape)
    reps = core.tensor(np.array(counts, dtype=np.int64))
    y = core.repeat_interleave(x, reps, dim=dim)
    g = np.random.default_rng(3).uniform(-1, 1, tuple(y.shape))
    (gx,) = core.autograd.grad(y, x, core.tensor(g))
    # Expected: each output slice added onto the element it copies.
    n = x.shape[dim] if dim is not None else x.numel()
    index = np.repeat(np.arange(n), counts if len(counts) > 1 else counts * n)
    moved = np.moveaxis(g, dim, 0) if dim is not None else g
    expected = np.zeros((n,) + moved.shape[1:])
    np.add.at(expected, index, moved)
    expected = np.moveaxis(expected, 0, dim) if dim is not None else expected.reshape(shape)
    np.testing.assert_allclose(gx.numpy(), expected)


@pytest.mark.parametrize("counts,dim", [([1, 2], 0), ([1, 0, 2], 1), ([2, 0, 1, 1, 0, 3], None)])
def test_repeat_interleave_tensor_counts_gradcheck(counts, dim):
    reps = core.tensor(np.array(counts, dtype=np.int32))
    check(lambda a: core.repeat_interleave(a, reps, dim=dim), (2, 3))


# ---------------------------------------------------------------- repeat / tile values
def test_repeat_gradient_sums_tiles():
    x = leaf((2, 3))
    y = x.repeat(2, 1, 2)  # (2, 2, 6)
    g = np.arange(24.0).reshape(2, 2, 6)
    (gx,) = core.autograd.grad(y, x, core.tensor(g))
    expected = g.reshape(2, 1, 2, 2, 3).sum(axis=(0, 3)).reshape(2, 3)
    np.testing.assert_array_equal(gx.numpy(), expected)


# ---------------------------------------------------------------- in place
def test_tril_in_place_on_non_leaf_records_and_bumps():
    x = leaf((3, 3))
    y = x * 2
    v = y._version
    y.tril_(-1)
    assert y._version > v and y.grad_fn.name() == "TrilBackward0"
    (gx,) = core.autograd.grad(y, x, ones((3, 3)))
    np.testing.assert_array_equal(gx.numpy(), 2 * np.tril(np.ones((3, 3)), -1))


def test_tril_in_place_on_leaf_raises():
    with pytest.raises(RuntimeError, match="leaf Variable that requires grad"):
        leaf((2, 2)).triu_()


# ---------------------------------------------------------------- diagonal values
def test_diagonal_backward_places_the_gradient_on_the_diagonal():
    x = leaf((3, 4))
    (gx,) = core.autograd.grad(core.diagonal(x, 1), x, core.tensor(np.array([1.0, 2.0, 3.0])))
    expected = np.zeros((3, 4))
    expected[[0, 1, 2], [1, 2, 3]] = [1, 2, 3]
    np.testing.assert_array_equal(gx.numpy(), expected)


def test_trace_backward_is_identity_like():
    x = leaf((2, 3))
    (gx,) = core.autograd.grad(core.trace(x), x, core.tensor(np.array(2.0)))
    np.testing.assert_array_equal(gx.numpy(), 2 * np.eye(2, 3))
