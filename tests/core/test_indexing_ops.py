"""Indexing ops by hand: index_put_, scatter reductions, in-place/version semantics,
large (parallel) inputs, and the errors each op raises."""
import numpy as np
import pytest

import core


def _t(a, dtype=None):
    return core.tensor(np.asarray(a), dtype=dtype)


# ---- index_put_

def test_index_put_tuple_of_indices_with_none_and_masks():
    a = np.zeros((3, 4, 5), np.float32)
    x = core.tensor(a)
    out = x.index_put_((None, _t([0, 2]), _t([1, 4])), _t(np.float32(7)))
    assert out is x
    a[:, [0, 2], [1, 4]] = 7
    np.testing.assert_array_equal(x.numpy(), a)
    mask = np.arange(3) != 1
    x.index_put_([_t(mask)], _t(np.ones((4, 5), np.float32)))
    a[mask] = 1
    np.testing.assert_array_equal(x.numpy(), a)
    x.index_put_((_t(np.array([0, 1], np.int32)),), _t(np.float32(3)))
    a[[0, 1]] = 3
    np.testing.assert_array_equal(x.numpy(), a)


def test_index_put_accumulate_sums_repeats():
    x = core.zeros(4)
    x.index_put_((_t([0, 0, 3, 0]),), _t([1.0, 2.0, 3.0, 4.0], core.float32), accumulate=True)
    assert x.tolist() == [7.0, 0.0, 0.0, 3.0]
    y = core.index_put(core.zeros((2, 2), dtype=core.int64), (_t([1, 1]), _t([0, 0])), _t(5), True)
    assert y.tolist() == [[0, 0], [10, 0]] and y._version == 0
    b = core.zeros(3, dtype=core.bool)
    b.index_put_((_t([1, 1]),), _t([True, False]), accumulate=True)
    assert b.tolist() == [False, True, False]


def test_index_put_errors_and_version():
    x = core.zeros((2, 3))
    v = x._version
    x.index_put_((_t([1]),), _t(np.float32(1)))
    assert x._version == v + 1
    with pytest.raises(RuntimeError, match="Index put requires the source and destination dtypes match, "
                                           "got float32 for the destination and float64 for the source"):
        x.index_put_((_t([0]),), _t(1.0, core.float64))
    with pytest.raises(RuntimeError, match=r"shape mismatch: value tensor of shape \[2\] cannot be broadcast "
                                           r"to indexing result of shape \[1, 3\]"):
        x.index_put_((_t([0]),), core.zeros(2))
    with pytest.raises(IndexError, match="too many indices for tensor of dimension 2"):
        x.index_put_((_t([0]), _t([0]), _t([0])), _t(np.float32(1)))
    with pytest.raises(IndexError, match="index 5 is out of bounds for dimension 0 with size 2"):
        x.index_put_((_t([5]),), _t(np.float32(1)))
    with pytest.raises(IndexError, match="tensors used as indices must be long, int, byte or bool tensors"):
        x.index_put_((core.zeros(1),), _t(np.float32(1)))
    with pytest.raises(RuntimeError, match="more than one element of the written-to tensor"):
        core.zeros(1).expand(3).index_put_((_t([0]),), _t(np.float32(1)))


# ---- scatter / gather

def test_scatter_reduce_and_number_source():
    x = core.tensor(np.arange(6.0, dtype=np.float32).reshape(2, 3))
    idx = _t([[0], [1]])
    assert x.scatter(1, idx, core.ones((2, 1)), reduce="add").tolist() == [[1, 1, 2], [3, 5, 5]]
    assert x.scatter(1, idx, 5.0, reduce="multiply").tolist() == [[0, 1, 2], [3, 20, 5]]
    assert x.scatter(1, idx, 9).tolist() == [[9, 1, 2], [3, 9, 5]]
    assert core.scatter(x, 1, idx, 9.5).tolist() == [[9.5, 1, 2], [3, 9.5, 5]]
    y = x.clone()
    v = y._version
    assert y.scatter_(0, _t([[1, 0, 1]]), 0.0) is y and y._version == v + 1
    assert y.tolist() == [[0, 0, 2], [0, 4, 0]]
    z = core.zeros(3).scatter_add_(0, _t([0, 0, 2, 0]), core.ones(4))
    assert z.tolist() == [3, 0, 1]
    with pytest.raises(RuntimeError, match="reduce argument must be either add or multiply"):
        x.scatter(1, idx, 1.0, reduce="max")


