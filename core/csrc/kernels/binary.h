// Broadcasting binary kernels: out (operand 0) <- f(a, b) (operands 1, 2). `dtype` is the
// compute dtype both inputs have been converted to; the output has it too, except for the
// comparisons, which write bool. Logical ops are bitwise ops on inputs converted to bool.
#pragma once
#include "iter/tensor_iter.h"
#include "kernels/dispatch.h"

namespace tz {

enum class BinaryOp : uint8_t {
  Add,  // a + alpha * b
  Sub,  // a - alpha * b
  Mul,
  Div,
  DivTrunc, DivFloor, Remainder, Fmod,  // integer kernels raise on division by zero
  Pow, Atan2, Hypot, Copysign, Xlogy,
  Maximum, Minimum, Fmax, Fmin,
  BitAnd, BitOr, BitXor, Lshift, Rshift,
  Eq, Ne, Lt, Le,  // write bool (gt/ge are lt/le with the operands swapped)
};

using BinaryKernel = void (*)(const TensorIter& iter, DType dtype, BinaryOp op, Scalar alpha);
extern DispatchStub<BinaryKernel> binary_stub;

// The ops without a vectorised loop (integer division and remainder, libm calls): compiled
// once, called by every ISA build of the binary kernel.
void binary_scalar_kernel(const TensorIter& iter, DType dtype, BinaryOp op);

}  // namespace tz
