"""Deformable convolution v2 (modulated when a mask is given)."""
import math

import core
from core import nn
from core.nn import init
from vision.ops import _ops
from vision.ops._utils import _pair

__all__ = ["deform_conv2d", "DeformConv2d"]


def deform_conv2d(input, offset, weight, bias=None, stride=(1, 1), padding=(0, 0), dilation=(1, 1), mask=None):
    """Deformable convolution (Dai et al. 2017), modulated by `mask` when given (Zhu et al. 2019).

    Args:
        input (Tensor[B, C_in, H, W]): the input.
        offset (Tensor[B, 2 * offset_groups * kH * kW, oH, oW]): (dy, dx) per kernel tap and output
            position; the offset groups split the input channels.
        weight (Tensor[C_out, C_in / groups, kH, kW]): the convolution weights (groups inferred).
        bias (Tensor[C_out], optional): the bias.
        stride, padding, dilation (int or Tuple[int, int]): as in conv2d.
        mask (Tensor[B, offset_groups * kH * kW, oH, oW], optional): the modulation of each tap.

    Returns:
        Tensor[B, C_out, oH, oW]
    """
    stride_h, stride_w = _pair(stride)
    pad_h, pad_w = _pair(padding)
    dil_h, dil_w = _pair(dilation)
    weights_h, weights_w = weight.shape[-2:]
    n_in_channels = input.shape[1]
    n_offset_grps = offset.shape[1] // (2 * weights_h * weights_w)
    n_weight_grps = n_in_channels // weight.shape[1]
    if n_offset_grps == 0:
        raise RuntimeError(
            "the shape of the offset tensor at dimension 1 is not valid. It should be a multiple of "
            "2 * weight.size[2] * weight.size[3].\n"
            f"Got offset.shape[1]={offset.shape[1]}, while 2 * weight.size[2] * weight.size[3]="
            f"{2 * weights_h * weights_w}")
    return _ops.deform_conv2d(input, weight, offset, mask, bias, stride_h, stride_w, pad_h, pad_w, dil_h, dil_w,
                              n_weight_grps, n_offset_grps)


class DeformConv2d(nn.Module):
    """See deform_conv2d."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True):
        super().__init__()
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = _pair(kernel_size)
        self.stride = _pair(stride)
        self.padding = _pair(padding)
        self.dilation = _pair(dilation)
        self.groups = groups
        self.weight = nn.Parameter(core.empty(out_channels, in_channels // groups, *self.kernel_size))
        if bias:
            self.bias = nn.Parameter(core.empty(out_channels))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            bound = 1 / math.sqrt(fan_in)
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input, offset, mask=None):
        return deform_conv2d(input, offset, self.weight, self.bias, stride=self.stride, padding=self.padding,
                             dilation=self.dilation, mask=mask)

    def __repr__(self):
        s = f"{self.__class__.__name__}({self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}"
        s += f", stride={self.stride}"
        s += f", padding={self.padding}" if self.padding != (0, 0) else ""
        s += f", dilation={self.dilation}" if self.dilation != (1, 1) else ""
        s += f", groups={self.groups}" if self.groups != 1 else ""
        s += ", bias=False" if self.bias is None else ""
        return s + ")"
