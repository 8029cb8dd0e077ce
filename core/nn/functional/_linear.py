"""F.linear and F.bilinear, composed of matmul-family ops (autograd comes with them)."""
import math

from core._native import _C

__all__ = ["linear", "bilinear"]

_addmm = _C._functions["addmm"]
_matmul = _C._functions["matmul"]


def linear(input, weight, bias=None):
    """y = input @ weight.T + bias; one addmm for 2-d input with a bias."""
    if input.ndim == 2 and bias is not None:
        return _addmm(bias, input, weight.t())
    output = _matmul(input, weight.t())
    if bias is not None:
        output = output + bias
    return output


def bilinear(input1, input2, weight, bias=None):
    """y[..., o] = sum_ij input1[..., i] weight[o, i, j] input2[..., j] + bias[o]."""
    if input1.ndim != input2.ndim:
        raise RuntimeError(f"bilinear(): input dimensions do not match: got {input1.ndim} and {input2.ndim}")
    for i in range(input1.ndim - 1):
        if input1.shape[i] != input2.shape[i]:
            raise RuntimeError(f"bilinear(): input batch dimensions do not match: got "
                               f"{input1.shape[i]} and {input2.shape[i]}")
    if weight.ndim != 3:
        raise RuntimeError(f"bilinear(): weight must be 3-dimensional, got {weight.ndim} dims")
    out_features, in1, in2 = weight.shape
    if input1.shape[-1] != in1:
        raise RuntimeError(f"bilinear(): input1 size does not match weight size: got "
                           f"{input1.shape[-1]} but expected {in1}")
    if input2.shape[-1] != in2:
        raise RuntimeError(f"bilinear(): input2 size does not match weight size: got "
                           f"{input2.shape[-1]} but expected {in2}")
    if bias is not None and (bias.ndim != 1 or bias.shape[0] != out_features):
        raise RuntimeError(f"bilinear(): bias size does not match weight size: got "
                           f"{bias.shape[0] if bias.ndim else bias.numel()} but expected {out_features}")
    lead = tuple(input1.shape[:-1])
    rows = math.prod(lead)
    # (rows, in1) @ (in1, out*in2) -> (rows, out, in2), then a batched dot with input2.
    left = _matmul(input1.reshape(rows, in1), weight.permute(1, 0, 2).reshape(in1, out_features * in2))
    output = left.reshape(rows, out_features, in2).bmm(input2.reshape(rows, in2, 1)).reshape(*lead, out_features)
    if bias is not None:
        output = output + bias
    return output
