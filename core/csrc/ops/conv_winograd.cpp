#include "ops/conv_winograd.h"

#include <algorithm>

#include "iter/thread_pool.h"
#include "kernels/conv_winograd.h"
#include "kernels/gemm.h"
#include "ops/conv_tile.h"
#include "ops/conversion.h"
#include "ops/views.h"

namespace tz {

namespace {

// Tiles run in chunks: a chunk's transformed input and products (36 x tiles x channels each)
// stay within kChunkBytes, where they stay in cache between the steps, unless the transformed
// weight is larger: the products read all of it once per chunk, so chunks then grow to the
// weight's size. At least kMinChunkTiles tiles (the products' rows) per chunk.
constexpr int64_t kChunkBytes = int64_t(2) << 20;
constexpr int64_t kMinChunkTiles = 64;

bool winograd_fits(const ConvShape& s, DType dtype) {
  return s.groups == 1 && s.KH == 3 && s.KW == 3 && s.sh == 1 && s.sw == 1 && s.dh == 1 && s.dw == 1 &&
         (dtype == DType::Float32 || dtype == DType::Float64);
}

// Where Winograd beats the tile kernel and im2col + GEMM, for the convolution it runs (the
// input gradient's: channels swapped, the input's pixels). Its fixed cost is the transformed
// weight, 36 * C * O elements written and read on every call; its gain is per tile. The line
// is in elements of that weight per tile.
// Forward and input gradient (the products on the tile kernel): inside ResNet-50 on the 2-core
// AVX2 EPYC (scratch per-layer script: each Conv2d alone on its recorded input, min of 3 CPU
// times, 1 thread, load 4-6, issue 29), Winograd / the tile kernel: 1x128x28x28 (12e3 per
// tile) 7.6-8.7 vs 13.9-14.3 ms for the 3 layers, 8x256x14x14 (18e3) 105 vs 126 ms for the 5;
// losing: 1x256x14x14 (147e3) 37-39 vs 24-25 ms, 8x512x7x7 (295e3) 76 vs ~55 ms. Alone (same
// machine) 1x256x14x14 and 1x512x7x7 lose 1.5-2.4x, 16x512x7x7 (147e3) wins 0.8-0.85x: the
// line at 20480 keeps the measured losers out (and 2x/4x256x14x14, 74e3 and 37e3, unmeasured).
// The weight gradient (its products one batched GEMM) keeps the line measured on the 2-core
// AVX-512 Xeon before: 0.53-0.72x the other paths where it takes it, up to 10240 (ResNet's
// 128@28 layers at batch 1, 12e3, lost 1.05-1.12x in the forward then).
// Below 16 channels on either side the transforms' channel padding and the products' short
// rows lose (1x8x32x32 ->32: 1.2-1.8x GEMM's).
constexpr int64_t kWeightPerTile = 20480;
constexpr int64_t kWeightGradWeightPerTile = 10240;
// With the weight transformed once (conv_winograd_pack) a call only reads it, and Winograd won
// every measured shape from 16 to 2048 channels (scratch wpack.py, AVX2 EPYC, 1 and 2 threads,
// warm and with caches flushed): ResNet-50's 3x3 layers at batch 1 0.6-0.95x the other paths,
// 8x512x7x7 0.4-0.55x; up to 2x512x4x4 (4.7e6 per tile) 0.75-1.03x. Past it, one image of 4x4
// or 3x3 pixels at 512 or 1024 channels (9.4e6 and 38e6) ties or loses.
constexpr int64_t kPackedWeightPerTile = 4718592;
// ... and where the tiles' outputs are half used or more: with fewer, it does as many
// multiplies as a direct convolution (36 per tile against 9 per pixel) on a weight 4x the size
// (2x2 images: the tile kernel on a packed weight wins).
constexpr int64_t kMinPixelsPerTile = 8;
constexpr int64_t kMinChannels = 16;

bool winograd_wins(int64_t in_channels, int64_t out_channels, int64_t tiles, int64_t weight_per_tile) {
  return std::min(in_channels, out_channels) >= kMinChannels &&
         kWinogradPoints * in_channels * out_channels <= weight_per_tile * tiles;
}

int64_t tile_count(int64_t N, int64_t OH, int64_t OW) {
  return N * ((OH + kWinogradTile - 1) / kWinogradTile) * ((OW + kWinogradTile - 1) / kWinogradTile);
}

// Whether Winograd runs: forced, or where the table says it wins.
bool chosen(bool wins) {
  switch (conv_algorithm()) {
    case ConvAlgorithm::Winograd: return true;
    case ConvAlgorithm::Tile:
    case ConvAlgorithm::Gemm: return false;
    case ConvAlgorithm::Auto: break;
  }
  return wins;
}

// Channels rounded up to 64 bytes' worth: whole vectors in every build, the same in all.
int64_t padded_channels(int64_t channels, DType dtype) {
  const int64_t per_line = 64 / itemsize(dtype);
  return (channels + per_line - 1) / per_line * per_line;
}

// Elements between the transform points of a (36, rows, channels) buffer: one cache line more
// than a point's rows, so the 36 points of one row fall in different cache sets.
int64_t plane_stride(int64_t rows, int64_t channels, DType dtype) { return rows * channels + 64 / itemsize(dtype); }

// 36 matrices (C x Op), one per transform point, `plane` elements apart: the weight
// gradient's sums.
struct PointMatrices {
  Tensor storage;
  int64_t plane;
};

// The transformed weight U (36, Cp, Op), zeros past C and O, each point packed for the tile
// kernel in blocks of `block` output channels (WinogradWeightArgs); the points whole blocks,
// at least a cache line, apart. `storage` is (36, plane / block, block).
struct PackedPoints {
  Tensor storage;
  int64_t plane, block;
  int64_t point_bytes;  // one point's packed matrix
};

// The layout of C -> O channels' transformed weight in this build (no storage).
PackedPoints points_layout(int64_t O, int64_t C, DType dtype) {
  const int64_t Op = padded_channels(O, dtype), Cp = padded_channels(C, dtype);
  const int64_t block = conv_tile_block_stub(dtype), packed = (Op + block - 1) / block * Cp * block;
  const int64_t gap = block * std::max<int64_t>(1, 64 / (block * itemsize(dtype)));
  return {Tensor(), packed + gap, block, packed * itemsize(dtype)};
}

PackedPoints transformed_weight(const WeightView& v, DType dtype) {
  PackedPoints u = points_layout(v.O, v.C, dtype);
  u.storage = Tensor::empty({kWinogradPoints, u.plane / u.block, u.block}, dtype);
  const int64_t Op = padded_channels(v.O, dtype), Cp = padded_channels(v.C, dtype);
  const WinogradWeightArgs a{v.w, v.O, v.C, Op, Cp, u.block, v.so, v.sc, v.skh, v.skw, u.storage.raw_data(), u.plane};
  parallel_for(0, Cp, std::max<int64_t>(1, (int64_t(1) << 14) / (kWinogradPoints * Op)),
               [&](int64_t b, int64_t e) { conv_winograd_weight_stub(dtype, a, b, e); });
  return u;
}

// Tiles per chunk (see kChunkBytes): the same for every thread count.
int64_t chunk_tiles(int64_t tiles, int64_t C, int64_t Cp, int64_t Op, DType dtype) {
  const int64_t per_tile = kWinogradPoints * (Cp + Op) * itemsize(dtype);
  const int64_t chunk_bytes = std::max(kChunkBytes, kWinogradPoints * C * Op * itemsize(dtype));
  return std::min(tiles, std::max(kMinChunkTiles, chunk_bytes / per_tile));
}

// A tile transform over the chunk's tiles, split over the pool.
void over_tiles(const DispatchStub<WinogradTileFn>& stub, const WinogradTileArgs& a, int64_t channels, DType dtype) {
  parallel_for(0, a.count, std::max<int64_t>(1, (int64_t(1) << 13) / (kWinogradPoints * channels)),
               [&](int64_t b, int64_t e) { stub(dtype, a, b, e); });
}

// The 36 products of a chunk, one batched GEMM: c[p] (m x n) = a[p] (m x k) @ b[p] (k x n),
// added to c when accumulate; each operand's points `plane` elements apart.
void point_products(DType dtype, int64_t m, int64_t n, int64_t k, const GemmOperand& a, const GemmOperand& b,
                    const GemmOperand& c, bool accumulate) {
  GemmProblem p;
  p.dtype = dtype;
  p.m = m, p.n = n, p.k = k;
  p.batch = {kWinogradPoints};
  p.a = a, p.b = b, p.c = c;
  p.beta = Scalar(accumulate ? 1.0 : 0.0);
  gemm(p);
}

// The 36 products of a chunk into `products` (a.m's storage), M[p] (count x Op) = V[p]
// (count x Cp) @ U[p], on the tile kernel: each a 1x1 convolution over the chunk's tiles as
// pixels, U[p] its packed weight.
void point_products_on_tiles(const WinogradTileArgs& a, void* products, const PackedPoints& u, DType dtype) {
  const ConvShape s{1, a.Cp, 1, a.count, a.Op, 1, 1, 1, a.count, 1, 1, 0, 0, 1, 1, 1};
  TileConvArgs t{s, 1, a.count, nullptr, nullptr, nullptr, nullptr};
  t.group_blocks = conv_tile_pixels_outer(u.point_bytes) ? (a.Op + u.block - 1) / u.block : 1;
  const int64_t per_point = conv_tile_tasks(s, u.block, t.group_blocks);
  const int64_t work = kConvTilePixels * t.group_blocks * u.block * a.Cp;  // multiply-adds per task
  const int64_t size = itemsize(dtype);
  const char* v = static_cast<const char*>(a.v);
  const char* w = static_cast<const char*>(u.storage.raw_data());
  char* m = static_cast<char*>(products);
  parallel_for(0, kWinogradPoints * per_point, std::max<int64_t>(1, (int64_t(1) << 18) / work),
               [&](int64_t b, int64_t e) {
                 for (int64_t p = b / per_point; p * per_point < e; ++p) {
                   TileConvArgs at = t;
                   at.x = v + p * a.v_plane * size, at.w = w + p * u.plane * size, at.y = m + p * a.m_plane * size;
                   conv_tile_stub(dtype, at, std::max(b, p * per_point) - p * per_point,
                                  std::min(e, (p + 1) * per_point) - p * per_point);
                 }
               });
}

// One chunk of tiles: input transform, the 36 products V[p] (count x Cp) @ U[p] (Cp x Op),
// output transform into y. Nested in a parallel chunk loop, every step runs on this thread.
void run_chunk(WinogradTileArgs a, const PackedPoints& u, DType dtype) {
  a.v_plane = plane_stride(a.count, a.Cp, dtype), a.m_plane = plane_stride(a.count, a.Op, dtype);
  Tensor v = Tensor::empty({kWinogradPoints * a.v_plane}, dtype);
  Tensor m = Tensor::empty({kWinogradPoints * a.m_plane}, dtype);
  a.v = v.raw_data();
  a.m = m.raw_data();
  over_tiles(conv_winograd_input_stub, a, a.Cp, dtype);
  point_products_on_tiles(a, m.raw_data(), u, dtype);
  over_tiles(conv_winograd_output_stub, a, a.Op, dtype);
}

// The stride-1 3x3 convolution of x (N, C, H, W; any layout) padded by (top, left) with the
// transformed weight of C -> O channels, giving (N, O, OH, OW).
Tensor run_winograd(const Tensor& x, int64_t top, int64_t left, int64_t C, int64_t O, const PackedPoints& u,
                    const Tensor& bias_, int64_t OH, int64_t OW, bool nhwc_out) {
  const DType dtype = x.dtype();
  const int64_t N = x.size(0);
  const int64_t TH = (OH + kWinogradTile - 1) / kWinogradTile, TW = (OW + kWinogradTile - 1) / kWinogradTile;
  const int64_t Cp = padded_channels(C, dtype), Op = padded_channels(O, dtype);
  Tensor xpad = padded_nhwc(x, top, left, TH * kWinogradTile + 2, TW * kWinogradTile + 2, Cp);
  Tensor bias = bias_.defined() ? contiguous(bias_) : Tensor();
  Tensor y = Tensor::empty({N, OH, OW, O}, dtype);
  const int64_t tiles = N * TH * TW, chunk = chunk_tiles(tiles, C, Cp, Op, dtype);
  const int64_t chunks = (tiles + chunk - 1) / chunk;
  WinogradTileArgs a{TH, TW, xpad.size(1), xpad.size(2), Cp, O, Op, OH, OW, 0, 0, xpad.raw_data(), nullptr, nullptr, 0, 0,
                     bias.defined() ? bias.raw_data() : nullptr, y.raw_data()};
  const auto chunks_from = [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      WinogradTileArgs part = a;
      part.first = i * chunk, part.count = std::min(chunk, tiles - part.first);
      run_chunk(part, u, dtype);
    }
  };
  // Enough chunks for every thread: one chunk per task; otherwise each chunk's steps split.
  const int threads = in_parallel_region() ? 1 : get_num_threads();
  if (threads > 1 && chunks >= 2 * threads) parallel_for(0, chunks, 1, chunks_from);
  else chunks_from(0, chunks);
  Tensor nchw_shaped = permute(y, {0, 3, 1, 2});
  return nhwc_out ? nchw_shaped : contiguous(nchw_shaped);
}

// S[p] (+)= V[p]^T G[p] for one chunk: the input's and the output gradient's transforms of
// its tiles, their products summed over the tiles into S (36, C, Op), added to it unless first.
void weight_grad_chunk(WinogradTileArgs in, WinogradTileArgs out_grad, int64_t C, const PointMatrices& sums,
                       bool first, DType dtype) {
  in.v_plane = plane_stride(in.count, in.Cp, dtype), out_grad.v_plane = plane_stride(in.count, in.Op, dtype);
  Tensor v = Tensor::empty({kWinogradPoints * in.v_plane}, dtype);
  Tensor g = Tensor::empty({kWinogradPoints * out_grad.v_plane}, dtype);
  in.v = v.raw_data();
  out_grad.v = g.raw_data();
  over_tiles(conv_winograd_input_stub, in, in.Cp, dtype);
  over_tiles(conv_winograd_grad_output_stub, out_grad, in.Op, dtype);
  point_products(dtype, C, in.Op, in.count, {v.raw_data(), 1, in.Cp, {in.v_plane}},
                 {g.raw_data(), in.Op, 1, {out_grad.v_plane}}, {sums.storage.raw_data(), in.Op, 1, {sums.plane}}, !first);
}

}  // namespace

