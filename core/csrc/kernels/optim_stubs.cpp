// The fused optimizer dispatch stub; kernels/isa/optim_kernels.cpp fills it in.
#include "kernels/optim.h"

namespace tz {
DispatchStub<FusedOptimFn> fused_optim_stub("fused_optim");
}  // namespace tz
