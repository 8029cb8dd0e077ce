// The softmax dispatch stub; kernels/isa/softmax_kernels.cpp fills it in.
#include "kernels/softmax.h"

namespace tz {
DispatchStub<SoftmaxFn> softmax_stub("softmax");
}  // namespace tz
