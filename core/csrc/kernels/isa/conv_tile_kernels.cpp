// Regular convolutions as tiles of pixels x blocks of output channels (see TileConvArgs in
// kernels/conv.h). A tile holds kConvTilePixels output pixels in (n, oh, ow) order, each with
// its own input pointer, so tiles run on across rows and images; a block is kBlockVectors
// vectors of output channels (the last block: as many as its channels need, over two tiles
// at once where they fit the registers, or merged with the block before it). Per input
// channel of a tap: the block's weight vectors are loaded once and each pixel's input value
// is broadcast once, for pixels x vectors FMAs. The epilogue runs on the accumulators.
#include <algorithm>

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

// Output elements from one vector of channels to the next (see TileConvArgs::y_vector).
template <typename T> int64_t vector_step(const TileConvArgs& a) { return a.y_vector ? a.y_vector : kLanes<T>; }

// Consecutive tiles one call runs: `count` of them, each tile's pixels x and y (and residual)
// elements on from the last's. Where pixels follow each other in memory (a 1x1 convolution of
// stride 1 into a dense output) a run of tiles costs one call, not one per tile (16 -> 16
// channels at 112x112 took twice a plain loop's time with a call per tile).
struct TileSteps {
  int64_t count = 1, x = 0, y = 0;
};

// P pixels (P <= kPixels, or two tiles' worth where kWideFits) of `blocks` consecutive blocks
// of NV vectors from w (packed) and bias (may be null), then the next `st.count - 1` tiles' P
// pixels (NV > kBlockVectors: one whole block and the narrow last one after it, see
// kMergedPixels): x[p] is pixel p's input at tap (0, 0), y[p] (r[p]: its residual, or null;
// all of them or none) its output at the first block's first channel. Each block is whole but
// the last, of which `count` channels are real. Several blocks per call keep the pixels'
// pointers in registers across them.
template <typename T, int P, int NV, ConvAct A>
TZ_VINLINE void tile(const TileConvArgs& a, const T* const* x, const T* w, const T* bias, int64_t blocks,
                     int64_t count, T* const* y, const T* const* r, TileSteps st) {
  using V = vec<T>;
  constexpr int L = kLanes<T>;
  constexpr int64_t B = kBlock<T>, NL = NV * L;
  const ConvShape& s = a.s;
  const int64_t C = s.C, KH = s.KH, KW = s.KW, step = (s.dh * a.Wp) * C, wstep = s.dw * C;
  const int64_t next_block = KH * KW * C * B;
  const bool has_residual = r[0] != nullptr, blocked = a.y_vector != 0;
  const int64_t yv = vector_step<T>(a);
  const T* xs[P];
  T* ys[P];
  const T* rs[P];
#pragma GCC unroll 16
  for (int p = 0; p < P; ++p) xs[p] = x[p], ys[p] = y[p], rs[p] = r[p];
  for (int64_t t = 0; t < st.count; ++t) {
    if (t > 0) {
#pragma GCC unroll 16
      for (int p = 0; p < P; ++p) {
        xs[p] += st.x, ys[p] += st.y;
        if (has_residual) rs[p] += st.y;
      }
    }
    const T* wb = w;
    for (int64_t blk = 0; blk < blocks; ++blk, wb += next_block) {
      const int64_t o = blk * B, real = blk + 1 == blocks ? count : NL, yo = blk * kBlockVectors * yv;
      V init[NV];
      if (!bias) {
        for (int v = 0; v < NV; ++v) init[v] = V{};
      } else if (real == NL) {
        for (int v = 0; v < NV; ++v) init[v] = vm::load(bias + o + v * L);
      } else {
        for (int v = 0; v < NV; ++v) {
          const int64_t n = real - v * L;  // real lanes in this vector
          init[v] = n >= L ? vm::load(bias + o + v * L) : n > 0 ? vm::load_partial(bias + o + v * L, n) : V{};
        }
      }
      V acc[P][NV];
#pragma GCC unroll 16
      for (int p = 0; p < P; ++p)
#pragma GCC unroll 4
        for (int v = 0; v < NV; ++v) acc[p][v] = init[v];
      const T* wt = wb;
      for (int64_t kh = 0; kh < KH; ++kh)
        for (int64_t kw = 0; kw < KW; ++kw) {
          const int64_t off = kh * step + kw * wstep;
          for (int64_t c = 0; c < C; ++c, wt += B) {
            V wv[NV];
#pragma GCC unroll 4
            for (int v = 0; v < NV; ++v) wv[v] = vm::load(wt + v / kBlockVectors * next_block + v % kBlockVectors * L);
#pragma GCC unroll 16
            for (int p = 0; p < P; ++p) {
              const V xv = vm::splat<V>(xs[p][off + c]);
#pragma GCC unroll 4
              for (int v = 0; v < NV; ++v) acc[p][v] = vfma(xv, wv[v], acc[p][v]);
            }
          }
        }
      // Every pixel of a tile has a residual or none: one test per block keeps the stores
      // straight-line (a test per pixel and vector cost 10-20% of 1x1 convolutions of 24-80
      // input channels, issue 22).
      if (real == NL && !has_residual) {
#pragma GCC unroll 16
        for (int p = 0; p < P; ++p)
#pragma GCC unroll 4
          for (int v = 0; v < NV; ++v) vm::store(ys[p] + yo + v * yv, conv_activate<A>(acc[p][v]));
      } else if (blocked) {  // whole vectors: a plane has room for their spare lanes
#pragma GCC unroll 16
        for (int p = 0; p < P; ++p)
#pragma GCC unroll 4
          for (int v = 0; v < NV; ++v)
            if (v * L < real) vm::store(ys[p] + yo + v * yv, conv_activate<A>(acc[p][v]));
      } else if (real == NL) {
#pragma GCC unroll 16
        for (int p = 0; p < P; ++p)
#pragma GCC unroll 4
          for (int v = 0; v < NV; ++v)
            vm::store(ys[p] + yo + v * yv, conv_activate<A>(acc[p][v] + vm::load(rs[p] + o + v * L)));
      } else {  // the real lanes: whole vectors, then a masked one (dense, so yv == L)
        // (unrolled, as every loop over acc: one that is not keeps acc in memory throughout)
#pragma GCC unroll 16
        for (int p = 0; p < P; ++p)
#pragma GCC unroll 4
          for (int v = 0; v < NV; ++v) {
            const int64_t n = real - v * L;  // real lanes in this vector
            if (n <= 0) break;
            V out = acc[p][v];
            if (has_residual) out = out + (n >= L ? vm::load(rs[p] + o + v * L) : vm::load_partial(rs[p] + o + v * L, n));
            out = conv_activate<A>(out);
            if (n >= L) vm::store(ys[p] + o + v * L, out);
            else vm::store_partial(ys[p] + o + v * L, out, n);
          }
      }
    }
  }
}

