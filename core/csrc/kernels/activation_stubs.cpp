#include "kernels/activation.h"

namespace tz {
DispatchStub<ActKernel> act_forward_stub("act_forward");
DispatchStub<ActKernel> act_backward_stub("act_backward");
DispatchStub<PreluKernel> prelu_stub("prelu");
}  // namespace tz
