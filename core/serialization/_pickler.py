"""The save side: a pickler that writes tensors the way torch.save does.

A tensor becomes torch._utils._rebuild_tensor_v2(storage, offset, size, stride,
requires_grad, OrderedDict()) and its storage a persistent id ('storage', torch.<T>Storage,
key, 'cpu', numel); a Parameter becomes _rebuild_parameter(data, requires_grad, hooks);
dtypes and core.Size become torch.float32 / torch.Size. Those torch names are written as
GLOBAL opcodes directly (Python's pickler would try to import them), which is why this is
the pure-Python pickle._Pickler: its dispatch table can be extended.
"""
import collections
import pickle

from core._named import NAMES_STATE_KEY
from core._native import _C
from core._size import Size
from core._tensor import Tensor
from core.serialization._storage import STORAGE_NAME_OF, Storage, storage_bytes


class TorchName:
    """A stand-in that pickles as the global `module.name` of torch."""

    def __init__(self, module, name):
        self.module, self.name = module, name

    def __call__(self, *args):  # pickle's save_reduce insists on a callable
        raise TypeError(f"{self.module}.{self.name} is a placeholder for torch's function")

    def __reduce__(self):
        raise pickle.PicklingError("TorchName is only picklable by the checkpoint pickler")


REBUILD_TENSOR_V2 = TorchName("torch._utils", "_rebuild_tensor_v2")
REBUILD_PARAMETER = TorchName("torch._utils", "_rebuild_parameter")
REBUILD_FROM_TYPE_V2 = TorchName("torch._tensor", "_rebuild_from_type_v2")
REBUILD_QTENSOR = TorchName("torch._utils", "_rebuild_qtensor")
PER_TENSOR_AFFINE = TorchName("torch", "per_tensor_affine")
PER_CHANNEL_AFFINE = TorchName("torch", "per_channel_affine")
TORCH_TENSOR = TorchName("torch", "Tensor")
TORCH_SIZE = TorchName("torch", "Size")
_STORAGE_TYPES = {dtype: TorchName("torch", name) for dtype, name in STORAGE_NAME_OF.items()}
_DTYPES = {getattr(_C, n): TorchName("torch", n) for n in (
    "bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32",
    "float64", "complex64", "complex128", "quint8", "qint8", "qint32")}


class SavedStorage:
    """One storage to write: its key, the tensor that keeps it alive, dtype and size."""

    __slots__ = ("key", "tensor", "dtype", "numel", "nbytes")

    def __init__(self, key, tensor):
        self.key, self.tensor, self.dtype = key, tensor, tensor.dtype
        self.nbytes = tensor._storage_nbytes()
        self.numel = self.nbytes // self.dtype.itemsize


class StorageTable:
    """Storages in first-seen order, shared when tensors share memory (torch's rule:
    one storage may not be saved as two different dtypes)."""

    def __init__(self):
        self.storages = []
        self._by_memory = {}

    def of(self, tensor):
        ptr, nbytes = tensor._storage_ptr(), tensor._storage_nbytes()
        memory = (ptr, nbytes) if ptr else None
        saved = self._by_memory.get(memory) if memory else None
        if saved is None:
            saved = SavedStorage(str(len(self.storages)), tensor)
            self.storages.append(saved)
            if memory:
                self._by_memory[memory] = saved
        elif saved.dtype != tensor.dtype:
            raise RuntimeError("save(): Cannot save multiple tensors or storages that view the "
                               "same data as different types")
        return saved

    def payloads(self):
        """(key, flat little-endian bytes) per storage, in key order."""
        for saved in self.storages:
            array, _ = storage_bytes(saved.tensor)
            yield saved.key, array


def _parameter_class():
    from core.nn import parameter

    return parameter.Parameter


class CheckpointPickler(pickle._Pickler):
    dispatch = pickle._Pickler.dispatch.copy()

    def __init__(self, file, protocol, storages, legacy=False):
        super().__init__(file, protocol)
        self.storages = storages
        self.legacy = legacy
        self.parameter_class = _parameter_class()

    def persistent_id(self, obj):
        if type(obj) is SavedStorage:
            pid = ("storage", _STORAGE_TYPES[obj.dtype], obj.key, "cpu", obj.numel)
            return pid + (None,) if self.legacy else pid
        if type(obj) is Storage:  # a storage returned by core.load
            view = obj.tensor.as_strided((obj.numel,), (1,), obj.offset)
            return self.persistent_id(self.storages.of(view))
        return None

    def reducer_override(self, obj):
        if isinstance(obj, _C._TensorBase):
            return self._reduce_tensor(obj)
        if type(obj) is Size:
            return (TORCH_SIZE, (tuple(obj),))
        return NotImplemented

    def _reduce_tensor(self, t):
        if t.dtype.is_quantized:
            return self._reduce_qtensor(t)
        requires_grad = bool(getattr(t, "requires_grad", False))
        if self.parameter_class is not None and isinstance(t, self.parameter_class):
            return (REBUILD_PARAMETER, (t.detach(), requires_grad, collections.OrderedDict()))
        args = (self.storages.of(t), t.storage_offset(), tuple(t._sizes), tuple(t._strides),
                requires_grad, collections.OrderedDict())
        state = dict(t.__dict__) if getattr(t, "__dict__", None) else None
        if _C._has_names(t):  # PyTorch sets it as a plain attribute and otherwise ignores it
            state = dict(state or {}, **{NAMES_STATE_KEY: t.names})
        if type(t) is Tensor and not state:
            return (REBUILD_TENSOR_V2, args)
        new_type = TORCH_TENSOR if type(t) is Tensor else type(t)
        return (REBUILD_FROM_TYPE_V2, (REBUILD_TENSOR_V2, new_type, args, state or {}))

    def _reduce_qtensor(self, t):
        # torch's layout: the integers' storage, and (scheme, scale, zero_point) or
        # (per_channel_affine, scales, zero_points, axis); float-qparams tensors are written
        # as per_channel_affine too, told apart by their float zero points.
        if t.qscheme().name == "per_tensor_affine":
            params = (PER_TENSOR_AFFINE, t.q_scale(), t.q_zero_point())
        else:
            params = (PER_CHANNEL_AFFINE, t.q_per_channel_scales(), t.q_per_channel_zero_points(),
                      t.q_per_channel_axis())
        args = (self.storages.of(t), t.storage_offset(), tuple(t._sizes), tuple(t._strides), params,
                bool(getattr(t, "requires_grad", False)), collections.OrderedDict())
        return (REBUILD_QTENSOR, args)

    def save_torch_name(self, obj):
        self.write(pickle.GLOBAL + f"{obj.module}\n{obj.name}\n".encode("utf-8"))
        self.memoize(obj)

    dispatch[TorchName] = save_torch_name

    def save_dtype(self, obj):
        self.save(_DTYPES[obj])

    dispatch[_C.dtype] = save_dtype
