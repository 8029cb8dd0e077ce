"""Gradients of the views and indexing family beyond the op matrix: repeated indices, pieces
of split-like ops, masks, as_strided, t[...] get/set on tensors in a graph, and in-place ops
on views (CopySlices: the base's history is rebased)."""
import importlib
import pkgutil

import numpy as np
import pytest

import core
from core import autograd
from core.autograd import gradcheck, gradgradcheck

import op_matrix
from op_matrix import registry

for _mod in pkgutil.iter_modules(op_matrix.__path__):
    importlib.import_module(f"op_matrix.{_mod.name}")

RNG = np.random.default_rng(11)


def leaf(shape_or_array, dtype=core.float64):
    a = shape_or_array if isinstance(shape_or_array, np.ndarray) else RNG.standard_normal(shape_or_array)
    return core.tensor(a, dtype=dtype).requires_grad_()


def grads(out, inputs, seed=None):
    """autograd.grad of `out` with an all-ones (or given) upstream gradient, as numpy."""
    g = core.ones(list(out.shape), dtype=out.dtype) if seed is None else core.tensor(seed, dtype=out.dtype)
    result = autograd.grad(out, inputs, g, allow_unused=True)
    return [None if r is None else r.numpy() for r in result]


# ---------------------------------------------------------------- all sample cases

# Every differentiable entry of the family with its sample kind: gradcheck on every floating
# case (the op matrix test takes only the first three).
FAMILY = [
    ("view_as", "view_as", True), ("reshape_as", "view_as", True), ("expand_as", "expand_as", True),
    ("swapaxes", "transpose", False), ("swapdims", "transpose", False), ("t", "matrix_t", False),
    ("squeeze", "squeeze", False), ("squeeze.dim", "squeeze_dim", False), ("unsqueeze", "unsqueeze", False),
    ("flatten", "flatten", False), ("unflatten", "unflatten", True), ("movedim", "movedim", False),
    ("moveaxis", "movedim", False), ("narrow", "narrow", False), ("select", "select", False),
    ("unbind", "unbind", False), ("split", "split", False), ("split_with_sizes", "split_with_sizes", False),
    ("chunk", "chunk", False), ("tensor_split", "tensor_split", False),
    ("tensor_split.indices", "tensor_split_indices", False), ("unfold", "unfold", True),
    ("index_select", "index_select", False), ("gather", "gather", False), ("scatter.src", "scatter", False),
    ("scatter.value", "scatter_value", False), ("scatter_.src", "scatter", True),
    ("scatter_add", "scatter", False), ("scatter_add_", "scatter", True), ("index_add", "index_add", False),
    ("index_add_", "index_add", True), ("index_copy", "index_copy", False), ("index_copy_", "index_copy", True),
    ("index_fill.int_Scalar", "index_fill", False), ("index_fill_.int_Scalar", "index_fill", True),
    ("masked_fill.Scalar", "masked_fill", False), ("masked_fill_.Scalar", "masked_fill", True),
    ("masked_select", "masked_select", False), ("masked_scatter", "masked_scatter", False),
    ("masked_scatter_", "masked_scatter", True), ("where.self", "where", False), ("take", "take", False),
    ("put", "put", False), ("put_", "put", True), ("copy_", "copy", True),
]
# Broadcasting cases need the engine's sum_to to be recorded for double backward (not yet).
NO_GRADGRAD_WHEN_BROADCAST = {"expand_as", "where.self", "masked_select", "copy_"}


def _cases(kind):
    out = []
    for case in registry.SAMPLES[kind](np.random.default_rng(3)):
        arrays = [a for a in case.args if isinstance(a, np.ndarray)]
        if not any(a.dtype.kind == "f" for a in arrays) or any(a.dtype.kind == "c" for a in arrays):
            continue
        if any(a.dtype.kind == "f" and a.size > 30 for a in arrays):
            continue
        args = tuple(a.astype(np.float64) if isinstance(a, np.ndarray) and a.dtype.kind == "f" else a
                     for a in case.args)
        out.append((args, case.kwargs, case.label))
    return out


