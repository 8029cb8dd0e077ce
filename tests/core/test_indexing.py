"""Views and indexing: t[...] get/set against numpy, view/version semantics, errors."""
import numpy as np
import pytest

import core

SHAPE = (4, 5, 6)
_rng = np.random.default_rng(7)
MASK_FULL = _rng.random(SHAPE) > 0.5
MASK_45 = _rng.random((4, 5)) > 0.5
MASK_4 = np.array([True, False, True, True])
MASK_56 = _rng.random((5, 6)) > 0.3
I2 = np.array([0, 2])
I2_32 = np.array([3, 1], dtype=np.int32)

# Index expressions on which PyTorch and numpy agree (PyTorch-only rules are in
# test_pytorch_rules below and in tests/parity).
INDICES = [
    0, -1, 3, (1, 2), (1, 2, 3), (-1, -2, -3), (3, -5, 5),
    slice(None), slice(1, 3), slice(None, None, 2), slice(-3, None), slice(10, 20), slice(-10, 2),
    slice(1, 100, 3), slice(3, 1), (slice(None), slice(None, None, 4), slice(5, 0)),
    (slice(None), 1), (Ellipsis, 0), (0, Ellipsis), (Ellipsis,), (), (None,), (None, 0),
    (0, None, slice(1, 3)), (Ellipsis, None), (None, Ellipsis, None), (slice(None), None, 2),
    (1, Ellipsis, None, slice(None, None, 2)),
    [0, 2], [-1, 0, -2], [], I2, I2_32, ([0, 1], [1, 2]), ([0, 1], slice(None), [1, 2]),
    (slice(None), [0, 1], [1, 2]), (slice(None), [[0], [1]], [1, 2]), (np.array([[0, 1], [2, 3]]),),
    (Ellipsis, [0, 2]), ([0, 1], Ellipsis, [0, 1]), (1, [0, 2]), (slice(None), 1, [0, 2]),
    ([0, 1], 1), ([0, 1], slice(None), 1), (slice(1, 3), [4, 0], slice(None, None, 2)),
    ([[1], [2], [3]], [0, 4], None), (None, [0, 1], None, [2, 3]), ([0, 1], None, [2, 3]),
    (np.array(1), [0, 2]), (I2, slice(None), I2),
    MASK_FULL, MASK_45, MASK_4, (slice(None), MASK_56), (MASK_4, slice(None), [0, 1, 2]),
    (MASK_45, 0), (0, MASK_56), (MASK_4, Ellipsis, 1), (np.ones(4, bool), slice(1, 2)),
    (np.zeros(4, bool),), (Ellipsis, np.array([True, False] * 3)),
    True, False, (None, True), (Ellipsis, False),
]


def _core_index(index):
    """The same index expression with numpy arrays as core tensors."""
    if isinstance(index, np.ndarray):
        return core.tensor(index)
    if isinstance(index, tuple):
        return tuple(_core_index(i) for i in index)
    return index


def _source(layout):
    base = np.arange(np.prod(SHAPE), dtype=np.float32).reshape(SHAPE)
    if layout == "contiguous":
        return base, core.tensor(base)
    if layout == "transposed":  # same values, non-contiguous memory
        t = core.tensor(np.ascontiguousarray(base.transpose(2, 1, 0))).permute(2, 1, 0)
        return base, t
    wide = np.zeros(SHAPE[:-1] + (SHAPE[-1] * 2,), dtype=np.float32)
    wide[..., ::2] = base
    return base, core.tensor(wide)[..., ::2]


@pytest.mark.parametrize("layout", ["contiguous", "transposed", "strided"])
@pytest.mark.parametrize("as_tensors", [True, False], ids=["tensors", "arrays"])
@pytest.mark.parametrize("index", INDICES, ids=[repr(i)[:40] for i in INDICES])
def test_getitem_matches_numpy(index, as_tensors, layout):
    expected_src, t = _source(layout)
    expected = expected_src[index]
    ours = t[_core_index(index) if as_tensors else index]
    assert isinstance(ours, core.Tensor)
    assert tuple(ours.shape) == expected.shape
    np.testing.assert_array_equal(ours.numpy(), expected)
    assert ours.dtype == core.float32


