// The copy and binary dispatch stubs; kernels/isa/*.cpp fill them in. Other kernel
// families define their stubs in their own kernels/<family>_stubs.cpp.
#include "kernels/binary.h"
#include "kernels/copy.h"

namespace tz {
DispatchStub<CopyKernel> copy_stub("copy");
DispatchStub<BinaryKernel> binary_stub("binary");
}  // namespace tz
