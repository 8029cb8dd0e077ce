// The inference compiler's fused inverted-residual block (MobileNetV2/V3): a depthwise
// convolution with an optional 1x1 expansion before it and an optional 1x1 projection (plus a
// residual) after it, both on weights packed for the tile kernel, run band by band of output
// rows. The rows a band's depthwise convolution reads are expanded into a per-thread scratch of
// L2's size just before it reads them, and its output rows are projected while they are still
// in cache: neither the expanded tensor (3.2 MB at MobileNetV3's first expansion) nor the
// depthwise output goes out to memory and back. Expanded rows the next band reads again are
// kept rather than made again. With a 5 wide depthwise kernel of stride 1 or 2, or a 3 wide
// one of stride 1, the expansion writes its rows in planes of one vector of channels with zero columns either side
// (DepthwiseBlockedArgs): the depthwise kernel then reads every tap at a fixed offset, and a
// plane's rows stay in L1 while it makes their output rows. A squeeze-excitation before the
// projection needs the whole image's depthwise output: its rows collect in a per-thread image,
// which is pooled, scaled and projected while still in L2; or, where threads share images or an
// image is small, every image is made and pooled first and its rows scaled as they are projected.
#pragma once
#include "kernels/conv.h"
#include "ops/value.h"
#include "tensor/tensor.h"

namespace tz {

// Squeeze-excitation between the depthwise convolution and the projection (MobileNetV3): each
// image's depthwise output times scale_act(fc2(fc1_act(fc1(its channel means)))).
struct SqueezeExcitation {
  Tensor fc1_weight;  // undefined (none), or conv_tile_pack of an (S, E, 1, 1) weight
  Tensor fc1_bias;    // (S) or undefined
  int64_t squeeze_channels = 0;  // S
  ConvAct fc1_act = ConvAct::None;
  Tensor fc2_weight;  // conv_tile_pack of an (E, S, 1, 1) weight
  Tensor fc2_bias;    // (E) or undefined
  ConvAct scale_act = ConvAct::None;
  bool defined() const { return fc1_weight.defined(); }
};

// What runs around the depthwise convolution, and its own arguments.
struct InvertedResidual {
  Tensor expand_weight;  // undefined (no expansion), or conv_tile_pack of an (E, C, 1, 1) weight
  Tensor expand_bias;    // (E) or undefined
  int64_t expanded_channels = 0;  // E; the input's C where there is no expansion
  ConvAct expand_act = ConvAct::None;
  Tensor dw_weight, dw_bias;  // (E, 1, KH, KW); (E) or undefined
  IntList stride, padding, dilation;
  ConvAct act = ConvAct::None;
  Tensor project_weight;  // undefined (no projection), or conv_tile_pack of a (P, E, 1, 1) weight
  Tensor project_bias;    // (P) or undefined
  int64_t out_channels = 0;  // P; E where there is no projection
  Tensor residual;           // added to the projection: undefined, or the output's shape
  SqueezeExcitation excitation;  // before the projection (which it needs), or undefined
};

// project(excite(act(depthwise(expand_act(expand(x)))))) + residual as an (N, P, OH, OW)
// tensor in channels-last memory; x (N, C, H, W) in any layout. With an excitation, an image
// whole per thread (the split of choose_split) of at least as many pixels as squeeze channels
// runs in cache from expansion to projection; otherwise the excitation's layers run once over
// all images between the two halves. Either way the same bits as the separate ops.
Tensor conv2d_inverted_residual(const Tensor& x, const InvertedResidual& block);

}  // namespace tz