def _has_repeats(index):
    items = index if isinstance(index, tuple) else (index,)
    for item in items:
        if isinstance(item, (list, np.ndarray)) and np.asarray(item).dtype != bool:
            arr = np.asarray(item)
            if arr.size != np.unique(arr % 6).size:
                return True
    return False


@pytest.mark.parametrize("layout", ["contiguous", "transposed", "strided"])
@pytest.mark.parametrize("index", INDICES, ids=[repr(i)[:40] for i in INDICES])
def test_setitem_matches_numpy(index, layout):
    expected, t = _source(layout)
    expected = expected.copy()
    shape = expected[index].shape
    # a number
    expected[index] = -7
    t[_core_index(index)] = -7
    np.testing.assert_array_equal(t.numpy(), expected)
    if _has_repeats(index):
        return  # which of several values lands on a repeated position is unspecified
    # a broadcast tensor of another dtype (cast like copy_), with a leading size-1 dim
    values = np.arange(np.prod(shape[-1:]) if shape else 1, dtype=np.int64).reshape(shape[-1:])
    expected[index] = values
    t[_core_index(index)] = core.tensor(values[None])
    np.testing.assert_array_equal(t.numpy(), expected)
    # a full-shape tensor
    full = np.random.default_rng(1).random(shape).astype(np.float32)
    expected[index] = full
    t[_core_index(index)] = core.tensor(full)
    np.testing.assert_array_equal(t.numpy(), expected)


def test_pytorch_rules_that_differ_from_numpy():
    x = core.tensor(np.arange(24).reshape(2, 3, 4))
    # ints select first, so they never take part in advanced-index placement
    assert x[0, :, [0, 1]].shape == (3, 2)
    assert x[core.tensor(0), :, [0, 1]].shape == (3, 2)
    np.testing.assert_array_equal(x[0, :, [0, 1]].numpy(), np.arange(24).reshape(2, 3, 4)[0][:, [0, 1]])
    # a short list holding sequences is a tuple of indices
    assert x[[[0, 1]]].shape == (2, 3, 4)
    assert x[[0, slice(None), 1]].shape == (3,)
    # a list of floats indexes like ints
    np.testing.assert_array_equal(x[[1.0]].numpy(), x[[1]].numpy())
    # a 0-d integer tensor is an int: the result is a view
    v = x[core.tensor(1)]
    assert v.shape == (3, 4) and v._storage_ptr() == x._storage_ptr()


def test_basic_index_is_a_view_and_advanced_is_a_copy():
    x = core.zeros((3, 4))
    for view in (x[1], x[:, 1:3], x[..., None], x[None], x[1, 2], x[::2], x[...], x[()]):
        assert view._storage_ptr() == x._storage_ptr()
        assert view is not x
    row = x[1]
    row[2] = 5.0
    assert x[1, 2].item() == 5.0
    for copy in (x[[1]], x[[True, False, True]], x[core.tensor([0, 2])], x[:, [1]]):
        assert copy._storage_ptr() != x._storage_ptr()


def test_setitem_bumps_the_shared_version():
    x = core.zeros((3, 4))
    view = x[1:]
    v0 = x._version
    x[0] = 1.0
    assert x._version == v0 + 1 and view._version == x._version
    x[[0, 2], 1] = 3.0
    assert x._version == v0 + 2 and view._version == x._version
    view[0, 0] = 2.0  # writes through a view bump the base too
    assert x._version == v0 + 3
    assert x[1, 0].item() == 2.0


def test_setitem_overlapping_source_is_copied_first():
    x = core.tensor(np.arange(5.0))
    x[1:] = x[:-1]
    np.testing.assert_array_equal(x.numpy(), [0, 0, 1, 2, 3])
    y = core.tensor(np.arange(6.0))
    y[[5, 4, 3]] = y[:3]
    np.testing.assert_array_equal(y.numpy(), [0, 1, 2, 2, 1, 0])


