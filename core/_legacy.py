"""PyTorch's legacy constructors: core.Tensor(data), core.FloatTensor(2, 3), core.LongTensor([1, 2]),
... A sequence of numbers is data (copied, converted to the type's dtype as PyTorch converts:
floats truncate toward zero for integer types); integers or a Size are the shape of an
uninitialized tensor; another tensor is shared (no copy) when its dtype matches."""
import builtins
import numbers

from core._native import _C


def construct(dtype, type_name, args, kwargs):
    """The tensor `core.<type_name>(*args, **kwargs)` builds."""
    from core import _creation
    from core._device import checked

    device = kwargs.pop("device", None)
    if kwargs:
        raise TypeError(f"{type_name}() got an unexpected keyword argument '{next(iter(kwargs))}'")
    checked(device, type_name)
    if not args:
        return _C._functions["empty"]((0,), dtype=dtype)
    if len(args) == 1 and not isinstance(args[0], numbers.Integral):
        data = args[0]
        if isinstance(data, _C._TensorBase):
            if data.dtype != dtype:
                raise TypeError(f"expected {_type_name(dtype)} (got {data.type()})")
            return data.detach()
        if type(data).__name__ == "Size":  # a shape, as torch.Tensor(torch.Size([2, 3]))
            return _C._functions["empty"](tuple(data), dtype=dtype)
        return _creation.tensor(data, dtype=dtype)
    if not builtins.all(isinstance(s, numbers.Integral) and not isinstance(s, builtins.bool) for s in args):
        raise TypeError(f"{type_name}() received an invalid combination of arguments - got "
                        f"({', '.join(type(a).__name__ for a in args)}), but expected one of: "
                        "(*, device), (Tensor other), (tuple of ints size, *, device), "
                        "(object data, *, device)")
    return _C._functions["empty"](tuple(builtins.int(s) for s in args), dtype=dtype)


class _LegacyType(type):
    """The metaclass of core.FloatTensor & co: calling one constructs a tensor of its dtype;
    isinstance(t, core.FloatTensor) tests t's dtype."""

    def __call__(cls, *args, **kwargs):
        return construct(cls.dtype, cls.__name__, args, kwargs)

    def __instancecheck__(cls, obj):
        return isinstance(obj, _C._TensorBase) and obj.dtype == cls.dtype

    def __repr__(cls):
        return f"<class 'core.{cls.__name__}'>"

    def __str__(cls):
        return f"core.{cls.__name__}"


def _make_types():
    dtypes = {"BoolTensor": _C.bool, "ByteTensor": _C.uint8, "CharTensor": _C.int8,
              "ShortTensor": _C.int16, "IntTensor": _C.int32, "LongTensor": _C.int64,
              "HalfTensor": _C.float16, "BFloat16Tensor": _C.bfloat16, "FloatTensor": _C.float32,
              "DoubleTensor": _C.float64}
    return {name: _LegacyType(name, (), {"dtype": dtype, "__module__": "core"})
            for name, dtype in dtypes.items()}


LEGACY_TYPES = _make_types()


def _type_name(dtype):
    return next((f"core.{name}" for name, cls in LEGACY_TYPES.items() if cls.dtype == dtype), str(dtype))
globals().update(LEGACY_TYPES)
__all__ = list(LEGACY_TYPES)