def _call(name, method, args, kwargs):
    base = name.split(".")[0]
    positions = [i for i, a in enumerate(args) if isinstance(a, np.ndarray) and a.dtype.kind == "f"]
    static = [core.tensor(a) if isinstance(a, np.ndarray) else a for a in args]

    def fn(*tensors):
        call = list(static)
        for i, t in zip(positions, tensors):
            call[i] = t
        if base.endswith("_"):
            call[0] = call[0].clone()
        if method or base.endswith("_"):
            return getattr(call[0], base)(*call[1:], **kwargs)
        return getattr(core, base)(*call, **kwargs)

    return fn, [core.tensor(args[i]).requires_grad_() for i in positions]


@pytest.mark.parametrize("name,kind,method", FAMILY, ids=[f[0] for f in FAMILY])
def test_gradcheck_every_sample_case(name, kind, method):
    ref = registry.REFERENCES.get(name)
    method = method or (ref is not None and ref.method)
    cases = _cases(kind)
    assert cases
    for args, kwargs, label in cases:
        fn, inputs = _call(name, method, args, kwargs)
        assert gradcheck(fn, inputs, atol=1e-6, rtol=1e-4), label
        shapes = {a.shape for a in args if isinstance(a, np.ndarray)}
        if name in NO_GRADGRAD_WHEN_BROADCAST and len(shapes) > 1:
            continue
        assert gradgradcheck(fn, inputs, atol=1e-5, rtol=1e-3), label


# ---------------------------------------------------------------- repeated indices accumulate

def test_repeated_indices_accumulate():
    x = leaf((4, 3))
    idx = core.tensor([0, 0, 2, 0])
    (g,) = grads(x.index_select(0, idx), [x])
    np.testing.assert_array_equal(g[:, 0], [3, 0, 1, 0])
    (g,) = grads(x.gather(1, core.tensor([[0, 0, 0], [1, 1, 2], [2, 2, 2], [0, 1, 0]])), [x])
    np.testing.assert_array_equal(g, [[3, 0, 0], [0, 2, 1], [0, 0, 3], [2, 1, 0]])
    (g,) = grads(x[idx], [x])
    np.testing.assert_array_equal(g[:, 1], [3, 0, 1, 0])
    (g,) = grads(x[[1, 1], [2, 2]], [x])
    assert g[1, 2] == 2 and g.sum() == 2
    (g,) = grads(x.take(core.tensor([5, -7, 5])), [x])
    assert g.reshape(-1)[5] == 3 and g.sum() == 3
    mask = np.array([True, False, True, True])
    (g,) = grads(x[core.tensor(mask)][[0, 0]], [x])
    np.testing.assert_array_equal(g[:, 0], [2, 0, 0, 0])


def test_index_fill_value_counts_each_filled_element_once():
    x = leaf((3, 4))
    v = core.tensor(2.0, dtype=core.float64).requires_grad_()
    out = x.index_fill(0, core.tensor([0, 0, 2]), v)
    gx, gv = grads(out, [x, v])
    assert gv == 8.0  # two rows of four, although row 0 is named twice
    np.testing.assert_array_equal(gx, [[0] * 4, [1] * 4, [0] * 4])