bool conv_winograd_backward_weight_applies(const ConvShape& s, DType dtype) {
  return winograd_fits(s, dtype) &&
         chosen(winograd_wins(s.C, s.O, tile_count(s.N, s.OH, s.OW), kWeightGradWeightPerTile));
}

Tensor conv_winograd_backward_weight(const Tensor& x, const Tensor& gy, const ConvShape& s, bool nhwc_out) {
  const DType dtype = x.dtype();
  const int64_t TH = (s.OH + kWinogradTile - 1) / kWinogradTile, TW = (s.OW + kWinogradTile - 1) / kWinogradTile;
  const int64_t Cp = padded_channels(s.C, dtype), Op = padded_channels(s.O, dtype);
  Tensor xpad = padded_nhwc(x, s.ph, s.pw, TH * kWinogradTile + 2, TW * kWinogradTile + 2, Cp);
  Tensor gpad = padded_nhwc(gy, 0, 0, TH * kWinogradTile, TW * kWinogradTile, Op);
  const int64_t plane = plane_stride(s.C, Op, dtype);
  const PointMatrices sums{Tensor::empty({kWinogradPoints * plane}, dtype), plane};
  const int64_t tiles = s.N * TH * TW, chunk = chunk_tiles(tiles, s.C, Cp, Op, dtype);
  WinogradTileArgs in{TH, TW, xpad.size(1), xpad.size(2), Cp, s.O, Op, s.OH, s.OW, 0, 0, xpad.raw_data(),
                      nullptr, nullptr, 0, 0, nullptr, nullptr};
  WinogradTileArgs out_grad = in;
  out_grad.Hp = gpad.size(1), out_grad.Wp = gpad.size(2), out_grad.x = gpad.raw_data();
  // Chunks in order, each adding into the sums: the same bits for every thread count.
  for (int64_t first = 0; first < tiles; first += chunk) {
    in.first = out_grad.first = first;
    in.count = out_grad.count = std::min(chunk, tiles - first);
    weight_grad_chunk(in, out_grad, s.C, sums, first == 0, dtype);
  }
  Tensor gw = nhwc_out ? permute(Tensor::empty({s.O, 3, 3, s.C}, dtype), {0, 3, 1, 2}) : Tensor::empty({s.O, s.C, 3, 3}, dtype);
  const WinogradWeightGradArgs a{sums.storage.raw_data(), s.O, s.C, Op, plane, gw.raw_data(),
                                 gw.stride(0), gw.stride(1), gw.stride(2), gw.stride(3)};
  parallel_for(0, s.C, std::max<int64_t>(1, (int64_t(1) << 14) / (kWinogradPoints * Op)),
               [&](int64_t b, int64_t e) { conv_winograd_weight_grad_stub(dtype, a, b, e); });
  return gw;
}

