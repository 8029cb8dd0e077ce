"""Gradients of the joining and linalg ops against PyTorch: torch.autograd.grad and
core.autograd.grad on the same float64 inputs and the same output gradients, for every op
(first order) and second order (create_graph), plus complex inputs."""
import numpy as np
import pytest

import core

torch = pytest.importorskip("torch")
TF = torch.nn.functional


def _pad(lib, x, widths, mode="constant", value=None):
    if lib is core:
        return core.pad(x, widths, mode=mode, value=value)
    return TF.pad(x, widths, mode=mode, value=value)


def _ints(lib, values):
    return lib.tensor(np.array(values, dtype=np.int64))


# (id, fn(lib, *inputs), input shapes)
CASES = [
    ("cat0", lambda L, a, b: L.cat([a, b]), [(2, 3), (1, 3)]),
    ("cat1", lambda L, a, b, c: L.cat([a, b, c], dim=1), [(2, 3), (2, 1), (2, 0)]),
    ("cat-legacy-empty", lambda L, a, b, c: L.cat([a, b, c], 0), [(2, 3), (0,), (1, 3)]),
    ("cat-3d", lambda L, a, b: L.cat([a, b], -2), [(2, 3, 4), (2, 1, 4)]),
    ("concat", lambda L, a, b: L.concat([a, b], 1), [(2, 3), (2, 2)]),
    ("stack", lambda L, a, b: L.stack([a, b], 1), [(2, 3), (2, 3)]),
    ("stack-neg", lambda L, a, b, c: L.stack([a, b, c], -1), [(3,), (3,), (3,)]),
    ("hstack-1d", lambda L, a, b: L.hstack([a, b]), [(3,), (2,)]),
    ("hstack-2d", lambda L, a, b: L.hstack([a, b]), [(2, 3), (2, 1)]),
    ("hstack-0d", lambda L, a, b: L.hstack([a, b]), [(), (2,)]),
    ("vstack", lambda L, a, b: L.vstack([a, b]), [(3,), (2, 3)]),
    ("dstack", lambda L, a, b: L.dstack([a, b]), [(2, 3), (2, 3, 2)]),
    ("dstack-1d", lambda L, a, b: L.dstack([a, b]), [(3,), (3,)]),
    ("column_stack", lambda L, a, b, c: L.column_stack([a, b, c]), [(3,), (3, 2), (3, 1)]),
    ("column_stack-0d", lambda L, a, b: L.column_stack([a, b]), [(), ()]),
    ("atleast_1d", lambda L, a: L.atleast_1d(a), [()]),
    ("atleast_1d-same", lambda L, a: L.atleast_1d(a) * 2, [(3,)]),
    ("atleast_2d", lambda L, a, b: L.atleast_2d(a, b), [(3,), (2, 2)]),
    ("atleast_3d", lambda L, a, b, c: L.atleast_3d([a, b, c]), [(), (3,), (2, 3)]),
    ("flip", lambda L, a: L.flip(a, [0, 2]), [(2, 3, 4)]),
    ("fliplr", lambda L, a: L.fliplr(a), [(2, 3)]),
    ("flipud", lambda L, a: L.flipud(a), [(2, 3)]),
    ("roll", lambda L, a: L.roll(a, (1, -2), (0, 1)), [(2, 3)]),
    ("roll-flat", lambda L, a: L.roll(a, 4), [(2, 3)]),
    ("roll-repeated-dim", lambda L, a: L.roll(a, (1, 1), (1, 1)), [(2, 3)]),
    ("rot90", lambda L, a: L.rot90(a, 1, [0, 1]), [(2, 3)]),
    ("rot90-k3", lambda L, a: L.rot90(a, 3, [2, 0]), [(2, 3, 4)]),
    ("rot90-k2", lambda L, a: L.rot90(a, -2, [1, 2]), [(2, 3, 4)]),
    ("repeat", lambda L, a: a.repeat(2, 1, 3), [(2, 3)]),
    ("repeat-0d", lambda L, a: a.repeat(4), [()]),
    ("tile", lambda L, a: L.tile(a, (2,)), [(2, 3)]),
    ("tile-more", lambda L, a: L.tile(a, (2, 1, 2)), [(2, 3)]),
    ("repeat_interleave-int", lambda L, a: L.repeat_interleave(a, 3, dim=1), [(2, 3)]),
    ("repeat_interleave-flat", lambda L, a: L.repeat_interleave(a, 2), [(2, 3)]),
    ("repeat_interleave-tensor", lambda L, a: L.repeat_interleave(a, _ints(L, [2, 0, 3]), dim=1), [(2, 3)]),
    ("repeat_interleave-tensor-flat", lambda L, a: L.repeat_interleave(a, _ints(L, [1, 0, 2, 1])), [(2, 2)]),
    ("repeat_interleave-tensor-one", lambda L, a: L.repeat_interleave(a, _ints(L, [2]), dim=0), [(2, 3)]),
    ("tril", lambda L, a: L.tril(a, -1), [(3, 4)]),
    ("triu", lambda L, a: L.triu(a, 1), [(2, 3, 3)]),
    ("tril_", lambda L, a: (a * 1).tril_(1), [(3, 4)]),
    ("triu_", lambda L, a: (a * 1).triu_(-1), [(4, 3)]),
    ("diag-vec", lambda L, a: L.diag(a, -2), [(3,)]),
    ("diag-mat", lambda L, a: L.diag(a, 1), [(3, 4)]),
    ("diag-mat-neg", lambda L, a: L.diag(a, -2), [(4, 3)]),
    ("diag-mat-out-of-range", lambda L, a: L.diag(a, 7), [(3, 4)]),
    ("diag_embed", lambda L, a: L.diag_embed(a, 1, 0, 2), [(2, 3)]),
    ("diag_embed-swapped", lambda L, a: L.diag_embed(a, -1, -1, 0), [(2, 3)]),
    ("diagonal", lambda L, a: L.diagonal(a, 1, 0, 2), [(3, 2, 4)]),
    ("diagonal-neg", lambda L, a: L.diagonal(a, -1, 2, 1), [(2, 3, 4)]),
    ("diagonal-of-transpose", lambda L, a: L.diagonal(a.transpose(0, 1), 0), [(3, 4)]),
    ("trace", lambda L, a: L.trace(a), [(3, 4)]),
    ("trace-tall", lambda L, a: L.trace(a), [(4, 2)]),
    ("meshgrid-ij", lambda L, a, b, c: L.meshgrid(a, b, c, indexing="ij"), [(2,), (3,), ()]),
    ("meshgrid-xy", lambda L, a, b, c: L.meshgrid(a, b, c, indexing="xy"), [(2,), (3,), (4,)]),
    ("cartesian_prod", lambda L, a, b, c: L.cartesian_prod(a, b, c), [(2,), (3,), (2,)]),
    ("cartesian_prod-one", lambda L, a: L.cartesian_prod(a), [(3,)]),
    ("broadcast_tensors", lambda L, a, b: L.broadcast_tensors(a, b), [(2, 1), (3,)]),
    ("broadcast_to", lambda L, a: L.broadcast_to(a, (2, 3, 4)), [(3, 1)]),
    # linalg
    ("mm", lambda L, a, b: L.mm(a, b), [(2, 3), (3, 4)]),
    ("bmm", lambda L, a, b: L.bmm(a, b), [(2, 2, 3), (2, 3, 4)]),
    ("mv", lambda L, a, b: L.mv(a, b), [(2, 3), (3,)]),
    ("dot", lambda L, a, b: L.dot(a, b), [(3,), (3,)]),
    ("vdot", lambda L, a, b: L.vdot(a, b), [(3,), (3,)]),
    ("outer", lambda L, a, b: L.outer(a, b), [(3,), (4,)]),
    ("ger", lambda L, a, b: L.ger(a, b), [(3,), (4,)]),
    ("addmm", lambda L, s, a, b: L.addmm(s, a, b, beta=0.5, alpha=2.0), [(2, 4), (2, 3), (3, 4)]),
    ("addmm-bcast", lambda L, s, a, b: L.addmm(s, a, b, alpha=-1.5), [(4,), (2, 3), (3, 4)]),
    ("addmm-beta0", lambda L, s, a, b: L.addmm(s, a, b, beta=0), [(2, 4), (2, 3), (3, 4)]),
    ("addmm_", lambda L, s, a, b: (s * 1).addmm_(a, b, beta=2.0, alpha=0.5), [(2, 4), (2, 3), (3, 4)]),
    ("addmv", lambda L, s, a, b: L.addmv(s, a, b, beta=0.5, alpha=2.0), [(2,), (2, 3), (3,)]),
    ("addmv-bcast", lambda L, s, a, b: L.addmv(s, a, b), [(), (2, 3), (3,)]),
    ("addmv_", lambda L, s, a, b: (s * 1).addmv_(a, b, alpha=3.0), [(2,), (2, 3), (3,)]),
    ("baddbmm", lambda L, s, a, b: L.baddbmm(s, a, b, beta=0.5, alpha=2.0), [(2, 2, 4), (2, 2, 3), (2, 3, 4)]),
    ("baddbmm-bcast", lambda L, s, a, b: L.baddbmm(s, a, b), [(2, 4), (2, 2, 3), (2, 3, 4)]),
    ("baddbmm_", lambda L, s, a, b: (s * 1).baddbmm_(a, b, beta=-1.0), [(2, 2, 4), (2, 2, 3), (2, 3, 4)]),
    ("addbmm", lambda L, s, a, b: L.addbmm(s, a, b, beta=0.5, alpha=2.0), [(2, 4), (3, 2, 3), (3, 3, 4)]),
    ("addbmm-bcast", lambda L, s, a, b: L.addbmm(s, a, b), [(4,), (3, 2, 3), (3, 3, 4)]),
    ("addbmm_", lambda L, s, a, b: (s * 1).addbmm_(a, b, alpha=2.0), [(2, 4), (3, 2, 3), (3, 3, 4)]),
    ("tensordot-int", lambda L, a, b: L.tensordot(a, b, dims=2), [(2, 3, 4), (3, 4, 5)]),
    ("tensordot-lists", lambda L, a, b: L.tensordot(a, b, dims=([1, 2], [1, 0])), [(2, 3, 4), (4, 3, 5)]),
    ("tensordot-unordered", lambda L, a, b: L.tensordot(a, b, dims=([0, 2], [1, 0])), [(3, 4, 2), (2, 3)]),
    ("tensordot-outer", lambda L, a, b: L.tensordot(a, b, dims=0), [(2, 3), (2,)]),
    ("tensordot-full", lambda L, a, b: L.tensordot(a, b, dims=2), [(2, 3), (2, 3)]),
]