def test_index_put_accumulate_and_assign():
    x = leaf((3, 4))
    v = leaf((2,))
    rows, cols = core.tensor([0, 2]), core.tensor([1, 1])
    out = (x * 1).index_put((rows, cols), v, accumulate=True)
    gx, gv = grads(out, [x, v], seed=np.arange(12.0).reshape(3, 4))
    np.testing.assert_array_equal(gx, np.arange(12.0).reshape(3, 4))
    np.testing.assert_array_equal(gv, [1, 9])
    out = (x * 1).index_put((rows, cols), v, accumulate=False)
    gx, gv = grads(out, [x, v], seed=np.arange(12.0).reshape(3, 4))
    expect = np.arange(12.0).reshape(3, 4)
    expect[[0, 2], [1, 1]] = 0
    np.testing.assert_array_equal(gx, expect)
    # None in the index list: a whole dim; a broadcast value sums over the broadcast.
    w = leaf((1,))
    out = (x * 1).index_put((None, core.tensor([3])), w)
    gx, gw = grads(out, [x, w])
    assert gw == [3.0] and gx[:, 3].sum() == 0


def test_index_put_gradcheck():
    x, v = leaf((3, 4)), leaf((2, 4))
    idx = core.tensor([2, 0])
    for acc in (False, True):
        fn = lambda x, v: (x * 1).index_put_((idx,), v, accumulate=acc)
        assert gradcheck(fn, [x, v]) and gradgradcheck(fn, [x, v])
        fn = lambda x, v: core.index_put(x, (idx,), v, accumulate=acc)
        assert gradcheck(fn, [x, v]) and gradgradcheck(fn, [x, v])
    mask = core.tensor(np.array([[True, False, False, True]] * 3))
    fn = lambda x, v: (x * 1).index_put_((mask,), v.reshape(-1)[:6])
    assert gradcheck(fn, [x, v]) and gradgradcheck(fn, [x, v])


# ---------------------------------------------------------------- pieces

@pytest.mark.parametrize("op", ["unbind", "split", "chunk", "tensor_split"])
def test_gradient_reaches_every_piece(op):
    x = leaf((4, 6))
    pieces = {"unbind": lambda: x.unbind(1), "split": lambda: x.split([1, 2, 3], 1),
              "chunk": lambda: x.chunk(3, 1), "tensor_split": lambda: x.tensor_split([1, 4], 1)}[op]()
    weights = [float(i + 1) for i in range(len(pieces))]
    outs = [p * w for p, w in zip(pieces, weights)]
    seeds = [core.ones(list(o.shape), dtype=o.dtype) for o in outs]
    (g,) = autograd.grad(outs, [x], seeds)
    widths = [p.shape[1] if p.dim() > 1 else 1 for p in pieces]
    expect = np.repeat(np.array(weights), widths)[None, :].repeat(4, 0)
    np.testing.assert_array_equal(g.numpy(), expect)


def test_unused_pieces_get_zero_gradient():
    x = leaf((5,))
    a, b, c = x.chunk(3)
    (g,) = grads(b * 2, [x])
    np.testing.assert_array_equal(g, [0, 0, 2, 2, 0])
    (g,) = grads(x.unbind()[4], [x])
    np.testing.assert_array_equal(g, [0, 0, 0, 0, 1])


def test_tensor_split_with_overlapping_indices():
    x = leaf((7,))
    pieces = x.tensor_split([5, 1])  # [0:5], [5:5], [1:7]: the first and last overlap
    outs = [pieces[0], pieces[2]]
    (g,) = autograd.grad(outs, [x], [core.ones(5, dtype=core.float64), core.ones(6, dtype=core.float64)])
    np.testing.assert_array_equal(g.numpy(), [1, 2, 2, 2, 2, 1, 1])


def test_unfold_overlapping_windows_accumulate():
    x = leaf((6,))
    (g,) = grads(x.unfold(0, 3, 1), [x])
    np.testing.assert_array_equal(g, [1, 2, 3, 3, 2, 1])
    (g,) = grads(x.unfold(0, 2, 3), [x])
    np.testing.assert_array_equal(g, [1, 1, 0, 1, 1, 0])


# ---------------------------------------------------------------- masks and scatters

