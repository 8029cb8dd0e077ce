#include "ops/conv_tile.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <optional>
#include <vector>

#include "iter/thread_pool.h"
#include "ops/conv.h"
#include "ops/conversion.h"
#include "ops/creation.h"
#include "ops/views.h"
#include "tensor/memory_format.h"

namespace tz {

namespace {

std::atomic<ConvAlgorithm> g_algorithm{ConvAlgorithm::Auto};
constexpr int64_t kTileMinPixels = 256;
// Input channels up to which a 1x1 NHWC convolution runs on the tile kernel rather than on
// BLAS, whose packing and passes over the output dominate at small K (1 thread, loaded
// machine, issue 22: 112x112 16->64 249 vs 358 us, 16->16 99 vs 113; 32->96 at 56x56 144 vs
// 179 but 24->72 114 vs 100 and 40->120 at 28x28 73 vs 66: BLAS from 24 on). With pixels
// outermost and a tile per block call (the AVX2 EPYC, 1 thread, load 5-7, _conv2d_fused,
// three interleaved runs): 24->72 + relu at 56x56 0.90-0.92x BLAS's time; 64->24 1.00-1.08x,
// 72->24 + residual 0.94-1.12x, 72->40 at 28x28 1.03-1.11x: BLAS from 32 on.
constexpr int64_t kTilePointwiseMaxChannels = 24;

bool tile_kernel_fits(const ConvShape& s, DType dtype) {
  return s.groups == 1 && (dtype == DType::Float32 || dtype == DType::Float64);
}

// Where the tile kernel beats im2col + GEMM (benchmarks/bench_conv_paths.py on the 2-core
// AVX-512 Xeon, issue 29): it loses where half or more of the lanes of its channel blocks
// would be padding (32 output channels in a block of 64: 1.3-1.7x slower), and below about
// 256 output pixels, where packing the weight (one pass over it per call) costs as much as
// the GEMM path's whole convolution. `out_channels` and `pixels` of the convolution the
// kernel runs (the input gradient's: the input's channels and pixels).
bool tile_kernel_wins(int64_t out_channels, int64_t pixels, int64_t block) {
  const int64_t padded = (out_channels + block - 1) / block * block;
  return 2 * out_channels > padded && pixels >= kTileMinPixels;
}

// On builds whose tile blocks are two AVX2 vectors (64 bytes; SSE2's are narrower) strided
// convolutions lose to im2col + GEMM (bench_conv_paths.py, 1 thread, the 2-core AVX2 EPYC,
// issue 28: 3x3 stride 2 at 14x14 to 56x56 and 1 or 8 images 1.17-1.78x slower, DCGAN's 4x4
// stride 2 at batch 64: 256 -> 128 channels at 16x16 1.1x, 64 -> 128 at 32x32 1.3x) except
// on the smallest images: 256 -> 512 channels at 8x8 (4x4 outputs) 0.7-0.9x.
constexpr int64_t kNarrowStridedMaxPixels = 16;  // output pixels per image

bool narrow_strided_loses(const ConvShape& s, DType dtype) {
  return (s.sh > 1 || s.sw > 1) && narrow_tile_build(dtype) && s.OH * s.OW > kNarrowStridedMaxPixels;
}

// Whether _set_conv_algorithm('tile' / 'gemm') forces the tile kernel; none: the tables decide.
std::optional<bool> forced_tile() {
  switch (g_algorithm.load()) {
    case ConvAlgorithm::Tile: return true;
    case ConvAlgorithm::Gemm: return false;
    case ConvAlgorithm::Auto:
    case ConvAlgorithm::Winograd: break;  // where Winograd does not apply, the table decides
  }
  return std::nullopt;
}

// Dilated convolutions stay on their own paths (ops/conv_dilated.cpp, im2col + GEMM) unless
// forced (the kernel takes them; the table has no measurements of them yet).
// `loses`: known to lose here (most of the kernel's taps would multiply padding, work the GEMM
// path skips; or narrow_strided_loses).
bool chosen(const ConvShape& s, int64_t out_channels, int64_t pixels, DType dtype, bool loses = false) {
  if (const auto forced = forced_tile()) return *forced;
  return s.dh == 1 && s.dw == 1 && !loses && tile_kernel_wins(out_channels, pixels, conv_tile_block_stub(dtype));
}

// The input gradient is a convolution over gy padded to the input's size, H*W taps per kernel
// tap where the GEMM path does OH*OW: far more where gy is smaller than the input (a
// transposed convolution of a 1x1 input to 4x4: 16x, and 3.5x slower than oneDNN).
bool gradient_padding_bound(const ConvShape& s) { return 4 * s.H * s.W > 5 * s.OH * s.OW; }

// The padded height (width) the tile kernel reads: every tap of every output.
int64_t reach(int64_t out, int64_t stride, int64_t k, int64_t dilation) { return (out - 1) * stride + (k - 1) * dilation + 1; }

// -> (ceil(O / block), KH, KW, C, block), zeros past O, written in order: each packed row
// gathers one element from each of the block's weight rows (their pointers kept in an array),
// and the next row reads the neighbours of those elements, in the same cache lines for the
// usual layouts. (A version that walked the weight rows in chunks of channels, with
// prefetches, spent 7-8 cycles per element on loop bookkeeping: 60% of a 672 -> 160 1x1
// convolution at 7x7.)
template <typename T> void pack_blocks(const WeightView& v, int64_t block, int64_t b0, int64_t b1, T* out) {
  const T* w = static_cast<const T*>(v.w);
  std::vector<const T*> src(static_cast<size_t>(block));
  for (int64_t b = b0; b < b1; ++b) {
    const int64_t o0 = b * block, rows = std::min(block, v.O - o0);
    for (int64_t j = 0; j < rows; ++j) src[j] = w + (o0 + j) * v.so;
    T* dst = out + b * v.KH * v.KW * v.C * block;
    for (int64_t kh = 0; kh < v.KH; ++kh)
      for (int64_t kw = 0; kw < v.KW; ++kw) {
        const int64_t tap = kh * v.skh + kw * v.skw;
        for (int64_t c = 0; c < v.C; ++c, dst += block) {
          const int64_t at = tap + c * v.sc;
          for (int64_t j = 0; j < rows; ++j) dst[j] = src[j][at];
          for (int64_t j = rows; j < block; ++j) dst[j] = T(0);
        }
      }
  }
}

Tensor packed_weight(const WeightView& v, DType dt, int64_t block) {
  const int64_t nb = (v.O + block - 1) / block, per_block = v.KH * v.KW * v.C * block;
  Tensor out = Tensor::empty({nb, v.KH, v.KW, v.C, block}, dt);
  const int64_t grain = std::max<int64_t>(1, (int64_t(1) << 16) / std::max<int64_t>(1, per_block));
  parallel_for(0, nb, grain, [&](int64_t b0, int64_t b1) {
    if (dt == DType::Float64) pack_blocks(v, block, b0, b1, out.data<double>());
    else pack_blocks(v, block, b0, b1, out.data<float>());
  });
  return out;
}

// Packed weights up to this size (L1's) run pixels outermost (every block in one task): they
// stay in L1 while each output line is written once and each input pixel read once (1x1 NHWC
// at 28x28, tile / BLAS time, 16 -> 32 KiB: 40->120 1.49 -> 1.07x, 120->40 + residual 1.21 ->
// 1.09x; 128 KiB: no clear gain at 40->240, 38 KiB). Larger ones run groups of blocks whose
// weights come to at most this size (TileConvArgs::group_blocks): 40 -> 240 at 28x28 went from
// 1.15x BLAS's time to 0.86x.
constexpr int64_t kPixelsOuterMaxWeightBytes = 32 << 10;

// The input a chunk of tiles reads (TileConvArgs::chunk_tiles), about: half of a 512 KiB L2.
// Without chunks, 256 -> 64 1x1 channels at 56x56 and batch 8 streamed its 26 MB input once
// per block of output channels, 1.5x slower than BLAS.
constexpr int64_t kChunkInputBytes = 256 << 10;

}  // namespace

TileConvArgs with_packed_weight(TileConvArgs a, const Tensor& wp) {
  a.w = wp.raw_data();
  const int64_t blocks = std::max<int64_t>(1, wp.size(0));
  // (no input channels: a weight of no bytes, and outputs that are their bias)
  const int64_t block_bytes = std::max<int64_t>(1, wp.numel() / blocks * wp.itemsize());
  a.group_blocks = std::clamp<int64_t>(kPixelsOuterMaxWeightBytes / block_bytes, 1, blocks);
  // each output pixel reads KH input rows of C values
  a.chunk_tiles =
      std::max<int64_t>(1, kChunkInputBytes / std::max<int64_t>(1, kConvTilePixels * a.s.KH * a.s.C * wp.itemsize()));
  return a;
}

namespace {

// Runs every task of `a` over the pool with the weight wp, packed as the kernel reads it.
void run_packed(const TileConvArgs& args, const Tensor& wp, DType dt) {
  const int64_t block = conv_tile_block_stub(dt);
  if (wp.size(0) == 0) return;  // no output channels
  const TileConvArgs a = with_packed_weight(args, wp);
  const int64_t work = kConvTilePixels * a.group_blocks * block * a.s.KH * a.s.KW * a.s.C;  // multiply-adds per task
  parallel_for(0, conv_tile_tasks(a.s, block, a.group_blocks), std::max<int64_t>(1, (int64_t(1) << 18) / work),
               [&](int64_t begin, int64_t end) { conv_tile_stub(dt, a, begin, end); });
}

// Packs `v` as the kernel reads it and runs every task of `a` with it.
void run_tasks(const TileConvArgs& a, const WeightView& v, DType dt) {
  run_packed(a, packed_weight(v, dt, conv_tile_block_stub(dt)), dt);
}

// An (N, H, W, C) tensor as the NCHW-shaped result: NHWC memory as it is, or made NCHW.
Tensor from_rows(const Tensor& y, bool nhwc_out) {
  Tensor nchw_shaped = permute(y, {0, 3, 1, 2});
  return nhwc_out ? nchw_shaped : contiguous(nchw_shaped);
}

// The tile kernel on padded NHWC x (N, Hp, Wp, C) and the weight `v` (or `packed`, already
// packed); the epilogue (act, residual) only with an NHWC output.
Tensor run_tiles(const Tensor& xpad, const WeightView& v, const Tensor& bias, const ConvShape& s, bool nhwc_out,
                 ConvAct act = ConvAct::None, const Tensor& residual = Tensor(), const Tensor& packed = Tensor()) {
  const DType dt = xpad.dtype();
  Tensor b = bias.defined() ? contiguous(bias) : Tensor();
  Tensor y = Tensor::empty({s.N, s.OH, s.OW, s.O}, dt);
  const TileConvArgs a{s, xpad.size(1), xpad.size(2), xpad.raw_data(), nullptr, b.defined() ? b.raw_data() : nullptr,
                       y.raw_data(), act, residual.defined() ? residual.raw_data() : nullptr};
  if (packed.defined()) run_packed(a, packed, dt);
  else run_tasks(a, v, dt);
  return from_rows(y, nhwc_out);
}

// x as the kernel reads it: padded NHWC, or as it is (channels-last without padding: its rows
// and columns past the taps' reach are never touched).
Tensor kernel_input(const Tensor& x, const ConvShape& s) {
  const int64_t Hp = reach(s.OH, s.sh, s.KH, s.dh), Wp = reach(s.OW, s.sw, s.KW, s.dw);
  const bool as_is = s.ph == 0 && s.pw == 0 && is_contiguous_as(x, MemoryFormat::ChannelsLast);
  return as_is ? permute(x, {0, 2, 3, 1}) : padded_nhwc(x, s.ph, s.pw, Hp, Wp, s.C);
}

// One dimension of a strided input gradient taken apart by stride phase: the `count` input
// positions stride * i + r take the weight's taps first + stride * j (j < taps) from the
// output positions i + lead - j, a stride-1 correlation over the output gradient.
struct Phase {
  int64_t count, first, taps, lead;
};
Phase phase_of(int64_t r, int64_t in_len, int64_t stride, int64_t pad, int64_t k) {
  const int64_t t = (r + pad) % stride;
  return {std::max<int64_t>(0, (in_len - r + stride - 1) / stride), t, (k - t + stride - 1) / stride,
          (r + pad) / stride};
}

// The weight of phase (ph, pw) as the correlation reads it: channels swapped, its taps reversed.
WeightView phase_view(const Tensor& w, const Phase& ph, const Phase& pw, int64_t sh, int64_t sw) {
  const int64_t last = (ph.first + sh * (ph.taps - 1)) * w.stride(2) + (pw.first + sw * (pw.taps - 1)) * w.stride(3);
  return {static_cast<const char*>(w.raw_data()) + last * w.itemsize(), w.size(1), w.size(0), ph.taps, pw.taps,
          w.stride(1), w.stride(0), -sh * w.stride(2), -sw * w.stride(3)};
}

// The strided (undilated) input gradient as stride_h * stride_w stride-1 correlations of one
// padded copy of gy, each writing its phase's rows and columns of gx: no column matrix and
// no col2im, and no multiply-adds with the zeros a dilated gy would hold.
Tensor strided_backward_data(const Tensor& gy, const Tensor& w, const ConvShape& s, bool nhwc_out) {
  std::vector<Phase> rows(s.sh), cols(s.sw);
  for (int64_t r = 0; r < s.sh; ++r) rows[r] = phase_of(r, s.H, s.sh, s.ph, s.KH);
  for (int64_t r = 0; r < s.sw; ++r) cols[r] = phase_of(r, s.W, s.sw, s.pw, s.KW);
  // One padding for every phase: the most any reads before gy's start, and the farthest reach.
  int64_t top = 0, left = 0, Hp = 0, Wp = 0;
  for (const Phase& p : rows) top = std::max(top, p.taps - 1 - p.lead);
  for (const Phase& p : cols) left = std::max(left, p.taps - 1 - p.lead);
  for (const Phase& p : rows) Hp = std::max(Hp, top + p.lead + p.count);
  for (const Phase& p : cols) Wp = std::max(Wp, left + p.lead + p.count);
  const DType dt = gy.dtype();
  Tensor xpad = padded_nhwc(gy, top, left, Hp, Wp, s.O);
  Tensor gx = Tensor::empty({s.N, s.H, s.W, s.C}, dt);
  const char* x = static_cast<const char*>(xpad.raw_data());
  char* y = static_cast<char*>(gx.raw_data());
  for (int64_t rh = 0; rh < s.sh; ++rh)
    for (int64_t rw = 0; rw < s.sw; ++rw) {
      const Phase &ph = rows[rh], &pw = cols[rw];
      if (ph.count == 0 || pw.count == 0) continue;
      const ConvShape t{s.N, s.O, Hp, Wp, s.C, ph.taps, pw.taps, ph.count, pw.count, 1, 1, 0, 0, 1, 1, 1};
      const int64_t x0 = ((top + ph.lead - ph.taps + 1) * Wp + left + pw.lead - pw.taps + 1) * s.O;
      TileConvArgs a{t, Hp, Wp, x + x0 * xpad.itemsize(), nullptr, nullptr, y + (rh * s.W + rw) * s.C * gx.itemsize()};
      a.y_h = s.H, a.y_w = s.W, a.y_sh = s.sh, a.y_sw = s.sw;
      run_tasks(a, phase_view(w, ph, pw, s.sh, s.sw), dt);
    }
  return from_rows(gx, nhwc_out);
}

}  // namespace

Tensor padded_nhwc(const Tensor& x, int64_t top, int64_t left, int64_t Hp, int64_t Wp, int64_t Cp) {
  const int64_t N = x.size(0), C = x.size(1);
  const int64_t H = std::min(x.size(2), Hp - top), W = std::min(x.size(3), Wp - left);
  Tensor out = zeros({N, Hp, Wp, Cp}, x.dtype());
  if (H > 0 && W > 0)
    copy_(narrow(narrow(narrow(out, 1, top, H), 2, left, W), 3, 0, C), permute(narrow(narrow(x, 2, 0, H), 3, 0, W), {0, 2, 3, 1}));
  return out;
}

WeightView forward_view(const Tensor& w) {
  return {w.raw_data(), w.size(0), w.size(1), w.size(2), w.size(3), w.stride(0), w.stride(1), w.stride(2), w.stride(3)};
}

// The input gradient's weight: channels swapped, taps reversed.
WeightView input_grad_view(const Tensor& w) {
  const int64_t KH = w.size(2), KW = w.size(3), last = (KH - 1) * w.stride(2) + (KW - 1) * w.stride(3);
  return {static_cast<const char*>(w.raw_data()) + last * w.itemsize(), w.size(1), w.size(0), KH, KW,
          w.stride(1), w.stride(0), -w.stride(2), -w.stride(3)};
}

bool conv_tile_pixels_outer(int64_t packed_weight_bytes) { return packed_weight_bytes <= kPixelsOuterMaxWeightBytes; }

void set_conv_algorithm(ConvAlgorithm a) { g_algorithm = a; }
ConvAlgorithm conv_algorithm() { return g_algorithm.load(); }

bool narrow_tile_build(DType dtype) { return conv_tile_block_stub(dtype) * itemsize(dtype) <= 64; }

bool conv_tile_forward_applies(const ConvShape& s, DType dtype) {
  return tile_kernel_fits(s, dtype) && chosen(s, s.O, s.N * s.OH * s.OW, dtype, narrow_strided_loses(s, dtype));
}

bool conv_tile_pointwise_applies(const ConvShape& s, DType dtype) {
  if (!tile_kernel_fits(s, dtype)) return false;
  if (const auto forced = forced_tile()) return *forced;
  return s.C <= kTilePointwiseMaxChannels && s.N * s.OH * s.OW >= kTileMinPixels;
}

bool conv_tile_backward_data_applies(const ConvShape& s, DType dtype) {
  if (!tile_kernel_fits(s, dtype)) return false;
  // Stride phases (undilated, every phase with a tap) only when forced: on the AVX2 EPYC they
  // tie with im2col + GEMM + col2im at 256 channels and more and lose 1.5x at DCGAN's 128 -> 64
  // channels at 16x16 (the NHWC copies cost a tenth of it); AVX-512 builds are not measured yet.
  if (s.sh > 1 || s.sw > 1)
    return forced_tile().value_or(false) && s.dh == 1 && s.dw == 1 && s.KH >= s.sh && s.KW >= s.sw;
  return chosen(s, s.C, s.N * s.H * s.W, dtype, gradient_padding_bound(s)) && s.ph <= s.dh * (s.KH - 1) &&
         s.pw <= s.dw * (s.KW - 1);
}

Tensor conv_tile_forward(const Tensor& x, const Tensor& w, const Tensor& bias, const ConvShape& s, bool nhwc_out,
                         ConvAct act, const Tensor& residual) {
  TZ_CHECK(nhwc_out || (act == ConvAct::None && !residual.defined()), Runtime,
           "conv_tile_forward: the fused epilogue needs an NHWC output");
  return run_tiles(kernel_input(x, s), forward_view(w), bias, s, nhwc_out, act, residual);
}

Tensor conv_tile_pack(const Tensor& weight) {
  const char* op = "_conv_tile_pack";
  TZ_CHECK(weight.dim() == 4, Runtime, op, "(): expected an (O, C, KH, KW) weight, got shape ",
           shape_str(weight.sizes()));
  const DType dt = weight.dtype();
  TZ_CHECK(dt == DType::Float32 || dt == DType::Float64, Type, op, "(): float32 or float64 weights, got ",
           dtype_name(dt));
  TZ_CHECK(weight.numel() > 0, Runtime, op, "(): the weight has no elements (shape ", shape_str(weight.sizes()), ")");
  return packed_weight(forward_view(weight), dt, conv_tile_block_stub(dt));
}

void check_prepacked(const Tensor& packed, int64_t in_channels, DType dt, int64_t out_channels, const char* op,
                     const char* input) {
  TZ_CHECK(packed.dim() == 5 && packed.is_contiguous(), Runtime, op,
           "(): expected a weight packed by _conv_tile_pack, got shape ", shape_str(packed.sizes()));
  TZ_CHECK((dt == DType::Float32 || dt == DType::Float64) && packed.dtype() == dt, Type, op, "(): ", input,
           " and packed weight must share float32 or float64, got ", dtype_name(dt), " and ",
           dtype_name(packed.dtype()));
  const int64_t block = conv_tile_block_stub(dt);
  TZ_CHECK(packed.size(4) == block, Runtime, op, "(): the weight was packed in blocks of ", packed.size(4),
           " channels, this CPU's kernels read blocks of ", block, ": pack it again here");
  TZ_CHECK(in_channels == packed.size(3), Runtime, op, "(): ", input, " has ", in_channels,
           " channels, the packed weight expects ", packed.size(3));
  TZ_CHECK(out_channels > 0 && (out_channels + block - 1) / block == packed.size(0), Runtime, op, "(): ",
           out_channels, " output channels do not fill the packed weight's ", packed.size(0), " blocks of ", block);
}

void check_conv_pair(const IntList& v, const char* what, int64_t least, const char* op) {
  TZ_CHECK(v.size() == 2, Runtime, op, "(): ", what, " takes two values, got ", v.size());
  TZ_CHECK(v[0] >= least && v[1] >= least, Runtime, op, "(): ", what, " must be at least ", least, ", got [", v[0],
           ", ", v[1], "]");
}

void check_channel_vector(const Tensor& vector, int64_t channels, DType dt, const char* what, const char* op) {
  if (!vector.defined()) return;
  TZ_CHECK(vector.dim() == 1 && vector.size(0) == channels && vector.dtype() == dt, Runtime, op, "(): expected ",
           what, " of ", channels, " ", dtype_name(dt), " values, got ", dtype_name(vector.dtype()), " of shape ",
           shape_str(vector.sizes()));
}

void check_residual(const Tensor& residual, const Shape& out, DType dt, const char* op) {
  if (!residual.defined()) return;
  TZ_CHECK(residual.sizes() == out && residual.dtype() == dt, Runtime, op, "(): the residual must be ",
           dtype_name(dt), " of the output's shape ", shape_str(out), ", got ", dtype_name(residual.dtype()), " ",
           shape_str(residual.sizes()));
}

Tensor conv2d_prepacked(const Tensor& x, const Tensor& packed, const Tensor& bias, int64_t out_channels,
                        const IntList& stride, const IntList& padding, const IntList& dilation, ConvAct act,
                        const Tensor& residual) {
  const char* op = "_conv2d_prepacked";
  TZ_CHECK(x.dim() == 4, Runtime, op, "(): expected a 4-d (N, C, H, W) input, got shape ", shape_str(x.sizes()));
  check_prepacked(packed, x.size(1), x.dtype(), out_channels, op);
  const DType dt = x.dtype();
  check_conv_pair(stride, "stride", 1, op);
  check_conv_pair(padding, "padding", 0, op);
  check_conv_pair(dilation, "dilation", 1, op);
  const int64_t KH = packed.size(1), KW = packed.size(2);
  const ConvExtents e = conv_extents({x.size(2), x.size(3)}, {KH, KW}, stride, padding, dilation, op);
  TZ_CHECK(e.fits, Runtime, op, "(): the kernel (", KH, "x", KW, ", dilated) is larger than the padded input ",
           shape_str(x.sizes()));
  const int64_t OH = e.out[0], OW = e.out[1];
  const ConvShape s{x.size(0), x.size(1), x.size(2), x.size(3), out_channels, KH, KW, OH, OW,
                    stride[0], stride[1], padding[0], padding[1], dilation[0], dilation[1], 1};
  check_channel_vector(bias, out_channels, dt, "a bias", op);
  check_residual(residual, Shape{s.N, out_channels, OH, OW}, dt, op);
  const Tensor r = residual.defined() ? contiguous(residual, MemoryFormat::ChannelsLast) : Tensor();
  if (s.N == 0) return contiguous(Tensor::empty({0, out_channels, OH, OW}, dt), MemoryFormat::ChannelsLast);
  return run_tiles(kernel_input(x, s), WeightView{}, bias, s, true, act, r, packed);
}

Tensor conv_tile_backward_data(const Tensor& gy, const Tensor& w, const ConvShape& s, bool nhwc_out) {
  if (s.sh > 1 || s.sw > 1) return strided_backward_data(gy, w, s, nhwc_out);
  // gx = gy, padded by the taps' reach less the padding (more at the end where the input
  // has rows no output reads: a transposed convolution's output_padding), convolved with
  // w's taps reversed and its channel dims swapped.
  const int64_t ph = s.dh * (s.KH - 1) - s.ph, pw = s.dw * (s.KW - 1) - s.pw;
  ConvShape t{s.N, s.O, s.OH, s.OW, s.C, s.KH, s.KW, s.H, s.W, 1, 1, ph, pw, s.dh, s.dw, 1};
  const int64_t Hp = reach(s.H, 1, s.KH, s.dh), Wp = reach(s.W, 1, s.KW, s.dw);
  return run_tiles(padded_nhwc(gy, ph, pw, Hp, Wp, s.O), input_grad_view(w), Tensor(), t, nhwc_out);
}

}  // namespace tz
