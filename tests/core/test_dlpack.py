"""DLPack: capsule layout, zero-copy exchange with numpy, consumption and deleter semantics; the
buffer-protocol holder _TensorBytes."""
import ctypes
import gc
import sys

import numpy as np
import pytest

import core


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class DLManagedTensor(ctypes.Structure):
    pass


DELETER = ctypes.CFUNCTYPE(None, ctypes.POINTER(DLManagedTensor))
DLManagedTensor._fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p),
                            ("deleter", DELETER)]


class DLManagedTensorVersioned(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32), ("manager_ctx", ctypes.c_void_p),
                ("deleter", ctypes.c_void_p), ("flags", ctypes.c_uint64), ("dl_tensor", DLTensor)]

_get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_get_pointer.restype = ctypes.c_void_p
_get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_get_name = ctypes.pythonapi.PyCapsule_GetName
_get_name.restype = ctypes.c_char_p
_get_name.argtypes = [ctypes.py_object]


def _dltensor(capsule):
    return DLManagedTensor.from_address(_get_pointer(capsule, b"dltensor")).dl_tensor


# (dtype, DLPack type code, bits): 0 int, 1 uint, 2 float, 4 bfloat, 5 complex, 6 bool
CODES = [(core.bool, 6, 8), (core.uint8, 1, 8), (core.int8, 0, 8), (core.int16, 0, 16),
         (core.int32, 0, 32), (core.int64, 0, 64), (core.float16, 2, 16), (core.bfloat16, 4, 16),
         (core.float32, 2, 32), (core.float64, 2, 64), (core.complex64, 5, 64)]


@pytest.mark.parametrize("dtype,code,bits", CODES, ids=[str(c[0]) for c in CODES])
def test_capsule_layout(dtype, code, bits):
    t = core.zeros((2, 3), dtype=dtype)
    capsule = t.__dlpack__()
    assert _get_name(capsule) == b"dltensor"
    dl = _dltensor(capsule)
    assert (dl.device.device_type, dl.device.device_id) == (1, 0)
    assert (dl.dtype.code, dl.dtype.bits, dl.dtype.lanes) == (code, bits, 1)
    assert dl.ndim == 2 and [dl.shape[i] for i in range(2)] == [2, 3]
    assert [dl.strides[i] for i in range(2)] == [3, 1]
    assert dl.data + dl.byte_offset == t.data_ptr()
    back = core.from_dlpack(capsule)
    assert back.dtype == dtype and back.data_ptr() == t.data_ptr()


def test_strides_are_in_elements():
    t = core.arange(12.0).reshape(3, 4).transpose(0, 1)
    capsule = t.__dlpack__()
    dl = _dltensor(capsule)
    assert [dl.shape[i] for i in range(2)] == [4, 3]
    assert [dl.strides[i] for i in range(2)] == [1, 4]
    a = np.from_dlpack(t)
    assert a.strides == (4, 16) and a.tolist() == t.tolist()


def test_dlpack_device():
    assert core.tensor([1.0]).__dlpack_device__() == (1, 0)


def test_numpy_consumes_our_tensor_zero_copy():
    t = core.arange(6.0).reshape(2, 3)
    a = np.from_dlpack(t)
    a[0, 0] = 100.0
    assert t.tolist()[0][0] == 100.0
    t.fill_(1)
    assert (a == 1).all()


def test_we_consume_numpy_zero_copy():
    a = np.arange(6, dtype=np.int32).reshape(2, 3)
    t = core.from_dlpack(a)
    assert t.dtype == core.int32 and t.tolist() == a.tolist()
    a[1, 1] = -5
    assert t.tolist()[1][1] == -5
    t.fill_(3)
    assert (a == 3).all()


@pytest.mark.parametrize("np_dtype", [np.bool_, np.uint8, np.int8, np.int16, np.int32, np.int64,
                                      np.float16, np.float32, np.float64, np.complex64])
def test_numpy_dtypes_round_trip(np_dtype):
    a = (np.arange(6) % 3).astype(np_dtype).reshape(3, 2)
    t = core.from_dlpack(a)
    assert t.tolist() == a.tolist()
    b = np.from_dlpack(t)
    assert b.dtype == a.dtype and np.shares_memory(a, b)


def test_non_contiguous_numpy_and_0d_and_empty():
    a = np.arange(24.0).reshape(4, 6)[::2, 1::3]
    t = core.from_dlpack(a)
    assert t.tolist() == a.tolist() and t.stride() == (12, 3)
    assert core.from_dlpack(np.array(2.5)).tolist() == 2.5
    assert core.from_dlpack(np.zeros((0, 3))).shape == core.Size([0, 3])
    assert np.from_dlpack(core.tensor(7)).tolist() == 7
    assert np.from_dlpack(core.zeros((2, 0))).shape == (2, 0)


def test_negative_strides_rejected():
    with pytest.raises(RuntimeError, match="negative strides"):
        core.from_dlpack(np.arange(4.0)[::-1])


def test_capsule_is_consumed_once():
    capsule = core.arange(3).__dlpack__()
    t = core.from_dlpack(capsule)
    assert _get_name(capsule) == b"used_dltensor"
    with pytest.raises(RuntimeError, match="consumed only once"):
        core.from_dlpack(capsule)
    assert t.tolist() == [0, 1, 2]


def test_numpy_capsule_renamed_on_consumption():
    capsule = np.arange(3.0).__dlpack__()
    t = core.from_dlpack(capsule)
    assert _get_name(capsule) == b"used_dltensor"
    assert t.tolist() == [0.0, 1.0, 2.0]


def test_producer_memory_outlives_producer():
    t = core.arange(1000.0)
    capsule = t.__dlpack__()
    del t
    gc.collect()
    back = core.from_dlpack(capsule)
    del capsule
    gc.collect()
    assert back.tolist()[-1] == 999.0


