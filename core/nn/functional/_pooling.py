"""Pooling functions of torch.nn.functional (PyTorch 1.8 semantics) on the C++ pooling ops."""
import core
from core._native import _C
from core.nn.modules.utils import _pair, _single

__all__ = ["max_pool1d", "max_pool2d", "max_pool1d_with_indices", "max_pool2d_with_indices",
           "avg_pool1d", "avg_pool2d", "adaptive_max_pool1d", "adaptive_max_pool2d",
           "adaptive_max_pool1d_with_indices", "adaptive_max_pool2d_with_indices",
           "adaptive_avg_pool1d", "adaptive_avg_pool2d", "max_unpool1d", "max_unpool2d",
           "lp_pool1d", "lp_pool2d"]

_ops = _C._functions


def _stride(stride):
    # None (or an empty list) means "the kernel size", like PyTorch.
    return [] if stride is None else stride


def max_pool1d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):
    return _ops["max_pool1d_with_indices"](input, kernel_size, _stride(stride), padding, dilation, ceil_mode)


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    if return_indices:
        return max_pool1d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)
    return _ops["max_pool1d"](input, kernel_size, _stride(stride), padding, dilation, ceil_mode)


def max_pool2d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):
    return _ops["max_pool2d_with_indices"](input, kernel_size, _stride(stride), padding, dilation, ceil_mode)


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    if input.is_quantized and not return_indices:
        pair = _quantized_pair
        return _C._quantized.max_pool2d(input, pair(kernel_size), pair(kernel_size if stride is None else stride),
                                        pair(padding), pair(dilation), ceil_mode)
    if return_indices:
        return max_pool2d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)
    return _ops["max_pool2d"](input, kernel_size, _stride(stride), padding, dilation, ceil_mode)


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    return _ops["avg_pool1d"](input, kernel_size, _stride(stride), padding, ceil_mode, count_include_pad)


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    return _ops["avg_pool2d"](input, kernel_size, _stride(stride), padding, ceil_mode, count_include_pad,
                              divisor_override)


def _quantized_pair(v):
    return [v, v] if isinstance(v, int) else list(v)


def _list_with_default(out_size, defaults):
    # Adaptive output sizes may hold None: keep the input's size there.
    if isinstance(out_size, int):
        return out_size
    if len(defaults) <= len(out_size):
        raise ValueError("Input dimension should be at least {}".format(len(out_size) + 1))
    return [v if v is not None else d for v, d in zip(out_size, defaults[-len(out_size):])]


def adaptive_max_pool1d_with_indices(input, output_size, return_indices=False):
    return _ops["adaptive_max_pool1d"](input, output_size)


def adaptive_max_pool1d(input, output_size, return_indices=False):
    result = _ops["adaptive_max_pool1d"](input, output_size)
    return result if return_indices else result[0]


def adaptive_max_pool2d_with_indices(input, output_size, return_indices=False):
    return _ops["adaptive_max_pool2d"](input, _list_with_default(output_size, input.size()))


def adaptive_max_pool2d(input, output_size, return_indices=False):
    result = adaptive_max_pool2d_with_indices(input, output_size)
    return result if return_indices else result[0]


def adaptive_avg_pool1d(input, output_size):
    return _ops["adaptive_avg_pool1d"](input, output_size)


def adaptive_avg_pool2d(input, output_size):
    if input.is_quantized:
        return _C._quantized.adaptive_avg_pool2d(input, _quantized_pair(_list_with_default(output_size, input.size())))
    return _ops["adaptive_avg_pool2d"](input, _list_with_default(output_size, input.size()))


def _unpool_output_size(input, kernel_size, stride, padding, output_size):
    input_size = input.size()
    n = len(kernel_size)
    default_size = [(input_size[len(input_size) - n + d] - 1) * stride[d] + kernel_size[d] - 2 * padding[d]
                    for d in range(n)]
    if output_size is None:
        return default_size
    output_size = list(output_size)
    if len(output_size) == n + 2:
        output_size = output_size[2:]
    if len(output_size) != n:
        raise ValueError("output_size should be a sequence containing {} or {} elements, but it has a length of '{}'"
                         .format(n, n + 2, len(output_size)))
    for d in range(n):
        min_size = default_size[d] - stride[d]
        max_size = default_size[d] + stride[d]
        if not (min_size < output_size[d] < max_size):
            raise ValueError('invalid output_size "{}" (dim {} must be between {} and {})'
                             .format(output_size, d, min_size, max_size))
    return output_size


def max_unpool1d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    kernel_size = _single(kernel_size)
    stride = _single(stride) if stride is not None else kernel_size
    padding = _single(padding)
    output_size = _unpool_output_size(input, kernel_size, stride, padding, output_size)
    # PyTorch runs it as a 2-d unpool of (N, C, L, 1) planes.
    return _ops["max_unpool2d"](input.unsqueeze(-1), indices.unsqueeze(-1), list(output_size) + [1]).squeeze(-1)


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    kernel_size = _pair(kernel_size)
    stride = _pair(stride) if stride is not None else kernel_size
    padding = _pair(padding)
    output_size = _unpool_output_size(input, kernel_size, stride, padding, output_size)
    return _ops["max_unpool2d"](input, indices, list(output_size))


def _lp_scale(out, kernel_area, norm_type):
    return (core.sign(out) * core.abs(out)).mul(kernel_area).pow(1.0 / norm_type)


def lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    if stride is not None:
        out = avg_pool1d(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    else:
        out = avg_pool1d(input.pow(norm_type), kernel_size, padding=0, ceil_mode=ceil_mode)
    return _lp_scale(out, kernel_size, norm_type)


def lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    kw, kh = _pair(kernel_size)
    if stride is not None:
        out = avg_pool2d(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    else:
        out = avg_pool2d(input.pow(norm_type), kernel_size, padding=0, ceil_mode=ceil_mode)
    return _lp_scale(out, kw * kh, norm_type)
