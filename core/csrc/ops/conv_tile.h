// Regular convolutions through the tile kernel (kernels/conv.h, TileConvArgs): a zero-padded
// NHWC copy of the input, the weight packed per block of output channels, and the input
// gradient as the convolution of the padded output gradient with the flipped weight (strided:
// one per stride phase, each writing its rows and columns of the input gradient).
#pragma once
#include "kernels/conv.h"
#include "ops/value.h"
#include "tensor/tensor.h"

namespace tz {

// Which algorithm regular (not 1x1, groups == 1) convolutions take: by the measured table in
// conv_tile.cpp, or forced (tests and benchmarks: core._C._set_conv_algorithm).
enum class ConvAlgorithm { Auto, Tile, Gemm, Winograd };
void set_conv_algorithm(ConvAlgorithm a);
ConvAlgorithm conv_algorithm();

// Whether the tile kernel runs this forward convolution / this input gradient (groups == 1,
// float32/64, by the table or forced); for 1x1 stride-1 convolutions (otherwise BLAS's), by
// their input channels.
bool conv_tile_forward_applies(const ConvShape& s, DType dtype);
// Whether the tile kernel runs every block in one task (TileConvArgs::group_blocks) for a
// packed weight of this size: where it stays in L1.
bool conv_tile_pixels_outer(int64_t packed_weight_bytes);
// Whether this build's tile blocks are at most 64 bytes (AVX2, SSE2), where some paths lose.
bool narrow_tile_build(DType dtype);
bool conv_tile_pointwise_applies(const ConvShape& s, DType dtype);
bool conv_tile_backward_data_applies(const ConvShape& s, DType dtype);

// x (N, C, H, W) in any layout -> (N, Hp, Wp, Cp) contiguous (Cp >= C) with x at (top, left),
// zeros around and in channels past C; rows and columns of x past Hp or Wp are left out
// (the kernels never read them).
Tensor padded_nhwc(const Tensor& x, int64_t top, int64_t left, int64_t Hp, int64_t Wp, int64_t Cp);

// The weight as the kernel reads it: element (o, c, kh, kw) of the convolution at
// w + o * so + c * sc + kh * skh + kw * skw (any layout, and the input gradient's flipped,
// transposed view of the forward weight without a copy of it).
struct WeightView {
  const void* w;
  int64_t O, C, KH, KW;
  int64_t so, sc, skh, skw;
};
// The forward weight as it is; the input gradient's: channels swapped, taps reversed.
WeightView forward_view(const Tensor& w);
WeightView input_grad_view(const Tensor& w);

// conv(x, w) + bias as an (N, O, OH, OW) tensor in NHWC (nhwc_out) or NCHW memory; x in either.
// With an NHWC output, the epilogue act(y + residual) too (residual: NHWC memory, y's dtype).
Tensor conv_tile_forward(const Tensor& x, const Tensor& w, const Tensor& bias, const ConvShape& s, bool nhwc_out,
                         ConvAct act = ConvAct::None, const Tensor& residual = Tensor());
// The inference compiler's prepacked convolutions (groups == 1, float32 or float64): the weight
// (O, C, KH, KW) packed once as this build's tile kernel reads it, (ceil(O / block), KH, KW, C,
// block), and convolutions that run on it, NHWC out, with the epilogue act(y + residual).
Tensor conv_tile_pack(const Tensor& weight);
// Raises (naming `op`) unless an input (named `input` in messages) of in_channels and float dtype
// dt, and this CPU's block width, fit `packed`, a weight of out_channels packed by conv_tile_pack.
void check_prepacked(const Tensor& packed, int64_t in_channels, DType dt, int64_t out_channels, const char* op,
                     const char* input = "the input");
// `a` given the packed weight wp and the task order for its size (TileConvArgs::group_blocks,
// chunk_tiles): what conv_tile_stub needs beyond the geometry.
TileConvArgs with_packed_weight(TileConvArgs a, const Tensor& wp);
// Checks the ops on packed weights share, naming `op` in their messages: `v` (the stride,
// padding or dilation, named `what`) holds two values of at least `least`; `vector` (named
// `what`: "a bias", ...) is undefined or `channels` values of dtype dt; `residual` is undefined
// or of the output's shape `out` and dtype dt.
void check_conv_pair(const IntList& v, const char* what, int64_t least, const char* op);
void check_channel_vector(const Tensor& vector, int64_t channels, DType dt, const char* what, const char* op);
void check_residual(const Tensor& residual, const Shape& out, DType dt, const char* op);
Tensor conv2d_prepacked(const Tensor& x, const Tensor& packed, const Tensor& bias, int64_t out_channels,
                        const IntList& stride, const IntList& padding, const IntList& dilation, ConvAct act,
                        const Tensor& residual);
// The input gradient (N, C, H, W) from gy (N, O, OH, OW); strided: by stride phase (undilated).
Tensor conv_tile_backward_data(const Tensor& gy, const Tensor& w, const ConvShape& s, bool nhwc_out);

}  // namespace tz