def test_consumer_keeps_numpy_alive_and_releases_it():
    a = np.arange(5.0)
    base = sys.getrefcount(a)
    t = core.from_dlpack(a)
    assert sys.getrefcount(a) > base  # numpy's manager holds the array
    del a
    gc.collect()
    assert t.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]
    b = np.arange(5.0)
    t2 = core.from_dlpack(b)
    del t2
    gc.collect()
    assert sys.getrefcount(b) == base  # our storage ran numpy's deleter


@pytest.mark.parametrize("consume", [False, True], ids=["unconsumed", "consumed"])
@pytest.mark.parametrize("max_version", [None, (1, 0)], ids=["v0", "v1"])
def test_capsule_memory_is_freed(consume, max_version):
    gc.collect()
    before = core._C._bytes_in_use()
    t = core.zeros((1 << 20,))
    holder = t.__dlpack__(max_version=max_version)
    if consume:
        holder = core.from_dlpack(holder)
    del t
    assert core._C._bytes_in_use() >= before + (4 << 20)  # the capsule / consumer keeps it
    del holder
    gc.collect()
    assert core._C._bytes_in_use() == before


def test_from_dlpack_of_a_tensor_shares_memory():
    t = core.tensor([1.0, 2.0])
    u = core.from_dlpack(t)
    u.fill_(5)
    assert t.tolist() == [5.0, 5.0]


def test_export_options():
    t = core.tensor([1.0, 2.0])
    copy = core.from_dlpack(t.__dlpack__(copy=True))
    assert copy.data_ptr() != t.data_ptr() and copy.tolist() == [1.0, 2.0]
    assert core.from_dlpack(t.__dlpack__(max_version=(1, 0), dl_device=(1, 0))).data_ptr() == t.data_ptr()
    with pytest.raises(BufferError, match="device"):
        t.__dlpack__(dl_device=(2, 0))
    with pytest.raises(ValueError, match="stream"):
        t.__dlpack__(stream=1)


def test_errors():
    with pytest.raises(TypeError, match="__dlpack__"):
        core.empty((2,), dtype=core.quint8).__dlpack__()
    with pytest.raises(TypeError, match="from_dlpack"):
        core.from_dlpack([1, 2])

    class Elsewhere:
        def __dlpack_device__(self):
            return (2, 0)  # kDLCUDA

        def __dlpack__(self, stream=None):
            raise AssertionError("must not be called")

    with pytest.raises(RuntimeError, match="only CPU"):
        core.from_dlpack(Elsewhere())


def test_bfloat16_round_trip_between_tensors():
    t = core.tensor([1.5, -2.0]).bfloat16()
    back = core.from_dlpack(t.__dlpack__())
    assert back.dtype == core.bfloat16 and back.tolist() == [1.5, -2.0]


def test_versioned_capsule_when_asked_for_dlpack_1():
    t = core.arange(6.0).reshape(2, 3)
    capsule = t.__dlpack__(max_version=(1, 0))
    assert _get_name(capsule) == b"dltensor_versioned"
    m = DLManagedTensorVersioned.from_address(_get_pointer(capsule, b"dltensor_versioned"))
    assert (m.major, m.minor, m.flags) == (1, 0, 0)
    assert (m.dl_tensor.dtype.code, m.dl_tensor.dtype.bits) == (2, 32)
    assert [m.dl_tensor.shape[i] for i in range(2)] == [2, 3]
    back = core.from_dlpack(capsule)
    assert _get_name(capsule) == b"used_dltensor_versioned"
    assert back.data_ptr() == t.data_ptr()
    copied = t.__dlpack__(max_version=(1, 0), copy=True)
    flags = DLManagedTensorVersioned.from_address(_get_pointer(copied, b"dltensor_versioned")).flags
    assert flags == 2  # IS_COPIED
    assert _get_name(t.__dlpack__(max_version=(0, 8))) == b"dltensor"


def test_numpy_versioned_capsules():
    a = np.arange(4.0)
    t = core.from_dlpack(a.__dlpack__(max_version=(1, 0)))
    a[0] = 9.0
    assert t.tolist()[0] == 9.0
    frozen = np.arange(3.0)
    frozen.flags.writeable = False
    with pytest.warns(UserWarning, match="read-only"):
        core.from_dlpack(frozen.__dlpack__(max_version=(1, 0)))


def test_legacy_producer_without_max_version():
    class Legacy:
        def __init__(self):
            self.array = np.arange(3, dtype=np.int16)

        def __dlpack_device__(self):
            return (1, 0)

        def __dlpack__(self, stream=None):
            return self.array.__dlpack__()

    assert core.from_dlpack(Legacy()).tolist() == [0, 1, 2]


def test_tensor_bytes_buffer_shares_memory_and_keeps_it_alive():
    t = core.arange(6, dtype=core.float32)[2:]  # an offset view: the buffer starts at its first element
    view = memoryview(core._C._TensorBytes(t))
    assert (view.nbytes, view.format, view.readonly) == (16, "B", False)
    array = np.frombuffer(view, dtype=np.float32)
    array[0] = 7.0
    assert t.tolist() == [7.0, 3.0, 4.0, 5.0]
    del t
    gc.collect()
    assert array.tolist() == [7.0, 3.0, 4.0, 5.0]  # the holder kept the storage
    assert memoryview(core._C._TensorBytes(core.empty(0))).nbytes == 0
    with pytest.raises(RuntimeError, match="contiguous"):
        core._C._TensorBytes(core.zeros(2, 3).t())
    with pytest.raises(TypeError, match="expected a Tensor"):
        core._C._TensorBytes(np.zeros(3))
