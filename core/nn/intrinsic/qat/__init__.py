"""QAT versions of the fused patterns (torch.nn.intrinsic.qat): ConvBn2d keeps its batch
norm as a `.bn` child and simulates its folding into the fake-quantized weight."""
import math

import core
from core import nn
from core.nn import functional as F
from core.nn import init
from core.nn.intrinsic import ConvBn2d as _FloatConvBn2d, ConvBnReLU2d as _FloatConvBnReLU2d
from core.nn.intrinsic import ConvReLU2d as _FloatConvReLU2d, LinearReLU as _FloatLinearReLU
from core.nn.modules.utils import _pair
from core.nn.parameter import Parameter
from core.nn import qat as nnqat

__all__ = ["ConvBn2d", "ConvBnReLU2d", "ConvReLU2d", "LinearReLU", "update_bn_stats", "freeze_bn_stats"]


class _ConvBnNd(nn.modules.conv._ConvNd):
    _version = 2

    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, dilation, transposed,
                 output_padding, groups, bias, padding_mode, eps=1e-05, momentum=0.1, freeze_bn=False, qconfig=None):
        nn.modules.conv._ConvNd.__init__(self, in_channels, out_channels, kernel_size, stride, padding, dilation,
                                         transposed, output_padding, groups, False, padding_mode)
        if not qconfig:
            raise AssertionError("qconfig must be provided for QAT module")
        self.qconfig = qconfig
        self.freeze_bn = freeze_bn if self.training else True
        self.bn = nn.BatchNorm2d(out_channels, eps, momentum, True, True)
        self.weight_fake_quant = self.qconfig.weight()
        if bias:
            self.bias = Parameter(core.empty(out_channels))
        else:
            self.register_parameter("bias", None)
        self.reset_bn_parameters()
        if self.training:
            if freeze_bn:
                self.freeze_bn_stats()
            else:
                self.update_bn_stats()
        else:
            self.freeze_bn_stats()

    def reset_running_stats(self):
        self.bn.reset_running_stats()

    def reset_bn_parameters(self):
        self.bn.reset_running_stats()
        init.uniform_(self.bn.weight)
        init.zeros_(self.bn.bias)
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            bound = 1 / math.sqrt(fan_in)
            init.uniform_(self.bias, -bound, bound)

    def update_bn_stats(self):
        self.freeze_bn = False
        self.bn.training = True
        return self

    def freeze_bn_stats(self):
        self.freeze_bn = True
        self.bn.training = False
        return self

    def _forward(self, input):
        # The weight scaled by the BN's running std (so fake quantization sees the folded
        # weight), the convolution, then the scale undone before the real batch norm runs.
        running_std = core.sqrt(self.bn.running_var + self.bn.eps)
        scale_factor = self.bn.weight / running_std
        weight_shape = [1] * len(self.weight.shape)
        weight_shape[0] = -1
        bias_shape = [1] * len(self.weight.shape)
        bias_shape[1] = -1
        scaled_weight = self.weight_fake_quant(self.weight * scale_factor.reshape(weight_shape))
        if self.bias is not None:
            zero_bias = core.zeros_like(self.bias)
        else:
            zero_bias = core.zeros(self.out_channels)
        conv = self._conv_forward(F.conv2d, input, scaled_weight, zero_bias)
        conv_orig = conv / scale_factor.reshape(bias_shape)
        if self.bias is not None:
            conv_orig = conv_orig + self.bias.reshape(bias_shape)
        return self.bn(conv_orig)

    def extra_repr(self):
        return super().extra_repr()

    def forward(self, input):
        return self._forward(input)

    def train(self, mode=True):
        """Batch norm statistics stay frozen in training once freeze_bn is set."""
        self.training = mode
        if not self.freeze_bn:
            for module in self.children():
                module.train(mode)
        return self

    @classmethod
    def from_float(cls, mod):
        if type(mod) is not cls._FLOAT_MODULE:
            raise AssertionError(f"qat.{cls.__name__}.from_float only works for {cls._FLOAT_MODULE.__name__}")
        if not getattr(mod, "qconfig", None):
            raise AssertionError("Input float module must have a valid qconfig")
        qconfig = mod.qconfig
        conv, bn = mod[0], mod[1]
        qat = cls(conv.in_channels, conv.out_channels, conv.kernel_size, conv.stride, conv.padding, conv.dilation,
                  conv.groups, conv.bias is not None, conv.padding_mode, bn.eps, bn.momentum, False, qconfig)
        qat.weight = conv.weight
        qat.bias = conv.bias
        qat.bn.weight = bn.weight
        qat.bn.bias = bn.bias
        qat.bn.running_mean = bn.running_mean
        qat.bn.running_var = bn.running_var
        qat.bn.num_batches_tracked = bn.num_batches_tracked
        return qat


class ConvBn2d(_ConvBnNd, nn.Conv2d):
    """Conv2d + BatchNorm2d for QAT (keys: weight, bn.*, weight_fake_quant.*)."""

    _FLOAT_MODULE = _FloatConvBn2d

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 bias=None, padding_mode="zeros", eps=1e-05, momentum=0.1, freeze_bn=False, qconfig=None):
        kernel_size, stride, padding, dilation = _pair(kernel_size), _pair(stride), _pair(padding), _pair(dilation)
        _ConvBnNd.__init__(self, in_channels, out_channels, kernel_size, stride, padding, dilation, False,
                           _pair(0), groups, bias, padding_mode, eps, momentum, freeze_bn, qconfig)


class ConvBnReLU2d(ConvBn2d):
    """Conv2d + BatchNorm2d + ReLU for QAT."""

    _FLOAT_MODULE = _FloatConvBnReLU2d

    def forward(self, input):
        return F.relu(ConvBn2d._forward(self, input))


class ConvReLU2d(nnqat.Conv2d):
    """Conv2d + ReLU for QAT."""

    _FLOAT_MODULE = _FloatConvReLU2d

    def forward(self, input):
        return F.relu(self._conv_forward(F.conv2d, input, self.weight_fake_quant(self.weight), self.bias))

    @classmethod
    def from_float(cls, mod):
        if type(mod) is not cls._FLOAT_MODULE:
            raise AssertionError("qat.ConvReLU2d.from_float only works for ConvReLU2d")
        conv = mod[0]
        conv.qconfig = mod.qconfig
        qat = cls(conv.in_channels, conv.out_channels, conv.kernel_size, stride=conv.stride, padding=conv.padding,
                  dilation=conv.dilation, groups=conv.groups, bias=conv.bias is not None,
                  padding_mode=conv.padding_mode, qconfig=mod.qconfig)
        qat.weight, qat.bias = conv.weight, conv.bias
        return qat


class LinearReLU(nnqat.Linear):
    """Linear + ReLU for QAT."""

    _FLOAT_MODULE = _FloatLinearReLU

    def forward(self, input):
        return F.relu(F.linear(input, self.weight_fake_quant(self.weight), self.bias))

    @classmethod
    def from_float(cls, mod):
        if type(mod) is not cls._FLOAT_MODULE:
            raise AssertionError("qat.LinearReLU.from_float only works for LinearReLU")
        linear = mod[0]
        qat = cls(linear.in_features, linear.out_features, bias=linear.bias is not None, qconfig=mod.qconfig)
        qat.weight, qat.bias = linear.weight, linear.bias
        return qat


def update_bn_stats(mod):
    if type(mod) in (ConvBn2d, ConvBnReLU2d):
        mod.update_bn_stats()


def freeze_bn_stats(mod):
    if type(mod) in (ConvBn2d, ConvBnReLU2d):
        mod.freeze_bn_stats()
