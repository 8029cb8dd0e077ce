"""Views and indexing against PyTorch where its rules are subtle: placement of advanced-index
dims, ints mixed with tensors, list-as-tuple, masks, scatter/put accumulation, split sizing,
promotion in where, and which exception each bad call raises."""
import numpy as np
import pytest

import core

torch = pytest.importorskip("torch")
# PyTorch 2.x warns about the 1.8 behaviours compared here (list-as-tuple, T on 3-D, reduce=).
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

SHAPE = (3, 4, 5)


def _pair(array):
    return core.tensor(array), torch.tensor(array)


def _index_for(m, spec):
    """Builds the index from `spec` with module m's tensors (('T', data) marks a tensor)."""
    if isinstance(spec, tuple) and spec and spec[0] == "T":
        return m.tensor(spec[1])
    if isinstance(spec, tuple):
        return tuple(_index_for(m, s) for s in spec)
    return spec


def T(data):
    return ("T", data)


_rng = np.random.default_rng(11)
MASK34 = _rng.random((3, 4)) > 0.4
MASK5 = np.array([True, False, True, True, False])

INDICES = [
    (0, slice(None), T([0, 1])),           # int then separated tensor: PyTorch selects first
    (T(0), slice(None), T([0, 1])),        # a 0-d tensor acts as an int
    (slice(None), 0, T([1, 3])),
    (T([0, 2]), slice(None), T([1, 3])),   # separated tensors: broadcast dims go first
    (slice(None), T([0, 2]), T([1, 3])),   # adjacent tensors stay in place
    (T([[0], [2]]), slice(1, 3), T([1, 3, 4])),
    (None, T([0, 1]), None, T([1, 2])),
    (T([0, 1]), None, T([1, 2])),
    (Ellipsis, None, T([0, 1])),
    (1, Ellipsis, T([1, 2])),
    (T(MASK34),),
    (T(MASK34), T([0, 4, 1, 2, 3, 0, 1][: int(MASK34.sum())])),
    (T(MASK34), slice(0, 2)),
    (slice(None), slice(None), T(MASK5)),
    (T(np.array([True, False, True])), slice(None), T([0, 1])),
    (True, T([0, 1])),
    (False, Ellipsis),
    (T(True), 0),
    (T(np.array([0, 2], dtype=np.int32)), 1),
    (T([-1, -3]), T([-4, 0])),
    (slice(-100, 100, 2), slice(None), T([0])),
    (T(np.zeros(0, dtype=np.int64)), 1),
]
LIST_INDICES = [[[0, 1]], [0, slice(None), 1], [[0, 1], [1, 2]], [1.0, 2.0], [True, False, True]]


@pytest.mark.parametrize("spec", INDICES + LIST_INDICES, ids=[str(i)[:50] for i in INDICES + LIST_INDICES])
def test_getitem_like_torch(spec):
    a = np.arange(np.prod(SHAPE), dtype=np.float32).reshape(SHAPE)
    ours, theirs = _pair(a)
    expected = theirs[_index_for(torch, spec)]
    got = ours[_index_for(core, spec)]
    assert tuple(got.shape) == tuple(expected.shape)
    np.testing.assert_array_equal(got.numpy(), expected.numpy())


@pytest.mark.parametrize("spec", INDICES + LIST_INDICES, ids=[str(i)[:50] for i in INDICES + LIST_INDICES])
def test_setitem_like_torch(spec):
    a = np.arange(np.prod(SHAPE), dtype=np.float32).reshape(SHAPE)
    ours, theirs = _pair(a)
    theirs[_index_for(torch, spec)] = -1.5
    ours[_index_for(core, spec)] = -1.5
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
    shape = tuple(theirs[_index_for(torch, spec)].shape)
    values = np.random.default_rng(2).random(shape[-1:]).astype(np.float32)
    theirs[_index_for(torch, spec)] = torch.tensor(values)
    ours[_index_for(core, spec)] = core.tensor(values)
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


