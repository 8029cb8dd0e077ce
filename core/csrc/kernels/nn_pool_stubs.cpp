// The pooling / resampling dispatch stubs; kernels/isa/nn_pool_kernels.cpp fills them in.
#include "kernels/nn_pool.h"

namespace tz {
DispatchStub<MaxPoolFn> max_pool_stub("max_pool");
DispatchStub<AvgPoolFn> avg_pool_stub("avg_pool");
DispatchStub<AvgPoolBackwardFn> avg_pool_backward_stub("avg_pool_backward");
DispatchStub<InterpFn> interp_stub("interp");
DispatchStub<InterpBackwardFn> interp_backward_stub("interp_backward");
DispatchStub<NearestFn> nearest_stub("nearest");
}  // namespace tz
