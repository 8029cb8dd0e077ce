// Dispatch stubs of the elementwise family (binary_stub lives in basic_stubs.cpp).
#include "kernels/unary.h"

namespace tz {
DispatchStub<UnaryKernel> unary_stub("unary");
DispatchStub<ClampKernel> clamp_stub("clamp");
}  // namespace tz
