// Activation kernels (nn activations): forward out <- f(x) and fused backward
// grad_in <- grad_out * f'(x). `dtype` is the compute dtype: float32 or float64 (half types
// are converted to float32 by the front-end); Threshold also runs on integer dtypes.
#pragma once
#include "iter/tensor_iter.h"
#include "kernels/dispatch.h"

namespace tz {

enum class ActOp : uint8_t {
  Threshold,    // p0 = threshold, p1 = value (relu = Threshold(0, 0)); backward: x <= p0 -> 0
  LeakyRelu,    // p0 = negative_slope
  Hardtanh,     // p0 = min_val, p1 = max_val
  Elu,          // p0 = alpha, p1 = scale, p2 = input_scale (selu, celu)
  Gelu,         // exact: x * Phi(x)
  GeluTanh,     // approximate='tanh'
  Silu,
  Mish,
  Hardswish,
  Hardsigmoid,
  Softplus,     // p0 = beta, p1 = threshold
  Hardshrink,   // p0 = lambd
  Softshrink,   // p0 = lambd
  LogSigmoid,
};

struct ActArgs {
  double p0 = 0, p1 = 0, p2 = 0;
};

// Forward: operands (out, x). Backward: operands (grad_in, grad_out, x).
using ActKernel = void (*)(const TensorIter& iter, DType dtype, ActOp op, const ActArgs& args);
extern DispatchStub<ActKernel> act_forward_stub;
extern DispatchStub<ActKernel> act_backward_stub;

// prelu forward: operands (out, x, weight broadcast to x's shape).
using PreluKernel = void (*)(const TensorIter& iter, DType dtype);
extern DispatchStub<PreluKernel> prelu_stub;

}  // namespace tz
