// Depthwise convolution kernels (see kernels/conv.h). NHWC: channels in vector lanes, four
// output pixels per step in the interior so each weight load serves four outputs. NCHW:
// one plane per task, output rows in lanes. Every output accumulates its taps in the order
// (kh, kw) ascending, starting from the bias, with separate multiplies and adds, so every
// build (and the NCHW and NHWC forward kernels) give the same bits.
#include <algorithm>
#include <vector>

#include "kernels/conv.h"
#include "kernels/simd_vec.h"

namespace tz {
namespace TZ_CPU_CAPABILITY {
namespace {

using vm::kLanes;
using vm::vec;

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
    for (int64_t l = 0; l < n; ++l) p[l * step] = v[l];
  }
}
// Loads n lanes `step` elements apart.
template <typename T> TZ_VINLINE vec<T> ld_step(const T* p, int64_t n, int64_t step) {
  if (step == 1) return ld(p, n);
  vec<T> v = {};
  for (int64_t l = 0; l < n; ++l) v[l] = p[l * step];
  return v;
}

// ---------------------------------------------------------------- NHWC

template <typename T>
void fwd_nhwc(const DepthwiseArgs& a, int64_t begin, int64_t end) {
  using V = vec<T>;
  constexpr int64_t L = kLanes<T>;
  const ConvShape& s = a.s;
  const int64_t C = s.C, O = s.O, mult = O / C, KK = s.KH * s.KW;
  const T* x = static_cast<const T*>(a.in);
  const T* w = static_cast<const T*>(a.w);
  const T* bias = static_cast<const T*>(a.bias);
  T* y = static_cast<T*>(a.out);
  // Output columns whose taps are all inside the input.
  const ConvRange inner = conv_valid_range(s.OW, s.W - (s.KW - 1) * s.dw, s.sw, -s.pw);
  const int64_t xstep = s.sw * C;
  for (int64_t task = begin; task < end; ++task) {
    const int64_t n = task / s.OH, oh = task % s.OH;
    const T* xn = x + n * s.H * s.W * C;
    T* yrow = y + task * s.OW * O;
    const ConvRange kh_r = conv_valid_range(s.KH, s.H, s.dh, oh * s.sh - s.ph);
    for (int64_t m = 0; m < mult; ++m) {
      const T* wm = w + m * KK * C;
      for (int64_t c0 = 0; c0 < C; c0 += L) {
        const int64_t nl = std::min(L, C - c0);
        const V b = bias ? ld(bias + m * C + c0, nl) : V{};
        T* yc = yrow + c0 * mult + m;
        auto one = [&](int64_t ow) {
          V acc = b;
          const ConvRange kw_r = conv_valid_range(s.KW, s.W, s.dw, ow * s.sw - s.pw);
          for (int64_t kh = kh_r.lo; kh < kh_r.hi; ++kh) {
            const T* xr = xn + (oh * s.sh - s.ph + kh * s.dh) * s.W * C + c0;
            for (int64_t kw = kw_r.lo; kw < kw_r.hi; ++kw)
              acc = acc + ld(xr + (ow * s.sw - s.pw + kw * s.dw) * C, nl) * ld(wm + (kh * s.KW + kw) * C + c0, nl);
          }
          st(yc + ow * O, acc, nl, mult);
        };
        int64_t ow = 0;
        for (; ow < inner.lo; ++ow) one(ow);
        for (; ow + 4 <= inner.hi; ow += 4) {
          V a0 = b, a1 = b, a2 = b, a3 = b;
          for (int64_t kh = kh_r.lo; kh < kh_r.hi; ++kh) {
            const T* xr = xn + (oh * s.sh - s.ph + kh * s.dh) * s.W * C + c0 + (ow * s.sw - s.pw) * C;
            const T* wr = wm + kh * s.KW * C + c0;
            for (int64_t kw = 0; kw < s.KW; ++kw) {
              const V wv = ld(wr + kw * C, nl);
              const T* p = xr + kw * s.dw * C;
              a0 = a0 + ld(p, nl) * wv;
              a1 = a1 + ld(p + xstep, nl) * wv;
              a2 = a2 + ld(p + 2 * xstep, nl) * wv;
              a3 = a3 + ld(p + 3 * xstep, nl) * wv;
            }
          }
          st(yc + ow * O, a0, nl, mult);
          st(yc + (ow + 1) * O, a1, nl, mult);
          st(yc + (ow + 2) * O, a2, nl, mult);
          st(yc + (ow + 3) * O, a3, nl, mult);
        }
        for (; ow < s.OW; ++ow) one(ow);
      }
    }
  }
}

// Gathers, for each input pixel, the output pixels and taps that read it.
template <typename T>
void bwd_input_nhwc(const DepthwiseArgs& a, int64_t begin, int64_t end) {
  using V = vec<T>;
  constexpr int64_t L = kLanes<T>;
  const ConvShape& s = a.s;
  const int64_t C = s.C, O = s.O, mult = O / C;
  const T* gy = static_cast<const T*>(a.in);
  const T* w = static_cast<const T*>(a.w);
  T* gx = static_cast<T*>(a.out);
  // Taps (k, output index) reaching input index i along one dim.
  auto taps = [](int64_t i, int64_t k_len, int64_t out_len, int64_t st_, int64_t pad, int64_t dil,
                 int64_t* ks, int64_t* os) {
    int64_t cnt = 0;
    for (int64_t k = 0; k < k_len; ++k) {
      const int64_t num = i + pad - k * dil;
      if (num < 0 || num % st_ != 0 || num / st_ >= out_len) continue;
      ks[cnt] = k, os[cnt] = num / st_, ++cnt;
    }
    return cnt;
  };
  std::vector<int64_t> khs(s.KH), ohs(s.KH), kws(s.KW), ows(s.KW);
  // Input columns all of whose taps reach an output (stride 1 only): blocks of four.
  const bool unit = s.sw == 1;
  const int64_t in_lo = unit ? std::max<int64_t>(0, (s.KW - 1) * s.dw - s.pw) : 0;
  const int64_t in_hi = unit ? std::min<int64_t>(s.W, s.OW - s.pw) : 0;
  for (int64_t task = begin; task < end; ++task) {
    const int64_t n = task / s.H, ih = task % s.H;
    const int64_t nkh = taps(ih, s.KH, s.OH, s.sh, s.ph, s.dh, khs.data(), ohs.data());
    const T* gyn = gy + n * s.OH * s.OW * O;
    T* grow = gx + task * s.W * C;
    for (int64_t c0 = 0; c0 < C; c0 += L) {
      const int64_t nl = std::min(L, C - c0);
      auto one = [&](int64_t iw) {
        V acc = {};
        const int64_t nkw = taps(iw, s.KW, s.OW, s.sw, s.pw, s.dw, kws.data(), ows.data());
        for (int64_t m = 0; m < mult; ++m)
          for (int64_t i = 0; i < nkh; ++i)
            for (int64_t j = 0; j < nkw; ++j)
              acc = acc + ld_step(gyn + (ohs[i] * s.OW + ows[j]) * O + c0 * mult + m, nl, mult) *
                              ld(w + ((m * s.KH + khs[i]) * s.KW + kws[j]) * C + c0, nl);
        st(grow + iw * C + c0, acc, nl, int64_t(1));
      };
      int64_t iw = 0;
      if (unit && mult == 1 && in_hi > in_lo) {
        for (; iw < in_lo; ++iw) one(iw);
        for (; iw + 4 <= in_hi; iw += 4) {
          V a0 = {}, a1 = {}, a2 = {}, a3 = {};
          for (int64_t i = 0; i < nkh; ++i) {
            const T* gr = gyn + ohs[i] * s.OW * O + c0;
            for (int64_t kw = 0; kw < s.KW; ++kw) {
              const V wv = ld(w + (khs[i] * s.KW + kw) * C + c0, nl);
              const T* p = gr + (iw + s.pw - kw * s.dw) * O;
              a0 = a0 + ld(p, nl) * wv;
              a1 = a1 + ld(p + O, nl) * wv;
              a2 = a2 + ld(p + 2 * O, nl) * wv;
              a3 = a3 + ld(p + 3 * O, nl) * wv;
            }
          }
          st(grow + iw * C + c0, a0, nl, int64_t(1));
          st(grow + (iw + 1) * C + c0, a1, nl, int64_t(1));
          st(grow + (iw + 2) * C + c0, a2, nl, int64_t(1));
          st(grow + (iw + 3) * C + c0, a3, nl, int64_t(1));
        }
      }
      for (; iw < s.W; ++iw) one(iw);
    }
  }
}

template <typename T>
void bwd_weight_nhwc(const DepthwiseArgs& a, int64_t begin, int64_t end) {
  using V = vec<T>;
  constexpr int64_t L = kLanes<T>;
  const ConvShape& s = a.s;
  const int64_t C = s.C, O = s.O, mult = O / C;
  const T* x = static_cast<const T*>(a.in);
  const T* gy = static_cast<const T*>(a.w);
  T* gw = static_cast<T*>(a.out);
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
          for (int64_t c0 = 0; c0 < C; c0 += L) {
            const int64_t nl = std::min(L, C - c0);
            // Four partial sums over ow (ow mod 4), combined in a fixed order.
            V p[4] = {V{}, V{}, V{}, V{}};
            for (int64_t ow = r.lo; ow < r.hi; ++ow)
              p[(ow - r.lo) & 3] = p[(ow - r.lo) & 3] +
                  ld_step(grow + ow * O + c0 * mult + m, nl, mult) * ld(xr + (ow * s.sw + off) * C + c0, nl);
            const V sum = (p[0] + p[1]) + (p[2] + p[3]);
            st(gk + c0, ld(gk + c0, nl) + sum, nl, int64_t(1));
          }
        }
      }
  }
}

