// Direct convolution for few input channels (see SmallInputConvArgs in kernels/conv.h):
// output channels in vector lanes, two vectors of them at a time; each tap broadcasts one
// input value. Four output pixels share every weight load where all their taps are inside
// the input; border pixels go one at a time over their valid taps.
#include <algorithm>
#include <cmath>
#include <type_traits>

#include "kernels/conv.h"
#include "kernels/simd_vec.h"

namespace tz {
namespace TZ_CPU_CAPABILITY {
namespace {

using vm::kLanes;
using vm::vec;
using vm::vfma;

// P pixels x two vectors of output channels [o0, o0 + 2 * lanes) over the taps kh_r x kw_r.
// x_px: each pixel's input at (kh, kw) = (0, 0) (may lie outside, never read there).
template <typename T, int P>
TZ_VINLINE void pixels(const SmallInputConvArgs& a, ConvRange kh_r, ConvRange kw_r, const T* const* x_px,
                       const T* w, int64_t o0, const T* bias, T* const* y_px) {
  using V = vec<T>;
  constexpr int64_t L = kLanes<T>;
  const ConvShape& s = a.s;
  V acc[P][2];
  for (int j = 0; j < 2; ++j) {
    V b = {};
    if (bias) {
      alignas(vm::kVecBytes) T lanes[L] = {};
      for (int64_t l = 0; l < L && o0 + j * L + l < s.O; ++l) lanes[l] = bias[o0 + j * L + l];
      b = vm::load(lanes);
    }
    for (int p = 0; p < P; ++p) acc[p][j] = b;
  }
  for (int64_t kh = kh_r.lo; kh < kh_r.hi; ++kh)
    for (int64_t kw = kw_r.lo; kw < kw_r.hi; ++kw) {
      const int64_t x_off = kh * s.dh * a.x_h + kw * s.dw * a.x_w;
      const T* wk = w + (kh * s.KW + kw) * s.C * a.opad + o0;
      for (int64_t c = 0; c < s.C; ++c) {
        const V w0 = vm::load(wk + c * a.opad), w1 = vm::load(wk + c * a.opad + L);
        for (int p = 0; p < P; ++p) {
          const V xv = vm::splat<V>(x_px[p][x_off + c * a.x_c]);
          acc[p][0] = vfma(xv, w0, acc[p][0]);
          acc[p][1] = vfma(xv, w1, acc[p][1]);
        }
      }
    }
  const int64_t n_out = std::min<int64_t>(2 * L, s.O - o0);
  for (int p = 0; p < P; ++p) {
    if (a.y_o == 1 && n_out == 2 * L) {  // NHWC: channels are contiguous
      vm::store(y_px[p] + o0, acc[p][0]);
      vm::store(y_px[p] + o0 + L, acc[p][1]);
    } else {
      alignas(vm::kVecBytes) T lanes[2 * L];
      vm::store(lanes, acc[p][0]);
      vm::store(lanes + L, acc[p][1]);
      for (int64_t l = 0; l < n_out; ++l) y_px[p][(o0 + l) * a.y_o] = lanes[l];
    }
  }
}

template <typename T>
void small_input_rows(const SmallInputConvArgs& a, int64_t begin, int64_t end) {
  const ConvShape& s = a.s;
  const T* x = static_cast<const T*>(a.x);
  const T* w = static_cast<const T*>(a.w);
  const T* bias = static_cast<const T*>(a.bias);
  T* y = static_cast<T*>(a.y);
  constexpr int64_t kBlock = 2 * kLanes<T>;
  // Output columns whose taps all lie inside the input row.
  const ConvRange inner = conv_valid_range(s.OW, s.W - (s.KW - 1) * s.dw, s.sw, -s.pw);
  const ConvRange all_kw{0, s.KW};
  for (int64_t task = begin; task < end; ++task) {
    const int64_t n = task / s.OH, oh = task % s.OH;
    const ConvRange kh_r = conv_valid_range(s.KH, s.H, s.dh, oh * s.sh - s.ph);
    const T* xn = x + n * s.C * s.H * s.W + (oh * s.sh - s.ph) * a.x_h;  // row of kh = 0
    T* yrow = y + n * s.O * s.OH * s.OW + oh * s.OW * a.y_w;
    auto x_at = [&](int64_t ow) { return xn + (ow * s.sw - s.pw) * a.x_w; };
    auto one = [&](int64_t ow) {
      const ConvRange kw_r = conv_valid_range(s.KW, s.W, s.dw, ow * s.sw - s.pw);
      const T* xp[1] = {x_at(ow)};
      T* yp[1] = {yrow + ow * a.y_w};
      for (int64_t o0 = 0; o0 < s.O; o0 += kBlock) pixels<T, 1>(a, kh_r, kw_r, xp, w, o0, bias, yp);
    };
    int64_t ow = 0;
    for (; ow < inner.lo; ++ow) one(ow);
    for (; ow + 4 <= inner.hi; ow += 4) {
      const T* xp[4] = {x_at(ow), x_at(ow + 1), x_at(ow + 2), x_at(ow + 3)};
      T* yp[4] = {yrow + ow * a.y_w, yrow + (ow + 1) * a.y_w, yrow + (ow + 2) * a.y_w, yrow + (ow + 3) * a.y_w};
      for (int64_t o0 = 0; o0 < s.O; o0 += kBlock) pixels<T, 4>(a, kh_r, all_kw, xp, w, o0, bias, yp);
    }
    for (; ow < s.OW; ++ow) one(ow);
  }
}

void small_input(DType dtype, const SmallInputConvArgs& a, int64_t begin, int64_t end) {
  if (dtype == DType::Float64) small_input_rows<double>(a, begin, end);
  else small_input_rows<float>(a, begin, end);
}

}  // namespace
TZ_REGISTER_KERNEL(conv_small_input_stub, &small_input);
}  // namespace TZ_CPU_CAPABILITY
}  // namespace tz
