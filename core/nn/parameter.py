"""nn.Parameter: a Tensor subclass that Modules register as a learnable parameter."""
import copy
from collections import OrderedDict

from core._native import _C
from core.autograd.grad_mode import no_grad
from core._tensor import Tensor


class Parameter(Tensor):
    """A tensor that is a module parameter: assigning it as a Module attribute registers it.

    Shares `data`'s memory; requires_grad defaults to True and the result is always a leaf."""

    def __new__(cls, data=None, requires_grad=True):
        if data is None:
            data = _C._functions["empty"](0)
        if not isinstance(data, _C._TensorBase):
            raise TypeError(f"Parameter(): expected a Tensor as data, but got {type(data).__name__}")
        result = _C._make_subclass(cls, data)  # an alias outside any graph
        names = data.names
        if any(n is not None for n in names):  # the alias keeps a named tensor's names
            result.names = names
        if requires_grad:
            result.requires_grad_(True)
        return result

    def __init__(self, data=None, requires_grad=True):
        pass  # everything happens in __new__

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        with no_grad():
            result = type(self)(self.clone(), self.requires_grad)
        memo[id(self)] = result
        if self.__dict__:
            result.__dict__.update(copy.deepcopy(self.__dict__, memo))
        return result

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()

    def __reduce_ex__(self, protocol):
        return (_rebuild_parameter, (_C._detach(self), self.requires_grad, OrderedDict(self.__dict__)))


def _rebuild_parameter(data, requires_grad, state):
    param = Parameter(data, requires_grad)
    param.__dict__.update(state)
    return param

