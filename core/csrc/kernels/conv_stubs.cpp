// The convolution dispatch stubs; kernels/isa/conv_kernels.cpp, conv_dw_blocked_kernels.cpp,
// conv_direct_kernels.cpp, conv_epilogue_kernels.cpp and conv_tile_kernels.cpp fill them in.
#include "kernels/conv.h"

namespace tz {
DispatchStub<DepthwiseFn> dw_fwd_nhwc_stub("depthwise_conv_nhwc");
DispatchStub<DepthwiseFn> dw_bwd_input_nhwc_stub("depthwise_conv_backward_input_nhwc");
DispatchStub<DepthwiseFn> dw_bwd_weight_nhwc_stub("depthwise_conv_backward_weight_nhwc");
DispatchStub<DepthwiseFn> dw_fwd_nchw_stub("depthwise_conv_nchw");
DispatchStub<DepthwiseFn> dw_bwd_input_nchw_stub("depthwise_conv_backward_input_nchw");
DispatchStub<DepthwiseLanesFn> dw_blocked_lanes_stub("depthwise_conv_blocked_lanes");
DispatchStub<DepthwiseBlockedFn> dw_fwd_blocked_stub("depthwise_conv_blocked");
DispatchStub<SmallInputConvFn> conv_small_input_stub("conv_small_input");
DispatchStub<ConvEpilogueFn> conv_epilogue_stub("conv_epilogue");
DispatchStub<ChannelScaleFn> conv_channel_scale_stub("conv_channel_scale");
DispatchStub<TileConvBlockFn> conv_tile_block_stub("conv_tile_block");
DispatchStub<TileConvFn> conv_tile_stub("conv_tile");
}  // namespace tz
