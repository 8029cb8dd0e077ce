"""Conversion family: to/type/casts, copy_, item/tolist, numpy interop, Python protocols,
type helpers (promote_types, result_type, can_cast, finfo, iinfo) and core.Size."""
import math
import operator
import warnings

import numpy as np
import pytest

import core

ALL = [core.bool, core.uint8, core.int8, core.int16, core.int32, core.int64, core.float16,
       core.bfloat16, core.float32, core.float64, core.complex64]


# ---------------------------------------------------------------- Tensor.to
class TestTo:
    def test_dtype(self):
        t = core.tensor([1.5, -2.5])
        out = t.to(core.int32)
        assert out.dtype == core.int32 and out.tolist() == [1, -2]

    def test_same_dtype_returns_self_unless_copy(self):
        t = core.tensor([1.0, 2.0])
        assert t.to(core.float32) is t
        assert t.to("cpu") is t
        assert t.to() is t
        copied = t.to(core.float32, copy=True)
        assert copied is not t and copied.data_ptr() != t.data_ptr()
        assert t.to(copy=True).data_ptr() != t.data_ptr()

    def test_device_and_dtype(self):
        t = core.tensor([1, 2])
        for out in (t.to("cpu", core.float64), t.to("cpu:0", dtype=core.float64),
                    t.to(device="cpu", dtype=core.float64), t.to(dtype=core.float64)):
            assert out.dtype == core.float64 and out.tolist() == [1.0, 2.0]

    def test_other_tensor(self):
        t = core.tensor([1.7, 2.2])
        other = core.tensor([1], dtype=core.int16)
        assert t.to(other).dtype == core.int16
        same = core.tensor([0.0])
        assert t.to(same) is t
        assert t.to(same, copy=True) is not t

    def test_flags(self):
        t = core.tensor([1.0])
        assert t.to(core.float64, True).dtype == core.float64  # non_blocking positional
        assert t.to(core.float64, non_blocking=True, copy=True).dtype == core.float64
        assert t.to(core.float64, memory_format=None).dtype == core.float64

    def test_device_object(self):
        class Device:  # anything shaped like torch.device
            type = "cpu"

            def __str__(self):
                return "cpu"

        t = core.tensor([1.0])
        assert t.to(Device()) is t
        assert t.to(device=Device(), dtype=core.int64).dtype == core.int64
        assert t.to(t.device) is t

    def test_python_types_as_dtypes(self):
        t = core.tensor([1, 2])
        assert t.to(float).dtype == core.float64
        assert t.to(bool).dtype == core.bool

    def test_errors(self):
        t = core.tensor([1.0])
        with pytest.raises(RuntimeError, match="not available"):
            t.to("cuda")
        with pytest.raises(RuntimeError, match="not available"):
            t.to("cuda:0", core.float64)
        with pytest.raises(RuntimeError, match="device type at start of device string: foo"):
            t.to("foo")
        with pytest.raises(RuntimeError, match="Invalid device string"):
            t.to("cpu:x")
        with pytest.raises(TypeError, match="to()"):
            t.to(3)
        with pytest.raises(TypeError, match="to()"):
            t.to(core.float64, bad=1)


# ---------------------------------------------------------------- casts and type()
CASTS = [("float", core.float32), ("double", core.float64), ("half", core.float16),
         ("bfloat16", core.bfloat16), ("int", core.int32), ("long", core.int64),
         ("short", core.int16), ("char", core.int8), ("byte", core.uint8), ("bool", core.bool),
         ("cfloat", core.complex64)]


@pytest.mark.parametrize("name,dtype", CASTS)
def test_cast_methods(name, dtype):
    t = core.tensor([[0.0, 1.0], [2.0, 3.0]])
    out = getattr(t, name)()
    assert out.dtype == dtype and out.shape == t.shape
    assert getattr(out, name)() is out  # already that dtype: no copy
    expected = [[False, True], [True, True]] if dtype == core.bool else [[0, 1], [2, 3]]
    assert out.tolist() == expected