def test_setitem_values_cast_to_destination_dtype():
    x = core.zeros((2, 3), dtype=core.int64)
    x[0] = 2.7
    x[[1]] = core.tensor([1.5, 2.5, -3.5])
    np.testing.assert_array_equal(x.numpy(), [[2, 2, 2], [1, 2, -3]])
    b = core.zeros((3,), dtype=core.bool)
    b[1] = 5
    assert b.numpy().tolist() == [False, True, False]
    x[0, 0] = np.int32(9)
    x[0, 1] = np.float64(4.0)
    assert x[0].tolist() == [9, 4, 2]


def test_getitem_zero_dim_and_empty():
    s = core.tensor(5.0)
    assert s[...].shape == () and s[None].shape == (1,) and s[()].shape == ()
    assert s[True].shape == (1,) and s[False].shape == (0,)
    assert s[core.tensor(True)].shape == (1,)
    s[...] = 3
    assert s.item() == 3.0
    e = core.zeros((0, 3))
    assert e[:, 1].shape == (0,)
    assert e[[]].shape == (0, 3)
    assert e[core.zeros((0,), dtype=core.bool)].shape == (0, 3)
    e[:, 1] = 4.0
    e[[]] = 1.0


def test_iteration_and_unbind():
    x = core.tensor(np.arange(6).reshape(3, 2))
    rows = list(x)
    assert len(rows) == 3 and rows[1].tolist() == [2, 3]
    with pytest.raises(TypeError, match="iteration over a 0-d tensor"):
        iter(core.tensor(1))


@pytest.mark.parametrize("index,exc,match", [
    (5, IndexError, "index 5 is out of bounds for dimension 0 with size 4"),
    (-5, IndexError, "index -5 is out of bounds for dimension 0 with size 4"),
    ((0, 7), IndexError, "index 7 is out of bounds for dimension 1 with size 5"),
    ((0, 0, 0, 0), IndexError, "too many indices for tensor of dimension 3"),
    (slice(None, None, -1), ValueError, "step must be greater than zero"),
    (slice(1, 2, 0), ValueError, "slice step cannot be zero"),
    (1.5, IndexError, r"only integers, slices \(`:`\), ellipsis \(`...`\), None and long or byte Variables "
                      r"are valid indices \(got float\)"),
    ("a", IndexError, "only integers"),
    ((Ellipsis, Ellipsis), IndexError, "an index can only have a single ellipsis"),
    ([0, 4], IndexError, "index 4 is out of bounds for dimension 0 with size 4"),
    ((slice(None), [5]), IndexError, "index 5 is out of bounds for dimension 0 with size 5"),
    ([-5], IndexError, "index -5 is out of bounds for dimension 0 with size 4"),
    (([0, 1], [0, 1, 2]), IndexError, r"shape mismatch: indexing tensors could not be broadcast together "
                                      r"with shapes \[2\], \[3\]"),
    (np.ones(3, bool), IndexError, r"The shape of the mask \[3\] at index 0 does not match the shape of "
                                   r"the indexed tensor \[4, 5, 6\] at index 0"),
    (np.array([1], dtype=np.uint8), IndexError, r"The shape of the mask \[1\] at index 0"),
])
def test_getitem_errors(index, exc, match):
    x = core.zeros(SHAPE)
    with pytest.raises(exc, match=match):
        x[index]


def test_getitem_errors_tensors():
    x = core.zeros(SHAPE)
    with pytest.raises(IndexError, match="tensors used as indices must be long, int, byte or bool tensors"):
        x[core.tensor([1.0])]
    with pytest.raises(IndexError, match="tensors used as indices must be long, int, byte or bool tensors"):
        x[core.tensor([1], dtype=core.int16)]
    with pytest.raises(IndexError, match="invalid index of a 0-dim tensor"):
        core.tensor(1.0)[0]
    with pytest.raises(IndexError, match="too many indices for tensor of dimension 0"):
        core.tensor(1.0)[0, 0]