// The tile for P pixels of blocks of NV vectors.
template <typename T, int NV, ConvAct A>
void tile_of(int64_t P, const TileConvArgs& a, const T* const* x, const T* w, const T* bias, int64_t blocks,
             int64_t count, T* const* y, const T* const* r, TileSteps st) {
  switch (P) {
    case 6: return tile<T, 6, NV, A>(a, x, w, bias, blocks, count, y, r, st);
    case 5: return tile<T, 5, NV, A>(a, x, w, bias, blocks, count, y, r, st);
    case 4: return tile<T, 4, NV, A>(a, x, w, bias, blocks, count, y, r, st);
    case 3: return tile<T, 3, NV, A>(a, x, w, bias, blocks, count, y, r, st);
    case 2: return tile<T, 2, NV, A>(a, x, w, bias, blocks, count, y, r, st);
    default: return tile<T, 1, NV, A>(a, x, w, bias, blocks, count, y, r, st);
  }
}

// Narrow blocks (the last one, or all of a convolution with few output channels) take two
// tiles at a time where the register file holds their accumulators: a weight load and a
// loop step then serve twice the pixels.
constexpr int kRegisters = vm::kVecBytes == 64 ? 32 : 16;
constexpr int kWidePixels = 2 * kPixels;
template <int NV> constexpr bool kWideFits = kWidePixels * NV + NV + 1 <= kRegisters;
// Whether a block of nv vectors takes two tiles at once.
constexpr bool wide_fits(int64_t nv) { return nv == 1 ? kWideFits<1> : nv == 2 && kWideFits<2>; }

