"""Hand-written tests of the joining family: errors, views, promotion, call forms, sizes
big enough for the parallel paths."""
import numpy as np
import pytest

import core


def t(data, dtype=None):
    return core.tensor(data, dtype=dtype)


def arange(*shape, dtype=np.float32):
    return core.tensor(np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape))


# ---------------------------------------------------------------- errors: (call, type, fragment)
ERRORS = [
    ("cat-empty", lambda: core.cat([]), ValueError, "expected a non-empty list of Tensors"),
    ("cat-sizes", lambda: core.cat([arange(2, 3), arange(4, 3)], 1), RuntimeError,
     "Sizes of tensors must match except in dimension 1. Expected size 2 but got size 4 for tensor number 1 in the list."),
    ("cat-sizes-brief", lambda: core.cat([arange(3, 2), arange(4, 2)], 1), RuntimeError,
     "Sizes of tensors must match except in dimension 1. Expected size 3 but got size 4 for tensor number 1 in the list."),
    ("cat-ndim", lambda: core.cat([arange(2, 3), arange(2, 3, 1)]), RuntimeError,
     "Tensors must have same number of dimensions: got 2 and 3"),
    ("cat-0d", lambda: core.cat([t(1.0), t(2.0)]), RuntimeError,
     "zero-dimensional tensor (at position 0) cannot be concatenated"),
    ("cat-dim", lambda: core.cat([arange(2, 3)], 2), IndexError, "dimension out of range"),
    ("cat-not-tensors", lambda: core.cat([1, 2]), TypeError, "cat()"),
    ("concat-sizes", lambda: core.concat([arange(2, 3), arange(2, 4)]), RuntimeError, "concat(): Sizes of tensors"),
    ("stack-empty", lambda: core.stack([]), RuntimeError, "stack expects a non-empty TensorList"),
    ("stack-shapes", lambda: core.stack([arange(2, 3), arange(2, 4)]), RuntimeError,
     "stack expects each tensor to be equal size, but got [2, 3] at entry 0 and [2, 4] at entry 1"),
    ("stack-dim", lambda: core.stack([arange(2, 3), arange(2, 3)], 3), IndexError, "dimension out of range"),
    ("hstack-empty", lambda: core.hstack([]), RuntimeError, "hstack expects a non-empty TensorList"),
    ("vstack-shapes", lambda: core.vstack([arange(3), arange(4)]), RuntimeError, "vstack(): Sizes of tensors"),
    ("flip-dup", lambda: arange(2, 3).flip([0, -2]), RuntimeError, "dim 0 appears multiple times in the list of dims"),
    ("flip-range", lambda: arange(2, 3).flip(2), IndexError, "flip(): dimension out of range"),
    ("fliplr-1d", lambda: core.fliplr(arange(3)), RuntimeError, "Input must be >= 2-d."),
    ("flipud-0d", lambda: core.flipud(t(3)), RuntimeError, "Input must be >= 1-d."),
    ("roll-align-flat", lambda: arange(2, 3).roll((1, 2)), RuntimeError, "shifts and dimensions must align. shifts: 2, dims:0"),
    ("roll-align", lambda: arange(2, 3).roll((1, 2), (0,)), RuntimeError, "shifts and dimensions must align. shifts: 2, dims:1"),
    ("roll-0d", lambda: t(5).roll(1, 0), IndexError, "Dimension specified as 0 but tensor has no dimensions"),
    ("roll-range", lambda: arange(2, 3).roll(1, 5), IndexError, "roll(): dimension out of range"),
    ("rot90-dims", lambda: arange(2, 3).rot90(1, [0]), RuntimeError, "expected total rotation dims == 2"),
    ("rot90-same", lambda: arange(2, 3).rot90(1, [0, -2]), RuntimeError, "expected rotation dims to be different"),
    ("rot90-1d", lambda: arange(3).rot90(), RuntimeError, "expected total dims >= 2"),
    ("repeat-fewer", lambda: arange(2, 3).repeat(2), RuntimeError,
     "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor"),
    ("repeat-negative", lambda: arange(3).repeat(-1, 2), RuntimeError, "Trying to create tensor with negative dimension -1: [-1, 6]"),
    ("tile-negative", lambda: arange(3).tile(-1), RuntimeError, "tile(): Trying to create tensor with negative dimension"),
    ("ri-negative-int", lambda: arange(3).repeat_interleave(-1), RuntimeError, "Repeats must be non-negative"),
    ("ri-negative", lambda: arange(2).repeat_interleave(t([1, -2])), RuntimeError, "repeats can not be negative"),
    ("ri-float", lambda: arange(2).repeat_interleave(t([1.0, 2.0])), NotImplementedError, "repeats has to be a Long or Int tensor"),
    ("ri-int16", lambda: core.repeat_interleave(t([1, 2], core.int16)), NotImplementedError, "Long or Int"),
    ("ri-size", lambda: arange(2, 2).repeat_interleave(t([1, 2, 3]), dim=0), RuntimeError,
     "repeats must have the same size as input along dim, but got repeats.size(0) = 3 and input.size(0) = 2"),
    ("ri-2d", lambda: arange(2, 2).repeat_interleave(t([[1, 2]]), dim=0), RuntimeError, "repeats must be 0-dim or 1-dim tensor"),
    ("ri-index-2d", lambda: core.repeat_interleave(t([[1, 2]])), RuntimeError, "repeat_interleave only accept 1D vector as repeat"),
    ("ri-dim", lambda: arange(2, 3).repeat_interleave(2, dim=2), IndexError, "dimension out of range"),
    ("tril-1d", lambda: core.tril(arange(3)), RuntimeError, "tril(): input tensor must have at least 2 dimensions"),
    ("triu_-1d", lambda: arange(3).triu_(), RuntimeError, "triu_(): input tensor must have at least 2 dimensions"),
    ("diag-3d", lambda: core.diag(arange(2, 2, 2)), RuntimeError, "diag(): Supports 1D or 2D tensors. Got 3D"),
    ("diag-0d", lambda: core.diag(t(1)), RuntimeError, "Got 0D"),
    ("diagonal-same", lambda: arange(3, 3).diagonal(0, 0, -2), RuntimeError, "diagonal dimensions cannot be identical 0, -2"),
    ("diagonal-range", lambda: arange(3, 3).diagonal(0, 0, 2), IndexError, "diagonal(): dimension out of range"),
    ("diag_embed-same", lambda: core.diag_embed(arange(2, 2), 0, 0, 0), RuntimeError, "diagonal dimensions cannot be identical"),
    ("trace-3d", lambda: core.trace(arange(2, 2, 2)), RuntimeError, "trace(): expected a matrix, but got tensor with dim 3"),
    ("trace-bool", lambda: core.trace(t([[True]])), NotImplementedError, "not implemented for 'Bool'"),
    ("meshgrid-empty", lambda: core.meshgrid(), RuntimeError, "meshgrid expects a non-empty TensorList"),
    ("meshgrid-dtype", lambda: core.meshgrid(arange(2), arange(3, dtype=np.int64)), RuntimeError,
     "meshgrid expects all tensors to have the same dtype"),
    ("meshgrid-2d", lambda: core.meshgrid(arange(2), arange(3, 1)), RuntimeError, "Expected 0D or 1D tensor"),
    ("meshgrid-indexing", lambda: core.meshgrid(arange(2), indexing="foo"), RuntimeError,
     "indexing must be one of \"xy\" or \"ij\", but received: foo"),
    ("cartesian_prod-2d", lambda: core.cartesian_prod(arange(2), arange(2, 2)), RuntimeError,
     "Expect a 1D vector, but got shape [2, 2]"),
    ("broadcast_tensors", lambda: core.broadcast_tensors(arange(2, 2), arange(3)), RuntimeError,
     "broadcast_tensors(): the size of tensor a (2) must match the size of tensor b (3)"),
    ("broadcast_to-fewer", lambda: core.broadcast_to(arange(2, 1), (3,)), RuntimeError,
     "broadcast_to(): the number of sizes provided (1) must be greater or equal"),
    ("broadcast_to-size", lambda: arange(2, 3).broadcast_to((4, 3)), RuntimeError, "broadcast_to(): the expanded size"),
    ("pad-odd", lambda: core.pad(arange(2, 3), (1, 1, 1)), RuntimeError, "Padding length must be divisible by 2"),
    ("pad-long", lambda: core.pad(arange(2, 3), (1,) * 6), RuntimeError,
     "Padding length should be less than or equal to two times the input dimension but got padding length 6 and input of dimension 2"),
    ("pad-negative-size", lambda: core.pad(arange(2, 3), (-2, -2)), RuntimeError,
     "The input size 3, plus negative padding -2 and -2 resulted in a negative output size"),
    ("pad-mode", lambda: core.pad(arange(2, 3), (1, 1), mode="foo"), NotImplementedError, "Unrecognised padding mode foo"),
    ("pad-value", lambda: core.pad(arange(2, 3), (1, 1), mode="reflect", value=1.0), RuntimeError,
     "Padding mode \"reflect\" doesn't take in value argument"),
    ("pad-reflect-size", lambda: core.pad(arange(1, 2, 3), (3, 3), mode="reflect"), RuntimeError,
     "Padding size should be less than the corresponding input dimension, but got: padding (3, 3) at dimension 2 of input [1, 2, 3]"),
    ("pad-circular-wrap", lambda: core.pad(arange(1, 2, 3), (4, 4), mode="circular"), RuntimeError,
     "Padding value causes wrapping around more than once."),
    ("pad-circular-cropped", lambda: core.pad(arange(1, 1, 3), (-3, 2), mode="circular"), RuntimeError,
     "Padding value causes wrapping around more than once."),
    ("pad-value-overflow", lambda: core.pad(core.zeros((2,), dtype=core.uint8), (1, 1), value=-1.5), RuntimeError,
     "value cannot be converted to type uint8 without overflow"),
    ("pad-1d-input", lambda: core.pad(arange(3), (1, 1), mode="reflect"), NotImplementedError,
     "Padding size 2 is not supported for 1D input tensor."),
    ("pad-5d-2", lambda: core.pad(arange(1, 1, 1, 1, 2), (1, 1), mode="replicate"), NotImplementedError,
     "Padding size 2 is not supported for 5D input tensor."),
    ("pad-empty-dim", lambda: core.pad(arange(2, 0), (1, 1), mode="replicate"), RuntimeError,
     "Expected 2D or 3D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions for input, but got: [2, 0]"),
]


