"""Convolutions of torch.nn.functional: conv1d/conv2d, conv_transpose1d/conv_transpose2d,
unfold/fold. The work is in the C++ ops (core/csrc/ops/conv.cpp); this file only turns
padding='same'/'valid' into numbers and checks F.unfold / F.fold's input ranks."""
import core
from core.nn.modules.utils import _ntuple, _pair

__all__ = ["conv1d", "conv2d", "conv_transpose1d", "conv_transpose2d", "unfold", "fold"]


def _string_padding(input, weight, padding, stride, dilation, n):
    """padding='valid' is no padding; 'same' pads dilation * (kernel - 1) in total, the odd
    element on the right (an explicit pad of the input, like torch), the rest symmetrically."""
    if padding == "valid":
        return input, 0
    if padding != "same":
        raise RuntimeError(f"Invalid padding string: '{padding}'")
    if any(s != 1 for s in _ntuple(n)(stride)):
        raise RuntimeError("padding='same' is not supported for strided convolutions")
    total = [d * (k - 1) for d, k in zip(_ntuple(n)(dilation), weight.shape[-n:])]
    extra = []
    for t in reversed(total):  # F.pad lists the last dim first
        extra += [0, t % 2]
    if any(extra):
        input = core.pad(input, extra)
    return input, [t // 2 for t in total]


def _conv(op, n, input, weight, bias, stride, padding, dilation, groups):
    if isinstance(padding, str):
        input, padding = _string_padding(input, weight, padding, stride, dilation, n)
    return op(input, weight, bias, stride, padding, dilation, groups)


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """1-d convolution over (N, C, L) or unbatched (C, L) input; padding may be 'same' or 'valid'."""
    return _conv(core.conv1d, 1, input, weight, bias, stride, padding, dilation, groups)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """2-d convolution over (N, C, H, W) or unbatched (C, H, W) input; padding may be 'same' or 'valid'."""
    return _conv(core.conv2d, 2, input, weight, bias, stride, padding, dilation, groups)


def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    return core.conv_transpose1d(input, weight, bias, stride, padding, output_padding, groups, dilation)


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    return core.conv_transpose2d(input, weight, bias, stride, padding, output_padding, groups, dilation)


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """Sliding local blocks of a (N, C, H, W) (or (C, H, W)) input as columns (N, C*kh*kw, L)."""
    if input.dim() not in (3, 4):
        raise NotImplementedError(f"Input Error: Only 3D or 4D input Tensors are supported (got {input.dim()}D)")
    return core._im2col(input, _pair(kernel_size), _pair(dilation), _pair(padding), _pair(stride))


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """Sums columns (N, C*kh*kw, L) (or (C*kh*kw, L)) back into an image (N, C, *output_size)."""
    if input.dim() not in (2, 3):
        raise NotImplementedError(f"Input Error: Only 2D or 3D input Tensors are supported (got {input.dim()}D)")
    return core._col2im(input, _pair(output_size), _pair(kernel_size), _pair(dilation),
                        _pair(padding), _pair(stride))