def test_casts_of_non_contiguous_and_empty():
    t = core.tensor([[1.5, 2.5], [3.5, 4.5]]).transpose(0, 1)
    assert t.int().tolist() == [[1, 3], [2, 4]]
    assert core.zeros((0, 3)).long().shape == core.Size([0, 3])
    assert core.tensor(2.5).double().ndim == 0


def test_complex_to_bool_uses_both_parts():
    t = core.tensor([0j, 1j, 2 + 0j, 0j])
    assert t.bool().tolist() == [False, True, True, False]
    assert t.float().tolist() == [0.0, 0.0, 2.0, 0.0]  # real part, like numpy


def test_bfloat16_rounding():
    # nearest, ties to even (1.00390625 is halfway between 1 and 1.0078125)
    t = core.tensor([1.0, 1.00390625, 1.01171875, 3.0e38])
    assert t.bfloat16().float().tolist() == [1.0, 1.0, 1.015625, 3.00405527047391e+38]


@pytest.mark.parametrize("dtype,name", [
    (core.float32, "core.FloatTensor"), (core.float64, "core.DoubleTensor"),
    (core.float16, "core.HalfTensor"), (core.bfloat16, "core.BFloat16Tensor"),
    (core.uint8, "core.ByteTensor"), (core.int8, "core.CharTensor"), (core.int16, "core.ShortTensor"),
    (core.int32, "core.IntTensor"), (core.int64, "core.LongTensor"), (core.bool, "core.BoolTensor"),
    (core.complex64, "core.ComplexFloatTensor"), (core.complex128, "core.ComplexDoubleTensor")])
def test_type_names(dtype, name):
    t = core.zeros((2,), dtype=dtype)
    assert t.type() == name
    back = core.zeros((2,)).type(name)
    assert back.dtype == dtype
    assert core.zeros((2,)).type(name.replace("core.", "torch.")).dtype == dtype


def test_type_with_dtype_and_errors():
    t = core.tensor([1.5])
    assert t.type(core.int64).tolist() == [1]
    assert t.type(core.float32) is t
    with pytest.raises(ValueError, match="invalid type: 'core.Foo'"):
        t.type("core.Foo")
    with pytest.raises(ValueError, match="invalid type"):
        t.type("FloatTensor")


def test_type_as():
    a = core.tensor([1.9, -1.9])
    assert a.type_as(core.tensor([1], dtype=core.int8)).tolist() == [1, -1]
    assert a.type_as(core.tensor([2.0])) is a


def test_cpu_returns_self():
    t = core.tensor([1.0])
    assert t.cpu() is t