@pytest.mark.parametrize("call,kind,fragment", [e[1:] for e in ERRORS], ids=[e[0] for e in ERRORS])
def test_errors(call, kind, fragment):
    with pytest.raises(kind) as info:
        call()
    assert fragment in str(info.value)


# ---------------------------------------------------------------- cat / stack
@pytest.mark.parametrize("a,b,expected", [
    (core.int64, core.float32, core.float32), (core.uint8, core.int8, core.int16),
    (core.bool, core.int32, core.int32), (core.float16, core.float64, core.float64),
    (core.int32, core.complex64, core.complex64), (core.bfloat16, core.float16, core.float32),
])
def test_cat_promotes(a, b, expected):
    out = core.cat([core.ones((2, 2), dtype=a), core.zeros((1, 2), dtype=b)])
    assert out.dtype == expected
    np.testing.assert_array_equal(out.to(core.float32).numpy(), [[1, 1], [1, 1], [0, 0]])


def test_cat_legacy_empty_vectors_are_skipped_but_promote():
    x = arange(2, 3)
    out = core.cat([core.zeros((0,), dtype=core.float64), x, core.zeros((0,))], 1)
    assert out.shape == (2, 3) and out.dtype == core.float64
    assert core.cat([core.zeros((0,)), core.zeros((0,))], 7).shape == (0,)  # dim is not checked