@pytest.mark.parametrize("fn,exc,match", [
    (lambda x: x.gather(1, _t([[3]])), RuntimeError, "index 3 is out of bounds for dimension 1 with size 3"),
    (lambda x: x.gather(1, _t([[-1]])), RuntimeError, "index -1 is out of bounds for dimension 1 with size 3"),
    (lambda x: x.gather(1, _t([[0]], core.int32)), RuntimeError, "gather\\(\\): Expected dtype int64 for index"),
    (lambda x: x.gather(1, _t([0])), RuntimeError, "Index tensor must have the same number of dimensions"),
    (lambda x: x.gather(1, _t(np.zeros((3, 1), np.int64))), RuntimeError,
     r"Size does not match at dimension 0 expected index \[3, 1\] to be no larger than self \[2, 3\]"),
    (lambda x: x.gather(2, _t([[0]])), IndexError, "dimension out of range"),
    (lambda x: x.scatter(0, _t([[5]]), 1.0), RuntimeError, "index 5 is out of bounds for dimension 0 with size 2"),
    (lambda x: x.scatter(1, _t([[0]]), core.ones((1, 1), dtype=core.float64)), RuntimeError,
     "scatter\\(\\): Expected self.dtype to be equal to src.dtype"),
    (lambda x: x.scatter(1, _t([[0, 1, 2, 0]]), core.ones((2, 1))), RuntimeError,
     r"Expected index \[1, 4\] to be no larger than self \[2, 3\] apart from dimension 1 and to be no larger "
     r"size than src \[2, 1\]"),
    (lambda x: x.scatter(1, _t([0]), core.ones((2, 1))), RuntimeError,
     "Index tensor must have the same number of dimensions as self tensor"),
    (lambda x: x.scatter_add(0, _t([[0.0]]), core.ones((1, 1))), RuntimeError, "Expected dtype int64 for index"),
    (lambda x: x.expand(2, 2, 3).scatter_(0, _t([[[0]]]), 1.0), RuntimeError, "more than one element"),
])
def test_scatter_gather_errors(fn, exc, match):
    with pytest.raises(exc, match=match):
        fn(core.zeros((2, 3)))


# ---- along one dim

def test_index_add_copy_fill_semantics():
    x = core.tensor(np.arange(6.0, dtype=np.float32).reshape(2, 3))
    assert x.index_add(1, _t([0, 0]), core.ones((2, 2)), alpha=2).tolist() == [[4, 1, 2], [7, 4, 5]]
    assert x.index_fill(1, _t([-1]), 7).tolist() == [[0, 1, 7], [3, 4, 7]]
    assert x.index_fill(1, _t([0]), _t(np.float32(-2))).tolist() == [[-2, 1, 2], [-2, 4, 5]]
    assert x.index_copy(0, _t([1, 0]), _t(np.eye(2, 3, dtype=np.float32))).tolist() == [[0, 1, 0], [1, 0, 0]]
    y = x.clone()
    v = y._version
    assert y.index_add_(0, _t([1]), core.ones((1, 3))) is y and y._version == v + 1
    assert y.index_copy_(1, _t([2]), core.zeros((2, 1))) is y and y._version == v + 2
    assert y.index_fill_(0, _t(0), 1) is y and y._version == v + 3
    assert y.tolist() == [[1, 1, 1], [4, 5, 0]]
    s = core.tensor(np.float32(2))
    assert core.index_select(s, 0, _t([0])).shape == ()
    assert s.index_fill(0, _t([0]), 1).item() == 1