# ---------------------------------------------------------------- clone and copy_
def test_clone_is_a_new_contiguous_tensor():
    base = core.arange(6.0).reshape(2, 3)
    base.add_(1)
    t = base.transpose(0, 1)
    c = t.clone()
    assert c.is_contiguous() and c.tolist() == t.tolist()
    assert c.data_ptr() != t.data_ptr() and c._version == 0
    c.fill_(0)
    assert base.tolist() == [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
    assert core.clone(t).tolist() == t.tolist()


class TestCopy:
    def test_broadcast_and_cross_dtype(self):
        dst = core.zeros((2, 3), dtype=core.int32)
        out = dst.copy_(core.tensor([1.7, -2.7, 3.2]))
        assert out is dst
        assert dst.tolist() == [[1, -2, 3], [1, -2, 3]]
        dst.copy_(core.tensor(True))
        assert dst.tolist() == [[1, 1, 1], [1, 1, 1]]

    def test_bumps_version_and_writes_through_views(self):
        base = core.zeros((2, 2))
        view = base.transpose(0, 1)
        v0 = base._version
        view.copy_(core.tensor([[1.0, 2.0], [3.0, 4.0]]), non_blocking=True)
        assert base._version == v0 + 1
        assert base.tolist() == [[1.0, 3.0], [2.0, 4.0]]

    def test_into_numpy_backed_tensor(self):
        array = np.zeros(3, np.float64)
        core.from_numpy(array).copy_(core.tensor([1, 2, 3]))
        assert array.tolist() == [1.0, 2.0, 3.0]

    def test_shape_errors(self):
        with pytest.raises(RuntimeError, match="copy_"):
            core.zeros((2,)).copy_(core.zeros((3,)))
        with pytest.raises(RuntimeError, match="cannot be broadcast"):
            core.zeros((2,)).copy_(core.zeros((3, 2)))

    def test_internal_overlap_rejected(self):
        dst = core.zeros((1,)).expand((3,))
        with pytest.raises(RuntimeError, match="more than one element of the written-to tensor"):
            dst.copy_(core.tensor([1.0, 2.0, 3.0]))

    def test_partial_overlap_rejected(self):
        a = core.arange(4.0)
        b = a.as_strided((3,), (1,), 1)
        c = a.as_strided((3,), (1,), 0)
        with pytest.raises(RuntimeError, match="refer to a single memory location"):
            b.copy_(c)

    def test_full_overlap_in_another_order_is_exact(self):
        a = core.arange(9.0).reshape(3, 3)
        a.copy_(a.transpose(0, 1))
        assert a.tolist() == [[0.0, 3.0, 6.0], [1.0, 4.0, 7.0], [2.0, 5.0, 8.0]]

    def test_copy_onto_itself(self):
        a = core.tensor([1.0, 2.0])
        v0 = a._version
        assert a.copy_(a) is a
        assert a.tolist() == [1.0, 2.0] and a._version == v0 + 1

    def test_empty_and_0d(self):
        core.zeros((0, 3)).copy_(core.ones((3,)))
        s = core.tensor(0)
        s.copy_(core.tensor(5.5))
        assert s.item() == 5


# ---------------------------------------------------------------- item / tolist
def test_item_types():
    assert core.tensor(True).item() is True
    assert type(core.tensor(3, dtype=core.int8).item()) is int
    assert core.tensor([2.5], dtype=core.bfloat16).item() == 2.5
    assert core.tensor([[1 + 2j]]).item() == 1 + 2j
    with pytest.raises(RuntimeError, match="a Tensor with 2 elements cannot be converted to Scalar"):
        core.tensor([1, 2]).item()
    with pytest.raises(RuntimeError, match="a Tensor with 0 elements"):
        core.tensor([]).item()


def test_tolist():
    assert core.tensor(2.5).tolist() == 2.5
    assert core.tensor([[1, 2], [3, 4]]).transpose(0, 1).tolist() == [[1, 3], [2, 4]]
    assert core.tensor([1.5, 2.5]).bfloat16().tolist() == [1.5, 2.5]
    assert core.tensor([0.5], dtype=core.float16).tolist() == [0.5]
    assert core.tensor([1j]).tolist() == [1j]
    assert core.tensor([True]).tolist() == [True]
    assert core.zeros((2, 0)).tolist() == [[], []]
    values = core.tensor([1, 2], dtype=core.uint8).tolist()
    assert all(type(v) is int for v in values)


# ---------------------------------------------------------------- numpy interop
class TestNumpy:
    def test_zero_copy_both_ways(self):
        t = core.zeros((2, 3))
        a = t.numpy()
        a[0, 1] = 5
        assert t.tolist()[0][1] == 5.0
        t.fill_(2)
        assert a.tolist() == [[2.0] * 3] * 2

    def test_view_keeps_strides(self):
        t = core.arange(6.0).reshape(2, 3).transpose(0, 1)
        a = t.numpy()
        assert a.strides == (4, 12)
        assert np.shares_memory(a, t.numpy())

    def test_array_outlives_tensor(self):
        a = core.arange(4.0).numpy()
        assert a.tolist() == [0.0, 1.0, 2.0, 3.0]

    def test_unsupported_dtypes(self):
        with pytest.raises(TypeError, match="Got unsupported ScalarType BFloat16"):
            core.zeros((2,), dtype=core.bfloat16).numpy()
        with pytest.raises(TypeError, match="Got unsupported ScalarType QUInt8"):
            core.empty((2,), dtype=core.quint8).numpy()

    def test_array_protocol(self):
        t = core.tensor([1.0, 2.0])
        a = np.asarray(t)
        assert np.shares_memory(a, t.numpy())
        assert np.asarray(t, dtype=np.float64).dtype == np.float64
        assert not np.shares_memory(np.array(t, copy=True), a)
        with pytest.raises(ValueError):
            np.array(t, dtype=np.float64, copy=False)

    def test_ufuncs_return_tensors(self):
        t = core.tensor([0.0, 1.0])
        out = np.sin(t)
        assert isinstance(out, core.Tensor) and out.dtype == core.float32
        flags = np.isnan(t)
        assert isinstance(flags, core.Tensor) and flags.dtype == core.uint8  # as PyTorch

    def test_numpy_scalars_on_the_left_defer(self):
        t = core.tensor([1.0, 2.0])
        out = np.float64(2.0) * t
        assert isinstance(out, core.Tensor) and out.tolist() == [2.0, 4.0]
        assert core.Tensor.__array_priority__ == 1000


class TestFromNumpy:
    def test_zero_copy(self):
        a = np.arange(6, dtype=np.int32).reshape(2, 3)
        t = core.from_numpy(a)
        a[1, 2] = 42
        assert t.tolist()[1][2] == 42
        t.fill_(7)
        assert (a == 7).all()

    def test_non_contiguous(self):
        a = np.arange(24.0).reshape(4, 6)[::2, 1::2]
        t = core.from_numpy(a)
        assert t.stride() == (12, 2) and t.tolist() == a.tolist()
        a[0, 0] = -1
        assert t.tolist()[0][0] == -1
        f = core.from_numpy(np.asfortranarray(np.ones((2, 3))))
        assert f.stride() == (1, 2)

    @pytest.mark.parametrize("np_dtype,dtype", [
        (np.bool_, core.bool), (np.uint8, core.uint8), (np.int8, core.int8), (np.int16, core.int16),
        (np.int32, core.int32), (np.int64, core.int64), (np.float16, core.float16),
        (np.float32, core.float32), (np.float64, core.float64), (np.complex64, core.complex64)])
    def test_dtypes(self, np_dtype, dtype):
        t = core.from_numpy(np.ones((2, 2), np_dtype))
        assert t.dtype == dtype

    def test_0d_and_empty(self):
        assert core.from_numpy(np.array(3.5)).ndim == 0
        assert core.from_numpy(np.zeros((0, 4), np.float32)).shape == core.Size([0, 4])

    def test_negative_strides(self):
        with pytest.raises(ValueError, match="negative"):
            core.from_numpy(np.arange(4.0)[::-1])

    @pytest.mark.parametrize("np_dtype", [np.uint16, np.uint32, np.uint64, object, "U3"])
    def test_unsupported_dtypes(self, np_dtype):
        with pytest.raises(TypeError, match="can't convert np.ndarray of type numpy"):
            core.from_numpy(np.zeros(2, dtype=np_dtype))

    def test_big_endian(self):
        with pytest.raises(ValueError, match="byte order"):
            core.from_numpy(np.zeros(2, dtype=">f4"))

    def test_not_an_array(self):
        with pytest.raises(TypeError, match=r"expected np.ndarray \(got list\)"):
            core.from_numpy([1, 2])

    def test_read_only_warns(self):
        a = np.zeros(2)
        a.flags.writeable = False
        with pytest.warns(UserWarning, match="not writable"):
            core.from_numpy(a)

    def test_array_kept_alive(self):
        t = core.from_numpy(np.arange(5.0))
        assert t.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]


