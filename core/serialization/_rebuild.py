"""What the globals in a checkpoint stand for: torch's rebuild functions, dtypes, storage
types and the few builtins a state dict needs, each implemented here with strict argument
checks. Both unpicklers resolve names through `TORCH_GLOBALS`; the safe one also allows
`SAFE_BUILTINS` and nothing else.
"""
import collections

from core._named import NAMES_STATE_KEY
from core._native import _C
from core._size import Size
from core._tensor import Tensor
from core.serialization._errors import corrupt, refuse
from core.serialization._storage import STORAGE_DTYPES, Storage, StorageType


def _int(value, what):
    if type(value) is not int:
        raise refuse(f"{what} must be an int, got {type(value).__name__}")
    return value


def _int_tuple(value, what):
    if type(value) not in (tuple, list, Size):
        raise refuse(f"{what} must be a tuple of ints, got {type(value).__name__}")
    return tuple(_int(v, what) for v in value)


def _plain_dict(value, what):
    if type(value) not in (dict, collections.OrderedDict):
        raise refuse(f"{what} must be a dict, got {type(value).__name__}")
    return value


def _view(storage, storage_offset, size, stride, fn):
    """The tensor (storage, offset, size, stride), refused unless every element it can reach
    lies inside the storage's real bytes."""
    if not isinstance(storage, Storage):
        raise refuse(f"{fn}: expected a storage, got {type(storage).__name__}")
    offset = _int(storage_offset, f"{fn}: storage_offset")
    size = _int_tuple(size, f"{fn}: size")
    stride = _int_tuple(stride, f"{fn}: stride")
    if len(size) != len(stride):
        raise corrupt(f"{fn}: size {size} and stride {stride} have different lengths")
    if offset < 0 or any(s < 0 for s in size) or any(s < 0 for s in stride):
        raise corrupt(f"{fn}: negative offset, size or stride (offset {offset}, size {size}, "
                      f"stride {stride})")
    if 0 in size:
        last = offset - 1  # an empty view reaches nothing, but may start at the very end
    else:
        last = offset + sum((n - 1) * s for n, s in zip(size, stride))  # Python ints: no overflow
    if last >= storage.numel:
        raise corrupt(f"{fn}: a tensor of size {list(size)}, stride {list(stride)} and offset "
                      f"{offset} reaches element {last}, but its storage holds only "
                      f"{storage.numel} elements")
    return storage.tensor.as_strided(size, stride, storage.offset + offset)


def _set_requires_grad(tensor, requires_grad, fn):
    if type(requires_grad) is not bool:
        raise refuse(f"{fn}: requires_grad must be a bool, got {type(requires_grad).__name__}")
    if requires_grad:
        tensor.requires_grad_(True)
    return tensor


def _check_hooks(backward_hooks, fn):
    # Hooks are never restored (torch keeps them only for old files); they must be a dict.
    if backward_hooks is not None:
        _plain_dict(backward_hooks, f"{fn}: backward_hooks")


def _check_metadata(metadata, fn):
    if metadata:
        _plain_dict(metadata, f"{fn}: metadata")
        unknown = [k for k, v in metadata.items() if v]
        if unknown:
            raise corrupt(f"{fn}: tensor metadata {unknown} is not supported")


def rebuild_tensor(storage, storage_offset, size, stride):
    return _view(storage, storage_offset, size, stride, "_rebuild_tensor")


def rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad, backward_hooks,
                      metadata=None):
    fn = "_rebuild_tensor_v2"
    tensor = _view(storage, storage_offset, size, stride, fn)
    _check_hooks(backward_hooks, fn)
    _check_metadata(metadata, fn)
    return _set_requires_grad(tensor, requires_grad, fn)


def rebuild_tensor_v3(storage, storage_offset, size, stride, requires_grad, backward_hooks,
                      dtype, metadata=None):
    fn = "_rebuild_tensor_v3"
    if not isinstance(storage, Storage) or not isinstance(dtype, _C.dtype):
        raise refuse(f"{fn}: expected (storage, ..., dtype)")
    if storage.dtype != dtype:
        storage = _retyped(storage, dtype)
    return rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad,
                             backward_hooks, metadata)


def _retyped(storage, dtype):
    # An untyped (byte) storage read as `dtype`: the same bytes, reinterpreted.
    from core.serialization._storage import finish, numpy_dtype

    if storage.dtype != _C.uint8 or storage.offset:
        raise corrupt(f"cannot view a {storage.dtype} storage as {dtype}")
    item = dtype.itemsize
    if storage.numel % item:
        raise corrupt(f"an untyped storage of {storage.numel} bytes is not a whole number of "
                      f"{dtype} elements")
    cache = storage.__dict__.setdefault("_typed", {})
    if dtype not in cache:
        raw = storage.raw.view(numpy_dtype(dtype))
        cache[dtype] = finish(dtype, raw) if dtype == _C.bfloat16 else Storage(dtype, raw, _C.from_numpy(raw))
    return cache[dtype]


