"""numpy references of the quantization family's float entries: torch's fake quantization,
(clamp(round_half_even(x / scale) + zero_point, quant_min, quant_max) - zero_point) * scale."""
import numpy as np

from .registry import reference


def _fake_quantize(x, scale, zero_point, quant_min, quant_max):
    q = np.clip(np.rint(x.astype(np.float64) / scale) + zero_point, quant_min, quant_max)
    return ((q - zero_point) * scale).astype(x.dtype)


@reference("fake_quantize_per_tensor_affine")
def fake_quantize_per_tensor_affine(x, scale, zero_point, quant_min, quant_max):
    return _fake_quantize(x, scale, zero_point, quant_min, quant_max)


@reference("fake_quantize_per_channel_affine")
def fake_quantize_per_channel_affine(x, scale, zero_point, axis, quant_min, quant_max):
    shape = [1] * x.ndim
    shape[axis] = -1
    return _fake_quantize(x, scale.astype(np.float64).reshape(shape), zero_point.reshape(shape), quant_min, quant_max)