def test_setitem_errors():
    x = core.zeros((2, 3))
    with pytest.raises(TypeError, match="can't assign a list"):
        x[0] = [1, 2, 3]
    with pytest.raises(TypeError, match="does not support deleting items"):
        del x[0]
    with pytest.raises(RuntimeError, match="shape mismatch: value tensor of shape \\[2\\] cannot be broadcast "
                                           "to indexing result of shape \\[1, 3\\]"):
        x[[0]] = core.zeros(2)
    with pytest.raises(RuntimeError):
        x[0] = core.zeros(4)
    with pytest.raises(IndexError, match="index 2 is out of bounds"):
        x[2] = 1.0
    with pytest.raises(IndexError, match="index 3 is out of bounds"):
        x[[0, 3]] = 1.0
    assert x.numpy().sum() == 0  # failed writes leave nothing behind


# ---- view ops

def _shares(a, b):
    return a._storage_ptr() == b._storage_ptr()


def test_view_ops_share_storage_and_version():
    x = core.tensor(np.arange(24.0).reshape(2, 3, 4))
    views = [x.view_as(core.zeros(6, 4)), x.reshape_as(core.zeros(24)), x[0].t(),
             x.T, x.swapaxes(0, 2), x.swapdims(1, 2), core.squeeze(x[:, :1]), x.squeeze(0), x.unsqueeze(1),
             x.flatten(), x.flatten(1), x.unflatten(2, (2, 2)), x.movedim(0, -1), x.moveaxis((0, 1), (1, 0)),
             x.narrow(2, 1, 2), x.select(1, 2), x.unfold(2, 2, 1), x[:, :1].expand_as(x),
             *x.unbind(1), *x.split(2, 2), *x.split([1, 3], 2), *x.chunk(3, 1), *x.tensor_split(3, 2),
             *core.tensor_split(x, [1, 2], dim=1)]
    for v in views:
        assert _shares(v, x)
    v0 = x._version
    views[0].add_(1)
    for v in views:
        assert v._version == x._version == v0 + 1


def test_view_op_values():
    a = np.arange(24.0).reshape(2, 3, 4)
    x = core.tensor(a)
    np.testing.assert_array_equal(x.T.numpy(), a.T)
    np.testing.assert_array_equal(x.unfold(2, 2, 2).numpy(), a.reshape(2, 3, 2, 2))
    np.testing.assert_array_equal(x.movedim((0, 2), (2, 0)).numpy(), np.moveaxis(a, (0, 2), (2, 0)))
    assert [p.shape for p in x.chunk(2, 2)] == [(2, 3, 2), (2, 3, 2)]
    assert [p.shape[0] for p in core.arange(5).chunk(3)] == [2, 2, 1]
    assert [p.shape[0] for p in core.arange(6).chunk(4)] == [2, 2, 2]
    assert [p.shape[0] for p in core.arange(0).chunk(3)] == [0, 0, 0]
    assert [p.shape[0] for p in core.arange(7).tensor_split(3)] == [3, 2, 2]
    assert [p.tolist() for p in core.arange(5).split(2)] == [[0, 1], [2, 3], [4]]
    assert core.arange(6).view(2, 3).T.T.tolist() == [[0, 1, 2], [3, 4, 5]]
    assert core.tensor(5).T.shape == ()


def test_flatten_copies_only_when_it_must():
    x = core.zeros((2, 3, 4))
    assert x.flatten(1).is_contiguous() and _shares(x.flatten(1), x)
    assert x.flatten(1, 1) is x
    y = x.transpose(0, 2)
    flat = y.flatten()
    assert flat.shape == (24,) and not _shares(flat, x)
    assert core.tensor(3.0).flatten().shape == (1,)


def test_view_as_real_and_complex():
    c = core.tensor(np.array([1 + 2j, 3 - 4j], dtype=np.complex64))
    r = core.view_as_real(c)
    assert r.dtype == core.float32 and r.shape == (2, 2) and _shares(r, c)
    r[0, 1] = 9.0
    assert c.tolist()[0] == 1 + 9j
    assert c._version == r._version
    back = core.view_as_complex(r)
    assert back.dtype == core.complex64 and _shares(back, c)
    np.testing.assert_array_equal(back.numpy(), c.numpy())
    assert core.view_as_complex(core.zeros((3, 4, 2))[::2]).shape == (2, 4)
    assert core.view_as_complex(core.zeros(4)[2:]).shape == ()


