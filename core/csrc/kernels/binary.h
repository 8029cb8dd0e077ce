// Broadcasting binary arithmetic: out (operand 0) <- f(a, b) (operands 1, 2), all of one
// compute dtype except for ops that write bool.
#pragma once
#include "iter/tensor_iter.h"
#include "kernels/dispatch.h"

namespace tz {

enum class BinaryOp : uint8_t {
  Add,  // a + alpha * b
  Sub,  // a - alpha * b
  Mul,
  Div,
};

using BinaryKernel = void (*)(const TensorIter& iter, DType dtype, BinaryOp op, Scalar alpha);
extern DispatchStub<BinaryKernel> binary_stub;

}  // namespace tz
