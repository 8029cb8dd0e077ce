"""Gradients of views and indexing against PyTorch (torch.autograd.grad on the same inputs and
upstream gradients): every op of the family, t[...] get/set, and in-place ops on views."""
import numpy as np
import pytest

import core

torch = pytest.importorskip("torch")
# PyTorch 2.x warns about some 1.8 spellings used here (reduce=, list-as-tuple indices).
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

_rng = np.random.default_rng(5)
A34 = _rng.standard_normal((3, 4))
A45 = _rng.standard_normal((4, 5))
A235 = _rng.standard_normal((2, 3, 5))
V6 = _rng.standard_normal(6)
MASK34 = _rng.random((3, 4)) > 0.5
MASK4 = np.array([True, False, True, True])


def I(m, data):
    """An int64 (or bool) index tensor of module m."""
    return m.tensor(np.asarray(data))


def _setitem_chain(m, x):
    y = x * 1
    y[0] = 2.0
    y[1:, ::2] = x[:2, 1:4] * 3
    y[[2, 2], [4, 0]] = x[0, :2]
    y[..., 1] *= x[..., 3]
    y[I(m, [True, False, True]), 2] = 7.0
    return y


def _views_of_views(m, x):
    y = x * 1
    v = y[1:]
    w = v[:, 1:4]
    w.mul_(x[:3, :3])
    v[0].add_(v[1].clone())
    return y


def _overlapping_views(m, x):
    y = x * 2
    a, b = y[0:3], y[1:4]
    a.mul_(x[0:3] + 1)
    return b


def _base_then_view(m, x):
    y = x * 1
    v = y[1:3]
    y.mul_(y.clone())
    return v * 2


def _into_plain(m, x):
    z = m.zeros(3, 5, dtype=x.dtype)
    z[1] = x[0] * 2
    z[:, 2:4] = x[:3, :2]
    z[I(m, [0, 2]), I(m, [4, 4])] = x[2, :2]
    return z


def _unbind(m, x):
    a, b, c = x.unbind(0)
    return a * 2 + c


def _split(m, x):
    p, q = x.split([2, 3], 1)
    return p * 2, q


def _chunk(m, x):
    a, b = x.chunk(2, 1)
    return a[:, :2] * b


def _tensor_split(m, x):
    a, b, c = x.tensor_split([4, 1], 1)
    return a, c * 3