@pytest.mark.parametrize("fn,exc,match", [
    (lambda x: x.index_select(1, _t([[0]])), IndexError, "index_select\\(\\): Index is supposed to be a vector"),
    (lambda x: x.index_select(1, _t([0.0])), RuntimeError, "index_select\\(\\): Expected dtype int64 or int32 for index"),
    (lambda x: x.index_select(1, _t([3])), IndexError, "index_select\\(\\): index out of range in self"),
    (lambda x: x.index_select(1, _t([-1])), IndexError, "index_select\\(\\): index out of range in self"),
    (lambda x: x.index_add(1, _t([3]), core.ones((2, 1))), IndexError, "index 3 is out of bounds for dimension 1 with size 3"),
    (lambda x: x.index_add(1, _t([0]), core.ones((2, 2))), RuntimeError,
     r"Number of indices \(1\) should be equal to source.size\(dim\): \(2\), for dim: 1"),
    (lambda x: x.index_add(1, _t([0]), core.ones((3, 1))), RuntimeError,
     "source tensor shape must match self tensor shape, excluding the specified dimension"),
    (lambda x: x.index_add(1, _t([0]), core.ones((2, 1), dtype=core.float64)), RuntimeError,
     r"self \(float32\) and source \(float64\) must have the same scalar type"),
    (lambda x: x.index_copy(1, _t([-1]), core.ones((2, 1))), IndexError,
     "index_copy\\(\\): index -1 is out of bounds for dimension 1 with size 3"),
    (lambda x: x.index_copy(1, _t([0], core.int32), core.ones((2, 1))), RuntimeError, "Expected dtype int64 for index"),
    (lambda x: x.index_fill(1, _t([-4]), 1), IndexError, "index -4 is out of bounds for dimension 1 with size 3"),
    (lambda x: x.index_fill(1, _t([[0]]), 1), IndexError, "Index has to be a vector/scalar"),
    (lambda x: x.index_fill(1, _t([0]), core.ones(1)), RuntimeError,
     "index_fill only supports a 0-dimensional value tensor, but got tensor with 1 dimension"),
    (lambda x: core.index_select(core.tensor(1.0), 0, _t([0, 0])), IndexError, "Index to scalar can have only 1 value"),
    (lambda x: core.index_select(core.zeros((0, 3)), 1, _t([5])), IndexError, "index out of range in self"),
    (lambda x: core.zeros((0, 3)).index_fill(0, _t([0]), 1.0), IndexError, "index is out of bounds for dimension with size 0"),
])
def test_index_dim_errors(fn, exc, match):
    with pytest.raises(exc, match=match):
        fn(core.zeros((2, 3)))


# ---- masks

def test_masked_ops_semantics():
    x = core.tensor(np.arange(6.0, dtype=np.float32).reshape(2, 3))
    m = _t([True, False, True])
    assert x.masked_fill(m, _t(np.float32(-1))).tolist() == [[-1, 1, -1], [-1, 4, -1]]
    assert core.arange(3).masked_fill(m, 2.5).tolist() == [2, 1, 2]
    assert core.arange(3).masked_fill(_t([[True], [False]]), 9).shape == (2, 3)
    assert x.masked_fill(_t(np.array([1, 0, 1], np.uint8)), 0.0).tolist() == [[0, 1, 0], [0, 4, 0]]
    y = x.clone()
    v = y._version
    assert y.masked_fill_(m, 0.0) is y and y._version == v + 1
    assert y.masked_scatter_(m, _t([7.0, 8.0, 9.0, 10.0], core.float32)) is y and y._version == v + 2
    assert y.tolist() == [[7, 1, 8], [9, 4, 10]]
    assert core.masked_select(x, _t([[True], [False]])).tolist() == [0, 1, 2]
    assert core.masked_select(core.tensor(3.0), _t(True)).shape == (1,)


@pytest.mark.parametrize("fn,exc,match", [
    (lambda x: x.masked_fill(core.ones(3), 1.0), RuntimeError, "only supports boolean masks, but got mask with dtype float32"),
    (lambda x: x.masked_fill(_t([True, False, True]), core.ones(1)), RuntimeError,
     "only supports a 0-dimensional value tensor, but got tensor with 1 dimension"),
    (lambda x: x.masked_fill_(_t([[[True]]]), 1.0), RuntimeError, r"output with shape \[2, 3\] doesn't match the broadcast shape"),
    (lambda x: x.masked_fill_(_t([True, False]), 1.0), RuntimeError, "must match"),
    (lambda x: x.masked_select(core.ones(3, dtype=core.int64)), RuntimeError, "expected BoolTensor for mask"),
    (lambda x: x.masked_scatter(_t([True, False, True]), _t([7.0], core.float32)), RuntimeError,
     "Number of elements of source < number of ones in mask"),
    (lambda x: x.masked_scatter(_t([True, False, True]), core.ones(4, dtype=core.float64)), RuntimeError,
     "expected self and source to have same dtypes but got float32 and float64"),
    (lambda x: core.where(core.ones(3), x, x), RuntimeError,
     "where expected condition to be a boolean tensor, but got a tensor with dtype float32"),
    (lambda x: core.where(_t([True, False]), x, x), RuntimeError, "must match"),
])
def test_mask_errors(fn, exc, match):
    with pytest.raises(exc, match=match):
        fn(core.zeros((2, 3)))


