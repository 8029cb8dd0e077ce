// Convolution kernels. Every convolution is described by the geometry of a regular
// (non-transposed) 2-d convolution, input (N, C, H, W), weight (O, C/groups, KH, KW),
// output (N, O, OH, OW); transposed convolutions run its data-gradient kernel.
//   - im2col / col2im (kernels/conv_im2col.cpp, plain C++): NCHW images give a column
//     matrix (C*KH*KW, OH*OW), NHWC images its transpose-like (OH*OW, KH*KW*C).
//   - depthwise (groups == C, O = C * multiplier): hand-written direct kernels in
//     kernels/isa/conv_kernels.cpp for NHWC (channels in vector lanes) and NCHW (output
//     columns in lanes, four rows at a time, over a zero-padded copy of the plane; the weight
//     gradient always runs in NHWC). Every build accumulates each output's
//     taps in the same order with fused multiply-adds (FMA instructions in the AVX2/AVX-512
//     builds, std::fma in the baseline: one rounding each), so the baseline, AVX2 and
//     AVX-512 builds give bit-identical results. A third forward kernel reads channel-blocked
//     planes with zero columns, for the fused inverted-residual block's expanded rows
//     (kernels/isa/conv_dw_blocked_kernels.cpp).
//   - few input channels (groups == 1, C <= 4: image stems): a direct forward kernel with
//     output channels in lanes, and for NCHW a direct weight gradient with output columns in
//     lanes (kernels/isa/conv_direct_kernels.cpp).
//   - the inference epilogue of _conv2d_fused (bias, residual add, activation) on a block of
//     output (kernels/isa/conv_epilogue_kernels.cpp).
//   - regular KxK (groups == 1, more input channels): a direct kernel over a zero-padded NHWC
//     copy of the input, tiles of pixels x blocks of output channels in lanes, weights packed
//     per block (kernels/isa/conv_tile_kernels.cpp); also the stride-1 input gradient, as the
//     convolution of the padded output gradient with the flipped, transposed weight.
//   - stride-1 3x3 (groups == 1): Winograd F(4x4, 3x3)'s transforms, kernels/conv_winograd.h.
#pragma once
#include <cstdint>

#include "kernels/dispatch.h"
#include "tensor/dtype.h"

