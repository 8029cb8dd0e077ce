"""Pickling, copy.copy and copy.deepcopy of tensors, dtypes and core.Size."""
import copy
import math
import pickle

import numpy as np
import pytest

import core

ALL = [core.bool, core.uint8, core.int8, core.int16, core.int32, core.int64, core.float16,
       core.bfloat16, core.float32, core.float64, core.complex64]


def _same(a, b):
    assert type(a) is type(b)
    assert a.dtype == b.dtype and a.shape == b.shape
    assert a.tolist() == b.tolist()


def _values(dtype, shape):
    t = (core.arange(math.prod(shape) if shape else 1) - 2).reshape(shape)
    if dtype == core.complex64:
        return (t * 1.5 + core.tensor(0.5j)).to(dtype)
    return (t * 1.5).to(dtype) if dtype.is_floating_point else t.to(dtype)


@pytest.mark.parametrize("dtype", ALL, ids=str)
@pytest.mark.parametrize("shape", [(), (0,), (5,), (2, 3), (2, 0, 3), (2, 3, 4)], ids=str)
def test_round_trip(dtype, shape):
    t = _values(dtype, shape)
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(t, protocol=protocol))
        _same(back, t)
        assert back.data_ptr() != t.data_ptr() or t.numel() == 0


def test_non_contiguous():
    t = core.arange(12.0).reshape(3, 4).transpose(0, 1)
    back = pickle.loads(pickle.dumps(t))
    _same(back, t)
    assert back.is_contiguous()
    strided = core.as_strided(core.arange(10), (3,), (3,), 1)
    _same(pickle.loads(pickle.dumps(strided)), strided)


def test_special_values_and_bfloat16_exact():
    t = core.tensor([math.nan, math.inf, -math.inf, -0.0, 1e-45])
    back = pickle.loads(pickle.dumps(t))
    assert np.array_equal(back.numpy(), t.numpy(), equal_nan=True)
    assert math.copysign(1.0, back.tolist()[3]) == -1.0
    b = core.tensor([1.0, 3.0e38, -2.5e-39]).bfloat16()
    assert pickle.loads(pickle.dumps(b)).tolist() == b.tolist()


def test_result_is_writable_and_independent():
    t = core.tensor([1, 2, 3])
    back = pickle.loads(pickle.dumps(t))
    back.fill_(0)
    assert t.tolist() == [1, 2, 3]
    assert back.numpy().flags.writeable


def test_numpy_backed_tensor():
    array = np.arange(4, dtype=np.int16)
    _same(pickle.loads(pickle.dumps(core.from_numpy(array))), core.from_numpy(array))


def test_containers_and_dtype_and_size():
    t = core.tensor([1.0])
    obj = {"w": t, "shape": t.shape, "dtype": core.bfloat16, "list": [t, t]}
    back = pickle.loads(pickle.dumps(obj))
    _same(back["w"], t)
    assert back["list"][0] is back["list"][1] is back["w"]  # pickle's memo keeps identity
    assert back["dtype"] is core.bfloat16
    assert back["shape"] == core.Size([1]) and isinstance(back["shape"], core.Size)
    for dtype in ALL + [core.quint8]:
        assert pickle.loads(pickle.dumps(dtype)) is dtype


class Tagged(core.Tensor):
    pass


def test_subclass_and_attributes_survive():
    t = core._C._make_subclass(Tagged, core.tensor([1.0, 2.0]))
    t.note = "hello"
    back = pickle.loads(pickle.dumps(t))
    assert type(back) is Tagged and back.note == "hello" and back.tolist() == [1.0, 2.0]


def test_quantized_without_quantizer_is_rejected():
    # Quantized tensors pickle with their quantizer (tests/core/quantization); one made by
    # empty() has none to pickle.
    with pytest.raises(TypeError, match="quantize_per_tensor"):
        pickle.dumps(core.empty((2,), dtype=core.quint8))


def test_copy_copy():
    t = core.tensor([[1, 2], [3, 4]]).transpose(0, 1)
    c = copy.copy(t)
    _same(c, t)
    c.fill_(0)
    assert t.tolist() == [[1, 3], [2, 4]]


def test_deepcopy():
    t = core.tensor([1.0, 2.0]).bfloat16()
    d = copy.deepcopy(t)
    _same(d, t)
    assert d.data_ptr() != t.data_ptr()
    pair = copy.deepcopy([t, t])
    assert pair[0] is pair[1]
    sub = core._C._make_subclass(Tagged, core.tensor([3]))
    sub.meta = {"k": [1]}
    dsub = copy.deepcopy(sub)
    assert type(dsub) is Tagged and dsub.meta == {"k": [1]} and dsub.meta is not sub.meta
    empty = copy.deepcopy(core.zeros((0, 2), dtype=core.int8))
    assert empty.shape == core.Size([0, 2]) and empty.dtype == core.int8