@pytest.mark.parametrize("dim", [0, 1, 2, 3, -1, -3])
def test_cat_keeps_channels_last(dim):
    """Channels-last inputs give a channels-last output, as PyTorch's cat does; one
    contiguous input among them gives a contiguous output."""
    parts = [arange(2, 3, 4, 5) + 100 * i for i in range(3)]
    want = np.concatenate([p.numpy() for p in parts], axis=dim)
    nhwc = [p.contiguous(memory_format=core.channels_last) for p in parts]
    out = core.cat(nhwc, dim)
    assert out.is_contiguous(memory_format=core.channels_last) and not out.is_contiguous()
    np.testing.assert_array_equal(out.numpy(), want)
    mixed = core.cat([nhwc[0], parts[1], nhwc[2]], dim)
    assert mixed.is_contiguous()
    np.testing.assert_array_equal(mixed.numpy(), want)
    with pytest.raises(IndexError, match="dimension out of range"):
        core.cat(nhwc, 4)


def test_cat_single_tensor_is_a_copy():
    x = arange(2, 3)
    out = core.cat([x])
    out.fill_(0)
    assert x.numpy().sum() == 15


def test_cat_large_mixed_layouts_match_numpy():
    rng = np.random.default_rng(0)
    a = rng.standard_normal((300, 700)).astype(np.float32)
    b = rng.standard_normal((700, 300)).astype(np.float32).T  # non-contiguous
    c = rng.integers(0, 9, (300, 500)).astype(np.int64)  # promoted
    for dim in (1, -1):
        out = core.cat([core.tensor(a), core.from_numpy(b), core.tensor(c)], dim)
        np.testing.assert_array_equal(out.numpy(), np.concatenate([a, b, c.astype(np.float32)], 1))
    big = rng.standard_normal((1 << 20,)).astype(np.float32)
    out = core.cat([core.tensor(big), core.tensor(big[::-1].copy())])
    np.testing.assert_array_equal(out.numpy(), np.concatenate([big, big[::-1]]))


