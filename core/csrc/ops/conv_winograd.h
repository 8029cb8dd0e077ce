// Stride-1 3x3 convolutions through Winograd F(4x4, 3x3) (kernels/conv_winograd.h): the input
// in a zero-padded NHWC copy, tiles transformed in chunks, the 36 transform points' products
// per chunk on the tile kernel (1x1 convolutions over the tiles, the transformed weight
// packed for it), the output transformed back with the bias. Also the stride-1
// input gradient: the same convolution of the padded output gradient with the flipped,
// transposed weight; and the weight gradient, the adjoint: both the input and the output
// gradient transformed per tile, their products summed over the tiles by one batched GEMM
// per chunk, G^T . G back to the 3x3 taps.
#pragma once
#include "kernels/conv.h"
#include "ops/value.h"
#include "tensor/tensor.h"

namespace tz {

// Whether Winograd runs this forward convolution / this input gradient: 3x3, stride 1,
// dilation 1, groups 1, float32/64, where the measured table in conv_winograd.cpp says it
// wins (or forced: core._C._set_conv_algorithm('winograd')).
bool conv_winograd_forward_applies(const ConvShape& s, DType dtype);
// Whether a convolution of input with this weight (stride, padding, dilation, groups as
// conv2d's) runs Winograd on a weight transformed once by conv_winograd_pack (its own
// measured line): what _conv2d_fused's callers ask before they hand it one.
bool conv_winograd_pays(const Tensor& input, const Tensor& weight, const IntList& stride, const IntList& padding,
                        const IntList& dilation, int64_t groups);
bool conv_winograd_backward_data_applies(const ConvShape& s, DType dtype);
bool conv_winograd_backward_weight_applies(const ConvShape& s, DType dtype);

// conv(x, w) + bias as an (N, O, OH, OW) tensor in NHWC (nhwc_out) or NCHW memory; x in either.
Tensor conv_winograd_forward(const Tensor& x, const Tensor& w, const Tensor& bias, const ConvShape& s, bool nhwc_out);
// The weight (O, C, 3, 3) transformed for the forward once, for inference: a
// (36, plane / block, block) tensor whose layout depends on this CPU's tile kernel.
Tensor conv_winograd_pack(const Tensor& weight);
// conv_winograd_forward on such a weight: the caller's transform of its weight (the layout is
// checked against s's channels and this CPU's, the values cannot be).
Tensor conv_winograd_forward_packed(const Tensor& x, const Tensor& packed, const Tensor& bias, const ConvShape& s,
                                    bool nhwc_out);
// The input gradient (N, C, H, W) from gy (N, O, OH, OW).
Tensor conv_winograd_backward_data(const Tensor& gy, const Tensor& w, const ConvShape& s, bool nhwc_out);
// The weight gradient (O, C, 3, 3) from x (N, C, H, W) and gy (N, O, OH, OW), any layouts; in
// channels-last memory when nhwc_out.
Tensor conv_winograd_backward_weight(const Tensor& x, const Tensor& gy, const ConvShape& s, bool nhwc_out);

}  // namespace tz
