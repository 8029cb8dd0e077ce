"""numpy references of the nn activation family (float64 math, cast to the input dtype)."""
import math

import numpy as np

from .registry import reference

SELU_ALPHA = 1.6732632423543772848170429916717
SELU_SCALE = 1.0507009873554804934193349852946


def _float_map(fn):
    def ref(x, *args, **kwargs):
        with np.errstate(all="ignore"):
            return np.asarray(fn(x.astype(np.float64), *args, **kwargs)).astype(x.dtype)
    return ref


def _relu(x):
    if x.dtype.kind in "iu":
        return np.where(x <= 0, 0, x).astype(x.dtype)
    return _float_map(lambda v: np.where(v <= 0, 0.0, v))(x)


def _threshold(x, th, value):
    if x.dtype.kind in "iu":
        return np.where(x <= th, value, x).astype(x.dtype)
    # PyTorch compares in the input's dtype
    return np.where(x <= x.dtype.type(th), x.dtype.type(value), x).astype(x.dtype)


def _elu(v, alpha, scale, input_scale):
    return np.where(v <= 0, np.expm1(v * input_scale) * alpha * scale, v * scale)


_selu = _float_map(lambda v: _elu(v, SELU_ALPHA, SELU_SCALE, 1.0))
_celu = _float_map(lambda v, alpha=1.0: _elu(v, alpha, 1.0, 1.0 / alpha))
_hardshrink = _float_map(lambda v, lambd=0.5: np.where((v >= -lambd) & (v <= lambd), 0.0, v))


def _prelu(x, w):
    v = x.astype(np.float64)
    wb = w.astype(np.float64).reshape(()) if w.size == 1 else w.astype(np.float64)
    if w.size > 1 and x.ndim >= 2:
        wb = wb.reshape((1, -1) + (1,) * (x.ndim - 2))
    return np.where(v > 0, v, wb * v).astype(x.dtype)


reference("relu", atol=0)(_relu)
reference("relu_", atol=0)(_relu)
reference("threshold", atol=0)(_threshold)
reference("selu", rtol=3e-6)(_selu)
reference("celu", rtol=3e-6)(_celu)
reference("hardshrink", atol=0)(_hardshrink)
reference("prelu")(_prelu)


_erf = np.vectorize(math.erf, otypes=[np.float64])


def _gelu(v, approximate="none"):
    if approximate == "tanh":
        return 0.5 * v * (1 + np.tanh(math.sqrt(2 / math.pi) * (v + 0.044715 * v ** 3)))
    return v * 0.5 * (1 + _erf(v / math.sqrt(2)))


def _softplus(v, beta=1.0, threshold=20.0):
    return np.where(v * beta > threshold, v, np.log1p(np.exp(v * beta)) / beta)


def _sigmoid(v):
    return 1 / (1 + np.exp(-v))


_INTERNAL = {  # torch._C._nn's activations (called through core._C._internal), in float64
    "leaky_relu": lambda v, slope=0.01: np.where(v > 0, v, v * slope),
    "elu": lambda v, alpha=1.0, scale=1.0, input_scale=1.0: _elu(v, alpha, scale, input_scale),
    "silu": lambda v: v * _sigmoid(v),
    "mish": lambda v: v * np.tanh(_softplus(v)),
    "hardswish": lambda v: v * np.clip(v + 3, 0, 6) / 6,
    "hardsigmoid": lambda v: np.clip(v + 3, 0, 6) / 6,
    "hardtanh": lambda v, lo=-1.0, hi=1.0: np.where(v < lo, lo, np.where(v > hi, hi, v)),
    "gelu": _gelu,
    "softplus": _softplus,
    "softshrink": lambda v, lambd=0.5: np.where(v > lambd, v - lambd, np.where(v < -lambd, v + lambd, v * 0)),  # NaN stays
    "log_sigmoid": lambda v: -_softplus(-v),
}
for _name, _fn in _INTERNAL.items():
    reference(_name, rtol=3e-6)(_float_map(_fn))
for _name in ("leaky_relu", "elu", "silu", "mish", "hardswish", "hardsigmoid", "hardtanh"):
    reference(_name + "_", rtol=3e-6)(_float_map(_INTERNAL[_name]))
reference("threshold_", atol=0)(_threshold)
reference("selu_", rtol=3e-6)(_selu)
reference("celu_", rtol=3e-6)(_celu)


def _dropout_apply(x, mask, scale, shift=0.0, fill=0.0):
    ct = np.float32 if x.dtype == np.float16 else x.dtype.type  # half computes in float32
    v, m = x.astype(ct), mask.astype(ct)
    with np.errstate(invalid="ignore"):
        if shift == 0 and fill == 0:
            return ((v * m) * ct(scale)).astype(x.dtype)
        return (v * np.where(mask, ct(scale), ct(0)) + np.where(mask, ct(shift), ct(fill))).astype(x.dtype)


reference("_dropout_apply", atol=0, rtol=0)(_dropout_apply)
reference("_dropout_apply_", atol=0, rtol=0)(_dropout_apply)
