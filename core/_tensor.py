"""core.Tensor: the Python face of the C++ tensor (operators, conversions, printing)."""
import builtins
import copy

import numpy as np

from core._indexing import split as _split
from core._named import NamedTensorMethods
from core._native import _C
from core._size import Size, _shape_of


def _dim_entry(self, values, dim, op):
    """values[dim] for Tensor.size(dim) / stride(dim), with PyTorch's errors."""
    if isinstance(dim, builtins.str):
        return values[_C._dim_of_name(self, dim)]
    if isinstance(dim, bool) or not hasattr(dim, "__index__"):
        raise TypeError(f"{op}(): argument 'dim' (position 1) must be int, not {type(dim).__name__}")
    dim = dim.__index__()
    if not values:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    if not -len(values) <= dim < len(values):
        raise IndexError(f"{op}(): dimension out of range (expected to be in range of "
                         f"[{-len(values)}, {len(values) - 1}], but got {dim})")
    return values[dim]


class Tensor(NamedTensorMethods, _C._TensorBase):
    """A multi-dimensional array with PyTorch's semantics."""

    # ---- shape
    @property
    def shape(self):
        return _shape_of(self._sizes)

    def size(self, dim=None):
        if dim is None:
            return _shape_of(self._sizes)
        return _dim_entry(self, self._sizes, dim, "size")

    def stride(self, dim=None):
        if dim is None:
            return self._strides
        return _dim_entry(self, self._strides, dim, "stride")

    # ---- device: tensors live on the CPU (core/_device.py)
    def __new__(cls, *args, **kwargs):
        """core.Tensor(data) / core.Tensor(2, 3): PyTorch's legacy constructor (default dtype)."""
        from core._legacy import construct

        t = construct(_C.get_default_dtype(), "Tensor", args, kwargs)
        return t if cls is Tensor else _C._make_subclass(cls, t)

    @property
    def device(self):
        from core._device import CPU

        return CPU

    is_cpu = True
    is_cuda = is_xpu = is_mps = is_meta = is_sparse = is_mkldnn = False

    def get_device(self):
        return -1  # PyTorch's answer for a CPU tensor

    def cuda(self, device=None, non_blocking=False, memory_format=None):
        from core._device import checked

        checked("cuda" if device is None else device, "cuda")
        return self  # only reached for device="cpu"

    def pin_memory(self, device=None):
        from core._device import check_pin_memory

        check_pin_memory(True)

    def is_pinned(self, device=None):
        return False

    # ---- new_* factories: same dtype (and device) as self unless given
    def new_tensor(self, data, dtype=None, device=None, requires_grad=False):
        from core._creation import tensor

        if isinstance(data, _C._TensorBase):
            data = data.detach()
        return tensor(data, dtype=dtype or self.dtype, device=device, requires_grad=requires_grad)

    def new_empty(self, *size, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False):
        return _C._functions["empty"](_size_arg(size), dtype=dtype or self.dtype, device=device,
                                      requires_grad=requires_grad, layout=layout, pin_memory=pin_memory)

    def new_zeros(self, *size, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False):
        return _C._functions["zeros"](_size_arg(size), dtype=dtype or self.dtype, device=device,
                                      requires_grad=requires_grad, layout=layout, pin_memory=pin_memory)

    def new_ones(self, *size, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False):
        return _C._functions["ones"](_size_arg(size), dtype=dtype or self.dtype, device=device,
                                     requires_grad=requires_grad, layout=layout, pin_memory=pin_memory)

    def new_full(self, size, fill_value, *, dtype=None, device=None, requires_grad=False, layout=None,
                 pin_memory=False):
        return _C._functions["full"](_size_arg((size,)), fill_value, dtype=dtype or self.dtype, device=device,
                                     requires_grad=requires_grad, layout=layout, pin_memory=pin_memory)

    def type(self, dtype=None, non_blocking=False, **kwargs):
        """The type name ("core.FloatTensor"), or a copy converted to `dtype` (a dtype, a type
        name, or a legacy type such as core.LongTensor)."""
        if dtype is None:
            return _C._methods["type"](self)
        if isinstance(dtype, builtins.type):  # core.LongTensor & co.
            dtype = dtype.dtype
        return _C._methods["type"](self, dtype, non_blocking)

    @property
    def is_quantized(self):
        return self.dtype.is_quantized

    def qscheme(self):
        """The quantization scheme of a quantized tensor (core.per_tensor_affine, ...)."""
        from core._qscheme import _by_name

        return _by_name(_C._internal["_qscheme_name"](self))

    def is_floating_point(self):
        return self.dtype.is_floating_point

    def is_complex(self):
        return self.dtype.is_complex

    # ---- conversion
    # numpy defers binary operators and ufunc results to tensors (see __array_wrap__).
    __array_priority__ = 1000

    def numpy(self, *, force=False):
        """A numpy array sharing this tensor's memory: writes show through both ways."""
        if self.dtype in _NO_NUMPY_TYPE:
            raise TypeError(f"numpy(): Got unsupported ScalarType {_NO_NUMPY_TYPE[self.dtype]}")
        if not force and getattr(self, "requires_grad", False):
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. "
                               "Use tensor.detach().numpy() instead.")
        return _C._to_numpy(self)

    def __array__(self, dtype=None, copy=None):
        array = self.numpy()
        if dtype is not None and np.dtype(dtype) != array.dtype:
            if copy is False:
                raise ValueError("__array__(): converting to another dtype needs a copy, "
                                 "but copy=False was given")
            return array.astype(dtype)
        return array.copy() if copy else array

    def __array_wrap__(self, array, context=None, return_scalar=False):
        # numpy ufuncs on tensors come back as tensors; bool results become uint8 as in PyTorch.
        if array.dtype == np.bool_:
            array = array.astype(np.uint8)
        return _C.from_numpy(np.ascontiguousarray(array))

    def tolist(self):
        """The values as (nested lists of) Python numbers; a 0-d tensor gives one number."""
        values = self.to(_C.float32) if self.dtype == _C.bfloat16 else self
        return values.numpy(force=True).tolist()

    def to(self, *args, **kwargs):
        """to(dtype), to(device[, dtype]), to(other) with non_blocking=, copy=: self when
        nothing changes (unless copy=True), else a converted copy."""
        memory_format = kwargs.pop("memory_format", None)
        if args and isinstance(args[0], (builtins.bool, builtins.int, builtins.float, builtins.complex)):
            raise TypeError(f"to() received an invalid combination of arguments - got "
                            f"({type(args[0]).__name__}, ...), but expected one of: (dtype), "
                            f"(device, dtype), (Tensor other)")
        args = tuple(_device_arg(a) for a in args)
        if "device" in kwargs:
            kwargs["device"] = _device_arg(kwargs["device"])
        result = _C._methods["to"](self, *args, **kwargs)
        if memory_format is None or memory_format is _C.preserve_format:
            return result
        return result.contiguous(memory_format=memory_format)

    def __len__(self):
        if self.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._sizes[0]

    def _single_value(self):
        if self.numel() != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return self.item()

    def _real_value(self, c_type):
        # float()/int() of a complex tensor: only a zero imaginary part converts.
        value = self._single_value()
        if isinstance(value, builtins.complex):
            if value.imag != 0:
                raise RuntimeError(f"value cannot be converted to type {c_type} without overflow")
            value = value.real
        return value

    def __bool__(self):
        n = self.numel()
        if n != 1:
            what = "no values" if n == 0 else "more than one value"
            raise RuntimeError(f"Boolean value of Tensor with {what} is ambiguous")
        return builtins.bool(self.item())

    def __float__(self):
        return builtins.float(self._real_value("double"))

    def __int__(self):
        return builtins.int(self._real_value("int64_t"))

    def __complex__(self):
        return builtins.complex(self._single_value())

    def __index__(self):
        if self.numel() != 1 or self.dtype.is_floating_point or self.dtype.is_complex:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return builtins.int(self.item())

    __hash__ = object.__hash__  # identity, as in PyTorch

    def __repr__(self, *, tensor_contents=None):
        from core._tensor_str import tensor_repr

        return tensor_repr(self, tensor_contents=tensor_contents)

    def __format__(self, spec):
        if self.ndim == 0:
            return self.item().__format__(spec)
        return object.__format__(self, spec)

    def __reduce_ex__(self, protocol):
        # dtype, shape and the C-ordered bytes: independent of numpy's pickle format.
        from core._creation import _rebuild_tensor

        if self.dtype.is_quantized:  # the integers and the quantizer (deep copies, data loaders)
            return (_rebuild_quantized, (self.int_repr(), _quantizer_params(self)))
        payload = self.to(_C.float32) if self.dtype == _C.bfloat16 else self
        data = np.ascontiguousarray(_C._to_numpy(payload)).tobytes()
        requires_grad = builtins.bool(getattr(self, "requires_grad", False))
        args = (type(self), self.dtype, self._sizes, data, requires_grad) + ((self.names,) if _C._has_names(self) else ())
        # Attributes set on the Python object (subclasses, tags) travel as pickle state.
        return (_rebuild_tensor, args, self.__dict__) if self.__dict__ else (_rebuild_tensor, args)

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        new = self.clone()
        if type(self) is not Tensor:
            new = _C._make_subclass(type(self), new)
        if getattr(self, "requires_grad", False):
            new.requires_grad_(True)
        memo[id(self)] = new
        if self.__dict__:
            new.__dict__.update(copy.deepcopy(self.__dict__, memo))
        return new

    def __dlpack__(self, stream=None, *, max_version=None, dl_device=None, copy=None):
        """A DLPack capsule over this tensor's memory (a copy if copy=True): "dltensor", or
        "dltensor_versioned" when the consumer's max_version allows DLPack 1.x."""
        if stream is not None and stream != -1:
            raise ValueError("__dlpack__(): stream must be None for CPU tensors")
        if dl_device is not None and tuple(dl_device) != (_DL_CPU, 0):
            raise BufferError(f"__dlpack__(): cannot export to device {tuple(dl_device)}; "
                              "only the CPU (1, 0) is available")
        if getattr(self, "requires_grad", False):
            raise RuntimeError("Can't export tensors that require gradient, use tensor.detach()")
        versioned = max_version is not None and max_version[0] >= 1
        return _C._to_dlpack(self.clone() if copy else self, versioned, builtins.bool(copy))

    def __dlpack_device__(self):
        return (_DL_CPU, 0)

    # ---- .data (added with core.nn)
    @property
    def data(self):
        """This tensor's values outside autograd (a detached alias sharing its memory)."""
        return _C._detach(self)

    @data.setter
    def data(self, new):
        if not isinstance(new, _C._TensorBase):
            raise TypeError(f"Tensor.data must be a Tensor, not {type(new).__name__}")
        _C._set_data(self, new)

    # ---- autograd
    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        """Accumulates the gradient of this tensor into the leaves' .grad."""
        from core.autograd import backward

        backward(self, gradient, retain_graph, create_graph, inputs=inputs)

    def requires_grad_(self, requires_grad=True):
        _C._requires_grad_(self, requires_grad)
        return self

    def detach(self):
        """A tensor sharing this one's data, outside the graph."""
        return _C._detach(self)

    def detach_(self):
        _C._detach_(self)
        return self

    def retain_grad(self):
        _C._retain_grad(self)

    def register_hook(self, hook):
        """hook(grad) -> new grad or None, run when this tensor's gradient is computed."""
        return _RemovableHandle(lambda hook_id: _C._remove_tensor_hook(self, hook_id),
                                _C._register_hook(self, hook))

    # ---- indexing (__getitem__ / __setitem__)
    # __getitem__ and __setitem__ are C slots of _C._TensorBase (core/bindings/py_indexing.cpp).
    def __iter__(self):
        if self.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0))  # views with autograd

    @property
    def real(self):
        """The real part (a view for complex tensors; the tensor itself for real ones)."""
        return _C._functions["real"](self)

    @property
    def imag(self):
        """The imaginary part of a complex tensor (a view)."""
        return _C._functions["imag"](self)

    @property
    def T(self):
        """This tensor with its dims reversed (a view)."""
        return self.permute(builtins.tuple(builtins.range(self.ndim - 1, -1, -1)))

    def split(self, split_size, dim=0):
        """Pieces of `split_size` along `dim` (the last may be smaller), or of the listed sizes."""
        return _split(self, split_size, dim)

    def where(self, condition, y):
        """`self` where `condition` holds, else `y` (core.where(condition, self, y))."""
        return _C._functions["where"](condition, self, y)

    def stft(self, *args, **kwargs):
        """core.stft(self, ...)."""
        from core._spectral import stft
        return stft(self, *args, **kwargs)

    def istft(self, *args, **kwargs):
        """core.istft(self, ...)."""
        from core._spectral import istft
        return istft(self, *args, **kwargs)

    # ---- matmul operators (@)
    # An operand matmul cannot take (a str, a list) gives NotImplemented, so Python tries the
    # other operand's __rmatmul__ and then raises its usual "unsupported operand" TypeError.
    # No __imatmul__: as in PyTorch, `a @= b` rebinds a to a new tensor.
    def __matmul__(self, other):
        try:
            return _C._functions["matmul"](self, other)
        except TypeError:
            if isinstance(other, Tensor):
                raise
            return NotImplemented

    def __rmatmul__(self, other):
        try:
            return _C._functions["matmul"](other, self)
        except TypeError:
            if isinstance(other, Tensor):
                raise
            return NotImplemented

    # ---- Python operators: + - * / // % ** & | ^ << >>, their in-place and reflected forms
    # and the comparisons are C slots of _C._TensorBase (core/bindings/py_operators.cpp).
    __neg__ = _C._functions["neg"]
    __pos__ = _C._functions["positive"]
    __abs__ = _C._functions["abs"]

    def __invert__(self):
        if self.dtype.is_floating_point or self.dtype.is_complex:
            raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type tensors")
        return _C._functions["bitwise_not"](self)


