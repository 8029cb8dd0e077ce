"""Quantized fused modules (torch.nn.intrinsic.quantized): the ReLU is the output clamp."""
from core._native import _C
from core.nn import intrinsic as nni
from core.nn.quantized import modules as nnq
from core.nn.quantized import normalization_embedding as nnq_bn

_Q = _C._quantized

__all__ = ["BNReLU2d", "ConvReLU2d", "LinearReLU"]


class ConvReLU2d(nnq.Conv2d):
    """Quantized Conv2d with a fused ReLU."""

    _FLOAT_MODULE = nni.ConvReLU2d

    def forward(self, input):
        if input.ndim != 4:
            raise ValueError("Input shape must be `(N, C, H, W)`!")
        return _Q.conv2d_relu(input, self._packed_params, self.scale, self.zero_point)

    def _get_name(self):
        return "QuantizedConvReLU2d"

    @classmethod
    def from_float(cls, mod):
        return super().from_float(mod)


class LinearReLU(nnq.Linear):
    """Quantized Linear with a fused ReLU."""

    _FLOAT_MODULE = nni.LinearReLU

    def _forward(self, x):
        return _Q.linear_relu(x, self._packed_params._packed_params, self.scale, self.zero_point)

    def _get_name(self):
        return "QuantizedLinearReLU"

    @classmethod
    def from_float(cls, mod):
        return super().from_float(mod)




class BNReLU2d(nnq_bn.BatchNorm2d):
    """Quantized BatchNorm2d with a fused ReLU (the zero point is the output floor)."""

    _FLOAT_MODULE = nni.BNReLU2d
    _FUSED_RELU = True

    def _get_name(self):
        return "QuantizedBNReLU2d"