def test_masked_ops():
    x = leaf((3, 4))
    mask = core.tensor(np.array([True, False, True, False]))
    v = core.tensor(1.5, dtype=core.float64).requires_grad_()
    gx, gv = grads(x.masked_fill(mask, v), [x, v])
    np.testing.assert_array_equal(gx, np.tile([0, 1, 0, 1], (3, 1)))
    assert gv == 6
    src = leaf((10,))
    gx, gs = grads(x.masked_scatter(mask, src), [x, src], seed=np.arange(12.0).reshape(3, 4))
    np.testing.assert_array_equal(gs, [0, 2, 4, 6, 8, 10, 0, 0, 0, 0])  # the unused tail gets zeros
    np.testing.assert_array_equal(gx, np.arange(12.0).reshape(3, 4) * np.tile([0, 1, 0, 1], (3, 1)))
    y = leaf((3, 1))
    (gy,) = grads(y.masked_select(mask), [y])  # broadcast: each element used twice
    np.testing.assert_array_equal(gy, [[2], [2], [2]])


def test_masked_fill_does_not_turn_infinite_gradients_into_nan():
    x = leaf((3,))
    mask = core.tensor([True, False, True])
    (g,) = grads(x.masked_fill(mask, 0.0), [x], seed=np.array([np.inf, 1.0, np.inf]))
    np.testing.assert_array_equal(g, [0, 1, 0])


def test_where_gradients_and_dtypes():
    cond = core.tensor([[True, False, True]])
    a = leaf((2, 3))
    b = leaf((3,), dtype=core.float32)
    out = core.where(cond, a, b)
    assert out.dtype == core.float64
    ga, gb = autograd.grad(out, [a, b], core.ones(2, 3, dtype=core.float64))
    np.testing.assert_array_equal(ga.numpy(), [[1, 0, 1], [1, 0, 1]])
    assert gb.dtype == core.float32
    np.testing.assert_array_equal(gb.numpy(), [0, 2, 0])


def test_scatter_source_larger_than_index_gets_zero_padding():
    x, src = leaf((3, 5)), leaf((3, 6))
    index = core.tensor([[0, 1, 2, 0, 1], [1, 2, 0, 1, 2]])
    gx, gs = grads(x.scatter(0, index, src), [x, src], seed=np.arange(15.0).reshape(3, 5))
    expect = np.zeros((3, 6))
    expect[:2, :5] = np.arange(15.0).reshape(3, 5)[index.numpy(), np.arange(5)]
    np.testing.assert_array_equal(gs, expect)
    assert (gx[index.numpy(), np.arange(5)] == 0).all()


def test_scatter_with_reduce_has_no_derivative():
    x = leaf((3, 4))
    out = (x * 1).scatter(0, core.tensor([[0, 1, 2, 0]]), 2.0, reduce="add")
    with pytest.raises(NotImplementedError, match="derivative for 'scatter' with reduce='add'"):
        grads(out, [x])


# ---------------------------------------------------------------- as_strided

def test_as_strided_gradients():
    x = leaf((4, 5))
    assert gradcheck(lambda x: x.as_strided((3, 4), (1, 3), 2), [x])
    assert gradgradcheck(lambda x: x.as_strided((3, 4), (1, 3), 2), [x])
    # Overlapping output elements accumulate; a transposed input works through its own strides.
    fn = lambda x: x.t().as_strided((2, 3, 2), (5, 1, 1), 1)
    assert gradcheck(fn, [x]) and gradgradcheck(fn, [x])
    (g,) = grads(x.as_strided((2, 2), (1, 1)), [x])
    np.testing.assert_array_equal(g.reshape(-1)[:4], [1, 2, 1, 0])
    # A view of part of the storage: elements outside the input get nothing.
    fn = lambda x: x[1:3].as_strided((2, 2), (4, 3), 6)
    assert gradcheck(fn, [x]) and gradgradcheck(fn, [x])
    # Elements read from outside the input (as_strided reaches into the whole storage) get no
    # gradient in it, as in PyTorch.
    (g,) = grads(x[1:3].as_strided((1, 2), (1, 10), 5), [x])
    np.testing.assert_array_equal(g.reshape(-1), [0] * 5 + [1] + [0] * 14)


