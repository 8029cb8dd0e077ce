// lerp: out (operand 0) <- a + w * (b - a) for operands a, b, w (1, 2, 3) of one floating or
// complex compute dtype, in PyTorch's two-sided form (exact at w = 0 and w = 1).
#pragma once
#include "iter/tensor_iter.h"

namespace tz {
void lerp_kernel(const TensorIter& iter, DType dtype);
}  // namespace tz