def _parameter(data, requires_grad, fn):
    from core.nn import parameter

    if not isinstance(data, _C._TensorBase):
        raise refuse(f"{fn}: data must be a tensor, got {type(data).__name__}")
    if type(requires_grad) is not bool:
        raise refuse(f"{fn}: requires_grad must be a bool")
    return parameter.Parameter(data, requires_grad)


def rebuild_parameter(data, requires_grad, backward_hooks):
    _check_hooks(backward_hooks, "_rebuild_parameter")
    return _parameter(data, requires_grad, "_rebuild_parameter")


def rebuild_parameter_with_state(data, requires_grad, backward_hooks, state):
    _check_hooks(backward_hooks, "_rebuild_parameter_with_state")
    return set_state(_parameter(data, requires_grad, "_rebuild_parameter_with_state"), state)


def set_state(obj, state):
    """Python attributes saved with a tensor or an OrderedDict: plain names into __dict__ only
    (never setattr, so no property or descriptor of the class runs)."""
    if type(state) is tuple and len(state) == 2:
        state, slots = state
        if slots:
            raise refuse("slot state is not supported")
    if not state:
        return obj
    for key in _plain_dict(state, "object state"):
        if type(key) is not str or key.startswith("__") or hasattr(type(obj), key):
            raise refuse(f"refusing to set attribute {key!r} on {type(obj).__name__}")
    obj.__dict__.update(state)
    return obj


def rebuild_from_type_v2(func, new_type, args, state):
    if not any(func is f for f in (rebuild_tensor_v2, rebuild_tensor_v3, rebuild_tensor,
                                   rebuild_parameter, rebuild_qtensor)):
        raise refuse(f"_rebuild_from_type_v2: unsupported rebuild function {func!r}")
    if type(args) is not tuple:
        raise refuse("_rebuild_from_type_v2: args must be a tuple")
    tensor = func(*args)
    if new_type is not Tensor and new_type is not type(tensor):
        if not (isinstance(new_type, type) and issubclass(new_type, _C._TensorBase)):
            raise refuse(f"_rebuild_from_type_v2: {new_type!r} is not a tensor class")
        tensor = _C._make_subclass(new_type, tensor)
    if type(state) is dict and NAMES_STATE_KEY in state:
        state = dict(state)
        names = state.pop(NAMES_STATE_KEY)
        if type(names) is not tuple or not all(n is None or type(n) is str for n in names):
            raise corrupt(f"_rebuild_from_type_v2: {NAMES_STATE_KEY} must be a tuple of str or None")
        _C._set_names(tensor, list(names))
    return set_state(tensor, state)


def rebuild_qtensor(storage, storage_offset, size, stride, quantizer_params, requires_grad,
                    backward_hooks):
    import core

    fn = "_rebuild_qtensor"
    if not isinstance(storage, Storage) or not storage.dtype.is_quantized:
        raise refuse(f"{fn}: expected a quantized storage")
    if type(quantizer_params) is not tuple or not quantizer_params:
        raise refuse(f"{fn}: malformed quantizer parameters")
    _check_hooks(backward_hooks, fn)
    scheme = quantizer_params[0]
    # The integers the tensor holds, as their storage type.
    ints = _view(storage, storage_offset, size, stride, fn)
    if scheme == "per_tensor_affine" and len(quantizer_params) == 3:
        scale, zero_point = quantizer_params[1], quantizer_params[2]
        if type(scale) is not float or type(zero_point) is not int:
            raise refuse(f"{fn}: scale must be a float and zero_point an int")
        tensor = core._make_per_tensor_quantized_tensor(ints, scale, zero_point)
    elif scheme in ("per_channel_affine", "per_channel_affine_float_qparams") and len(quantizer_params) == 4:
        scales, zero_points, axis = quantizer_params[1:]
        if isinstance(scales, list) and isinstance(zero_points, list):  # older files: plain lists
            floats = scheme == "per_channel_affine_float_qparams"
            scales = core.tensor(scales, dtype=core.float32 if floats else core.float64)
            zero_points = core.tensor(zero_points, dtype=core.float32 if floats else core.int64)
        if not isinstance(scales, Tensor) or not isinstance(zero_points, Tensor):
            raise refuse(f"{fn}: per-channel scales and zero points must be tensors")
        axis = _int(axis, f"{fn}: axis")
        if not 0 <= axis < len(ints.shape):
            raise corrupt(f"{fn}: per-channel axis {axis} out of range for size {tuple(ints.shape)}")
        tensor = core._make_per_channel_quantized_tensor(ints, scales, zero_points, axis)
    else:
        raise corrupt(f"{fn}: quantization scheme {scheme!r} with {len(quantizer_params) - 1} "
                      "parameters is not supported")
    return _set_requires_grad(tensor, requires_grad, fn)