@pytest.mark.parametrize("fn,exc,match", [
    (lambda x: x.t(), RuntimeError, "t\\(\\) expects a tensor with <= 2 dimensions, but self is 3D"),
    (lambda x: x.unfold(0, 5, 1), RuntimeError, "maximum size for tensor at dimension 0 is 2 but size is 5"),
    (lambda x: x.unfold(0, 1, 0), RuntimeError, "step is 0 but must be > 0"),
    (lambda x: x.narrow(0, 1, 5), RuntimeError, "start \\(1\\) \\+ length \\(5\\) exceeds dimension size \\(2\\)"),
    (lambda x: x.narrow(0, 5, 0), IndexError, "start out of range"),
    (lambda x: x.narrow(0, 0, -1), RuntimeError, "length must be non-negative"),
    (lambda x: x.select(0, 5), IndexError, "select\\(\\): index 5 out of range for tensor of size \\[2, 3, 4\\] at dimension 0"),
    (lambda x: x.chunk(0), RuntimeError, "chunk expects `chunks` to be greater than 0, got: 0"),
    (lambda x: x.split(-1), RuntimeError, "split expects split_size be non-negative, but got split_size=-1"),
    (lambda x: x.split(0), RuntimeError, "split_size can only be 0 if dimension size is 0"),
    (lambda x: x.split([1, 2]), RuntimeError, "split_with_sizes expects split_sizes to sum exactly to 2"),
    (lambda x: x.tensor_split(0), RuntimeError, "number of sections must be larger than 0, got 0"),
    (lambda x: x.squeeze(5), IndexError, "dimension out of range"),
    (lambda x: x.unsqueeze(5), IndexError, "dimension out of range"),
    (lambda x: x.flatten(2, 0), RuntimeError, "start_dim cannot come after end_dim"),
    (lambda x: x.unflatten(1, (2, 2)), RuntimeError, "unflatten"),
    (lambda x: x.unflatten(1, ()), RuntimeError, "sizes must be non-empty"),
    (lambda x: x.movedim((0, 1), (1,)), RuntimeError, "should contain the same number of dims as destination"),
    (lambda x: x.movedim((0, 0), (1, 2)), RuntimeError, "repeated dim in `source`"),
    (lambda x: x.movedim((0, 1), (2, 2)), RuntimeError, "repeated dim in `destination`"),
    (lambda x: x.view_as(core.zeros(5)), RuntimeError, "view"),
    (lambda x: x.expand_as(core.zeros(5)), RuntimeError, "expand"),
    (lambda x: core.view_as_real(x), RuntimeError, "view_as_real is only supported for complex tensors"),
    (lambda x: core.view_as_complex(x), RuntimeError, "Tensor must have a last dimension of size 2"),
    (lambda x: core.view_as_complex(core.zeros((2, 3))[:, :2]), RuntimeError, "stride divisible by 2"),
    (lambda x: core.view_as_complex(x[..., 1:3]), RuntimeError, "storage_offset divisible by 2"),
    (lambda x: core.view_as_complex(x.to(core.int32)[..., :2]), RuntimeError, "only supported for float and double"),
    (lambda x: core.view_as_complex(x.to(core.float16)[..., :2]), RuntimeError, "float16"),
    (lambda x: core.tensor(1.0).select(0, 0), IndexError, "select\\(\\) cannot be applied to a 0-dim tensor"),
    (lambda x: core.tensor(1.0).narrow(0, 0, 1), RuntimeError, "narrow\\(\\) cannot be applied to a 0-dim tensor"),
    (lambda x: core.tensor(1.0).unbind(), IndexError, "Dimension specified as 0 but tensor has no dimensions"),
    (lambda x: core.tensor(1.0).unfold(0, 2, 1), RuntimeError, "maximum size for tensor at dimension 0 is 1"),
])
def test_view_errors(fn, exc, match):
    x = core.zeros((2, 3, 4))
    with pytest.raises(exc, match=match):
        fn(x)


def test_zero_dim_views():
    s = core.tensor(5)
    assert s.squeeze().shape == () and s.squeeze(0).shape == () and s.unsqueeze(0).shape == (1,)
    assert s.t().shape == () and s.movedim(0, 0).shape == () and s.unfold(0, 1, 1).shape == (1,)
    assert s.flatten().tolist() == [5]