def test_as_strided_of_overlapping_input_is_not_implemented():
    x = leaf((1, 3))
    out = x.expand(2, 3).as_strided((2, 2), (1, 1))
    with pytest.raises(NotImplementedError, match="overlap"):
        grads(out, [x])


# ---------------------------------------------------------------- complex views

def test_view_as_real_and_complex_gradients():
    c = core.tensor(np.array([1 + 2j, 3 - 1j], dtype=np.complex64)).requires_grad_()
    (g,) = autograd.grad(core.view_as_real(c), [c], core.tensor(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)))
    np.testing.assert_array_equal(g.numpy(), [1 + 2j, 3 + 4j])
    r = core.tensor(np.arange(4, dtype=np.float32).reshape(2, 2)).requires_grad_()
    (g,) = autograd.grad(core.view_as_complex(r), [r], core.tensor(np.array([1 + 2j, 3 - 1j], np.complex64)))
    np.testing.assert_array_equal(g.numpy(), [[1, 2], [3, -1]])


# ---------------------------------------------------------------- t[...] records history

def test_getitem_records_view_and_index_nodes():
    x = leaf((4, 5))
    names = {
        "...": x[...], "slice": x[:, ::2], "select": x[0], "none": x[None], "index": x[[0, 1]],
        "mixed": x[1, [0, 2]], "mask": x[core.tensor([True, False, True, False])],
    }
    got = {k: v.grad_fn.name() for k, v in names.items()}
    assert got == {"...": "AliasBackward0", "slice": "SliceBackward0", "select": "SelectBackward0",
                   "none": "UnsqueezeBackward0", "index": "IndexBackward0", "mixed": "IndexBackward0",
                   "mask": "IndexBackward0"}
    for index in [(slice(1, None, 2), None, -1), (Ellipsis, [0, 0, 3]), ([[0], [3]], [1, 1]), (0, slice(None, None, 3))]:
        assert gradcheck(lambda x: x[index], [x]) and gradgradcheck(lambda x: x[index], [x])


def test_getitem_without_grad_stays_fast_path():
    x = core.zeros(3, 4)
    assert x[0].grad_fn is None and not x[0].requires_grad
    with core.no_grad():
        y = leaf((3, 4))[1:]
    assert y.grad_fn is None and not y.requires_grad


def test_setitem_on_non_leaf():
    x = leaf((4, 5))

    def fn(x):
        y = x * 1
        y[0] = 3.0
        y[1:3, ::2] = x[:2, 1:4] * x[2:, :3]
        y[[3, 3], [0, 4]] = x[0, :2]
        y[..., -1] *= 2
        return y

    y = fn(x)
    assert y.grad_fn.name() == "CopySlices"
    assert gradcheck(fn, [x]) and gradgradcheck(fn, [x])
    y = x * 1
    y[0] = 3.0
    (g,) = grads(y, [x])
    np.testing.assert_array_equal(g, [[0] * 5] + [[1] * 5] * 3)


def test_setitem_of_a_value_requiring_grad_into_a_plain_tensor():
    w = leaf((2,))
    z = core.zeros(3, 2, dtype=core.float64)
    z[1] = w * 3
    assert z.requires_grad and not z.is_leaf and z.grad_fn.name() == "CopySlices"
    (g,) = grads(z, [w])
    np.testing.assert_array_equal(g, [3, 3])
    z2 = core.zeros(3, 2, dtype=core.float64)
    z2[[0, 2]] = w
    assert z2.grad_fn.name() == "IndexPutBackward0"
    (g,) = grads(z2, [w])
    np.testing.assert_array_equal(g, [2, 2])


# ---------------------------------------------------------------- in-place ops on views