def test_scatter_family_like_torch():
    rng = np.random.default_rng(5)
    a = rng.random((4, 6)).astype(np.float32)
    index = rng.integers(0, 4, (3, 6))
    src = rng.random((3, 7)).astype(np.float32)
    (ca, ta), (ci, ti), (cs, ts) = _pair(a), _pair(index), _pair(src)
    pairs = [
        (ca.scatter_add(0, ci, cs), ta.scatter_add(0, ti, ts)),
        (ca.scatter(0, ci, 2.0, reduce="add"), ta.scatter(0, ti, 2.0, reduce="add")),
        (ca.scatter(0, ci, cs, reduce="multiply"), ta.scatter(0, ti, ts, reduce="multiply")),
        (ca.index_add(0, core.tensor([3, 3, 0]), cs[:, :6], alpha=-2), ta.index_add(0, torch.tensor([3, 3, 0]), ts[:, :6], alpha=-2)),
        (ca.put(core.tensor([1, -1, 1]), core.tensor(np.float32([1, 2, 3])), accumulate=True),
         ta.put(torch.tensor([1, -1, 1]), torch.tensor(np.float32([1, 2, 3])), accumulate=True)),
        (ca.index_put((core.tensor([0, 0, 2]), core.tensor([1, 1, 5])), core.tensor(np.float32(4)), accumulate=True),
         ta.index_put((torch.tensor([0, 0, 2]), torch.tensor([1, 1, 5])), torch.tensor(np.float32(4)), accumulate=True)),
        (ca.gather(1, core.tensor(index[:, :2])), ta.gather(1, torch.tensor(index[:, :2]))),
        (ca.take(core.tensor([[-1, 0], [5, 7]])), ta.take(torch.tensor([[-1, 0], [5, 7]]))),
        (ca.index_fill(1, core.tensor([-1, 0]), -3.0), ta.index_fill(1, torch.tensor([-1, 0]), -3.0)),
        (ca.masked_scatter(core.tensor(a > 0.5), cs), ta.masked_scatter(torch.tensor(a > 0.5), ts)),
    ]
    for ours, theirs in pairs:
        np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-6)


def test_split_family_like_torch():
    for n in [0, 1, 5, 6, 7, 12]:
        a = np.arange(n)
        ours, theirs = _pair(a)
        for k in [1, 2, 3, 4, 5, 7]:
            assert [p.tolist() for p in ours.chunk(k)] == [p.tolist() for p in theirs.chunk(k)]
            assert [p.tolist() for p in ours.tensor_split(k)] == [p.tolist() for p in theirs.tensor_split(k)]
            if n:
                assert [p.tolist() for p in ours.split(k)] == [p.tolist() for p in theirs.split(k)]
        for idx in ([1, 5, 10], [5, 1], [-2], []):
            assert [p.tolist() for p in ours.tensor_split(idx)] == [p.tolist() for p in theirs.tensor_split(idx)]


def test_shape_ops_like_torch():
    a = np.arange(2 * 3 * 4 * 5).reshape(2, 3, 4, 5)
    ours, theirs = _pair(a)
    checks = [
        (lambda m, t: t.movedim((0, 3), (2, 0))),
        (lambda m, t: t.movedim(-1, 1)),
        (lambda m, t: t.unfold(2, 2, 1)),
        (lambda m, t: t.unfold(-1, 3, 2)),
        (lambda m, t: t.unflatten(3, (5, 1))),
        (lambda m, t: t.flatten(1, 2)),
        (lambda m, t: t[:, :1].squeeze()),
        (lambda m, t: t.unsqueeze(-2)),
        (lambda m, t: t.narrow(-1, -3, 2)),
        (lambda m, t: t.select(-2, -1)),
        (lambda m, t: t.T),
        (lambda m, t: m.swapaxes(t, 1, 3)),
    ]
    for fn in checks:
        expected = fn(torch, theirs)
        got = fn(core, ours)
        assert tuple(got.shape) == tuple(expected.shape)
        assert got.stride() == expected.stride()
        np.testing.assert_array_equal(got.numpy(), expected.numpy())


@pytest.mark.parametrize("x,y", [(1, 2.5), (1, 2), (True, 3), ("i32", 2.5), ("i32", 7), ("f16", "f64"), ("u8", "i8"),
                                 ("0d_i64", "u8"), ("bool", "bool")])
def test_where_promotion_like_torch(x, y):
    arrays = {"i32": np.array([1, 2], np.int32), "f16": np.array([1, 2], np.float16),
              "f64": np.array([3, 4], np.float64), "u8": np.array([5, 6], np.uint8),
              "i8": np.array([-1, 2], np.int8), "0d_i64": np.array(9, np.int64), "bool": np.array([True, False])}
    cond = np.array([True, False])

    def make(m, v):
        return m.tensor(arrays[v]) if isinstance(v, str) else v

    expected = torch.where(torch.tensor(cond), make(torch, x), make(torch, y))
    got = core.where(core.tensor(cond), make(core, x), make(core, y))
    assert str(got.dtype).split(".")[-1] == str(expected.dtype).split(".")[-1]
    np.testing.assert_array_equal(got.numpy(), expected.numpy())


