// Stubs of the random family's ISA kernels (kernels/isa/normal_kernels.cpp).
#include "kernels/random.h"

namespace tz {
DispatchStub<NormalBlocksKernel> normal_blocks_stub("normal_blocks");
}  // namespace tz