def test_views_of_views_in_place():
    x = leaf((4, 6))

    def fn(x):
        y = x * 1
        v = y[1:4]          # a view
        w = v[:, 2:5]       # a view of a view: same base
        w.mul_(x[:3, :3])   # CopySlices on y (no broadcasting: double backward needs no sum_to)
        v[0].add_(1.5)
        return y

    y = fn(x)
    assert y.grad_fn.name() == "CopySlices"
    assert gradcheck(fn, [x]) and gradgradcheck(fn, [x])


def test_overlapping_views_see_in_place_writes_of_each_other():
    x = leaf((6,))

    def fn(x):
        y = x * 1
        a, b = y[0:4], y[2:6]   # overlap in y[2:4]
        a.mul_(3)
        return b * 1            # b's grad_fn is regenerated from y's new history

    (g,) = grads(fn(x), [x])
    np.testing.assert_array_equal(g, [0, 0, 3, 3, 1, 1])
    assert gradcheck(fn, [x]) and gradgradcheck(fn, [x])


def test_in_place_on_the_base_regenerates_its_views():
    x = leaf((3,))
    y = x * 1
    v = y[1:]
    assert v.grad_fn.name() == "SliceBackward0"
    y.mul_(4)
    assert v.grad_fn.name() == "AsStridedBackward0"
    (g,) = grads(v, [x])
    np.testing.assert_array_equal(g, [0, 4, 4])


def test_in_place_on_a_view_of_a_split_piece():
    x = leaf((4, 2))
    y = x * 1
    a, b = y.chunk(2)
    a.mul_(2)
    (g,) = grads(y, [x])
    np.testing.assert_array_equal(g, [[2, 2], [2, 2], [1, 1], [1, 1]])


def test_in_place_view_errors():
    x = leaf((3, 4))
    with pytest.raises(RuntimeError, match="a view of a leaf Variable that requires grad is being used in an in-place"):
        x[0].mul_(2)
    with pytest.raises(RuntimeError, match="a view of a leaf Variable that requires grad"):
        x[0] = 1.0
    y = x * 1
    with core.no_grad():
        v = y[0]
    with pytest.raises(RuntimeError, match="A view was created in no_grad mode and is being modified inplace"):
        v.mul_(2)
    with core.no_grad():
        v.mul_(2)  # allowed, untracked, when both are under no_grad
    c = core.tensor(np.array([1 + 1j, 2 + 0j], dtype=np.complex64)).requires_grad_() * 1
    with pytest.raises(RuntimeError, match="in-place operation on a view of a tensor that requires grad is not supported yet"):
        core.view_as_real(c).mul_(2)


def test_returning_an_input_does_not_rewrite_its_history():
    x = leaf((2, 3))
    assert x.contiguous() is x and x.is_leaf and x.grad_fn is None
    assert x.flatten(0, 0) is x and x.is_leaf
    y = x * 1
    node = y.grad_fn
    assert y.contiguous() is y and y.grad_fn is node


def test_copy_gradients():
    x, src = leaf((2, 3)), leaf((3,), dtype=core.float32)
    y = x * 1
    y.copy_(src)
    gx, gs = autograd.grad(y, [x, src], core.ones(2, 3, dtype=core.float64))
    np.testing.assert_array_equal(gx.numpy(), np.zeros((2, 3)))
    assert gs.dtype == core.float32
    np.testing.assert_array_equal(gs.numpy(), [2, 2, 2])


def test_in_place_formulas_see_a_recorded_original_self():
    # mul_'s gradient for `other` uses self's value from before the op: a recorded clone, so
    # that double backward reaches self's history through it (views or not).
    x, w = leaf((3, 4)), leaf((3, 4))
    assert gradgradcheck(lambda x, w: (x * 1).mul_(w), [x, w])
    assert gradgradcheck(lambda x, w: (x * 1)[1:].div_(w[1:]), [x, w])
