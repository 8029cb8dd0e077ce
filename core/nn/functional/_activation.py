"""torch.nn.functional's activations and softmax family."""
import core
from core._argcheck import warn
from core._native import _C

__all__ = [
    "threshold", "threshold_", "relu", "relu_", "relu6", "hardtanh", "hardtanh_", "leaky_relu",
    "leaky_relu_", "elu", "elu_", "selu", "selu_", "celu", "celu_", "gelu", "silu", "mish",
    "hardswish", "hardsigmoid", "softplus", "softsign", "tanhshrink", "hardshrink", "softshrink",
    "logsigmoid", "prelu", "glu", "sigmoid", "tanh", "softmax", "log_softmax", "softmin",
]

_nn = _C._internal  # torch._C._nn's ops


def threshold(input, threshold, value, inplace=False):
    return core.threshold_(input, threshold, value) if inplace else core.threshold(input, threshold, value)


threshold_ = core.threshold_


def relu(input, inplace=False):
    if input.is_quantized:  # stored integers clamped at the zero point, same qparams
        return _C._quantized.clamp(input, 0.0, None)
    return core.relu_(input) if inplace else core.relu(input)


relu_ = core.relu_


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    if input.is_quantized:
        return _C._quantized.clamp(input, min_val, max_val)
    if inplace:
        return _nn["hardtanh_"](input, min_val, max_val)
    return _nn["hardtanh"](input, min_val, max_val)


def hardtanh_(input, min_val=-1.0, max_val=1.0):
    return _nn["hardtanh_"](input, min_val, max_val)


def relu6(input, inplace=False):
    return hardtanh(input, 0.0, 6.0, inplace)


def leaky_relu(input, negative_slope=0.01, inplace=False):
    return _nn["leaky_relu_" if inplace else "leaky_relu"](input, negative_slope)


def leaky_relu_(input, negative_slope=0.01):
    return _nn["leaky_relu_"](input, negative_slope)


def elu(input, alpha=1.0, inplace=False):
    return _nn["elu_" if inplace else "elu"](input, alpha)


def elu_(input, alpha=1.0):
    return _nn["elu_"](input, alpha)


def selu(input, inplace=False):
    return core.selu_(input) if inplace else core.selu(input)


selu_ = core.selu_


def celu(input, alpha=1.0, inplace=False):
    return core.celu_(input, alpha) if inplace else core.celu(input, alpha)


celu_ = core.celu_


def gelu(input, approximate="none"):
    return _nn["gelu"](input, approximate=approximate)


def silu(input, inplace=False):
    return _nn["silu_" if inplace else "silu"](input)


def mish(input, inplace=False):
    return _nn["mish_" if inplace else "mish"](input)


def hardswish(input, inplace=False):
    if input.is_quantized:  # the input's qparams, as PyTorch's quantized hardswish
        return _C._quantized.hardswish(input, input.q_scale(), input.q_zero_point())
    return _nn["hardswish_" if inplace else "hardswish"](input)


def hardsigmoid(input, inplace=False):
    if input.is_quantized:  # output scale 1/256, zero point 0
        return _C._quantized.hardsigmoid(input)
    return _nn["hardsigmoid_" if inplace else "hardsigmoid"](input)


def softplus(input, beta=1, threshold=20):
    return _nn["softplus"](input, beta, threshold)


def softsign(input):
    return input / (input.abs() + 1)


def tanhshrink(input):
    return input - input.tanh()


def hardshrink(input, lambd=0.5):
    return core.hardshrink(input, lambd)


def softshrink(input, lambd=0.5):
    return _nn["softshrink"](input, lambd)


def logsigmoid(input):
    return _nn["log_sigmoid"](input)


def prelu(input, weight):
    return core.prelu(input, weight)


def glu(input, dim=-1):
    if input.dim() == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    d = _C._dim_of_name(input, dim) if isinstance(dim, str) else dim + input.dim() if dim < 0 else dim
    if input.shape[d] % 2:
        raise RuntimeError(f"glu(): Halving dimension must be even, but dimension {d} is size {input.shape[d]}")
    a, b = input.chunk(2, d)
    return a * b.sigmoid()


def sigmoid(input):
    return core.sigmoid(input)


def tanh(input):
    return core.tanh(input)


def _get_softmax_dim(name, ndim, stacklevel):
    warn(f"Implicit dimension choice for {name} has been deprecated. "
         "Change the call to include dim=X as an argument.", stacklevel=stacklevel)
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _get_softmax_dim("softmax", input.dim(), _stacklevel)
    return core.softmax(input, dim, dtype=dtype)


def softmin(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _get_softmax_dim("softmin", input.dim(), _stacklevel)
    return core.softmax(-input, dim, dtype=dtype)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _get_softmax_dim("log_softmax", input.dim(), _stacklevel)
    return core.log_softmax(input, dim, dtype=dtype)