// A narrow last block of one vector (AVX2 and SSE2 blocks are two) runs with the whole block
// before it as one block of three vectors, over tiles of kMergedPixels pixels: three weight
// loads and four broadcasts per 12 FMAs. Alone, over two tiles at once, its one weight load per
// twelve broadcasts made it cost more than a whole block: 24 -> 72 channels took 8% longer
// than 24 -> 80 (1 thread, 448 pixels).
constexpr bool kMergesNarrow = kBlockVectors == 2;
constexpr int kMergedVectors = kBlockVectors + 1;
constexpr int kMergedPixels = (kRegisters - kMergedVectors - 1) / kMergedVectors;
static_assert(!kMergesNarrow || kMergedPixels == 4, "merged_tile_of dispatches tile sizes 1 to 4");

// The merged block for P <= kMergedPixels pixels.
template <typename T, ConvAct A>
void merged_tile_of(int64_t P, const TileConvArgs& a, const T* const* x, const T* w, const T* bias, int64_t count,
                    T* const* y, const T* const* r, TileSteps st) {
  constexpr int NV = kMergedVectors;
  switch (P) {
    case 4: return tile<T, 4, NV, A>(a, x, w, bias, 1, count, y, r, st);
    case 3: return tile<T, 3, NV, A>(a, x, w, bias, 1, count, y, r, st);
    case 2: return tile<T, 2, NV, A>(a, x, w, bias, 1, count, y, r, st);
    default: return tile<T, 1, NV, A>(a, x, w, bias, 1, count, y, r, st);
  }
}

// tile_of, or the two-tile form for P == kWidePixels.
template <typename T, int NV, ConvAct A>
void narrow_tile_of(int64_t P, const TileConvArgs& a, const T* const* x, const T* w, const T* bias, int64_t blocks,
                    int64_t count, T* const* y, const T* const* r, TileSteps st) {
  if constexpr (kWideFits<NV>) {
    if (P == kWidePixels) return tile<T, kWidePixels, NV, A>(a, x, w, bias, blocks, count, y, r, st);
  }
  tile_of<T, NV, A>(P, a, x, w, bias, blocks, count, y, r, st);
}

// P pixels (P <= kWidePixels, two tiles only where the blocks' vectors fit them) of the
// blocks [b0, b1), all of nv vectors, or (nv == kMergedVectors, P <= kMergedPixels) of the
// whole block b0 and the narrow b1 - 1 = b0 + 1 merged: xp[p] the pixels' inputs, yp[p] and
// rp[p] their outputs and residuals at channel 0.
template <typename T, ConvAct A>
TZ_VINLINE void run_blocks(const TileConvArgs& a, int64_t b0, int64_t b1, int64_t nv, int64_t P, const T* const* xp,
                           T* const* yp, const T* const* rp, TileSteps st) {
  const ConvShape& s = a.s;
  constexpr int64_t B = kBlock<T>;
  const bool merged = nv > kBlockVectors;
  const int64_t o0 = b0 * B, count = merged ? s.O - o0 : std::min(B, s.O - (b1 - 1) * B), blocks = b1 - b0;
  const T* wb = static_cast<const T*>(a.w) + b0 * s.KH * s.KW * s.C * B;
  const T* bb = a.bias ? static_cast<const T*>(a.bias) + o0 : nullptr;
  T* yb[kWidePixels];
  const T* rb[kWidePixels];
  const int64_t y0 = b0 * kBlockVectors * vector_step<T>(a);  // (the residual is dense)
  for (int64_t p = 0; p < P; ++p) yb[p] = yp[p] + y0, rb[p] = rp[p] ? rp[p] + o0 : nullptr;
  if (merged) {
    if constexpr (kMergesNarrow) merged_tile_of<T, A>(P, a, xp, wb, bb, count, yb, rb, st);
    return;
  }
  switch (nv) {  // vectors these blocks need
    case 1: narrow_tile_of<T, 1, A>(P, a, xp, wb, bb, blocks, count, yb, rb, st); break;
    case 2: narrow_tile_of<T, 2, A>(P, a, xp, wb, bb, blocks, count, yb, rb, st); break;
    case 3: if constexpr (kBlockVectors >= 3) tile_of<T, 3, A>(P, a, xp, wb, bb, blocks, count, yb, rb, st); break;
    default: tile_of<T, kBlockVectors, A>(P, a, xp, wb, bb, blocks, count, yb, rb, st); break;
  }
}