# ---------------------------------------------------------------- Python protocols
class TestPythonProtocols:
    def test_len_and_iter(self):
        t = core.arange(6).reshape(3, 2)
        assert len(t) == 3
        rows = list(t)
        assert [r.tolist() for r in rows] == [[0, 1], [2, 3], [4, 5]]
        rows[1].fill_(9)  # rows are views
        assert t.tolist()[1] == [9, 9]
        assert [x.item() for x in core.tensor([4, 5])] == [4, 5]
        assert list(core.zeros((0, 2))) == []
        with pytest.raises(TypeError, match="len\\(\\) of a 0-d tensor"):
            len(core.tensor(1))
        with pytest.raises(TypeError, match="iteration over a 0-d tensor"):
            iter(core.tensor(1))

    def test_bool(self):
        assert bool(core.tensor([3])) and not bool(core.tensor(0.0))
        with pytest.raises(RuntimeError, match="more than one value is ambiguous"):
            bool(core.tensor([1, 2]))
        with pytest.raises(RuntimeError, match="no values is ambiguous"):
            bool(core.tensor([]))

    def test_float_int_complex(self):
        assert float(core.tensor([[2.5]])) == 2.5 and int(core.tensor(2.7)) == 2
        assert int(core.tensor(True)) == 1 and float(core.tensor(3)) == 3.0
        assert complex(core.tensor(3)) == 3 + 0j and complex(core.tensor(1 - 1j)) == 1 - 1j
        assert float(core.tensor(2 + 0j)) == 2.0
        for fn in (float, int, complex):
            with pytest.raises(ValueError, match="only one element tensors can be converted"):
                fn(core.tensor([1, 2]))
        with pytest.raises(RuntimeError, match="without overflow"):
            float(core.tensor(1 + 2j))
        with pytest.raises(RuntimeError, match="without overflow"):
            int(core.tensor(1 + 2j))
        with pytest.raises(ValueError, match="NaN"):
            int(core.tensor(math.nan))

    def test_index(self):
        assert [10, 20, 30][core.tensor(2)] == 30
        assert operator.index(core.tensor([1], dtype=core.uint8)) == 1
        assert operator.index(core.tensor(True)) == 1
        for bad in (core.tensor(1.0), core.tensor([1, 2]), core.tensor(1j)):
            with pytest.raises(TypeError, match="only integer tensors of a single element"):
                operator.index(bad)

    def test_hash_is_identity(self):
        a, b = core.tensor([1.0]), core.tensor([1.0])
        assert hash(a) != hash(b) or a is b
        assert len({a, b, a}) == 2

    def test_format(self):
        assert f"{core.tensor(2.5):.2f}" == "2.50"
        assert f"{core.tensor(7):>3}" == "  7"
        assert f"{core.tensor([1.0])}" == "tensor([1.])"
        with pytest.raises(TypeError, match="unsupported format string"):
            f"{core.tensor([1.0]):.2f}"


