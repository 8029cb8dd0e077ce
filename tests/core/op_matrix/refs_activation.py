"""numpy references of the nn activation family (float64 math, cast to the input dtype)."""
import numpy as np

from .registry import reference

SELU_ALPHA = 1.6732632423543772848170429916717
SELU_SCALE = 1.0507009873554804934193349852946


def _float_map(fn):
    def ref(x, *args):
        with np.errstate(all="ignore"):
            return np.asarray(fn(x.astype(np.float64), *args)).astype(x.dtype)
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
