"""torch.nn's activation modules (MultiheadAttention lives with the attention family)."""
import warnings

import core
from core.nn import functional as F
from core.nn.modules.module import Module
from core.nn.parameter import Parameter

__all__ = [
    "Threshold", "ReLU", "Hardtanh", "ReLU6", "Sigmoid", "Tanh", "SiLU", "Mish", "Hardswish",
    "Hardsigmoid", "ELU", "CELU", "SELU", "GLU", "GELU", "Hardshrink", "LeakyReLU", "LogSigmoid",
    "Softplus", "Softshrink", "PReLU", "Softsign", "Tanhshrink", "Softmin", "Softmax", "Softmax2d",
    "LogSoftmax",
]


def _inplace_str(inplace, first=False):
    if not inplace:
        return ""
    return "inplace=True" if first else ", inplace=True"


class Threshold(Module):
    def __init__(self, threshold, value, inplace=False):
        super().__init__()
        self.threshold, self.value, self.inplace = threshold, value, inplace

    def forward(self, input):
        return F.threshold(input, self.threshold, self.value, self.inplace)

    def extra_repr(self):
        return f"threshold={self.threshold}, value={self.value}{_inplace_str(self.inplace)}"


class _InplaceActivation(Module):
    """An activation with only an `inplace` option; subclasses set _fn."""
    _fn = None

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return type(self)._fn(input, inplace=self.inplace)

    def extra_repr(self):
        return _inplace_str(self.inplace, first=True)


class ReLU(_InplaceActivation):
    _fn = staticmethod(F.relu)


class SELU(_InplaceActivation):
    _fn = staticmethod(F.selu)


class SiLU(_InplaceActivation):
    _fn = staticmethod(F.silu)


class Mish(_InplaceActivation):
    _fn = staticmethod(F.mish)


class Hardswish(_InplaceActivation):
    _fn = staticmethod(F.hardswish)

    def extra_repr(self):
        return ""


class Hardsigmoid(_InplaceActivation):
    _fn = staticmethod(F.hardsigmoid)

    def extra_repr(self):
        return ""


class Hardtanh(Module):
    def __init__(self, min_val=-1.0, max_val=1.0, inplace=False, min_value=None, max_value=None):
        super().__init__()
        if min_value is not None:
            warnings.warn("keyword argument min_value is deprecated and rename to min_val")
            min_val = min_value
        if max_value is not None:
            warnings.warn("keyword argument max_value is deprecated and rename to max_val")
            max_val = max_value
        self.min_val, self.max_val, self.inplace = min_val, max_val, inplace
        assert self.max_val > self.min_val

    def forward(self, input):
        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self):
        return f"min_val={self.min_val}, max_val={self.max_val}{_inplace_str(self.inplace)}"


class ReLU6(Hardtanh):
    def __init__(self, inplace=False):
        super().__init__(0.0, 6.0, inplace)

    def extra_repr(self):
        return _inplace_str(self.inplace, first=True)


class _Stateless(Module):
    """An activation without options; subclasses set _fn."""
    _fn = None

    def forward(self, input):
        return type(self)._fn(input)


class Sigmoid(_Stateless):
    _fn = staticmethod(core.sigmoid)


class Tanh(_Stateless):
    _fn = staticmethod(core.tanh)


class LogSigmoid(_Stateless):
    _fn = staticmethod(F.logsigmoid)


class Softsign(_Stateless):
    _fn = staticmethod(F.softsign)


class Tanhshrink(_Stateless):
    _fn = staticmethod(F.tanhshrink)


class ELU(Module):
    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha, self.inplace = alpha, inplace

    def forward(self, input):
        return F.elu(input, self.alpha, self.inplace)

    def extra_repr(self):
        return f"alpha={self.alpha}{_inplace_str(self.inplace)}"


class CELU(ELU):
    def forward(self, input):
        return F.celu(input, self.alpha, self.inplace)


class GLU(Module):
    def __init__(self, dim=-1):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.glu(input, self.dim)

    def extra_repr(self):
        return f"dim={self.dim}"


class GELU(Module):
    def __init__(self, approximate="none"):
        super().__init__()
        self.approximate = approximate

    def forward(self, input):
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self):
        return f"approximate={self.approximate!r}"


class Hardshrink(Module):
    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = lambd

    def forward(self, input):
        return F.hardshrink(input, self.lambd)

    def extra_repr(self):
        return f"{self.lambd}"


class Softshrink(Hardshrink):
    def forward(self, input):
        return F.softshrink(input, self.lambd)


class LeakyReLU(Module):
    def __init__(self, negative_slope=1e-2, inplace=False):
        super().__init__()
        self.negative_slope, self.inplace = negative_slope, inplace

    def forward(self, input):
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self):
        return f"negative_slope={self.negative_slope}{_inplace_str(self.inplace)}"


class Softplus(Module):
    def __init__(self, beta=1, threshold=20):
        super().__init__()
        self.beta, self.threshold = beta, threshold

    def forward(self, input):
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self):
        return f"beta={self.beta}, threshold={self.threshold}"


class PReLU(Module):
    def __init__(self, num_parameters=1, init=0.25):
        self.num_parameters = num_parameters
        super().__init__()
        self.weight = Parameter(core.empty(num_parameters).fill_(init))

    def forward(self, input):
        return F.prelu(input, self.weight)

    def extra_repr(self):
        return f"num_parameters={self.num_parameters}"


class _SoftmaxBase(Module):
    _fn = None

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def __setstate__(self, state):
        super().__setstate__(state)
        if not hasattr(self, "dim"):
            self.dim = None

    def forward(self, input):
        return type(self)._fn(input, self.dim, _stacklevel=5)

    def extra_repr(self):
        return f"dim={self.dim}"


class Softmin(_SoftmaxBase):
    _fn = staticmethod(F.softmin)


class Softmax(_SoftmaxBase):
    _fn = staticmethod(F.softmax)


class LogSoftmax(_SoftmaxBase):
    _fn = staticmethod(F.log_softmax)


class Softmax2d(Module):
    def forward(self, input):
        assert input.dim() == 4, "Softmax2d requires a 4D tensor as input"
        return F.softmax(input, 1, _stacklevel=5)
