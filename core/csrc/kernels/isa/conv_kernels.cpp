// Depthwise convolution kernels (see kernels/conv.h). NHWC: channels in vector lanes, eight
// (or four) output pixels per step in the interior so each weight load serves that many
// outputs, the fused activation applied before the store. NCHW:
// one plane per task, output rows in lanes. Every output accumulates its taps in the order
// (kh, kw) ascending, starting from the bias, by fused multiply-adds (one rounding each:
// FMA instructions in the AVX2/AVX-512 builds, std::fma in the baseline), so every build
// (and the NCHW and NHWC forward kernels) give the same bits.
#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <utility>

#include "kernels/conv.h"
#include "kernels/isa/conv_activation.h"
#include "kernels/isa/conv_dw_pixels.h"
#include "kernels/isa_vector.h"
#include "kernels/simd_vec.h"

namespace tz {
namespace TZ_CPU_CAPABILITY {
namespace {

using vm::kLanes;
using vm::vec;
using vm::vfma;

// n (<= lanes) elements: a full vector load when n is the lane count.
template <typename T> TZ_VINLINE vec<T> ld(const T* p, int64_t n) {
  return n == kLanes<T> ? vm::load(p) : vm::load_partial(p, n);
}
// Stores n lanes `step` elements apart (step > 1: a multiplier's interleaved channels).
template <typename T> TZ_VINLINE void st(T* p, const vec<T>& v, int64_t n, int64_t step) {
  if (step == 1) {
    if (n == kLanes<T>) vm::store(p, v);
    else vm::store_partial(p, v, n);
  } else {
    alignas(vm::kVecBytes) T lanes[kLanes<T>];  // not v[l]: indexing a vector by a variable pins it to the stack
    vm::store(lanes, v);
    for (int64_t l = 0; l < n; ++l) p[l * step] = lanes[l];
  }
}
// Loads n lanes `step` elements apart.
template <typename T> TZ_VINLINE vec<T> ld_step(const T* p, int64_t n, int64_t step) {
  if (step == 1) return ld(p, n);
  alignas(vm::kVecBytes) T lanes[kLanes<T>] = {};
  for (int64_t l = 0; l < n; ++l) lanes[l] = p[l * step];
  return vm::load(lanes);
}

// ---------------------------------------------------------------- NHWC

// Channel blocks of L lanes. The last block is moved back to end at C, overlapping its
// predecessor, so every load is a full vector (C < L: one partial block). `skip`: lanes
// of the block that the previous block already covered (accumulating kernels mask them).
struct Blocks {
  int64_t C, L, count;
  Blocks(int64_t c, int64_t l) : C(c), L(l), count(c >= l ? (c + l - 1) / l : 1) {}
  int64_t start(int64_t b) const { return C < L ? 0 : std::min(b * L, C - L); }
  int64_t lanes() const { return C < L ? C : L; }
  int64_t skip(int64_t b) const { return b * L - start(b); }
};

// Loads and stores of one channel block: kFull, a whole vector of contiguous channels (the
// common case: no lane count, so the accumulators stay in registers); otherwise nl lanes,
// stored `mult` apart (a channel multiplier's interleaved outputs).
template <typename T, bool kFull> struct Lanes {
  int64_t nl, mult;
  TZ_VINLINE vec<T> load(const T* p) const { return kFull ? vm::load(p) : ld(p, nl); }
  TZ_VINLINE vec<T> load_interleaved(const T* p) const { return kFull ? vm::load(p) : ld_step(p, nl, mult); }
  TZ_VINLINE void store(T* p, const vec<T>& v) const {  // interleaved, `mult` apart
    if constexpr (kFull) vm::store(p, v);
    else st(p, v, nl, mult);
  }
  TZ_VINLINE void store_dense(T* p, const vec<T>& v) const {
    if constexpr (kFull) vm::store(p, v);
    else st(p, v, nl, int64_t(1));
  }
};

// One output pixel over the taps kh_r x kw_r, for NB channel blocks starting at c[0..NB)
// (NB independent FMA chains). Here and below: a tap's weights are wc elements on from the
// last tap's.
template <ConvAct A, typename T, bool kFull, int NB>
TZ_VINLINE void pixel_blocks(const ConvShape& s, ConvRange kh_r, ConvRange kw_r, const T* x, const T* w, int64_t wc,
                             const T* bias, T* y, const int64_t* c, int64_t nl, int64_t mult) {
  using V = vec<T>;
  const int64_t C = s.C, xrow = s.W * C;
  const Lanes<T, kFull> lanes{nl, mult};
  V acc[NB];
  for (int i = 0; i < NB; ++i) acc[i] = bias ? lanes.load(bias + c[i]) : V{};
  for (int64_t kh = kh_r.lo; kh < kh_r.hi; ++kh)
    for (int64_t kw = kw_r.lo; kw < kw_r.hi; ++kw) {
      const T* xk = x + kh * s.dh * xrow + kw * s.dw * C;
      const T* wk = w + (kh * s.KW + kw) * wc;
      for (int i = 0; i < NB; ++i) acc[i] = vfma(lanes.load(xk + c[i]), lanes.load(wk + c[i]), acc[i]);
    }
  for (int i = 0; i < NB; ++i) lanes.store(y + c[i] * mult, conv_activate<A>(acc[i]));
}

// Four interior output pixels (all taps inside the input) of one channel block: each weight
// load serves four FMA chains. kFull: a whole vector of contiguous channels (the common case),
// so loads and stores need no lane count and the accumulators stay in registers.
template <ConvAct A, typename T, bool kFull>
TZ_VINLINE void four_pixels(const ConvShape& s, ConvRange kh_r, const T* x, const T* w, int64_t wc, const T* bias,
                            T* y, int64_t ystep, int64_t nl, int64_t mult) {
  using V = vec<T>;
  const int64_t C = s.C, xstep = s.sw * C, xrow = s.W * C;
  const Lanes<T, kFull> lanes{nl, mult};
  auto load = [&](const T* p) { return lanes.load(p); };
  auto store = [&](T* p, const V& v) { lanes.store(p, conv_activate<A>(v)); };
  const V bv = bias ? load(bias) : V{};
  V a0 = bv, a1 = bv, a2 = bv, a3 = bv;
  for (int64_t kh = kh_r.lo; kh < kh_r.hi; ++kh) {
    const T* xr = x + kh * s.dh * xrow;
    const T* wr = w + kh * s.KW * wc;
    for (int64_t kw = 0; kw < s.KW; ++kw) {
      const V wv = load(wr + kw * wc);
      const T* p = xr + kw * s.dw * C;
      a0 = vfma(load(p), wv, a0);
      a1 = vfma(load(p + xstep), wv, a1);
      a2 = vfma(load(p + 2 * xstep), wv, a2);
      a3 = vfma(load(p + 3 * xstep), wv, a3);
    }
  }
  store(y, a0);
  store(y + ystep, a1);
  store(y + 2 * ystep, a2);
  store(y + 3 * ystep, a3);
}

// four_pixels for a whole vector of contiguous channels with the kernel width KW and stride
// SW known (undilated): each kernel row's inputs are loaded once into registers and serve
// every tap that reads them (3 of 9 loads per row at 3x3 stride 1), in the same FMA order.
template <ConvAct A, typename T, int KW, int SW>
TZ_VINLINE void four_pixels_fixed(const ConvShape& s, ConvRange kh_r, const T* x, const T* w, int64_t wc,
                                  const T* bias, T* y, int64_t ystep) {
  using V = vec<T>;
  constexpr int kInputs = 3 * SW + KW;  // input pixels the four outputs' taps of a row read
  const int64_t C = s.C, xrow = s.W * C;
  const V bv = bias ? vm::load(bias) : V{};
  V acc[4] = {bv, bv, bv, bv};
  for (int64_t kh = kh_r.lo; kh < kh_r.hi; ++kh) {
    const T* xr = x + kh * s.dh * xrow;
    const T* wr = w + kh * KW * wc;
    V xv[kInputs];
#pragma GCC unroll 16
    for (int i = 0; i < kInputs; ++i) xv[i] = vm::load(xr + i * C);
#pragma GCC unroll 8
    for (int kw = 0; kw < KW; ++kw) {
      const V wv = vm::load(wr + kw * wc);
#pragma GCC unroll 4
      for (int p = 0; p < 4; ++p) acc[p] = vfma(xv[p * SW + kw], wv, acc[p]);
    }
  }
#pragma GCC unroll 4
  for (int p = 0; p < 4; ++p) vm::store(y + p * ystep, conv_activate<A>(acc[p]));
}

// Eight interior output pixels of one whole vector of contiguous channels, KW and SW known
// (undilated): eight FMA chains, enough to cover the FMA latency (four leave half the FMA
// units idle), the inputs read from L1 tap by tap; the same FMA order as four_pixels.
template <ConvAct A, typename T, int KW, int SW>
TZ_VINLINE void eight_pixels_fixed(const ConvShape& s, ConvRange kh_r, const T* x, const T* w, int64_t wc,
                                   const T* bias, T* y, int64_t ystep) {
  using V = vec<T>;
  const V bv = bias ? vm::load(bias) : V{};
  V acc[8];
#pragma GCC unroll 8
  for (int p = 0; p < 8; ++p) acc[p] = bv;
  dw_fixed_pixels<T, KW, SW, 8, KW == 3>(acc, x, s.C, s.dh * s.W * s.C, kh_r, w, wc);
#pragma GCC unroll 8
  for (int p = 0; p < 8; ++p) vm::store(y + p * ystep, conv_activate<A>(acc[p]));
}

// four_pixels_fixed (Q == 4) or eight_pixels_fixed (Q == 8) for a shape with dw_fixed_form.
template <ConvAct A, int Q, typename T>
TZ_VINLINE void pixels_fixed(const ConvShape& s, ConvRange kh_r, const T* x, const T* w, int64_t wc, const T* bias,
                             T* y, int64_t ystep) {
  with_dw_fixed_form(s, [&](auto kw, auto sw) {
    if constexpr (Q == 8)
      eight_pixels_fixed<A, T, decltype(kw)::value, decltype(sw)::value>(s, kh_r, x, w, wc, bias, y, ystep);
    else four_pixels_fixed<A, T, decltype(kw)::value, decltype(sw)::value>(s, kh_r, x, w, wc, bias, y, ystep);
  });
}

template <typename T, ConvAct A>
void fwd_nhwc_act(const DepthwiseArgs& a, int64_t begin, int64_t end) {
  const ConvShape& s = a.s;
  const int64_t C = s.C, O = s.O, mult = O / C, KK = s.KH * s.KW, ystep = a.y_step ? a.y_step : O;
  const int64_t wc = a.w_step ? a.w_step : C;
  const T* x = static_cast<const T*>(a.in);
  const T* w = static_cast<const T*>(a.w);
  const T* bias = static_cast<const T*>(a.bias);
  T* y = static_cast<T*>(a.out);
  const Blocks blk(C, kLanes<T>);
  const int64_t nl = blk.lanes();
  const bool full = nl == kLanes<T> && mult == 1, fixed = full && dw_fixed_form(s);
  // Output columns whose taps are all inside the input.
  const ConvRange inner = conv_valid_range(s.OW, s.W - (s.KW - 1) * s.dw, s.sw, -s.pw);
  const int64_t xrow = s.W * C;
  for (int64_t task = begin; task < end; ++task) {
    const int64_t n = task / s.OH, oh = task % s.OH;
    const T* xn = x + n * s.H * xrow;
    T* yrow = y + task * s.OW * ystep;
    const ConvRange kh_r = conv_valid_range(s.KH, s.H, s.dh, oh * s.sh - s.ph);
    const T* x0 = xn + (oh * s.sh - s.ph) * xrow;  // row of kh = 0 (may lie outside)
    // One border output pixel (some taps outside the input), four channel blocks at a time.
    auto pixel = [&](int64_t ow) {
      const ConvRange kw_r = conv_valid_range(s.KW, s.W, s.dw, ow * s.sw - s.pw);
      const T* xp = x0 + (ow * s.sw - s.pw) * C;
      for (int64_t m = 0; m < mult; ++m) {
        const T* wm = w + m * KK * wc;
        const T* bm = bias ? bias + m * C : nullptr;
        T* yp = yrow + ow * ystep + m;
        int64_t b = 0;
        for (; b + 4 <= blk.count; b += 4) {
          const int64_t c[4] = {blk.start(b), blk.start(b + 1), blk.start(b + 2), blk.start(b + 3)};
          if (full) pixel_blocks<A, T, true, 4>(s, kh_r, kw_r, xp, wm, wc, bm, yp, c, nl, mult);
          else pixel_blocks<A, T, false, 4>(s, kh_r, kw_r, xp, wm, wc, bm, yp, c, nl, mult);
        }
        for (; b < blk.count; ++b) {
          const int64_t c[1] = {blk.start(b)};
          if (full) pixel_blocks<A, T, true, 1>(s, kh_r, kw_r, xp, wm, wc, bm, yp, c, nl, mult);
          else pixel_blocks<A, T, false, 1>(s, kh_r, kw_r, xp, wm, wc, bm, yp, c, nl, mult);
        }
      }
    };
    // Q interior pixels from ow, every channel block.
    auto interior = [&](auto q, int64_t ow) {
      constexpr int Q = decltype(q)::value;
      for (int64_t m = 0; m < mult; ++m)
        for (int64_t b = 0; b < blk.count; ++b) {
          const int64_t c0 = blk.start(b);
          const T* xb = x0 + c0 + (ow * s.sw - s.pw) * C;
          const T* wb = w + m * KK * wc + c0;
          const T* bb = bias ? bias + m * C + c0 : nullptr;
          T* yb = yrow + ow * ystep + c0 * mult + m;
          if (fixed) pixels_fixed<A, Q>(s, kh_r, xb, wb, wc, bb, yb, ystep);
          else if (full) four_pixels<A, T, true>(s, kh_r, xb, wb, wc, bb, yb, ystep, nl, mult);
          else four_pixels<A, T, false>(s, kh_r, xb, wb, wc, bb, yb, ystep, nl, mult);
        }
    };
    int64_t ow = 0;
    for (; ow < inner.lo; ++ow) pixel(ow);
    for (; fixed && ow + 8 <= inner.hi; ow += 8) interior(std::integral_constant<int, 8>{}, ow);
    for (; ow + 4 <= inner.hi; ow += 4) interior(std::integral_constant<int, 4>{}, ow);
    // Fewer than four interior pixels left: the last four again (the same bits), not the border
    // path's loops (two of each row's four slow pixels at 112 wide)
    if (ow < inner.hi && inner.hi - inner.lo >= 4) interior(std::integral_constant<int, 4>{}, inner.hi - 4), ow = inner.hi;
    for (; ow < s.OW; ++ow) pixel(ow);
  }
}

template <typename T>
void fwd_nhwc(const DepthwiseArgs& a, int64_t begin, int64_t end) {
  with_conv_act(a.act, [&](auto act) { fwd_nhwc_act<T, decltype(act)::value>(a, begin, end); });
}

// Taps (k, output index) reaching input index i along one dim; returns their count.
int64_t taps_of(int64_t i, int64_t k_len, int64_t out_len, int64_t stride, int64_t pad, int64_t dil, int64_t* ks,
                int64_t* os) {
  int64_t cnt = 0;
  for (int64_t k = 0; k < k_len; ++k) {
    const int64_t num = i + pad - k * dil;
    if (num < 0 || num % stride != 0 || num / stride >= out_len) continue;
    ks[cnt] = k, os[cnt] = num / stride, ++cnt;
  }
  return cnt;
}

// Gathers, for each input pixel, the output pixels and taps that read it.
// The (kh, oh) and (kw, ow) pairs of output taps that reach one input pixel.
struct GradTaps {
  int64_t nkh, nkw;
  const int64_t *khs, *ohs, *kws, *ows;
};

// One input pixel's gradient for NB channel blocks starting at c[0..NB): the sum over its
// taps and channel multipliers of grad_output * weight (NB independent FMA chains).
template <typename T, bool kFull, int NB>
TZ_VINLINE void grad_input_pixel(const ConvShape& s, const GradTaps& t, const T* gy, const T* w, const int64_t* c,
                                 T* gx, int64_t nl) {
  using V = vec<T>;
  const int64_t C = s.C, O = s.O, mult = O / C;
  const Lanes<T, kFull> lanes{nl, mult};
  V acc[NB];
  for (int i = 0; i < NB; ++i) acc[i] = V{};
  for (int64_t m = 0; m < mult; ++m)
    for (int64_t i = 0; i < t.nkh; ++i)
      for (int64_t j = 0; j < t.nkw; ++j) {
        const T* g = gy + (t.ohs[i] * s.OW + t.ows[j]) * O + m;
        const T* wk = w + ((m * s.KH + t.khs[i]) * s.KW + t.kws[j]) * C;
        for (int k = 0; k < NB; ++k)
          acc[k] = vfma(lanes.load_interleaved(g + c[k] * mult), lanes.load(wk + c[k]), acc[k]);
      }
  for (int k = 0; k < NB; ++k) lanes.store_dense(gx + c[k], acc[k]);
}

template <typename T>
void bwd_input_nhwc(const DepthwiseArgs& a, int64_t begin, int64_t end) {
  using V = vec<T>;
  const ConvShape& s = a.s;
  const int64_t C = s.C, O = s.O, mult = O / C;
  const T* gy = static_cast<const T*>(a.in);
  const T* w = static_cast<const T*>(a.w);
  T* gx = static_cast<T*>(a.out);
  const Blocks blk(C, kLanes<T>);
  const int64_t nl = blk.lanes();
  Vector<int64_t> khs(s.KH), ohs(s.KH), kws(s.KW), ows(s.KW);
  // Input columns all of whose taps reach an output (stride 1 only): blocks of four.
  const bool unit = s.sw == 1 && mult == 1;
  const int64_t in_lo = unit ? std::max<int64_t>(0, (s.KW - 1) * s.dw - s.pw) : 0;
  const int64_t in_hi = unit ? std::min<int64_t>(s.W, s.OW - s.pw) : 0;
  for (int64_t task = begin; task < end; ++task) {
    const int64_t n = task / s.H, ih = task % s.H;
    const int64_t nkh = taps_of(ih, s.KH, s.OH, s.sh, s.ph, s.dh, khs.data(), ohs.data());
    const T* gyn = gy + n * s.OH * s.OW * O;
    T* grow = gx + task * s.W * C;
    // One input pixel over the output taps that reach it, four channel blocks at a time.
    auto pixel = [&](int64_t iw) {
      const int64_t nkw = taps_of(iw, s.KW, s.OW, s.sw, s.pw, s.dw, kws.data(), ows.data());
      const GradTaps taps{nkh, nkw, khs.data(), ohs.data(), kws.data(), ows.data()};
      T* gp = grow + iw * C;
      const bool full = nl == kLanes<T> && mult == 1;
      int64_t b = 0;
      for (; b + 4 <= blk.count; b += 4) {
        const int64_t c[4] = {blk.start(b), blk.start(b + 1), blk.start(b + 2), blk.start(b + 3)};
        if (full) grad_input_pixel<T, true, 4>(s, taps, gyn, w, c, gp, nl);
        else grad_input_pixel<T, false, 4>(s, taps, gyn, w, c, gp, nl);
      }
      for (; b < blk.count; ++b) {
        const int64_t c[1] = {blk.start(b)};
        if (full) grad_input_pixel<T, true, 1>(s, taps, gyn, w, c, gp, nl);
        else grad_input_pixel<T, false, 1>(s, taps, gyn, w, c, gp, nl);
      }
    };
    int64_t iw = 0;
    if (unit && in_hi > in_lo) {
      for (; iw < in_lo; ++iw) pixel(iw);
      for (; iw + 4 <= in_hi; iw += 4)
        for (int64_t b = 0; b < blk.count; ++b) {
          const int64_t c0 = blk.start(b);
          V a0 = {}, a1 = {}, a2 = {}, a3 = {};
          for (int64_t i = 0; i < nkh; ++i) {
            const T* gr = gyn + ohs[i] * s.OW * O + c0 + (iw + s.pw) * O;
            const T* wr = w + khs[i] * s.KW * C + c0;
            for (int64_t kw = 0; kw < s.KW; ++kw) {
              const V wv = ld(wr + kw * C, nl);
              const T* p = gr - kw * s.dw * O;
              a0 = vfma(ld(p, nl), wv, a0);
              a1 = vfma(ld(p + O, nl), wv, a1);
              a2 = vfma(ld(p + 2 * O, nl), wv, a2);
              a3 = vfma(ld(p + 3 * O, nl), wv, a3);
            }
          }
          T* gp = grow + iw * C + c0;
          st(gp, a0, nl, int64_t(1));
          st(gp + C, a1, nl, int64_t(1));
          st(gp + 2 * C, a2, nl, int64_t(1));
          st(gp + 3 * C, a3, nl, int64_t(1));
        }
    }
    for (; iw < s.W; ++iw) pixel(iw);
  }
}

// Sum over the output columns r of grad_output x input for one channel block: four partial
// sums (ow mod 4) combined in a fixed order. gy: column 0's grad_output (interleaved by
// `mult`), x: column 0's input (x_step apart per column).
template <typename T, bool kFull>
TZ_VINLINE vec<T> weight_grad_sum(const T* gy, const T* x, ConvRange r, int64_t gy_step, int64_t x_step, int64_t nl,
                                  int64_t mult) {
  using V = vec<T>;
  const Lanes<T, kFull> lanes{nl, mult};
  auto term = [&](int64_t ow) {
    return std::make_pair(lanes.load_interleaved(gy + ow * gy_step), lanes.load(x + ow * x_step));
  };
  V p0 = {}, p1 = {}, p2 = {}, p3 = {};
  int64_t ow = r.lo;
  for (; ow + 4 <= r.hi; ow += 4) {
    const auto [g0, x0] = term(ow);
    const auto [g1, x1] = term(ow + 1);
    const auto [g2, x2] = term(ow + 2);
    const auto [g3, x3] = term(ow + 3);
    p0 = vfma(g0, x0, p0), p1 = vfma(g1, x1, p1), p2 = vfma(g2, x2, p2), p3 = vfma(g3, x3, p3);
  }
  V* partial[3] = {&p0, &p1, &p2};
  for (int i = 0; ow + i < r.hi; ++i) {  // at most three columns left
    const auto [g, xv] = term(ow + i);
    *partial[i] = vfma(g, xv, *partial[i]);
  }
  return (p0 + p1) + (p2 + p3);
}

template <typename T>
void bwd_weight_nhwc(const DepthwiseArgs& a, int64_t begin, int64_t end) {
  using V = vec<T>;
  const ConvShape& s = a.s;
  const int64_t C = s.C, O = s.O, mult = O / C;
  const T* x = static_cast<const T*>(a.in);
  const T* gy = static_cast<const T*>(a.w);
  T* gw = static_cast<T*>(a.out);
  const Blocks blk(C, kLanes<T>);
  const int64_t nl = blk.lanes();
  V lane_index;
  for (int l = 0; l < kLanes<T>; ++l) lane_index[l] = T(l);
  for (int64_t task = begin; task < end; ++task) {
    const int64_t n = task / s.OH, oh = task % s.OH;
    const T* xn = x + n * s.H * s.W * C;
    const T* grow = gy + task * s.OW * O;
    const ConvRange kh_r = conv_valid_range(s.KH, s.H, s.dh, oh * s.sh - s.ph);
    for (int64_t m = 0; m < mult; ++m)
      for (int64_t kh = kh_r.lo; kh < kh_r.hi; ++kh) {
        const T* xr = xn + (oh * s.sh - s.ph + kh * s.dh) * s.W * C;
        for (int64_t kw = 0; kw < s.KW; ++kw) {
          const int64_t off = kw * s.dw - s.pw;
          const ConvRange r = conv_valid_range(s.OW, s.W, s.sw, off);
          T* gk = gw + ((m * s.KH + kh) * s.KW + kw) * C;
          for (int64_t b = 0; b < blk.count; ++b) {
            const int64_t c0 = blk.start(b);
            const T* gp = grow + c0 * mult + m;
            const T* xp = xr + off * C + c0;
            const V sum = nl == kLanes<T> && mult == 1
                              ? weight_grad_sum<T, true>(gp, xp, r, O, s.sw * C, nl, mult)
                              : weight_grad_sum<T, false>(gp, xp, r, O, s.sw * C, nl, mult);
            const V old = ld(gk + c0, nl);
            // Lanes an overlapping last block shares with its predecessor keep their value.
            const V upd = lane_index >= T(blk.skip(b)) ? old + sum : old;
            st(gk + c0, upd, nl, int64_t(1));
          }
        }
      }
  }
}

// ---------------------------------------------------------------- NCHW

// For each kw, the output columns whose input column ow * sw + kw * dw - pw exists.
Vector<ConvRange> kw_ranges(const ConvShape& s) {
  Vector<ConvRange> r(s.KW);
  for (int64_t kw = 0; kw < s.KW; ++kw) r[kw] = conv_valid_range(s.OW, s.W, s.sw, kw * s.dw - s.pw);
  return r;
}

// Output rows go in groups of this many (four FMA chains share each weight).
constexpr int64_t kNchwRowGroup = 4;

// One input plane copied with zero rows and columns around it, so that every vector load
// of a row, and every row of a group of kNchwRowGroup output rows, stays inside it. With an
// infinite or NaN weight, taps that fall on the padding are skipped (masked), as the NHWC
// kernels skip them: 0 * inf must not turn an output into NaN.
template <typename T> struct PaddedPlane {
  Vector<T> data;
  int64_t top, left, row;  // zero rows above, zero columns before each row; row length
  PaddedPlane(const ConvShape& s, int64_t blocks_per_row, int64_t stride) {
    const int64_t last_read = stride * blocks_per_row * kLanes<T> - 1 + (s.KW - 1) * s.dw - s.pw;
    const int64_t groups = (s.OH + kNchwRowGroup - 1) / kNchwRowGroup;
    const int64_t last_row = (groups * kNchwRowGroup - 1) * s.sh + (s.KH - 1) * s.dh;  // from the top padding
    top = s.ph, left = s.pw;
    row = left + std::max(s.W, last_read + 1);
    data.assign(std::max(top + s.H, last_row + 1) * row, T(0));
  }
  // Copies plane x in; returns its element (0, 0).
  const T* fill(const T* x, const ConvShape& s) {
    T* origin = data.data() + top * row + left;
    for (int64_t h = 0; h < s.H; ++h) std::copy(x + h * s.W, x + (h + 1) * s.W, origin + h * row);
    return origin;
  }
};

// R output rows (sharing their valid kh range) x one vector of consecutive outputs from
// output column ow0: bias, then the taps (kh, kw) ascending, R independent FMA chains.
// kMasked: lanes whose input column lies outside the row skip that tap (border vectors);
// otherwise every lane takes every tap.
template <typename T, int64_t kStride, int R, bool kMasked>
TZ_VINLINE void nchw_tile(const ConvShape& s, ConvRange kh_r, const T* x_kh0, int64_t row, const T* wk, T b,
                          int64_t ow0, T* y, int64_t count, int64_t rows) {
  using V = vec<T>;
  using I = std::conditional_t<sizeof(T) == 4, int32_t, int64_t>;  // lanes as wide as T's
  using IV = vec<I>;
  constexpr int64_t L = kLanes<T>;
  IV lane_iw = {};  // input column of each lane's kw = 0 tap
  if constexpr (kMasked) {
    alignas(vm::kVecBytes) I columns[L];  // built in memory: indexing a vector by a variable pins it there
    for (int l = 0; l < L; ++l) columns[l] = I((ow0 + l) * kStride - s.pw);
    lane_iw = vm::load(columns);
  }
  const int64_t row_step = s.sh * row;  // input distance between consecutive output rows
  V acc[R];
  for (int r = 0; r < R; ++r) acc[r] = vm::splat<V>(b);
  for (int64_t kh = kh_r.lo; kh < kh_r.hi; ++kh) {
    const T* xr = x_kh0 + kh * s.dh * row + ow0 * kStride - s.pw;
    for (int64_t kw = 0; kw < s.KW; ++kw) {
      const V wv = vm::splat<V>(wk[kh * s.KW + kw]);
      const T* src = xr + kw * s.dw;
      IV valid = {};
      if constexpr (kMasked) {
        const IV iw = lane_iw + I(kw * s.dw);
        valid = iw >= 0 && iw < I(s.W);
      }
      for (int r = 0; r < R; ++r) {
        const V next = vfma(vm::load_every<kStride>(src + r * row_step), wv, acc[r]);
        if constexpr (kMasked) acc[r] = valid ? next : acc[r];
        else acc[r] = next;
      }
    }
  }
  for (int r = 0; r < R && r < rows; ++r) {
    if (count == L) vm::store(y + r * s.OW, acc[r]);
    else vm::store_partial(y + r * s.OW, acc[r], count);
  }
}

// The output rows oh0 .. oh0 + rows - 1 (rows <= R; the tile computes R of them), one
// vector of columns at a time.
template <typename T, int64_t kStride, int R>
TZ_VINLINE void nchw_rows(const ConvShape& s, ConvRange inner, ConvRange kh_r, const T* x, int64_t row,
                          const T* wk, T b, int64_t oh0, int64_t rows, T* y) {
  constexpr int64_t L = kLanes<T>;
  const T* x_kh0 = x + (oh0 * s.sh - s.ph) * row;  // row of kh = 0 (may lie in the padding)
  T* yr = y + oh0 * s.OW;
  for (int64_t ow = 0; ow < s.OW; ow += L) {
    const int64_t count = std::min(L, s.OW - ow);
    if (ow >= inner.lo && ow + count <= inner.hi)
      nchw_tile<T, kStride, R, false>(s, kh_r, x_kh0, row, wk, b, ow, yr + ow, count, rows);
    else
      nchw_tile<T, kStride, R, true>(s, kh_r, x_kh0, row, wk, b, ow, yr + ow, count, rows);
  }
}

// One plane at stride 1 or 2, x in a PaddedPlane. Finite weights: every tap of every row
// group is taken, padded zeros adding nothing (except that a zero sum may come out as +0
// where skipping gives -0). Otherwise taps on the padding are skipped: rows whose taps are
// all inside the input go in groups, the top and bottom ones singly, border columns masked.
template <typename T, int64_t kStride>
void fwd_nchw_plane(const ConvShape& s, const T* x, int64_t row, const T* wk, T b, T* y) {
  constexpr int R = kNchwRowGroup;
  if (std::all_of(wk, wk + s.KH * s.KW, [](T v) { return std::isfinite(v); })) {
    for (int64_t oh = 0; oh < s.OH; oh += R)
      nchw_rows<T, kStride, R>(s, ConvRange{0, s.OW}, ConvRange{0, s.KH}, x, row, wk, b, oh,
                               std::min<int64_t>(R, s.OH - oh), y);
    return;
  }
  const ConvRange inner = conv_valid_range(s.OW, s.W - (s.KW - 1) * s.dw, kStride, -s.pw);
  const ConvRange full_rows = conv_valid_range(s.OH, s.H - (s.KH - 1) * s.dh, s.sh, -s.ph);
  for (int64_t oh = 0; oh < s.OH;) {
    const ConvRange kh_r = conv_valid_range(s.KH, s.H, s.dh, oh * s.sh - s.ph);
    if (oh >= full_rows.lo && oh + R <= full_rows.hi) {
      nchw_rows<T, kStride, R>(s, inner, kh_r, x, row, wk, b, oh, R, y);
      oh += R;
    } else {
      nchw_rows<T, kStride, 1>(s, inner, kh_r, x, row, wk, b, oh, 1, y);
      oh += 1;
    }
  }
}

// Any stride, one output at a time (strides above 2 are rare in practice).
template <typename T>
void fwd_nchw_plane_scalar(const ConvShape& s, const T* x, const T* wk, T b, T* y) {
  for (int64_t oh = 0; oh < s.OH; ++oh) {
    const ConvRange kh_r = conv_valid_range(s.KH, s.H, s.dh, oh * s.sh - s.ph);
    for (int64_t ow = 0; ow < s.OW; ++ow) {
      T acc = b;
      for (int64_t kh = kh_r.lo; kh < kh_r.hi; ++kh)
        for (int64_t kw = 0; kw < s.KW; ++kw) {
          const int64_t iw = ow * s.sw - s.pw + kw * s.dw;
          if (iw >= 0 && iw < s.W)
            acc = std::fma(x[(oh * s.sh - s.ph + kh * s.dh) * s.W + iw], wk[kh * s.KW + kw], acc);
        }
      y[oh * s.OW + ow] = acc;
    }
  }
}

template <typename T>
void fwd_nchw(const DepthwiseArgs& a, int64_t begin, int64_t end) {
  const ConvShape& s = a.s;
  const int64_t mult = s.O / s.C, KK = s.KH * s.KW;
  const T* x = static_cast<const T*>(a.in);
  const T* w = static_cast<const T*>(a.w);
  const T* bias = static_cast<const T*>(a.bias);
  T* y = static_cast<T*>(a.out);
  PaddedPlane<T> padded(s, s.sw <= 2 ? (s.OW + kLanes<T> - 1) / kLanes<T> : 0, s.sw);
  int64_t filled = -1;  // the input plane now in `padded`
  for (int64_t task = begin; task < end; ++task) {
    const int64_t n = task / s.O, o = task % s.O, plane = n * s.C + o / mult;
    const T* xp = x + plane * s.H * s.W;
    const T b = bias ? bias[o] : T(0);
    T* yp = y + task * s.OH * s.OW;
    if (s.sw > 2) {
      fwd_nchw_plane_scalar<T>(s, xp, w + o * KK, b, yp);
      continue;
    }
    if (filled != plane) padded.fill(xp, s), filled = plane;  // a channel multiplier reuses its plane
    const T* xpad = padded.data.data() + padded.top * padded.row + padded.left;
    if (s.sw == 1) fwd_nchw_plane<T, 1>(s, xpad, padded.row, w + o * KK, b, yp);
    else fwd_nchw_plane<T, 2>(s, xpad, padded.row, w + o * KK, b, yp);
  }
}

template <typename T>
void bwd_input_nchw(const DepthwiseArgs& a, int64_t begin, int64_t end) {
  const ConvShape& s = a.s;
  const int64_t mult = s.O / s.C, KK = s.KH * s.KW;
  const T* gy = static_cast<const T*>(a.in);
  const T* w = static_cast<const T*>(a.w);
  T* gx = static_cast<T*>(a.out);
  const Vector<ConvRange> kw_r = kw_ranges(s);
  for (int64_t task = begin; task < end; ++task) {
    const int64_t n = task / s.C, c = task % s.C;
    T* gp = gx + task * s.H * s.W;
    std::fill(gp, gp + s.H * s.W, T(0));
    for (int64_t m = 0; m < mult; ++m) {
      const int64_t o = c * mult + m;
      const T* gyp = gy + (n * s.O + o) * s.OH * s.OW;
      const T* wk = w + o * KK;
      for (int64_t oh = 0; oh < s.OH; ++oh) {
        const T* __restrict__ gr = gyp + oh * s.OW;
        const ConvRange kh_r = conv_valid_range(s.KH, s.H, s.dh, oh * s.sh - s.ph);
        for (int64_t kh = kh_r.lo; kh < kh_r.hi; ++kh) {
          T* xr = gp + (oh * s.sh - s.ph + kh * s.dh) * s.W;
          for (int64_t kw = 0; kw < s.KW; ++kw) {
            const T wv = wk[kh * s.KW + kw];
            const int64_t off = kw * s.dw - s.pw;
            const ConvRange r = kw_r[kw];
            T* __restrict__ dst = xr + off;
            if (s.sw == 1) {
              for (int64_t ow = r.lo; ow < r.hi; ++ow) dst[ow] = std::fma(gr[ow], wv, dst[ow]);
            } else {
              for (int64_t ow = r.lo; ow < r.hi; ++ow) dst[ow * s.sw] = std::fma(gr[ow], wv, dst[ow * s.sw]);
            }
          }
        }
      }
    }
  }
}

template <template <typename> class K>
struct ForDtype {
  static void run(DType dtype, const DepthwiseArgs& a, int64_t begin, int64_t end) {
    if (dtype == DType::Float64) K<double>::run(a, begin, end);
    else K<float>::run(a, begin, end);
  }
};

#define TZ_DW_KERNEL(name)                                                              \
  template <typename T> struct name##_k {                                               \
    static void run(const DepthwiseArgs& a, int64_t b, int64_t e) { name<T>(a, b, e); } \
  };
TZ_DW_KERNEL(fwd_nhwc)
TZ_DW_KERNEL(bwd_input_nhwc)
TZ_DW_KERNEL(bwd_weight_nhwc)
TZ_DW_KERNEL(fwd_nchw)
TZ_DW_KERNEL(bwd_input_nchw)
#undef TZ_DW_KERNEL

}  // namespace
TZ_REGISTER_KERNEL(dw_fwd_nhwc_stub, &ForDtype<fwd_nhwc_k>::run);
TZ_REGISTER_KERNEL(dw_bwd_input_nhwc_stub, &ForDtype<bwd_input_nhwc_k>::run);
TZ_REGISTER_KERNEL(dw_bwd_weight_nhwc_stub, &ForDtype<bwd_weight_nhwc_k>::run);
TZ_REGISTER_KERNEL(dw_fwd_nchw_stub, &ForDtype<fwd_nchw_k>::run);
TZ_REGISTER_KERNEL(dw_bwd_input_nchw_stub, &ForDtype<bwd_input_nchw_k>::run);
}  // namespace TZ_CPU_CAPABILITY
}  // namespace tz
