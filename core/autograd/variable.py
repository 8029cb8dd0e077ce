"""core.autograd.Variable: the pre-0.4 wrapper, now the tensor itself. Variable(t) is a tensor
sharing t's data outside any graph, with requires_grad as given; every tensor is a Variable."""
import warnings

from core._native import _C


class _VariableMeta(type):
    def __instancecheck__(cls, obj):
        return isinstance(obj, _C._TensorBase)

    def __call__(cls, data=None, requires_grad=False, volatile=False):
        if data is None:
            return _C._functions["empty"]((0,))
        if not isinstance(data, _C._TensorBase):
            raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        if volatile:
            warnings.warn("volatile was removed and now has no effect. Use `with core.no_grad():` "
                          "instead.", UserWarning, stacklevel=2)
        return _C._detach(data).requires_grad_(requires_grad)


class Variable(metaclass=_VariableMeta):
    """Variable(data, requires_grad=False): `data` as a tensor (every tensor is a Variable)."""