// ---------------------------------------------------------------- NCHW

template <typename T>
void fwd_nchw(const DepthwiseArgs& a, int64_t begin, int64_t end) {
  const ConvShape& s = a.s;
  const int64_t mult = s.O / s.C, KK = s.KH * s.KW;
  const T* x = static_cast<const T*>(a.in);
  const T* w = static_cast<const T*>(a.w);
  const T* bias = static_cast<const T*>(a.bias);
  T* y = static_cast<T*>(a.out);
  for (int64_t task = begin; task < end; ++task) {
    const int64_t n = task / s.O, o = task % s.O, c = o / mult;
    const T* xp = x + (n * s.C + c) * s.H * s.W;
    const T* wk = w + o * KK;
    const T b = bias ? bias[o] : T(0);
    T* yp = y + task * s.OH * s.OW;
    for (int64_t oh = 0; oh < s.OH; ++oh) {
      T* __restrict__ yr = yp + oh * s.OW;
      std::fill(yr, yr + s.OW, b);
      const ConvRange kh_r = conv_valid_range(s.KH, s.H, s.dh, oh * s.sh - s.ph);
      for (int64_t kh = kh_r.lo; kh < kh_r.hi; ++kh) {
        const T* xr = xp + (oh * s.sh - s.ph + kh * s.dh) * s.W;
        for (int64_t kw = 0; kw < s.KW; ++kw) {
          const T wv = wk[kh * s.KW + kw];
          const int64_t off = kw * s.dw - s.pw;
          const ConvRange r = conv_valid_range(s.OW, s.W, s.sw, off);
          const T* __restrict__ src = xr + off;
          if (s.sw == 1) {
            for (int64_t ow = r.lo; ow < r.hi; ++ow) yr[ow] = yr[ow] + src[ow] * wv;
          } else if (s.sw == 2) {
            for (int64_t ow = r.lo; ow < r.hi; ++ow) yr[ow] = yr[ow] + src[2 * ow] * wv;
          } else {
            for (int64_t ow = r.lo; ow < r.hi; ++ow) yr[ow] = yr[ow] + src[ow * s.sw] * wv;
          }
        }
      }
    }
  }
}

