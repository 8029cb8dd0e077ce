"""Numeric limits of dtypes (core.finfo, core.iinfo) and core.is_tensor."""
from core._native import _C


def is_tensor(obj):
    """Whether obj is a tensor (any subclass of core.Tensor)."""
    return isinstance(obj, _C._TensorBase)


# bits, eps, max, tiny (smallest normal), resolution: IEEE formats plus bfloat16
# (8 exponent bits like float32, 8 significand bits).
_FLOAT_LIMITS = {
    "float16": (16, 2.0 ** -10, 65504.0, 2.0 ** -14, 1e-3),
    "bfloat16": (16, 2.0 ** -7, (2 - 2.0 ** -7) * 2.0 ** 127, 2.0 ** -126, 1e-2),
    "float32": (32, 2.0 ** -23, (2 - 2.0 ** -23) * 2.0 ** 127, 2.0 ** -126, 1e-6),
    "float64": (64, 2.0 ** -52, (2 - 2.0 ** -52) * 2.0 ** 1023, 2.0 ** -1022, 1e-15),
}
_COMPLEX_PARTS = {"complex64": "float32", "complex128": "float64"}

# bits, min, max of integer types; quantized types report their storage type's range.
_INT_LIMITS = {
    "uint8": (8, 0, 255), "int8": (8, -128, 127), "int16": (16, -2 ** 15, 2 ** 15 - 1),
    "int32": (32, -2 ** 31, 2 ** 31 - 1), "int64": (64, -2 ** 63, 2 ** 63 - 1),
    "quint8": (8, 0, 255), "qint8": (8, -128, 127), "qint32": (32, -2 ** 31, 2 ** 31 - 1),
}


def _dtype_name(dtype, fn):
    if not isinstance(dtype, _C.dtype):
        raise TypeError(f"{fn}(): expected a core.dtype, got {type(dtype).__name__}")
    return repr(dtype).split(".", 1)[1]


class finfo:  # noqa: N801 - mirrors torch.finfo
    """Limits of a floating (or complex: of its parts) dtype: bits, eps, max, min, tiny,
    smallest_normal, resolution, and dtype (a name such as 'float32')."""

    def __init__(self, type=None):  # noqa: A002 - PyTorch's parameter name
        name = _dtype_name(_C.get_default_dtype() if type is None else type, "finfo")
        name = _COMPLEX_PARTS.get(name, name)
        if name not in _FLOAT_LIMITS:
            raise TypeError(f"finfo(): requires a floating point input type, got core.{name}; "
                            "use core.iinfo for integer types")
        self.bits, self.eps, self.max, self.tiny, self.resolution = _FLOAT_LIMITS[name]
        self.min = -self.max
        self.smallest_normal = self.tiny
        self.dtype = name

    def __eq__(self, other):
        return isinstance(other, finfo) and self.dtype == other.dtype

    def __hash__(self):
        return hash(("finfo", self.dtype))

    def __repr__(self):
        return (f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, "
                f"eps={self.eps:g}, smallest_normal={self.smallest_normal:g}, tiny={self.tiny:g}, "
                f"dtype={self.dtype})")


class iinfo:  # noqa: N801 - mirrors torch.iinfo
    """Limits of an integer dtype: bits, min, max, and dtype (a name such as 'int64')."""

    def __init__(self, type):  # noqa: A002 - PyTorch's parameter name
        name = _dtype_name(type, "iinfo")
        if name == "bool":
            raise TypeError("core.bool is not supported by core.iinfo")
        if name not in _INT_LIMITS:
            raise TypeError(f"iinfo(): requires an integer input type, got core.{name}; "
                            "use core.finfo for floating point types")
        self.bits, self.min, self.max = _INT_LIMITS[name]
        self.dtype = name

    def __eq__(self, other):
        return isinstance(other, iinfo) and self.dtype == other.dtype

    def __hash__(self):
        return hash(("iinfo", self.dtype))

    def __repr__(self):
        return f"iinfo(min={self.min:g}, max={self.max:g}, dtype={self.dtype})"