# ---------------------------------------------------------------- type helpers
def test_promote_types():
    assert core.promote_types(core.uint8, core.int8) == core.int16
    assert core.promote_types(core.float16, core.bfloat16) == core.float32
    assert core.promote_types(core.int64, core.float16) == core.float16
    assert core.promote_types(core.bool, core.bool) == core.bool
    with pytest.raises(TypeError, match="quantized"):
        core.promote_types(core.quint8, core.float32)
    with pytest.raises(TypeError, match="promote_types"):
        core.promote_types(core.float32, "float")


def test_result_type_with_numbers():
    i8 = core.tensor([1], dtype=core.int8)
    assert core.result_type(i8, 1) == core.int8
    assert core.result_type(i8, 1.5) == core.float32
    assert core.result_type(i8, True) == core.int8
    assert core.result_type(i8, 1j) == core.complex64
    assert core.result_type(core.tensor([True]), 1) == core.int64
    assert core.result_type(core.tensor([1], dtype=core.float16), 2.5) == core.float16
    assert core.result_type(2, 3) == core.int64
    assert core.result_type(2, 3.0) == core.float32
    # a 0-d tensor only matters when its category is higher
    assert core.result_type(core.tensor(1.0, dtype=core.float64), i8) == core.float64
    f16 = core.tensor([1.0], dtype=core.float16)
    assert core.result_type(core.tensor(1.0, dtype=core.float64), f16) == core.float16
    assert core.result_type(core.tensor(1, dtype=core.int64), i8) == core.int8
    assert core.result_type(i8, core.tensor([1], dtype=core.int32)) == core.int32


