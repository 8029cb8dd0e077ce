"""core.Tensor: the Python face of the C++ tensor (operators, conversions, printing)."""
import builtins

from core._native import _C
from core._size import Size


class Tensor(_C._TensorBase):
    """A multi-dimensional array with PyTorch's semantics."""

    # ---- shape
    @property
    def shape(self):
        return Size(self._sizes)

    def size(self, dim=None):
        if dim is None:
            return Size(self._sizes)
        sizes = self._sizes
        if not -len(sizes) <= dim < builtins.max(len(sizes), 1):
            raise IndexError(f"size(): dimension out of range (expected to be in range of "
                             f"[{-len(sizes)}, {len(sizes) - 1}], but got {dim})")
        return sizes[dim]

    def stride(self, dim=None):
        if dim is None:
            return self._strides
        strides = self._strides
        if not -len(strides) <= dim < builtins.max(len(strides), 1):
            raise IndexError(f"stride(): dimension out of range (expected to be in range of "
                             f"[{-len(strides)}, {len(strides) - 1}], but got {dim})")
        return strides[dim]

    @property
    def device(self):
        return "cpu"

    @property
    def is_quantized(self):
        return self.dtype.is_quantized

    def is_floating_point(self):
        return self.dtype.is_floating_point

    def is_complex(self):
        return self.dtype.is_complex

    # ---- conversion
    def numpy(self):
        """A numpy array sharing this tensor's memory."""
        return _C._to_numpy(self)

    def __array__(self, dtype=None, copy=None):
        array = self.numpy()
        return array if dtype is None else array.astype(dtype, copy=False)

    def tolist(self):
        if self.dtype == _C.bfloat16:
            return self.to(_C.float32).numpy().tolist()
        return self.numpy().tolist()

    def __len__(self):
        if self.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._sizes[0]

    def __bool__(self):
        if self.numel() != 1:
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return builtins.bool(self.item())

    def __float__(self):
        if self.numel() != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return builtins.float(self.item())

    def __int__(self):
        if self.numel() != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return builtins.int(self.item())

    def __complex__(self):
        return builtins.complex(self.item())

    def __index__(self):
        if self.numel() != 1 or self.dtype.is_floating_point or self.dtype.is_complex:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return builtins.int(self.item())

    __hash__ = object.__hash__  # identity, as in PyTorch

    def __repr__(self):
        from core._tensor_str import tensor_repr

        return tensor_repr(self)

    __str__ = __repr__

    def __format__(self, spec):
        if self.ndim == 0:
            return self.item().__format__(spec)
        return object.__format__(self, spec)

    def __reduce_ex__(self, protocol):
        # Pickled as dtype + numpy payload; storage sharing across pickles is save()'s job.
        from core._creation import tensor

        if self.dtype in (_C.bfloat16,):
            return (_rebuild_converted, (self.to(_C.float32).numpy(), self.dtype))
        return (tensor, (self.numpy().copy(), self.dtype))

    # ---- indexing (__getitem__ / __setitem__)

    # ---- matmul operators (@)

    # ---- Python operators, all through the op table
    # Each calls an op callable directly (core/_elementwise.py); operands that are neither
    # tensors nor numbers give NotImplemented, so `t == None` is False and `t + "a"` raises
    # Python's usual TypeError. Numpy defers to these, as it does to PyTorch's tensors.
    from core._elementwise import forward as _fw, reflected as _rf, inplace as _ip
    __array_priority__ = 1000
    __add__, __radd__, __iadd__ = _fw("add"), _rf("add"), _ip("add_")
    __sub__, __rsub__, __isub__ = _fw("sub"), _rf("sub"), _ip("sub_")
    __mul__, __rmul__, __imul__ = _fw("mul"), _rf("mul"), _ip("mul_")
    __truediv__, __rtruediv__, __itruediv__ = _fw("div"), _rf("div"), _ip("div_")
    __floordiv__, __rfloordiv__, __ifloordiv__ = _fw("floor_divide"), _rf("floor_divide"), _ip("floor_divide_")
    __mod__, __rmod__, __imod__ = _fw("remainder"), _rf("remainder"), _ip("remainder_")
    __pow__, __rpow__, __ipow__ = _fw("pow"), _rf("pow"), _ip("pow_")
    __and__, __rand__, __iand__ = _fw("bitwise_and"), _rf("bitwise_and"), _ip("bitwise_and_")
    __or__, __ror__, __ior__ = _fw("bitwise_or"), _rf("bitwise_or"), _ip("bitwise_or_")
    __xor__, __rxor__, __ixor__ = _fw("bitwise_xor"), _rf("bitwise_xor"), _ip("bitwise_xor_")
    __lshift__, __rlshift__, __ilshift__ = (
        _fw("bitwise_left_shift"), _rf("bitwise_left_shift"), _ip("bitwise_left_shift_"))
    __rshift__, __rrshift__, __irshift__ = (
        _fw("bitwise_right_shift"), _rf("bitwise_right_shift"), _ip("bitwise_right_shift_"))
    __eq__, __ne__ = _fw("eq"), _fw("ne")
    __lt__, __le__, __gt__, __ge__ = _fw("lt"), _fw("le"), _fw("gt"), _fw("ge")
    del _fw, _rf, _ip
    __neg__ = _C._functions["neg"]
    __pos__ = _C._functions["positive"]
    __abs__ = _C._functions["abs"]

    def __invert__(self):
        if self.dtype.is_floating_point or self.dtype.is_complex:
            raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type tensors")
        return _C._functions["bitwise_not"](self)


def _rebuild_converted(array, dtype):
    from core._creation import tensor

    return tensor(array).to(dtype)


def _install_methods():
    # Every method-variant op of the C++ op table becomes a Tensor method, unless the
    # class defines a Python method of that name.
    for name, fn in _C._methods.items():
        if name not in Tensor.__dict__:
            setattr(Tensor, name, fn)


_install_methods()
_C._set_tensor_class(Tensor)