bool conv_winograd_forward_applies(const ConvShape& s, DType dtype) {
  return winograd_fits(s, dtype) && chosen(winograd_wins(s.C, s.O, tile_count(s.N, s.OH, s.OW), kWeightPerTile));
}

bool conv_winograd_pays(const Tensor& input, const Tensor& weight, const IntList& stride, const IntList& padding,
                        const IntList& dilation, int64_t groups) {
  if (input.dim() != 4 || weight.dim() != 4 || stride != IntList{1, 1} || dilation != IntList{1, 1} || groups != 1 ||
      padding.size() != 2 || padding[0] < 0 || padding[1] < 0 || input.size(1) != weight.size(1) ||
      input.dtype() != weight.dtype())
    return false;
  const int64_t OH = input.size(2) + 2 * padding[0] - 2, OW = input.size(3) + 2 * padding[1] - 2;
  if (OH <= 0 || OW <= 0) return false;
  const ConvShape s{input.size(0), input.size(1), input.size(2), input.size(3), weight.size(0), weight.size(2),
                    weight.size(3), OH, OW, 1, 1, padding[0], padding[1], 1, 1, 1};
  const int64_t tiles = tile_count(s.N, s.OH, s.OW);
  return winograd_fits(s, input.dtype()) && chosen(winograd_wins(s.C, s.O, tiles, kPackedWeightPerTile) &&
                                                   s.N * s.OH * s.OW >= kMinPixelsPerTile * tiles);
}