class _RemovableHandle:
    """Returned by register_hook; remove() unregisters the hook."""

    def __init__(self, remover, hook_id):
        self._remover = remover
        self.id = hook_id

    def remove(self):
        if self._remover is not None:
            self._remover(self.id)
            self._remover = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


_DL_CPU = 1  # DLPack's kDLCPU


def _quantizer_params(t):
    """(scheme name, scale(s), zero point(s)[, axis]) of a quantized tensor."""
    name = _C._internal["_qscheme_name"](t)
    if name == "per_tensor_affine":
        return (name, t.q_scale(), t.q_zero_point())
    return (name, t.q_per_channel_scales(), t.q_per_channel_zero_points(), t.q_per_channel_axis())


def _rebuild_quantized(ints, params):
    if params[0] == "per_tensor_affine":
        return _C._functions["_make_per_tensor_quantized_tensor"](ints, params[1], params[2])
    return _C._functions["_make_per_channel_quantized_tensor"](ints, params[1], params[2], params[3])

# Tensor dtypes numpy has no type for (PyTorch's names in the error message).
_NO_NUMPY_TYPE = {_C.bfloat16: "BFloat16", _C.quint8: "QUInt8", _C.qint8: "QInt8", _C.qint32: "QInt32"}


def _device_arg(arg):
    """A device (a core.device, a device string such as "cuda:0", a torch.device) as "cpu", or the
    error for a device this build cannot use; other arguments of to() as they are."""
    from core._device import checked, device

    if isinstance(arg, (builtins.str, device)):
        return builtins.str(checked(arg, "to"))
    if not isinstance(arg, (_C._TensorBase, _C.dtype, builtins.type)) and hasattr(arg, "type"):
        return builtins.str(checked(builtins.str(arg), "to"))  # device-like (a torch.device)
    return arg


def _size_arg(size):
    """new_zeros(2, 3) and new_zeros((2, 3)) alike."""
    if len(size) == 1 and isinstance(size[0], (builtins.tuple, builtins.list, Size)):
        return builtins.tuple(size[0])
    return size


def _install_methods():
    # Every method-variant op of the C++ op table becomes a Tensor method, unless the
    # class (or its named-tensor base) defines a Python method of that name.
    for name, fn in _C._methods.items():
        if name not in Tensor.__dict__ and name not in NamedTensorMethods.__dict__:
            setattr(Tensor, name, fn)


_install_methods()
_C._set_tensor_class(Tensor)