# (label, fn(m, *inputs), float64 inputs, whether double backward is compared too: not for
# formulas that hand the engine a broadcast gradient, whose sum_to is not yet recorded)
CASES = [
    ("view_as", lambda m, x: x.view_as(m.zeros(5, 4)), [A45], True),
    ("reshape_as", lambda m, x: x.t().reshape_as(m.zeros(20)), [A45], True),
    ("expand_as", lambda m, x: x[:, :1].expand_as(m.zeros(4, 5)), [A45], False),
    ("swapaxes", lambda m, x: x.swapaxes(0, 2), [A235], True),
    ("swapdims", lambda m, x: m.swapdims(x, 2, 1), [A235], True),
    ("t", lambda m, x: x.t(), [A45], True),
    ("squeeze", lambda m, x: x[:, None, :1].squeeze(), [A45], True),
    ("squeeze.dim", lambda m, x: x[None].squeeze(0), [A45], True),
    ("unsqueeze", lambda m, x: x.unsqueeze(-1), [A45], True),
    ("flatten", lambda m, x: x.flatten(1), [A235], True),
    ("unflatten", lambda m, x: x.unflatten(1, (5, 1)), [A45], True),
    ("movedim", lambda m, x: m.movedim(x, (0, 1), (2, 0)), [A235], True),
    ("moveaxis", lambda m, x: x.moveaxis(-1, 0), [A235], True),
    ("narrow", lambda m, x: x.narrow(1, -3, 2), [A45], True),
    ("select", lambda m, x: x.select(1, -2), [A235], True),
    ("unbind", _unbind, [A34], True),
    ("split", _split, [A45], True),
    ("chunk", _chunk, [A45], True),
    ("tensor_split", _tensor_split, [A45], True),
    ("tensor_split.sections", lambda m, x: m.tensor_split(x, 3, 1)[2], [A45], True),
    ("unfold", lambda m, x: x.unfold(1, 3, 1), [A45], True),
    ("unfold.step", lambda m, x: x.unfold(0, 2, 2), [A45], True),
    ("as_strided", lambda m, x: x.as_strided((3, 3), (2, 1), 1), [A45], True),
    ("as_strided.overlap", lambda m, x: m.as_strided(x.t(), (2, 4), (1, 2), 3), [A45], True),
    ("index_select.repeats", lambda m, x: x.index_select(1, I(m, [3, 0, 3, 3])), [A34], True),
    ("gather", lambda m, x: x.gather(1, I(m, [[0, 0, 3], [1, 1, 1], [2, 0, 2]])), [A34], True),
    ("scatter.src", lambda m, x, s: x.scatter(0, I(m, [[2, 1, 0, 1], [0, 2, 1, 0]]), s[:2, :4]), [A34, A45], True),
    ("scatter.value", lambda m, x: x.scatter(1, I(m, [[0, 3], [1, 1], [2, 0]]), 1.5), [A34], True),
    ("scatter_.src", lambda m, x, s: (x * 1).scatter_(1, I(m, [[3, 1], [0, 2], [1, 0]]), s[:3, :2]), [A34, A45], True),
    ("scatter_add", lambda m, x, s: x.scatter_add(0, I(m, [[2, 2, 0, 1], [2, 2, 1, 0]]), s[:2, :4]), [A34, A45], True),
    ("scatter_add_", lambda m, x, s: (x * 1).scatter_add_(1, I(m, [[0, 0], [3, 3], [1, 1]]), s[:3, :2]), [A34, A45], True),
    ("index_add", lambda m, x, s: x.index_add(0, I(m, [1, 1, 0]), s[:3, :4], alpha=2.5), [A34, A45], True),
    ("index_add_", lambda m, x, s: (x * 1).index_add_(1, I(m, [3, 3]), s[:3, :2]), [A34, A45], True),
    ("index_copy", lambda m, x, s: x.index_copy(1, I(m, [3, 0]), s[:3, :2]), [A34, A45], True),
    ("index_copy_", lambda m, x, s: (x * 1).index_copy_(0, I(m, [2]), s[:1, :4]), [A34, A45], True),
    ("index_fill", lambda m, x: x.index_fill(1, I(m, [0, 0, 2]), -1.0), [A34], True),
    ("index_fill_.tensor", lambda m, x, v: (x * 1).index_fill_(0, I(m, [2, 2]), v[0, 0]), [A34, A45], False),
    ("masked_fill", lambda m, x: x.masked_fill(I(m, MASK34), 0.5), [A34], True),
    ("masked_fill.tensor", lambda m, x, v: x.masked_fill(I(m, MASK4), v[0, 0]), [A34, A45], False),
    ("masked_fill_", lambda m, x: (x * 1).masked_fill_(I(m, MASK4), 3.0), [A34], True),
    ("masked_select", lambda m, x: x.masked_select(I(m, MASK34)), [A34], True),
    ("masked_select.broadcast", lambda m, x: x[:, :1].masked_select(I(m, MASK34)), [A34], False),
    ("masked_scatter", lambda m, x, s: x.masked_scatter(I(m, MASK34), s), [A34, A45], True),
    ("masked_scatter_", lambda m, x, s: (x * 1).masked_scatter_(I(m, MASK4), s.flatten()), [A34, A45], True),
    ("where", lambda m, x, y: m.where(I(m, MASK34), x, y[:3, :4]), [A34, A45], True),
    ("where.broadcast", lambda m, x, y: m.where(I(m, MASK4), x, y[0, :1]), [A34, A45], False),
    ("take", lambda m, x: x.take(I(m, [[0, -1], [5, 5]])), [A34], True),
    ("put", lambda m, x, s: x.put(I(m, [1, 7, -2]), s[0, :3]), [A34, A45], True),
    ("put.accumulate", lambda m, x, s: x.put(I(m, [1, 1, -2]), s[0, :3], accumulate=True), [A34, A45], True),
    ("put_", lambda m, x, s: (x * 1).put_(I(m, [0, 11]), s[1, :2]), [A34, A45], True),
    ("index_put", lambda m, x, s: x.index_put((I(m, [0, 2]), I(m, [1, 1])), s[0, :2]), [A34, A45], True),
    ("index_put.accumulate", lambda m, x, s: x.index_put((I(m, [0, 0]), I(m, [1, 1])), s[0, :2], accumulate=True),
     [A34, A45], True),
    ("index_put_.mask", lambda m, x, s: (x * 1).index_put_((I(m, MASK34),), s.flatten()[:int(MASK34.sum())]),
     [A34, A45], True),
    ("index_put_.broadcast_value", lambda m, x, s: (x * 1).index_put_((I(m, [1]),), s[0, :1]), [A34, A45], False),
    ("copy_", lambda m, x, s: (x * 1).copy_(s[:3, :4]), [A34, A45], True),
    ("copy_.broadcast", lambda m, x, s: (x * 1).copy_(s[0, :4]), [A34, A45], False),
    ("getitem.basic", lambda m, x: x[1:, None, ::2][..., -1], [A45], True),
    ("getitem.advanced", lambda m, x: x[I(m, [[0], [3]]), I(m, [1, 1, 4])], [A45], True),
    ("getitem.mixed", lambda m, x: x[1:3, [0, 0, 2]], [A45], True),
    ("getitem.mask", lambda m, x: x[I(m, MASK34)], [A34], True),
    ("getitem.ellipsis", lambda m, x: x[...] * 2, [A34], True),
    ("setitem.chain", _setitem_chain, [_rng.standard_normal((3, 5))], True),
    ("setitem.into_plain", _into_plain, [A45], True),
    ("inplace.views_of_views", _views_of_views, [A45], True),
    ("inplace.overlapping_views", _overlapping_views, [A45], True),
    ("inplace.base_then_view", _base_then_view, [A45], True),
]