MATMUL_SHAPES = [
    ((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 4)), ((2, 3), (3, 4)), ((2, 2, 3), (3,)),
    ((2, 2, 3), (3, 4)), ((3,), (2, 3, 4)), ((2, 3), (4, 3, 5)), ((4, 2, 3), (4, 3, 5)),
    ((2, 1, 2, 3), (3, 3, 4)), ((1, 2, 3), (5, 3, 2)), ((2, 0, 3), (2, 3, 2)), ((0,), (0,)),
    ((2, 3, 2, 3), (3,)), ((3,), (2, 2, 3, 4)),
]
for sa, sb in MATMUL_SHAPES:
    CASES.append((f"matmul{sa}{sb}", lambda L, a, b: L.matmul(a, b), [sa, sb]))

EINSUM_FORMS = [
    ("ij,jk->ik", [(2, 3), (3, 4)]), ("ij,jk", [(2, 3), (3, 4)]), ("bij,bjk->bik", [(2, 2, 3), (2, 3, 4)]),
    ("bhqd,bhkd->bhqk", [(2, 3, 4, 5), (2, 3, 6, 5)]), ("bhqk,bhkd->bhqd", [(2, 3, 4, 6), (2, 3, 6, 5)]),
    ("bqhd,bkhd->bhqk", [(2, 4, 3, 5), (2, 6, 3, 5)]), ("...ij,...jk", [(2, 2, 3), (2, 3, 4)]),
    ("...ij,...jk->...ik", [(2, 1, 2, 3), (3, 3, 4)]), ("...i,...i->...", [(2, 3, 4), (3, 4)]),
    ("i...,i...->...", [(3, 2), (3, 1)]), ("ii->i", [(3, 3)]), ("ii", [(3, 3)]), ("iij->j", [(3, 3, 4)]),
    ("iji->ij", [(3, 2, 3)]), ("iii->i", [(3, 3, 3)]), ("iij,jk->ik", [(3, 3, 2), (2, 4)]),
    ("i,j->ij", [(3,), (4,)]), ("i,i->", [(5,), (5,)]), ("i,i->i", [(5,), (5,)]), ("ij->", [(2, 3)]),
    ("ij->j", [(2, 3)]), ("ij->ji", [(2, 3)]), ("...", [(2, 3)]), ("...ij->...", [(4, 2, 3)]),
    ("ij,kj->ik", [(2, 3), (4, 3)]), ("ij,ij->ij", [(2, 3), (2, 3)]), ("ij,j->i", [(2, 3), (3,)]),
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)]), ("abc,cd,bd->a", [(2, 3, 4), (4, 5), (3, 5)]),
    ("i,i,i->i", [(4,), (4,), (4,)]), ("ijk,ikl->jl", [(2, 3, 4), (2, 4, 5)]),
    ("ij,jk->ik", [(2, 1), (1, 4)]), ("ij,jk->ik", [(0, 3), (3, 2)]), (",->", [(), ()]), ("i,->i", [(3,), ()]),
    ("ij,jk->ik", [(2, 3), (1, 4)]),
]
for eq, shapes in EINSUM_FORMS:
    CASES.append((f"einsum{eq!r}{shapes}", lambda L, *xs, eq=eq: L.einsum(eq, *xs), shapes))