def test_can_cast():
    assert core.can_cast(core.int32, core.float16)
    assert not core.can_cast(core.float32, core.int64)
    assert not core.can_cast(core.complex64, core.float64)
    assert not core.can_cast(core.int8, core.bool)
    assert core.can_cast(core.bool, core.uint8)


def test_predicates_and_numel():
    assert core.is_tensor(core.tensor(1)) and not core.is_tensor(np.zeros(1)) and not core.is_tensor(1)
    assert core.is_floating_point(core.zeros((1,), dtype=core.bfloat16))
    assert not core.is_floating_point(core.tensor([1]))
    assert core.is_complex(core.tensor([1j])) and not core.is_complex(core.tensor([1.0]))
    assert core.numel(core.zeros((2, 3, 4))) == 24 and core.numel(core.tensor(1)) == 1


def test_finfo():
    f32 = core.finfo(core.float32)
    assert (f32.bits, f32.eps, f32.tiny, f32.resolution, f32.dtype) == (32, 2.0 ** -23, 2.0 ** -126, 1e-6, "float32")
    assert f32.max == float(np.finfo(np.float32).max) and f32.min == -f32.max
    assert f32.smallest_normal == f32.tiny
    assert core.finfo() == f32
    assert core.finfo(core.complex64) == f32
    f16 = core.finfo(core.float16)
    assert (f16.bits, f16.max, f16.eps, f16.tiny) == (16, 65504.0, 2.0 ** -10, 2.0 ** -14)
    bf = core.finfo(core.bfloat16)
    assert (bf.bits, bf.eps, bf.max, bf.resolution) == (16, 0.0078125, 3.3895313892515355e+38, 0.01)
    assert core.finfo(core.float64).eps == float(np.finfo(np.float64).eps)
    assert repr(f32) == ("finfo(resolution=1e-06, min=-3.40282e+38, max=3.40282e+38, eps=1.19209e-07, "
                         "smallest_normal=1.17549e-38, tiny=1.17549e-38, dtype=float32)")
    with pytest.raises(TypeError, match="floating point"):
        core.finfo(core.int32)
    with pytest.raises(TypeError, match="dtype"):
        core.finfo("float32")


def test_iinfo():
    assert (core.iinfo(core.uint8).min, core.iinfo(core.uint8).max) == (0, 255)
    i64 = core.iinfo(core.int64)
    assert (i64.bits, i64.min, i64.max, i64.dtype) == (64, -2 ** 63, 2 ** 63 - 1, "int64")
    assert core.iinfo(core.int16).max == 32767 and core.iinfo(core.int8).min == -128
    assert repr(core.iinfo(core.uint8)) == "iinfo(min=0, max=255, dtype=uint8)"
    with pytest.raises(TypeError, match="core.bool is not supported by core.iinfo"):
        core.iinfo(core.bool)
    with pytest.raises(TypeError, match="integer"):
        core.iinfo(core.float32)


# ---------------------------------------------------------------- core.Size
def test_size():
    s = core.zeros((2, 3)).shape
    assert isinstance(s, core.Size) and s == (2, 3) and repr(s) == "core.Size([2, 3])"
    assert str(core.Size([])) == "core.Size([])"
    assert s.numel() == 6 and core.Size([]).numel() == 1
    assert isinstance(s[1:], core.Size) and s[0] == 2
    assert isinstance(s + (4,), core.Size) and isinstance((1,) + s, core.Size)
    assert s * 2 == (2, 3, 2, 3) and isinstance(2 * s, core.Size)
    assert core.Size([np.int64(3), core.tensor(4)]) == (3, 4)
    with pytest.raises(TypeError, match="takes an iterable of 'int' \\(item 1 is 'float'\\)"):
        core.Size([1, 2.5])


def test_no_warnings_on_plain_conversions():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        core.tensor([1.0]).numpy()
        core.tensor([1]).to(core.float64)