bool conv_winograd_backward_data_applies(const ConvShape& s, DType dtype) {
  return winograd_fits(s, dtype) && s.ph <= 2 && s.pw <= 2 &&
         chosen(winograd_wins(s.O, s.C, tile_count(s.N, s.H, s.W), kWeightPerTile));
}

Tensor conv_winograd_forward(const Tensor& x, const Tensor& w, const Tensor& bias, const ConvShape& s, bool nhwc_out) {
  return run_winograd(x, s.ph, s.pw, s.C, s.O, transformed_weight(forward_view(w), x.dtype()), bias, s.OH, s.OW,
                      nhwc_out);
}

Tensor conv_winograd_pack(const Tensor& weight) {
  const char* op = "_conv_winograd_pack";
  TZ_CHECK(weight.dim() == 4 && weight.size(2) == 3 && weight.size(3) == 3 && weight.numel() > 0, Runtime, op,
           "(): expected an (O, C, 3, 3) weight, got shape ", shape_str(weight.sizes()));
  const DType dt = weight.dtype();
  TZ_CHECK(dt == DType::Float32 || dt == DType::Float64, Type, op, "(): float32 or float64 weights, got ",
           dtype_name(dt));
  return transformed_weight(forward_view(weight), dt).storage;
}

Tensor conv_winograd_forward_packed(const Tensor& x, const Tensor& packed, const Tensor& bias, const ConvShape& s,
                                    bool nhwc_out) {
  const DType dtype = x.dtype();
  PackedPoints u = points_layout(s.O, s.C, dtype);
  const Shape expected{kWinogradPoints, u.plane / u.block, u.block};
  TZ_CHECK(winograd_fits(s, dtype), Runtime,
           "_conv2d_fused(): a Winograd weight needs a 3x3 convolution with stride 1, dilation 1 and groups 1 in "
           "float32 or float64");
  TZ_CHECK(packed.dtype() == dtype && packed.sizes() == expected && packed.is_contiguous(), Runtime,
           "_conv2d_fused(): the Winograd weight (", dtype_name(packed.dtype()), " ", shape_str(packed.sizes()),
           ") is not _conv_winograd_pack's for ", s.C, " -> ", s.O, " channels in ", dtype_name(dtype),
           " on this CPU (", shape_str(expected), ")");
  u.storage = packed;
  return run_winograd(x, s.ph, s.pw, s.C, s.O, u, bias, s.OH, s.OW, nhwc_out);
}

Tensor conv_winograd_backward_data(const Tensor& gy, const Tensor& w, const ConvShape& s, bool nhwc_out) {
  // gx = gy padded by 2 - padding on each side, convolved with w's taps reversed and its
  // channel dims swapped.
  return run_winograd(gy, 2 - s.ph, 2 - s.pw, s.O, s.C, transformed_weight(input_grad_view(w), gy.dtype()), Tensor(),
                      s.H, s.W, nhwc_out);
}

}  // namespace tz
