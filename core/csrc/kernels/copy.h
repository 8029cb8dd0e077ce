// Strided copy with dtype conversion: out (operand 0) <- in (operand 1).
#pragma once
#include "iter/tensor_iter.h"
#include "kernels/dispatch.h"

namespace tz {
using CopyKernel = void (*)(const TensorIter& iter, DType out, DType in);
extern DispatchStub<CopyKernel> copy_stub;
}  // namespace tz
