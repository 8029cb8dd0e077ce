// Derivatives of the convolution family, written with F:: calls (differentiable again):
// the input gradient of a convolution is the transposed convolution (and the reverse), the
// weight gradient is _conv_backward_weight, the bias gradient a sum over all but channels.
#pragma once
#include "autograd/op_node.h"

namespace tz::grad {

// Gradients of (input, weight, bias) of a convolution whose arguments sit at these positions
// (output_padding_arg < 0: a regular convolution).
TensorList convolution(BackwardContext& c, bool transposed, int stride_arg, int padding_arg, int dilation_arg,
                       int output_padding_arg, int groups_arg);
// _conv_backward_weight(input, grad_output, weight_size, stride, padding, dilation, groups).
TensorList conv_backward_weight(BackwardContext& c);

}  // namespace tz::grad