def test_where_forms():
    c = _t([True, False])
    assert core.where(c, 1, 2.5).dtype == core.float32
    assert core.where(c, 1, 2).dtype == core.int64
    assert core.where(c, _t([1, 2], core.int32), 2).dtype == core.int32
    x = _t([1.0, 2.0], core.float32)
    assert x.where(c, core.zeros(2)).tolist() == [1.0, 0.0]
    assert [t.tolist() for t in core.where(_t([[0, 3], [4, 0]]))] == [[0, 1], [1, 0]]


def test_nonzero_forms():
    x = _t([[0, 3], [4, 0]])
    assert x.nonzero().tolist() == [[0, 1], [1, 0]] and x.nonzero().dtype == core.int64
    assert [t.tolist() for t in core.nonzero(x, as_tuple=True)] == [[0, 1], [1, 0]]
    assert core.nonzero(core.tensor(5.0)).shape == (1, 0)
    assert [t.tolist() for t in core.nonzero(core.tensor(0.0), as_tuple=True)] == [[]]
    assert [t.tolist() for t in core.nonzero(core.tensor(2.0), as_tuple=True)] == [[0]]
    c = core.tensor(np.array([1j, 0, 2], dtype=np.complex64))
    assert c.nonzero().tolist() == [[0], [2]]
    assert core.argwhere(x).tolist() == [[0, 1], [1, 0]]
    nan = core.tensor(np.array([np.nan, 0.0], dtype=np.float32))
    assert nan.nonzero().tolist() == [[0]]


# ---- take / put

def test_take_put_semantics_and_errors():
    x = core.tensor(np.arange(6.0, dtype=np.float32).reshape(2, 3))
    assert x.take(_t([-1, 0])).tolist() == [5, 0]
    assert x.t().take(_t([1, 2])).tolist() == [3, 1]  # flat order of the (non-contiguous) view
    y = x.t().clone().t()  # non-contiguous self for put_
    y.put_(_t([1, -1]), _t([10.0, 20.0], core.float32))
    assert y.tolist() == [[0, 10, 2], [3, 4, 20]]
    z = core.zeros(3)
    assert z.put_(_t([0, 0]), _t([1.0, 2.0], core.float32), accumulate=True).tolist() == [3, 0, 0]
    assert core.put(z, _t([2]), _t([1.0], core.float32)).tolist() == [3, 0, 1] and z.tolist() == [3, 0, 0]
    with pytest.raises(IndexError, match=r"out of range: tried to access index 6 on a tensor of 6 elements\."):
        x.take(_t([6]))
    with pytest.raises(IndexError, match="out of range: tried to access index -7"):
        x.put_(_t([-7]), _t([1.0], core.float32))
    with pytest.raises(RuntimeError, match="take\\(\\): Expected dtype int64 for index"):
        x.take(_t([1], core.int32))
    with pytest.raises(IndexError, match=r"Expected source and index to have the same number of elements, "
                                         r"but got source.numel\(\) = 1, index.numel\(\) = 2"):
        x.put_(_t([1, 2]), _t([9.0], core.float32))


# ---- larger inputs: row copies and parallel paths

