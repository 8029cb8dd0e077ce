// The softmax dispatch stubs; kernels/isa/softmax_kernels.cpp fills it in.
#include "kernels/softmax.h"

namespace tz {
DispatchStub<SoftmaxFn> softmax_stub("softmax");
DispatchStub<SoftmaxBackwardFn> softmax_backward_stub("softmax_backward");
DispatchStub<VecExpFn> vec_exp_stub("vec_exp");
}  // namespace tz