namespace tz {

struct ConvShape {
  int64_t N, C, H, W;   // input of the regular convolution
  int64_t O, KH, KW;    // weight (O, C / groups, KH, KW)
  int64_t OH, OW;       // output
  int64_t sh, sw, ph, pw, dh, dw;
  int64_t groups;
  int64_t cg() const { return C / groups; }
  int64_t og() const { return O / groups; }
};

// Output positions o in [0, out_len) whose input index o * stride + offset lies in [0, in_len).
struct ConvRange { int64_t lo, hi; };
inline ConvRange conv_valid_range(int64_t out_len, int64_t in_len, int64_t stride, int64_t offset) {
  int64_t lo = offset >= 0 ? 0 : (-offset + stride - 1) / stride;
  int64_t hi = in_len - offset <= 0 ? 0 : (in_len - offset - 1) / stride + 1;
  lo = lo < out_len ? lo : out_len;
  hi = hi < out_len ? hi : out_len;
  return {lo, hi > lo ? hi : lo};
}

// NCHW image: `nc` channels H*W apart starting at x; col is (nc*KH*KW) x (OH*OW), rows
// `row_step` values apart (0: OH*OW; wider when several images' columns sit side by side).
template <typename T> void im2col_nchw(const T* x, int64_t nc, const ConvShape& s, T* col, int64_t row_step = 0);
// Adds col back into the zero-initialised image x (the adjoint of im2col_nchw); col's element
// (row r, output position p) at r * row_step + p * pos_step (row_step 0: OH*OW).
template <typename T>
void col2im_nchw(const T* col, int64_t nc, const ConvShape& s, T* x, int64_t row_step = 0, int64_t pos_step = 1);
// NHWC image (pixels s.C apart, rows s.W*s.C apart): channels [0, nc) from x; col is
// (OH*OW) x (KH*KW*nc), columns ordered (kh, kw, c).
template <typename T> void im2col_nhwc(const T* x, int64_t nc, const ConvShape& s, T* col);
template <typename T> void col2im_nhwc(const T* col, int64_t nc, const ConvShape& s, T* x);

// The activations an inference convolution can apply to its outputs (see conv_epilogue_stub).
enum class ConvAct : uint8_t { None, Relu, Relu6, Hardswish, Hardsigmoid };

// Arguments of the depthwise kernels (groups == C, O == C * mult). Float32 or Float64.
// Weight layouts: NCHW kernels take (O, KH, KW) as stored; NHWC kernels take
// (mult, KH, KW, C), i.e. w[m, kh, kw, c] = weight[c * mult + m, 0, kh, kw].
struct DepthwiseArgs {
  ConvShape s;
  const void* in;    // fwd: input; bwd_input: grad_output; bwd_weight: input
  const void* w;     // fwd / bwd_input: weight; bwd_weight: grad_output
  const void* bias;  // fwd only, may be null; NHWC: (mult, C) like the weight
  void* out;         // fwd: output; bwd_input: grad_input; bwd_weight: weight grad (accumulated)
  ConvAct act = ConvAct::None;  // fwd NHWC only: applied to the outputs in registers, before the store
  // fwd NHWC only: elements from one output pixel to the next (0: O, dense rows); wider when
  // the output is a group of channels of a wider tensor.
  int64_t y_step = 0;
  // fwd NHWC only: elements from one tap's weights to the next (0: C); wider when the channels
  // are a group of a wider weight (w then points at the group's first channel).
  int64_t w_step = 0;
};
// Runs tasks [begin, end):
//   fwd:        NHWC: output rows (n, oh);  NCHW: output planes (n, o)
//   bwd_input:  NHWC: input rows (n, h);    NCHW: input planes (n, c)
//   bwd_weight: NHWC only (NCHW inputs are transposed first): output rows (n, oh), adding
//               into out (mult, KH, KW, C)
using DepthwiseFn = void (*)(DType dtype, const DepthwiseArgs& a, int64_t begin, int64_t end);
extern DispatchStub<DepthwiseFn> dw_fwd_nhwc_stub;
extern DispatchStub<DepthwiseFn> dw_bwd_input_nhwc_stub;
extern DispatchStub<DepthwiseFn> dw_bwd_weight_nhwc_stub;
extern DispatchStub<DepthwiseFn> dw_fwd_nchw_stub;
extern DispatchStub<DepthwiseFn> dw_bwd_input_nchw_stub;

// The depthwise shapes with fixed-size kernels (undilated along rows, 3 or 5 wide, stride 1
// or 2): the NHWC kernel's eight-pixel steps and the channel-blocked kernel take only these.
inline bool dw_fixed_form(const ConvShape& s) {
  return s.dw == 1 && (s.KW == 3 || s.KW == 5) && (s.sw == 1 || s.sw == 2);
}

// The depthwise forward over a channel-blocked input, for a shape with dw_fixed_form: planes
// of `lanes` channels (dw_blocked_lanes_stub; the last plane's spare lanes hold any finite
// values), each (H, W + 2 * pw, lanes) with pw zero columns either side of every row, so
// every tap of every output pixel lies inside its plane. Rows outside [0, H) are skipped, as
// the NHWC kernel skips them (ph: the padding rows above row 0, as usual). Each output adds its
// taps from the bias in (kh, kw) order with fused multiply-adds, the zero columns' taps
// included: the NHWC kernel's bits wherever no weight is infinite or NaN and no bias is -0.
struct DepthwiseBlockedArgs {
  ConvShape s;       // s.N == 1
  const void* in;    // planes of the input
  int64_t plane;     // elements from one plane to the next
  const void* w;     // (KH, KW, w_step): channel c's taps at c, w_step apart (as DepthwiseArgs)
  int64_t w_step;
  const void* bias;  // (C), or null
  void* out;         // NHWC: channel c of output pixel (oh, ow) at (oh * OW + ow) * y_step + c
  int64_t y_step;
  ConvAct act = ConvAct::None;  // applied before the store
};
// Vector lanes of this build for float32 / float64: the blocked planes' width.
using DepthwiseLanesFn = int64_t (*)(DType dtype);
extern DispatchStub<DepthwiseLanesFn> dw_blocked_lanes_stub;
// Runs the planes [begin, end), every output row of each.
using DepthwiseBlockedFn = void (*)(DType dtype, const DepthwiseBlockedArgs& a, int64_t begin, int64_t end);
extern DispatchStub<DepthwiseBlockedFn> dw_fwd_blocked_stub;

// Regular convolutions with few input channels (groups == 1, the image stems): a direct
// kernel with output channels in vector lanes, each tap one broadcast input value.
// Weight packed as (KH, KW, C, Opad), Opad = O rounded up to 64 bytes' worth (a whole number
// of vectors in every build), zeros past O.
// Input and output in NCHW or NHWC memory, told by their element strides.
struct SmallInputConvArgs {
  ConvShape s;
  const void* x;
  const void* w;     // packed as above
  const void* bias;  // (O,), may be null
  void* y;
  int64_t opad;
  int64_t x_c, x_h, x_w;  // input strides of a channel, row and column (within one image)
  int64_t y_o, y_w;       // output strides of a channel and column (rows follow columns)
  ConvAct act = ConvAct::None;  // applied to the outputs in registers, before the store
};
// Runs output rows (n, oh) in [begin, end).
using SmallInputConvFn = void (*)(DType dtype, const SmallInputConvArgs& a, int64_t begin, int64_t end);
extern DispatchStub<SmallInputConvFn> conv_small_input_stub;

// The inference epilogue fused into a regular convolution: y = act(y + bias + residual), over
// n consecutive elements of the output (bias: null, or `channels` values for NHWC rows of
// `channels` elements, n a multiple of it; residual: the same elements of a tensor of the
// output's layout, or null). The activations compute as the eager activation kernels do
// (hardswish/hardsigmoid to about an ulp: they multiply by 1/6).
using ConvEpilogueFn = void (*)(DType dtype, ConvAct act, void* y, const void* bias, int64_t channels,
                                const void* residual, int64_t n);
extern DispatchStub<ConvEpilogueFn> conv_epilogue_stub;

// Squeeze-excitation's scale of a channels-last image: x[p * channels + c] *= scale[c] for
// `pixels` pixels, one rounding each, as mul's.
using ChannelScaleFn = void (*)(DType dtype, void* x, const void* scale, int64_t pixels, int64_t channels);
extern DispatchStub<ChannelScaleFn> conv_channel_scale_stub;

// Regular convolutions (groups == 1) as tiles of pixels x blocks of output channels in
// vector lanes. The input is a zero-padded NHWC copy, so every tap of every pixel is inside
// it: x (N, Hp, Wp, C) with Hp = (OH - 1) * sh + (KH - 1) * dh + 1 or more, likewise Wp.
// The weight is packed per block of `block` output channels, (ceil(O / block), KH, KW, C,
// block), zeros past O; `block` is conv_tile_block_stub's answer for the dtype (each ISA
// build has its own). Output y (N, OH, OW, O) in NHWC memory. Every build adds each output's
// taps in (kh, kw, c) order, bias first, with fused multiply-adds: bit-identical results.
// The epilogue (act(conv + residual)) is applied to the accumulators before they are stored.
// A block narrower than `block` (the last one) accumulates only the vectors it needs.
struct TileConvArgs {
  ConvShape s;  // s.H, s.W and the paddings are ignored: Hp and Wp describe the input
  int64_t Hp, Wp;
  const void* x;
  const void* w;     // packed as above
  const void* bias;  // (O,), may be null
  void* y;
  ConvAct act = ConvAct::None;
  const void* residual = nullptr;  // (N, OH, OW, O) like y, may be null
  // Output pixel (n, oh, ow) (and its residual) at ((n * y_h + oh * y_sh) * y_w + ow * y_sw) * O
  // from y; y_h = 0: the dense (N, OH, OW, O) above. The stride-phase sub-convolutions of a
  // strided input gradient each write every y_sh-th row and y_sw-th column of it.
  int64_t y_h = 0, y_w = 0, y_sh = 1, y_sw = 1;
  // Output channel layout: y_pixel elements from one output pixel to the next (0: O, channels
  // interleaved), y_vector from one vector of lanes to the next (0: lanes, channels
  // contiguous). A channel-blocked output (y_pixel = lanes, y_vector = the plane's size, see
  // DepthwiseBlockedArgs) takes the last block's vectors whole, spare lanes included; the
  // residual must be null there (it is read in the dense layout).
  int64_t y_pixel = 0, y_vector = 0;
  // Task order: (group of blocks, tile) pairs, groups outermost (a group's weights stay in
  // cache over all pixels), each task running its group's `group_blocks` consecutive blocks
  // over its tile (the last group may have fewer): one block, up to all of them (the output's
  // lines written once, whole, and each input pixel read once: for weights that fit L1).
  int64_t group_blocks = 1;
  // Groups outermost only within chunks of this many tiles (0: all of them): a chunk's input
  // stays in cache while every group runs over it, rather than streaming in once per group.
  int64_t chunk_tiles = 0;
};
// Output channels per block of this build for float32 / float64.
using TileConvBlockFn = int64_t (*)(DType dtype);
extern DispatchStub<TileConvBlockFn> conv_tile_block_stub;
// Output pixels per tile (consecutive in (n, oh, ow) order; the last tile may be shorter),
// and the tasks: (group of blocks, tile) pairs, chunks of tiles outermost, then groups.
constexpr int64_t kConvTilePixels = 6;
inline int64_t conv_tile_count(const ConvShape& s) { return (s.N * s.OH * s.OW + kConvTilePixels - 1) / kConvTilePixels; }
inline int64_t conv_tile_tasks(const ConvShape& s, int64_t block, int64_t group_blocks) {
  const int64_t blocks = (s.O + block - 1) / block;
  return (blocks + group_blocks - 1) / group_blocks * conv_tile_count(s);
}
// Runs tasks [begin, end).
using TileConvFn = void (*)(DType dtype, const TileConvArgs& a, int64_t begin, int64_t end);
extern DispatchStub<TileConvFn> conv_tile_stub;

}  // namespace tz
