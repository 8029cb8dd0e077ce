// The inference compiler's fused pair of an inverted-residual block (MobileNetV2/V3): a 1x1
// expansion on a weight packed for the tile kernel, then a depthwise convolution of what it
// makes, band by band of output rows. The expanded rows a band reads are made into a
// per-thread scratch of L2's size just before the depthwise kernel reads them, so the
// expanded tensor (3.2 MB at MobileNetV3's first 112x112 expansion) never goes out to memory
// and back; rows the next band reads again are kept rather than made again.
#pragma once
#include "kernels/conv.h"
#include "ops/value.h"
#include "tensor/tensor.h"

namespace tz {

// act(depthwise(expand_act(conv1x1(x, expand_packed) + expand_bias), dw_weight) + dw_bias) as an
// (N, E, OH, OW) tensor in channels-last memory; x (N, C, H, W) in any layout, expand_packed
// conv_tile_pack of an (E, C, 1, 1) weight, dw_weight (E, 1, KH, KW), stride / padding /
// dilation the depthwise convolution's.
Tensor conv2d_expand_depthwise(const Tensor& x, const Tensor& expand_packed, const Tensor& expand_bias,
                               int64_t expanded_channels, ConvAct expand_act, const Tensor& dw_weight,
                               const Tensor& dw_bias, const IntList& stride, const IntList& padding,
                               const IntList& dilation, ConvAct act);

}  // namespace tz