PAD_SPECS = [
    ((2, 3), (1, 2), "constant", None), ((2, 3), (1, 1, 2, 0), "constant", 1.5), ((2, 3), (-1, 1), "constant", None),
    ((2, 3), (-1, -2, 0, 1), "constant", None), ((2, 3, 4), (0, 0, 0, 0, 1, 1), "constant", 2.0),
    ((2, 3), (1, 2), "reflect", None), ((1, 2, 3), (2, 2, 1, 0), "reflect", None), ((2, 2, 3, 4), (1, 1, 2, 0), "reflect", None),
    ((1, 2, 3, 4), (1, 2, 1, 2, 0, 1), "reflect", None), ((2, 4), (-1, 2), "reflect", None), ((2, 5), (3, -2), "reflect", None),
    ((2, 3), (2, 3), "replicate", None), ((1, 2, 3, 4), (1, 0, 0, 2), "replicate", None),
    ((2, 1, 2, 2, 2), (1, 1, 1, 1, 1, 1), "replicate", None), ((2, 3), (-2, 1), "replicate", None),
    ((2, 3), (3, 1), "circular", None), ((1, 2, 3, 4), (1, 2, 3, 0), "circular", None),
    ((1, 1, 2, 3, 2), (1, 1, 1, 1, 1, 1), "circular", None), ((2, 4), (-1, 2), "circular", None),
    ((2, 5), (2, -3), "circular", None), ((1, 2, 5), (-1, -1), "circular", None),
]
for shape, widths, mode, value in PAD_SPECS:
    CASES.append((f"pad{shape}{widths}{mode}",
                  lambda L, x, w=widths, m=mode, v=value: _pad(L, x, w, m, v), [shape]))


