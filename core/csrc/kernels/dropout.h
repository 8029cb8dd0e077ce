// The dropout kernel: operands (out, x, mask), mask bool and broadcast to x's shape.
//   plain:  out <- (x * mask) * scale                        (x * 0 keeps NaN, as in PyTorch)
//   affine: out <- x * (mask ? scale : 0) + (mask ? shift : fill)          (alpha dropout)
// `dtype` is the compute dtype, float32 or float64 (half types are converted by the front-end).
#pragma once
#include "iter/tensor_iter.h"
#include "kernels/dispatch.h"

namespace tz {

struct DropoutArgs {
  double scale = 1, shift = 0, fill = 0;
  bool affine() const { return shift != 0 || fill != 0; }
};

using DropoutKernel = void (*)(const TensorIter& iter, DType dtype, const DropoutArgs& args);
extern DispatchStub<DropoutKernel> dropout_stub;

}  // namespace tz