// Vectors of block b.
template <typename T> int64_t vectors_of(const ConvShape& s, int64_t b) {
  return (std::min(kBlock<T>, s.O - b * kBlock<T>) + kLanes<T> - 1) / kLanes<T>;
}

// Whether the blocks [b0, b1) end in a narrow block that runs merged with the one before it.
template <typename T> bool merges_narrow(const ConvShape& s, int64_t b0, int64_t b1) {
  return kMergesNarrow && b1 - b0 >= 2 && vectors_of<T>(s, b1 - 1) < kBlockVectors;
}

// P pixels of the blocks [b0, b1) (and the next st.count - 1 steps' P pixels): the whole blocks
// in one call, the last (narrower) one in another, or with the whole one before it in tiles of
// kMergedPixels; where P is two tiles, blocks whose vectors do not fit them take one at a time.
template <typename T, ConvAct A>
void blocks_of(const TileConvArgs& a, int64_t b0, int64_t b1, int64_t P, const T* const* xp, T* const* yp,
               const T* const* rp, TileSteps st) {
  const int64_t last_nv = vectors_of<T>(a.s, b1 - 1);
  const int64_t whole_end = last_nv == kBlockVectors ? b1 : b1 - 1;
  auto run = [&](int64_t c0, int64_t c1, int64_t nv) {
    if (c1 <= c0) return;
    if (P <= kPixels || wide_fits(nv)) return run_blocks<T, A>(a, c0, c1, nv, P, xp, yp, rp, st);
    run_blocks<T, A>(a, c0, c1, nv, kPixels, xp, yp, rp, st);
    run_blocks<T, A>(a, c0, c1, nv, P - kPixels, xp + kPixels, yp + kPixels, rp + kPixels, st);
  };
  if (merges_narrow<T>(a.s, b0, b1)) {
    run(b0, whole_end - 1, kBlockVectors);
    for (int64_t q = 0; q < P; q += kMergedPixels)
      run_blocks<T, A>(a, whole_end - 1, b1, kMergedVectors, std::min<int64_t>(kMergedPixels, P - q), xp + q, yp + q,
                       rp + q, st);
    return;
  }
  run(b0, whole_end, kBlockVectors);
  run(whole_end, b1, last_nv);
}