def test_stack_promotes_and_keeps_0d():
    out = core.stack([t(1), t(2.5)])
    assert out.dtype == core.float32 and out.tolist() == [1.0, 2.5]
    assert core.stack([arange(2, 3)] * 4, dim=-1).shape == (2, 3, 4)


def test_np_style_stacks():
    a, b = t([1, 2]), t([3, 4])
    assert core.hstack([a, b]).tolist() == [1, 2, 3, 4]
    assert core.vstack([a, b]).tolist() == [[1, 2], [3, 4]]
    assert core.dstack([a, b]).shape == (1, 2, 2)
    assert core.column_stack([a, t([[5], [6]])]).tolist() == [[1, 5], [2, 6]]
    assert core.column_stack([t(1), t(2)]).shape == (1, 2)


# ---------------------------------------------------------------- views
def test_diagonal_is_a_view():
    x = arange(3, 4)
    d = x.diagonal(1)
    assert d.tolist() == [1.0, 6.0, 11.0]
    assert d._storage_ptr() == x._storage_ptr()
    v = x._version
    d.fill_(-1)
    assert x._version == v + 1  # shared version counter
    assert x.numpy()[0, 1] == -1 and x.numpy()[2, 3] == -1 and x.numpy()[0, 0] == 0


def test_diagonal_of_empty_range_keeps_offset():
    x = arange(3, 3)
    d = x.diagonal(10)
    assert d.shape == (0,) and d.storage_offset() == x.storage_offset()


