// nn activations as elementwise ops (kernels/activation.h): forward, in-place forward and
// the fused backward grad_in = grad_out * f'(x). Floating dtypes (half types computed in
// float32); relu and threshold also take integer tensors, like PyTorch. Results keep the
// input's dense layout (channels-last in, channels-last out).
#pragma once
#include "kernels/activation.h"
#include "tensor/tensor.h"

namespace tz {

Tensor activation(ActOp op, const Tensor& x, const ActArgs& args, const char* name);
const Tensor& activation_(ActOp op, const Tensor& x, const ActArgs& args, const char* name);
// `x` is the forward input (or, for relu/hardtanh, its result: same masks).
Tensor activation_backward(ActOp op, const Tensor& grad, const Tensor& x, const ActArgs& args,
                           const char* name);

// x where x > 0, else weight * x; weight has 1 or x.size(1) elements (channel dim 1).
Tensor prelu(const Tensor& x, const Tensor& weight);
// weight reshaped to broadcast against x (a 0-d tensor for a single weight).
Shape prelu_weight_shape(const Tensor& x, const Tensor& weight);

inline ActArgs act_args(double p0 = 0, double p1 = 0, double p2 = 0) { return ActArgs{p0, p1, p2}; }

}  // namespace tz
