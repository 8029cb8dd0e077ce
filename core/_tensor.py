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
    # __getitem__ and __setitem__ are C slots of _C._TensorBase (core/bindings/py_indexing.cpp).
    def __iter__(self):
        if self.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0))

    @property
    def T(self):
        """This tensor with its dims reversed (a view)."""
        return self.permute(builtins.tuple(builtins.range(self.ndim - 1, -1, -1)))

    def split(self, split_size, dim=0):
        """Pieces of `split_size` along `dim` (the last may be smaller), or of the listed sizes."""
        if isinstance(split_size, (builtins.list, builtins.tuple)):
            return _C._methods["split_with_sizes"](self, split_size, dim)
        return _C._methods["split"](self, split_size, dim)

    def where(self, condition, y):
        """`self` where `condition` holds, else `y` (core.where(condition, self, y))."""
        return _C._functions["where"](condition, self, y)

    # ---- matmul operators (@)

    # ---- Python operators, all through the op table
    def __add__(self, other):
        return _C._functions["add"](self, other)

    def __radd__(self, other):
        return _C._functions["add"](other, self)

    def __iadd__(self, other):
        return self.add_(other)

    def __sub__(self, other):
        return _C._functions["sub"](self, other)

    def __rsub__(self, other):
        return _C._functions["sub"](other, self)

    def __isub__(self, other):
        return self.sub_(other)

    def __mul__(self, other):
        return _C._functions["mul"](self, other)

    def __rmul__(self, other):
        return _C._functions["mul"](other, self)

    def __imul__(self, other):
        return self.mul_(other)

    def __truediv__(self, other):
        return _C._functions["div"](self, other)

    def __rtruediv__(self, other):
        return _C._functions["div"](other, self)

    def __itruediv__(self, other):
        return self.div_(other)


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
