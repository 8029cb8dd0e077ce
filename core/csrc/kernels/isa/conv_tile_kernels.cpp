// Regular convolutions as tiles of pixels x blocks of output channels (see TileConvArgs in
// kernels/conv.h). A tile holds kConvTilePixels output pixels in (n, oh, ow) order, each with
// its own input pointer, so tiles run on across rows and images; a block is kBlockVectors
// vectors of output channels (the last block: as many as its channels need, over two tiles
// at once where they fit the registers). Per input
// channel of a tap: the block's weight vectors are loaded once and each pixel's input value
// is broadcast once, for pixels x vectors FMAs. The epilogue runs on the accumulators.
#include <algorithm>
#include <cstring>

#include "kernels/conv.h"
#include "kernels/isa/conv_activation.h"
#include "kernels/simd_vec.h"

namespace tz {
namespace TZ_CPU_CAPABILITY {
namespace {

using vm::kLanes;
using vm::vec;
using vm::vfma;

// Accumulators: pixels x vectors of them, plus the weight vectors and one broadcast, fit the
// register file: 6 x 4 of 32 on AVX-512, 6 x 2 of 16 with AVX2 or SSE2.
constexpr int kBlockVectors = vm::kVecBytes == 64 ? 4 : 2;
constexpr int kPixels = static_cast<int>(kConvTilePixels);
template <typename T> constexpr int64_t kBlock = kBlockVectors * kLanes<T>;

int64_t block_width(DType dtype) { return dtype == DType::Float64 ? kBlock<double> : kBlock<float>; }

// act(v + residual) of one vector of accumulators; residual may be null.
template <typename V, typename T> TZ_VINLINE V finish(ConvAct act, V v, const T* residual) {
  if (residual) v = v + vm::load(residual);
  switch (act) {
    case ConvAct::None: return v;
    case ConvAct::Relu: return conv_activate<ConvAct::Relu>(v);
    case ConvAct::Relu6: return conv_activate<ConvAct::Relu6>(v);
    case ConvAct::Hardswish: return conv_activate<ConvAct::Hardswish>(v);
    case ConvAct::Hardsigmoid: return conv_activate<ConvAct::Hardsigmoid>(v);
  }
  return v;
}

// P pixels (P <= kPixels) of one block of NV vectors: x[p] is pixel p's input at tap (0, 0),
// y[p] (r[p]: its residual, or null) its output at the block's first channel; `count` of
// the block's channels are real (all NV * L of them unless this is the last block).
template <typename T, int P, int NV>
TZ_VINLINE void tile(const TileConvArgs& a, const T* const* x, const T* w, const T* bias, int64_t count,
                     T* const* y, const T* const* r) {
  using V = vec<T>;
  constexpr int L = kLanes<T>;
  constexpr int64_t B = kBlock<T>, NL = NV * L;
  const ConvShape& s = a.s;
  const int64_t C = s.C;
  V init[NV];
  for (int v = 0; v < NV; ++v) init[v] = V{};
  if (bias) {
    alignas(vm::kVecBytes) T lanes[NL] = {};
    std::memcpy(lanes, bias, count * sizeof(T));
    for (int v = 0; v < NV; ++v) init[v] = vm::load(lanes + v * L);
  }
  V acc[P][NV];
#pragma GCC unroll 16
  for (int p = 0; p < P; ++p)
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) acc[p][v] = init[v];
  for (int64_t kh = 0; kh < s.KH; ++kh)
    for (int64_t kw = 0; kw < s.KW; ++kw) {
      const int64_t off = (kh * s.dh * a.Wp + kw * s.dw) * C;
      const T* xt[P];
#pragma GCC unroll 16
      for (int p = 0; p < P; ++p) xt[p] = x[p] + off;
      const T* wt = w + (kh * s.KW + kw) * C * B;
      for (int64_t c = 0; c < C; ++c, wt += B) {
        V wv[NV];
#pragma GCC unroll 4
        for (int v = 0; v < NV; ++v) wv[v] = vm::load(wt + v * L);
#pragma GCC unroll 16
        for (int p = 0; p < P; ++p) {
          const V xv = vm::splat<V>(xt[p][c]);
#pragma GCC unroll 4
          for (int v = 0; v < NV; ++v) acc[p][v] = vfma(xv, wv[v], acc[p][v]);
        }
      }
    }
#pragma GCC unroll 16
  for (int p = 0; p < P; ++p) {
    if (count == NL) {
#pragma GCC unroll 4
      for (int v = 0; v < NV; ++v) vm::store(y[p] + v * L, finish(a.act, acc[p][v], r[p] ? r[p] + v * L : nullptr));
    } else {
      alignas(vm::kVecBytes) T lanes[NL] = {}, res[NL] = {};
      if (r[p]) std::memcpy(res, r[p], count * sizeof(T));
      for (int v = 0; v < NV; ++v) vm::store(lanes + v * L, finish(a.act, acc[p][v], r[p] ? res + v * L : nullptr));
      std::memcpy(y[p], lanes, count * sizeof(T));
    }
  }
}

// The tile for P pixels of a block of NV vectors.
template <typename T, int NV>
void tile_of(int64_t P, const TileConvArgs& a, const T* const* x, const T* w, const T* bias, int64_t count,
             T* const* y, const T* const* r) {
  switch (P) {
    case 6: return tile<T, 6, NV>(a, x, w, bias, count, y, r);
    case 5: return tile<T, 5, NV>(a, x, w, bias, count, y, r);
    case 4: return tile<T, 4, NV>(a, x, w, bias, count, y, r);
    case 3: return tile<T, 3, NV>(a, x, w, bias, count, y, r);
    case 2: return tile<T, 2, NV>(a, x, w, bias, count, y, r);
    default: return tile<T, 1, NV>(a, x, w, bias, count, y, r);
  }
}

// Narrow blocks (the last one, or all of a convolution with few output channels) take two
// tiles at a time where the register file holds their accumulators: a weight load and a
// loop step then serve twice the pixels.
constexpr int kRegisters = vm::kVecBytes == 64 ? 32 : 16;
constexpr int kWidePixels = 2 * kPixels;
template <int NV> constexpr bool kWideFits = kWidePixels * NV + NV + 1 <= kRegisters;

// tile_of, or the two-tile form for P == kWidePixels.
template <typename T, int NV>
void narrow_tile_of(int64_t P, const TileConvArgs& a, const T* const* x, const T* w, const T* bias, int64_t count,
                    T* const* y, const T* const* r) {
  if constexpr (kWideFits<NV>) {
    if (P == kWidePixels) return tile<T, kWidePixels, NV>(a, x, w, bias, count, y, r);
  }
  tile_of<T, NV>(P, a, x, w, bias, count, y, r);
}

template <typename T>
void tiles(const TileConvArgs& a, int64_t begin, int64_t end) {
  const ConvShape& s = a.s;
  constexpr int64_t B = kBlock<T>, L = kLanes<T>;
  const T* x = static_cast<const T*>(a.x);
  const T* w = static_cast<const T*>(a.w);
  const T* bias = static_cast<const T*>(a.bias);
  const T* residual = static_cast<const T*>(a.residual);
  T* y = static_cast<T*>(a.y);
  const int64_t pixels = s.N * s.OH * s.OW, ntiles = conv_tile_count(s);
  const bool dense = a.y_h == 0;
  const int64_t yh = dense ? s.OH : a.y_h, yw = dense ? s.OW : a.y_w;
  for (int64_t task = begin; task < end; ++task) {
    const int64_t block = task / ntiles, first = task % ntiles * kPixels, o0 = block * B;
    const int64_t count = std::min(B, s.O - o0), nv = (count + L - 1) / L;
    // two whole tiles of this block in this range
    const bool wide = (nv == 1 ? kWideFits<1> : nv == 2 && kWideFits<2>) && task + 1 < end &&
                      (task + 1) / ntiles == block && first + kWidePixels <= pixels;
    const int64_t P = wide ? kWidePixels : std::min<int64_t>(kPixels, pixels - first);
    task += wide;
    const T* xp[kWidePixels];
    T* yp[kWidePixels];
    const T* rp[kWidePixels];
    // The first pixel's (n, oh, ow) by division, the next ones by stepping (divisions cost
    // as much as the whole tile at small C).
    int64_t ow = first % s.OW, oh = first / s.OW % s.OH, n = first / (s.OW * s.OH);
    for (int64_t p = 0; p < P; ++p) {
      const int64_t q = ((n * yh + oh * a.y_sh) * yw + ow * a.y_sw) * s.O + o0;
      xp[p] = x + ((n * a.Hp + oh * s.sh) * a.Wp + ow * s.sw) * s.C;
      yp[p] = y + q;
      rp[p] = residual ? residual + q : nullptr;
      if (++ow == s.OW) {
        ow = 0;
        if (++oh == s.OH) oh = 0, ++n;
      }
    }
    const T* wb = w + block * s.KH * s.KW * s.C * B;
    const T* bb = bias ? bias + o0 : nullptr;
    switch (nv) {  // vectors this block needs
      case 1: narrow_tile_of<T, 1>(P, a, xp, wb, bb, count, yp, rp); break;
      case 2: narrow_tile_of<T, 2>(P, a, xp, wb, bb, count, yp, rp); break;
      case 3: if constexpr (kBlockVectors >= 3) tile_of<T, 3>(P, a, xp, wb, bb, count, yp, rp); break;
      default: tile_of<T, kBlockVectors>(P, a, xp, wb, bb, count, yp, rp); break;
    }
  }
}
static_assert(kPixels == 6, "tiles() dispatches tile sizes 1 to 6");

void tile_conv(DType dtype, const TileConvArgs& a, int64_t begin, int64_t end) {
  if (dtype == DType::Float64) tiles<double>(a, begin, end);
  else tiles<float>(a, begin, end);
}

}  // namespace
TZ_REGISTER_KERNEL(conv_tile_block_stub, &block_width);
TZ_REGISTER_KERNEL(conv_tile_stub, &tile_conv);
}  // namespace TZ_CPU_CAPABILITY
}  // namespace tz