def test_diag_is_a_copy():
    x = arange(3, 3)
    d = core.diag(x)
    d.fill_(7)
    assert x.numpy()[0, 0] == 0


def test_meshgrid_returns_expanded_views():
    a, b = arange(2), arange(3)
    ga, gb = core.meshgrid(a, b)
    assert ga.shape == gb.shape == (2, 3)
    assert ga.stride() == (1, 0) and gb.stride() == (0, 1)
    a.fill_(5)
    assert (ga.numpy() == 5).all()


def test_meshgrid_call_forms_and_xy():
    a, b, c = arange(2), arange(3), arange(4)
    for grids in (core.meshgrid(a, b, c, indexing="xy"), core.meshgrid([a, b, c], indexing="xy"),
                  core.meshgrid((a, b, c), indexing="xy")):
        assert [g.shape for g in grids] == [(3, 2, 4)] * 3
    assert core.meshgrid(a, indexing="xy")[0].shape == (2,)


def test_broadcast_tensors_and_to_are_views():
    x, y = arange(2, 1), arange(3)
    bx, by = core.broadcast_tensors(x, y)
    assert bx.shape == by.shape == (2, 3) and bx._storage_ptr() == x._storage_ptr()
    assert core.broadcast_tensors([x, y])[0].shape == (2, 3)
    assert core.broadcast_tensors() == ()
    z = core.broadcast_to(x, (4, 2, 3))
    assert z.shape == (4, 2, 3) and z.stride() == (0, 1, 0)


def test_atleast_forms():
    assert core.atleast_1d(t(1)).shape == (1,)
    x = arange(3)
    assert core.atleast_1d(x) is x or core.atleast_1d(x)._storage_ptr() == x._storage_ptr()
    one, two = core.atleast_2d(t(1), arange(3))
    assert one.shape == (1, 1) and two.shape == (1, 3)
    assert [r.shape for r in core.atleast_3d([t(1), arange(3), arange(2, 3)])] == [(1, 1, 1), (1, 3, 1), (2, 3, 1)]


# ---------------------------------------------------------------- flip / roll / repeat
def test_flip_non_contiguous_and_large():
    rng = np.random.default_rng(1)
    a = rng.standard_normal((64, 513, 9)).astype(np.float32)
    x = core.from_numpy(a).permute(2, 0, 1)
    np.testing.assert_array_equal(x.flip(0, 2).numpy(), np.flip(a.transpose(2, 0, 1), (0, 2)))
    assert x.flip(0).is_contiguous()


def test_roll_call_forms():
    x = arange(2, 3)
    expected = np.roll(np.arange(6.0).reshape(2, 3), 1, 0)
    for out in (x.roll(1, 0), core.roll(x, 1, 0), core.roll(x, shifts=1, dims=0), x.roll((1,), (0,))):
        np.testing.assert_array_equal(out.numpy(), expected)
    np.testing.assert_array_equal(core.roll(x, 1, dims=None).numpy(), np.roll(np.arange(6.0), 1).reshape(2, 3))
    np.testing.assert_array_equal(x.roll(4).numpy(), np.roll(np.arange(6.0), 4).reshape(2, 3))
    np.testing.assert_array_equal(x.roll([1, 1], [1, 1]).numpy(), np.roll(np.arange(6.0).reshape(2, 3), 2, 1))


def test_repeat_varargs_and_fresh_output():
    x = arange(2, 3)
    y = x.repeat(1, 1)
    y.fill_(0)
    assert x.numpy().sum() == 15
    assert x.repeat(2, 1, 3).shape == (2, 2, 9) and x.tile(2).shape == (2, 6)


def test_repeat_many_dims_fallback():
    a = np.arange(2 ** 9, dtype=np.int32).reshape((2,) * 9)
    np.testing.assert_array_equal(core.tensor(a).repeat(*(2,) * 9).numpy(), np.tile(a, (2,) * 9))


