// The Winograd transforms' dispatch stubs; kernels/isa/conv_winograd_kernels.cpp fills them in.
#include "kernels/conv_winograd.h"

namespace tz {
DispatchStub<WinogradWeightFn> conv_winograd_weight_stub("conv_winograd_weight");
DispatchStub<WinogradTileFn> conv_winograd_input_stub("conv_winograd_input");
DispatchStub<WinogradTileFn> conv_winograd_output_stub("conv_winograd_output");
DispatchStub<WinogradTileFn> conv_winograd_grad_output_stub("conv_winograd_grad_output");
DispatchStub<WinogradWeightGradFn> conv_winograd_weight_grad_stub("conv_winograd_weight_grad");
}  // namespace tz