def _outputs(out):
    return list(out) if isinstance(out, (tuple, list)) else [out]


def _run(lib, fn, arrays, grad_arrays):
    """The output shapes (grad_arrays None), or the first-order gradients of the inputs."""
    make = core.tensor if lib is core else torch.tensor
    inputs = [make(a).requires_grad_() for a in arrays]
    outs = _outputs(fn(lib, *inputs))
    if grad_arrays is None:
        return [tuple(o.shape) for o in outs]
    gos = [make(g) for g in grad_arrays]
    firsts = lib.autograd.grad(outs, inputs, gos, allow_unused=True)
    return [np.zeros(a.shape) if f is None else f.detach().numpy() for f, a in zip(firsts, arrays)]


def _arrays(shapes, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.uniform(-2, 2, s) for s in shapes]


@pytest.mark.parametrize("name,fn,shapes", CASES, ids=[c[0] for c in CASES])
def test_first_order(name, fn, shapes):
    arrays = _arrays(shapes)
    out_shapes = _run(torch, fn, arrays, None)
    assert _run(core, fn, arrays, None) == out_shapes
    rng = np.random.default_rng(1)
    grad_arrays = [rng.uniform(-1, 1, s) for s in out_shapes]
    expected = _run(torch, fn, arrays, grad_arrays)
    ours = _run(core, fn, arrays, grad_arrays)
    for o, e in zip(ours, expected):
        assert o.shape == e.shape
        np.testing.assert_allclose(o, e, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("name,fn,shapes", CASES, ids=[c[0] for c in CASES])
def test_second_order(name, fn, shapes):
    arrays = _arrays(shapes)
    out_shapes = _run(torch, fn, arrays, None)
    rng = np.random.default_rng(1)
    grad_arrays = [rng.uniform(-1, 1, s) for s in out_shapes]

    def second(lib):
        """d/d(inputs, output grads) of sum(first-order gradients * fixed weights)."""
        inputs = [lib.tensor(a).requires_grad_() for a in arrays]
        gos = [lib.tensor(g).requires_grad_() for g in grad_arrays]
        outs = _outputs(fn(lib, *inputs))
        firsts = lib.autograd.grad(outs, inputs, gos, create_graph=True, allow_unused=True)
        w = np.random.default_rng(7)
        terms = [(f * lib.tensor(w.uniform(-1, 1, a.shape))).sum() for f, a in zip(firsts, arrays) if f is not None]
        if not terms:
            return None
        res = lib.autograd.grad(sum(terms[1:], terms[0]), inputs + gos, allow_unused=True)
        return [np.zeros(tuple(x.shape)) if r is None else r.detach().numpy() for r, x in zip(res, inputs + gos)]

    expected, ours = second(torch), second(core)
    if expected is None:
        assert ours is None
        return
    assert ours is not None
    for o, e in zip(ours, expected):
        np.testing.assert_allclose(o, e, rtol=1e-9, atol=1e-12)


COMPLEX_CASES = [
    ("matmul", lambda L, a, b: L.matmul(a, b), [(2, 3), (3, 4)]),
    ("mv", lambda L, a, b: L.mv(a, b), [(2, 3), (3,)]),
    ("dot", lambda L, a, b: L.dot(a, b), [(3,), (3,)]),
    ("vdot", lambda L, a, b: L.vdot(a, b), [(3,), (3,)]),
    ("outer", lambda L, a, b: L.outer(a, b), [(3,), (2,)]),
    ("einsum", lambda L, a, b: L.einsum("bij,bjk->bik", a, b), [(2, 2, 3), (2, 3, 4)]),
    ("tensordot", lambda L, a, b: L.tensordot(a, b, dims=1), [(2, 3), (3, 4)]),
    ("addmm", lambda L, s, a, b: L.addmm(s, a, b, beta=0.5, alpha=2.0), [(2, 4), (2, 3), (3, 4)]),
]


@pytest.mark.parametrize("name,fn,shapes", COMPLEX_CASES, ids=[c[0] for c in COMPLEX_CASES])
def test_complex(name, fn, shapes):
    """Complex operands enter the gradients conjugated, as in PyTorch."""
    rng = np.random.default_rng(0)
    arrays = [(rng.uniform(-2, 2, s) + 1j * rng.uniform(-2, 2, s)).astype(np.complex64) for s in shapes]
    theirs_in = [torch.tensor(a, requires_grad=True) for a in arrays]
    out = fn(torch, *theirs_in)
    g = (rng.uniform(-1, 1, tuple(out.shape)) + 1j * rng.uniform(-1, 1, tuple(out.shape))).astype(np.complex64)
    expected = torch.autograd.grad(out, theirs_in, torch.tensor(g))
    ours_in = [core.tensor(a).requires_grad_() for a in arrays]
    our_out = fn(core, *ours_in)
    ours = core.autograd.grad(our_out, ours_in, core.tensor(g))
    for o, e in zip(ours, expected):
        np.testing.assert_allclose(o.numpy(), e.numpy(), rtol=1e-5, atol=1e-5)