template <typename T, ConvAct A>
void tiles(const TileConvArgs& a, int64_t begin, int64_t end) {
  const ConvShape& s = a.s;
  constexpr int64_t B = kBlock<T>;
  const T* x = static_cast<const T*>(a.x);
  const T* residual = static_cast<const T*>(a.residual);
  T* y = static_cast<T*>(a.y);
  const int64_t pixels = s.N * s.OH * s.OW, ntiles = conv_tile_count(s), nblocks = (s.O + B - 1) / B;
  const bool dense = a.y_h == 0;
  const int64_t yh = dense ? s.OH : a.y_h, yw = dense ? s.OW : a.y_w;
  // The next pixel's (n, oh, ow) and its input and output offsets, carried from pixel to
  // pixel and task to task (divisions and index products cost as much as the whole tile at
  // small C); `at`: its flat index, -1 until the first task divides.
  int64_t at = -1, ow = 0, oh = 0, n = 0, xo = 0, yo = 0;
  const int64_t y_pixel = a.y_pixel ? a.y_pixel : s.O;
  const int64_t x_step = s.sw * s.C, y_step = a.y_sw * y_pixel;
  // the offsets of pixel (n, oh, ow)
  auto locate = [&] {
    xo = ((n * a.Hp + oh * s.sh) * a.Wp + ow * s.sw) * s.C;
    yo = ((n * yh + oh * a.y_sh) * yw + ow * a.y_sw) * y_pixel;
  };
  const int64_t group = std::clamp<int64_t>(a.group_blocks, 1, nblocks), groups = (nblocks + group - 1) / group;
  const int64_t chunk = a.chunk_tiles > 0 ? std::min(a.chunk_tiles, ntiles) : ntiles;
  // pixel q's input at q * C and its output at q * O (a 1x1 convolution of stride 1, unpadded,
  // into a dense output): a run's whole tiles go to the kernel in one call
  const bool in_rows = s.KH == 1 && s.KW == 1 && s.sh == 1 && s.sw == 1 && a.Hp == s.OH && a.Wp == s.OW && dense;
  for (int64_t task = begin; task < end;) {
    // (chunk, group, tile within the chunk) of this task, divided out once per run of tasks:
    // those up to run_end are the same group's next tiles; every chunk but the last has
    // `chunk` tiles
    const int64_t c = task / (groups * chunk), rem = task - c * groups * chunk;
    const int64_t len = std::min(chunk, ntiles - c * chunk);
    int64_t at_tile = rem % len;
    const int64_t b0 = rem / len * group, b1 = std::min(nblocks, b0 + group);
    const int64_t run_end = task + std::min(end - task, len - at_tile);
    const bool wide_blocks = b1 - b0 > 1 || wide_fits(vectors_of<T>(s, b0));
    // Runs of tiles in one call where every block of the group takes the same tile: all whole,
    // or one narrow block. A group whose blocks take tiles of different sizes (a narrower last
    // block, alone or merged) goes over each step's pixels once per size: a run would stream its
    // inputs and outputs through the cache that many times (72 -> 24 channels over a band of 448
    // pixels in one run took twice as long as step by step).
    const bool one_form = b1 - b0 == 1 || vectors_of<T>(s, b1 - 1) == kBlockVectors;
    const int64_t run_pixels = b1 - b0 == 1 && wide_fits(vectors_of<T>(s, b0)) ? kWidePixels : kPixels;
    while (task < run_end) {
      const int64_t first = (c * chunk + at_tile) * kPixels;
      // in rows: the run's whole steps of run_pixels in one call; otherwise one step, of two
      // whole tiles in this run where the blocks take them (several blocks each take them at
      // once where their vectors fit), else of one tile
      int64_t P = run_pixels, steps = 0;
      if (in_rows && one_form) steps = std::min((run_end - task) * kPixels, pixels - first) / P;
      if (steps == 0) {
        const bool wide = wide_blocks && task + 1 < run_end && first + kWidePixels <= pixels;
        P = wide ? kWidePixels : std::min<int64_t>(kPixels, pixels - first), steps = 1;
      }
      const T* xp[kWidePixels];
      T* yp[kWidePixels];
      const T* rp[kWidePixels];
      if (at != first) ow = first % s.OW, oh = first / s.OW % s.OH, n = first / (s.OW * s.OH), locate();
      at = first + P;
      for (int64_t p = 0; p < P; ++p) {
        xp[p] = x + xo;
        yp[p] = y + yo;
        rp[p] = residual ? residual + yo : nullptr;
        if (++ow == s.OW) {
          ow = 0;
          if (++oh == s.OH) oh = 0, ++n;
          locate();
        } else {
          xo += x_step, yo += y_step;
        }
      }
      // (in rows the next step's pixels are P on; `at` then differs from the next task's first)
      blocks_of<T, A>(a, b0, b1, P, xp, yp, rp, TileSteps{steps, P * s.C, P * y_pixel});
      const int64_t done = steps * ((P + kPixels - 1) / kPixels);
      task += done, at_tile += done;
    }
  }
}

template <typename T> void tiles_for(const TileConvArgs& a, int64_t begin, int64_t end) {
  with_conv_act(a.act, [&](auto act) { tiles<T, decltype(act)::value>(a, begin, end); });
}
static_assert(kPixels == 6, "tiles() dispatches tile sizes 1 to 6");

void tile_conv(DType dtype, const TileConvArgs& a, int64_t begin, int64_t end) {
  if (dtype == DType::Float64) tiles_for<double>(a, begin, end);
  else tiles_for<float>(a, begin, end);
}

}  // namespace
TZ_REGISTER_KERNEL(conv_tile_block_stub, &block_width);
TZ_REGISTER_KERNEL(conv_tile_stub, &tile_conv);
}  // namespace TZ_CPU_CAPABILITY
}  // namespace tz