template <typename T>
void bwd_input_nchw(const DepthwiseArgs& a, int64_t begin, int64_t end) {
  const ConvShape& s = a.s;
  const int64_t mult = s.O / s.C, KK = s.KH * s.KW;
  const T* gy = static_cast<const T*>(a.in);
  const T* w = static_cast<const T*>(a.w);
  T* gx = static_cast<T*>(a.out);
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
            const ConvRange r = conv_valid_range(s.OW, s.W, s.sw, off);
            T* __restrict__ dst = xr + off;
            if (s.sw == 1) {
              for (int64_t ow = r.lo; ow < r.hi; ++ow) dst[ow] = dst[ow] + gr[ow] * wv;
            } else {
              for (int64_t ow = r.lo; ow < r.hi; ++ow) dst[ow * s.sw] = dst[ow * s.sw] + gr[ow] * wv;
            }
          }
        }
      }
    }
  }
}

// Sixteen partial sums (element i of a row goes to lane i mod 16), folded in a fixed order:
// the same bits whatever the vector width.
constexpr int64_t kAccLanes = 16;

template <typename T>
void bwd_weight_nchw(const DepthwiseArgs& a, int64_t begin, int64_t end) {
  const ConvShape& s = a.s;
  const int64_t mult = s.O / s.C, KK = s.KH * s.KW;
  const T* x = static_cast<const T*>(a.in);
  const T* gy = static_cast<const T*>(a.w);
  T* gw = static_cast<T*>(a.out);
  std::vector<T> acc(KK * kAccLanes);
  for (int64_t o = begin; o < end; ++o) {
    const int64_t c = o / mult;
    std::fill(acc.begin(), acc.end(), T(0));
    for (int64_t n = 0; n < s.N; ++n) {
      const T* xp = x + (n * s.C + c) * s.H * s.W;
      const T* gyp = gy + (n * s.O + o) * s.OH * s.OW;
      for (int64_t oh = 0; oh < s.OH; ++oh) {
        const T* __restrict__ gr = gyp + oh * s.OW;
        const ConvRange kh_r = conv_valid_range(s.KH, s.H, s.dh, oh * s.sh - s.ph);
        for (int64_t kh = kh_r.lo; kh < kh_r.hi; ++kh) {
          const T* xr = xp + (oh * s.sh - s.ph + kh * s.dh) * s.W;
          for (int64_t kw = 0; kw < s.KW; ++kw) {
            const int64_t off = kw * s.dw - s.pw;
            const ConvRange r = conv_valid_range(s.OW, s.W, s.sw, off);
            const T* __restrict__ src = xr + off;
            T* __restrict__ ak = acc.data() + (kh * s.KW + kw) * kAccLanes;
            int64_t ow = r.lo;
            if (s.sw == 1) {
              for (; ow + kAccLanes <= r.hi; ow += kAccLanes)
                for (int64_t j = 0; j < kAccLanes; ++j) ak[j] = ak[j] + gr[ow + j] * src[ow + j];
            } else {
              for (; ow + kAccLanes <= r.hi; ow += kAccLanes)
                for (int64_t j = 0; j < kAccLanes; ++j) ak[j] = ak[j] + gr[ow + j] * src[(ow + j) * s.sw];
            }
            for (int64_t j = 0; ow < r.hi; ++ow, ++j) ak[j] = ak[j] + gr[ow] * src[ow * s.sw];
          }
        }
      }
    }
    for (int64_t k = 0; k < KK; ++k) {
      T sum = T(0);
      for (int64_t j = 0; j < kAccLanes; ++j) sum += acc[k * kAccLanes + j];
      gw[o * KK + k] = sum;
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
TZ_DW_KERNEL(bwd_weight_nchw)
#undef TZ_DW_KERNEL

}  // namespace
TZ_REGISTER_KERNEL(dw_fwd_nhwc_stub, &ForDtype<fwd_nhwc_k>::run);
TZ_REGISTER_KERNEL(dw_bwd_input_nhwc_stub, &ForDtype<bwd_input_nhwc_k>::run);
TZ_REGISTER_KERNEL(dw_bwd_weight_nhwc_stub, &ForDtype<bwd_weight_nhwc_k>::run);
TZ_REGISTER_KERNEL(dw_fwd_nchw_stub, &ForDtype<fwd_nchw_k>::run);
TZ_REGISTER_KERNEL(dw_bwd_input_nchw_stub, &ForDtype<bwd_input_nchw_k>::run);
TZ_REGISTER_KERNEL(dw_bwd_weight_nchw_stub, &ForDtype<bwd_weight_nchw_k>::run);
}  // namespace TZ_CPU_CAPABILITY
}  // namespace tz