def test_repeat_interleave_forms():
    x = t([[1, 2], [3, 4]])
    assert x.repeat_interleave(2).tolist() == [1, 1, 2, 2, 3, 3, 4, 4]
    assert core.repeat_interleave(x, t([1, 2]), dim=0).tolist() == [[1, 2], [3, 4], [3, 4]]
    assert x.repeat_interleave(t([3]), dim=1).tolist() == [[1, 1, 1, 2, 2, 2], [3, 3, 3, 4, 4, 4]]
    index = core.repeat_interleave(t([2, 0, 1], core.int32))
    assert index.dtype == core.int32 and index.tolist() == [0, 0, 2]
    assert core.repeat_interleave(t(5), 3).tolist() == [5, 5, 5]
    big = core.tensor(np.arange(100000, dtype=np.float32).reshape(1000, 100))
    np.testing.assert_array_equal(big.repeat_interleave(3, dim=1).numpy(), np.repeat(big.numpy(), 3, axis=1))


# ---------------------------------------------------------------- triangular
def test_tril_inplace_contiguous_and_not():
    x = arange(3, 4)
    v = x._version
    assert x.tril_(-1) is x
    assert x._version == v + 1
    np.testing.assert_array_equal(x.numpy(), np.tril(np.arange(12.0).reshape(3, 4), -1))
    base = arange(4, 3)
    y = base.transpose(0, 1)  # non-contiguous view: the result lands in base's storage
    y.triu_(1)
    np.testing.assert_array_equal(base.numpy().T, np.triu(np.arange(12.0).reshape(4, 3).T, 1))


def test_trace_dtypes():
    assert core.trace(t([[1, 2], [3, 4]], core.int8)).dtype == core.int64
    assert core.trace(t([[1.5, 0], [0, 2]], core.float16)).item() == 3.5
    assert core.trace(core.zeros((0, 3))).item() == 0.0


def test_cartesian_prod_single_and_pairs():
    a = t([1, 2])
    assert core.cartesian_prod(a).tolist() == [1, 2]
    assert core.cartesian_prod(a, t([3, 4, 5])).tolist() == [[1, 3], [1, 4], [1, 5], [2, 3], [2, 4], [2, 5]]
    assert core.cartesian_prod([a, a]).shape == (4, 2)


# ---------------------------------------------------------------- pad
def test_pad_constant_value_casts_and_crops():
    x = t([[1, 2, 3]], core.int32)
    out = core.pad(x, (1, -1), value=7.9)
    assert out.dtype == core.int32 and out.tolist() == [[7, 1, 2]]
    assert core.pad(t([True, False]), (1, 0), value=1).tolist() == [True, True, False]


def test_pad_large_reflect_matches_numpy():
    rng = np.random.default_rng(2)
    a = rng.standard_normal((2, 3, 200, 300)).astype(np.float32)
    out = core.pad(core.from_numpy(a).transpose(2, 3).transpose(2, 3), (5, 7, 9, 2), mode="reflect")
    np.testing.assert_array_equal(out.numpy(), np.pad(a, ((0, 0), (0, 0), (9, 2), (5, 7)), mode="reflect"))
    out = core.pad(core.from_numpy(a), (5, 7, 9, 2), mode="replicate")
    np.testing.assert_array_equal(out.numpy(), np.pad(a, ((0, 0), (0, 0), (9, 2), (5, 7)), mode="edge"))
    out = core.pad(core.from_numpy(a), (5, 7, 9, 2), mode="circular")
    np.testing.assert_array_equal(out.numpy(), np.pad(a, ((0, 0), (0, 0), (9, 2), (5, 7)), mode="wrap"))


def test_pad_returns_fresh_tensor_for_zero_padding():
    x = arange(1, 2, 3)
    for mode in ("constant", "reflect", "replicate", "circular"):
        out = core.pad(x, (0, 0), mode=mode)
        out.fill_(-1)
        assert x.numpy().min() == 0
