// The dispatch stubs themselves; kernels/isa/*.cpp fill them in.
#include "kernels/binary.h"
#include "kernels/copy.h"

namespace tz {
DispatchStub<CopyKernel> copy_stub("copy");
DispatchStub<BinaryKernel> binary_stub("binary");
}  // namespace tz