@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int8, np.int16])
def test_large_gathers_and_scatters(dtype):
    rng = np.random.default_rng(3)
    a = rng.integers(-100, 100, (700, 300)).astype(dtype)
    x = core.tensor(a)
    rows = rng.integers(-700, 700, 900)
    np.testing.assert_array_equal(x[core.tensor(rows)].numpy(), a[rows])
    np.testing.assert_array_equal(x[:, core.tensor(rows % 300)].numpy(), a[:, rows % 300])
    np.testing.assert_array_equal(core.index_select(x, 0, core.tensor(rows % 700)).numpy(), a[rows % 700])
    np.testing.assert_array_equal(x.t()[core.tensor(rows % 300)].numpy(), a.T[rows % 300])
    idx = rng.integers(0, 700, (500, 300))
    np.testing.assert_array_equal(x.gather(0, core.tensor(idx)).numpy(), np.take_along_axis(a, idx, 0))
    mask = a > 0
    np.testing.assert_array_equal(x[core.tensor(mask)].numpy(), a[mask])
    # writes: distinct rows, so the parallel row copies have one writer each
    target = rows[:300] % 700
    target = np.unique(target)
    values = rng.integers(-5, 5, (target.size, 300)).astype(dtype)
    b = a.copy()
    b[target] = values
    x[core.tensor(target)] = core.tensor(values)
    np.testing.assert_array_equal(x.numpy(), b)
    acc = np.zeros((50, 300), dtype)
    which = rng.integers(0, 50, 400)
    np.add.at(acc, which, a[:400] % 3)
    got = core.zeros((50, 300), dtype=x.dtype).index_add_(0, core.tensor(which), core.tensor(a[:400] % 3))
    np.testing.assert_array_equal(got.numpy(), acc)


# ---- the row kernels: gather / scatter_add along the last dim of contiguous tensors

@pytest.mark.parametrize("dtype", [np.uint8, np.int64, np.float32, np.float64])
def test_gather_and_scatter_add_along_rows(dtype):
    rng = np.random.default_rng(5)
    src = rng.integers(0, 100, (4, 3, 50)).astype(dtype)
    idx = rng.integers(0, 50, (4, 3, 700))  # longer than the rows: every index repeats
    np.testing.assert_array_equal(core.tensor(src).gather(2, core.tensor(idx)).numpy(),
                                  np.take_along_axis(src, idx, 2))
    values = rng.integers(0, 3, idx.shape).astype(dtype)
    expected = np.zeros_like(src)
    for pos in np.ndindex(*idx.shape[:2]):
        np.add.at(expected[pos], idx[pos], values[pos])
    out = core.zeros(src.shape, dtype=core.tensor(src).dtype).scatter_add_(2, core.tensor(idx), core.tensor(values))
    np.testing.assert_array_equal(out.numpy(), expected)


@pytest.mark.parametrize("bad", [50, -1])
def test_row_kernels_leave_out_of_range_indices_to_the_checked_path(bad):
    idx = np.zeros((2, 5), np.int64)
    idx[1, 3] = bad
    x = core.zeros(2, 50)
    with pytest.raises(RuntimeError, match=f"index {bad} is out of bounds for dimension 1 with size 50"):
        x.gather(1, core.tensor(idx))
    with pytest.raises(RuntimeError, match=f"index {bad} is out of bounds for dimension 1 with size 50"):
        x.scatter_add_(1, core.tensor(idx), core.ones(2, 5))
    assert not x.any()  # nothing was written before the error


@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.float32, np.float64])
def test_where_with_dense_broadcast_and_strided_operands(dtype):
    rng = np.random.default_rng(6)
    cond = rng.random((3, 40, 50)) > 0.5
    a = rng.integers(0, 100, (3, 40, 50)).astype(dtype)
    b = rng.integers(0, 100, (3, 1, 50)).astype(dtype)
    c, x, y = core.tensor(cond), core.tensor(a), core.tensor(b)
    np.testing.assert_array_equal(core.where(c, x, y).numpy(), np.where(cond, a, b))
    np.testing.assert_array_equal(core.where(c, y, x).numpy(), np.where(cond, b, a))
    np.testing.assert_array_equal(core.where(c, x, 7).numpy(), np.where(cond, a, dtype(7)))
    np.testing.assert_array_equal(core.where(c, 7, x).numpy(), np.where(cond, dtype(7), a))
    np.testing.assert_array_equal(core.where(c.transpose(1, 2), x.transpose(1, 2), y.transpose(1, 2)).numpy(),
                                  np.where(cond, a, b).transpose(0, 2, 1))