def _run(m, fn, arrays, seeds, second_seeds=None):
    inputs = [m.tensor(a).requires_grad_() for a in arrays]
    out = fn(m, *inputs)
    outs = list(out) if isinstance(out, tuple) else [out]
    grads = m.autograd.grad(outs, inputs, [m.tensor(s) for s in seeds], allow_unused=True,
                            create_graph=second_seeds is not None)
    first = [None if g is None else g.detach().numpy() for g in grads]
    if second_seeds is None:
        return [o.detach().numpy() for o in outs], first, None
    used = [(g, s) for g, s in zip(grads, second_seeds) if g is not None and g.requires_grad]
    second = m.autograd.grad([g for g, _ in used], inputs, [m.tensor(s) for _, s in used], allow_unused=True)
    return [o.detach().numpy() for o in outs], first, [None if g is None else g.numpy() for g in second]


@pytest.mark.parametrize("label,fn,arrays,second", CASES, ids=[c[0] for c in CASES])
def test_gradients_match_torch(label, fn, arrays, second):
    rng = np.random.default_rng(len(label))
    probe = fn(torch, *[torch.tensor(a) for a in arrays])
    shapes = [tuple(o.shape) for o in (probe if isinstance(probe, tuple) else (probe,))]
    seeds = [rng.standard_normal(s) for s in shapes]
    second_seeds = [rng.standard_normal(a.shape) for a in arrays] if second else None
    ours = _run(core, fn, arrays, seeds, second_seeds)
    theirs = _run(torch, fn, arrays, seeds, second_seeds)
    for o, t in zip(ours[0], theirs[0]):
        np.testing.assert_allclose(o, t, rtol=1e-12, atol=1e-12)
    for part in (1, 2) if second else (1,):
        for o, t in zip(ours[part], theirs[part]):
            if t is None or not np.any(t):
                assert o is None or not np.any(o), (label, part)
            else:
                np.testing.assert_allclose(o, t, rtol=1e-10, atol=1e-12, err_msg=f"{label} order {part}")


def test_grad_fn_names_match_torch():
    def names(m):
        x = m.tensor(A45).requires_grad_()
        y = x * 1
        out = [x[...], x[1:, ::2], x[0], x[None], x[[0, 1]], x.unbind(0)[1], x.split(2)[0],
               x.unfold(0, 2, 1), x.as_strided((2,), (1,)), x.index_select(0, I(m, [0])), x.gather(0, I(m, [[0]])),
               x.take(I(m, [0])), x.masked_select(I(m, MASK4)[:, None]), m.where(I(m, MASK4)[:, None], x, x)]
        y[0] = 1.0
        z = x * 1
        z[[0, 1]] = 2.0
        names = [o.grad_fn.name() for o in out] + [y.grad_fn.name(), z.grad_fn.name()]
        return [n.replace("torch::autograd::", "") for n in names]

    assert names(core) == names(torch)


def test_complex_views_match_torch():
    c = (_rng.standard_normal(3) + 1j * _rng.standard_normal(3)).astype(np.complex64)
    seed = _rng.standard_normal((3, 2)).astype(np.float32)
    results = []
    for m in (core, torch):
        z = m.tensor(c).requires_grad_()
        (g,) = m.autograd.grad(m.view_as_real(z), [z], m.tensor(seed))
        r = m.tensor(seed).requires_grad_()
        (h,) = m.autograd.grad(m.view_as_complex(r), [r], m.tensor(c))
        results.append((g.numpy(), h.numpy()))
    np.testing.assert_allclose(results[0][0], results[1][0])
    np.testing.assert_allclose(results[0][1], results[1][1])