def get_layout(name):
    if name != "torch.strided":
        raise corrupt(f"tensor layout {name!r} is not supported (only torch.strided)")
    return "torch.strided"


def device(kind, index=None):
    """torch.device inside a checkpoint: kept as its string, e.g. 'cpu' or 'cuda:0'."""
    if type(kind) is not str or (index is not None and type(index) is not int):
        raise refuse("torch.device expects (str[, int])")
    return kind if index is None else f"{kind}:{index}"


def make_size(sizes=()):
    return Size(_int_tuple(sizes, "torch.Size"))


def _unsupported(what):
    def fail(*args):
        raise corrupt(f"{what} are not supported by tensorzoo")
    fail.__name__ = what
    return fail


# ---- safe stand-ins for the builtins a weights-only file may name

def _ordered_dict(items=()):
    if type(items) not in (list, tuple) or any(type(p) is not tuple or len(p) != 2 for p in items):
        raise refuse("collections.OrderedDict expects a list of (key, value) pairs")
    return collections.OrderedDict(items)


def _counter(mapping=None):
    return collections.Counter(_plain_dict(mapping, "collections.Counter") if mapping is not None else ())


def _container(kind):
    def build(items=()):
        if type(items) not in (list, tuple, set, frozenset):
            raise refuse(f"builtins.{kind.__name__} expects a list or tuple")
        return kind(items)
    return build


def _bytearray(data=b"", encoding=None):
    if type(data) is str and type(encoding) is str and encoding in ("latin-1", "latin1"):
        return bytearray(data, "latin-1")
    if type(data) is bytes and encoding is None:
        return bytearray(data)
    raise refuse("builtins.bytearray expects bytes or (str, 'latin-1')")


def _complex(real=0.0, imag=0.0):
    if type(real) not in (int, float) or type(imag) not in (int, float):
        raise refuse("builtins.complex expects two numbers")
    return complex(real, imag)


def _codecs_encode(text, encoding="utf-8"):
    # Protocol 2 writes bytes as _codecs.encode(str, 'latin1').
    if type(text) is not str or type(encoding) is not str or encoding not in ("latin1", "latin-1"):
        raise refuse("_codecs.encode is only allowed as (str, 'latin1')")
    return text.encode("latin-1")


def _torch_globals():
    table = {
        "torch._utils._rebuild_tensor": rebuild_tensor,
        "torch._utils._rebuild_tensor_v2": rebuild_tensor_v2,
        "torch._utils._rebuild_tensor_v3": rebuild_tensor_v3,
        "torch._utils._rebuild_parameter": rebuild_parameter,
        "torch._utils._rebuild_parameter_with_state": rebuild_parameter_with_state,
        "torch._utils._rebuild_qtensor": rebuild_qtensor,
        "torch._tensor._rebuild_from_type_v2": rebuild_from_type_v2,
        "torch._utils._rebuild_sparse_tensor": _unsupported("sparse tensors"),
        "torch._utils._rebuild_nested_tensor": _unsupported("nested tensors"),
        "torch._utils._rebuild_meta_tensor_no_storage": _unsupported("meta tensors"),
        "torch._utils._rebuild_wrapper_subclass": _unsupported("tensor wrapper subclasses"),
        "torch._utils._rebuild_device_tensor_from_numpy": _unsupported("numpy-backed device tensors"),
        "torch._utils._rebuild_device_tensor_from_cpu_tensor": _unsupported("device tensors"),
        "torch.serialization._get_layout": get_layout,
        "torch.Size": make_size,
        "torch.device": device,
        "torch.Tensor": Tensor,
    }
    for name in STORAGE_DTYPES:
        table[f"torch.{name}"] = StorageType(name)
        table[f"torch.storage.{name}" if name == "UntypedStorage" else f"torch.cuda.{name}"] = StorageType(name)
    for name in ("bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16",
                 "float32", "float64", "complex64", "complex128", "quint8", "qint8", "qint32"):
        table[f"torch.{name}"] = getattr(_C, name)
    for scheme in ("per_tensor_affine", "per_tensor_symmetric", "per_channel_affine",
                   "per_channel_symmetric", "per_channel_affine_float_qparams"):
        table[f"torch.{scheme}"] = scheme
    return table


TORCH_GLOBALS = _torch_globals()

SAFE_BUILTINS = {
    "collections.OrderedDict": _ordered_dict,
    "collections.Counter": _counter,
    "builtins.set": _container(set),
    "builtins.frozenset": _container(frozenset),
    "builtins.bytearray": _bytearray,
    "builtins.complex": _complex,
    "_codecs.encode": _codecs_encode,
}

# Globals that name a class rather than a callable the safe loader may call.
PARAMETER_CLASS = "torch.nn.parameter.Parameter"