@pytest.mark.parametrize("call", [
    lambda m, t: t[5],
    lambda m, t: t[0, 0, 0, 0],
    lambda m, t: t[::-1],
    lambda m, t: t[1.5],
    lambda m, t: t[m.tensor([1.5])],
    lambda m, t: t[m.tensor([5])],
    lambda m, t: t[m.ones(4, dtype=m.bool)],
    lambda m, t: t[[0, 1], [0, 1, 2]],
    lambda m, t: m.index_select(t, 0, m.tensor([-1])),
    lambda m, t: m.index_select(t, 0, m.tensor([[0]])),
    lambda m, t: m.gather(t, 0, m.tensor([[[5]]])),
    lambda m, t: m.take(t, m.tensor([100])),
    lambda m, t: t.scatter(0, m.tensor([[[5]]]), 1.0),
    lambda m, t: t.masked_fill(m.ones(5), 1.0),
    lambda m, t: t.index_fill(0, m.tensor([3]), 1.0),
    lambda m, t: t.index_copy(0, m.tensor([3]), m.ones(1, 4, 5)),
    lambda m, t: t.t(),
    lambda m, t: t.unfold(0, 5, 1),
    lambda m, t: t.narrow(0, 1, 5),
    lambda m, t: t.select(0, 5),
    lambda m, t: t.chunk(0),
    lambda m, t: t.split([1, 1]),
    lambda m, t: t.squeeze(5),
    lambda m, t: t.flatten(2, 0),
    lambda m, t: t.movedim((0, 0), (1, 2)),
    lambda m, t: m.where(m.ones(5), t, t),
    lambda m, t: m.view_as_complex(t),
    lambda m, t: m.view_as_real(t),
    lambda m, t: m.tensor(1.0)[0],
    lambda m, t: t.index_put_((m.tensor([0]),), m.tensor([1.0], dtype=m.float64)),
    lambda m, t: t.__setitem__(0, [1, 2]),
])
def test_errors_like_torch(call):
    a = np.zeros(SHAPE, np.float32)
    ours, theirs = _pair(a)
    with pytest.raises(Exception) as expected:
        call(torch, theirs)
    with pytest.raises(Exception) as got:
        call(core, ours)
    # Where PyTorch raises a plain RuntimeError, ours may be more specific (IndexError for an
    # index out of range, NotImplementedError for complex128).
    assert got.type is expected.type or (expected.type is RuntimeError and got.type in (IndexError, NotImplementedError)), \
        f"{got.type.__name__}({got.value}) vs torch {expected.type.__name__}({expected.value})"


def _random_expression(rng, shape):
    """A random mix of ints, slices, None, Ellipsis, bools, 0-d tensors, index tensors and
    masks for a tensor of `shape`, as (kind, value) items."""
    items, left, ellipsis = [], list(shape), False
    for _ in range(rng.integers(0, 5)):
        n = left[0] if left else 0
        r = rng.random()
        if r < 0.08 and not ellipsis:
            items.append(("plain", Ellipsis))
            ellipsis = True
        elif r < 0.18:
            items.append(("plain", None))
        elif r < 0.22:
            items.append(("plain", bool(rng.random() < 0.5)))
        elif not left:
            continue
        elif r < 0.35:
            items.append(("plain", int(rng.integers(-n, n)) if n else 0))
            left.pop(0)
        elif r < 0.42:
            items.append(("tensor", np.array(rng.integers(-n, n)) if n else np.array(0)))
            left.pop(0)
        elif r < 0.6:
            bounds = [None] + list(range(-n - 2, n + 3))
            items.append(("plain", slice(rng.choice(bounds), rng.choice(bounds), rng.choice([None, 1, 2, 3]))))
            left.pop(0)
        elif r < 0.85:
            k = int(rng.integers(0, 4))
            shp = [(k,), (1, k), (k, 1), (2, 1)][rng.integers(0, 4)]
            items.append(("tensor", rng.integers(-n, n, shp) if n else np.zeros(shp, np.int64)))
            left.pop(0)
        else:
            k = int(rng.integers(1, min(2, len(left)) + 1))
            items.append(("tensor", rng.random(left[:k]) > 0.5))
            del left[:k]
    return items


def _build(m, items):
    return tuple(m.tensor(v) if kind == "tensor" else v for kind, v in items)


@pytest.mark.parametrize("seed", range(4))
def test_random_index_expressions_like_torch(seed):
    rng = np.random.default_rng(seed)
    for _ in range(300):
        shape = tuple(int(s) for s in rng.integers(0, 4, rng.integers(0, 5)))
        items = _random_expression(rng, shape)
        a = rng.random(shape).astype(np.float32)
        ours, theirs = _pair(a)
        if len(shape) >= 2 and rng.random() < 0.3:  # non-contiguous self
            ours, theirs = ours.transpose(0, 1), theirs.transpose(0, 1)
        label = f"shape {shape} index {items}"
        try:
            expected = theirs[_build(torch, items)]
        except (IndexError, RuntimeError, ValueError) as e:
            with pytest.raises(type(e)):
                ours[_build(core, items)]
            continue
        got = ours[_build(core, items)]
        assert tuple(got.shape) == tuple(expected.shape), label
        np.testing.assert_array_equal(got.numpy(), expected.numpy(), err_msg=label)
        values = rng.random(tuple(expected.shape)).astype(np.float32)
        theirs[_build(torch, items)] = torch.tensor(values)
        if not np.array_equal(theirs[_build(torch, items)].numpy(), values):
            continue  # repeated positions: which value lands is unspecified
        ours[_build(core, items)] = core.tensor(values)
        np.testing.assert_array_equal(ours.numpy(), theirs.numpy(), err_msg=label)
