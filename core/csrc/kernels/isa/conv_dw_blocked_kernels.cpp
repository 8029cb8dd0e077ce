// The depthwise forward over a channel-blocked input (see DepthwiseBlockedArgs in
// kernels/conv.h). Within a plane, pixels are one vector apart: every tap's offset is a
// compile-time constant (the NHWC kernel keeps one register per pixel for its offsets and
// spills), and with the zero columns no output pixel takes a border path. A task runs one
// plane's output row, so a band's rows of one plane stay in L1 from row to row.
#include <algorithm>
#include <vector>

#include "kernels/conv.h"
#include "kernels/isa/conv_activation.h"
#include "kernels/isa/conv_dw_pixels.h"
#include "kernels/simd_vec.h"

namespace tz {
namespace TZ_CPU_CAPABILITY {
namespace {

using vm::kLanes;
using vm::vec;

int64_t lanes(DType dtype) { return dtype == DType::Float64 ? kLanes<double> : kLanes<float>; }

// P output pixels from x (their first tap's input) of one plane, the taps' weights wtap apart,
// stored whole, ystep apart.
template <ConvAct A, typename T, int KW, int SW, int P>
TZ_VINLINE void pixels(const T* x, int64_t xrow, ConvRange kh_r, const T* w, int64_t wtap, const vec<T>& bv, T* y,
                       int64_t ystep) {
  vec<T> acc[P];
#pragma GCC unroll 8
  for (int p = 0; p < P; ++p) acc[p] = bv;
  dw_fixed_pixels<T, KW, SW>(acc, x, std::integral_constant<int64_t, kLanes<T>>{}, xrow, kh_r, w, wtap);
#pragma GCC unroll 8
  for (int p = 0; p < P; ++p) vm::store(y + p * ystep, conv_activate<A>(acc[p]));
}

template <typename T, ConvAct A, int KW, int SW>
void rows(const DepthwiseBlockedArgs& a, int64_t begin, int64_t end) {
  constexpr int64_t L = kLanes<T>;
  const ConvShape& s = a.s;
  const int64_t xrow = (s.W + 2 * s.pw) * L, KK = s.KH * KW;
  const T* x = static_cast<const T*>(a.in);
  const T* bias = static_cast<const T*>(a.bias);
  T* y = static_cast<T*>(a.out);
  // Each output row's kernel rows inside the input, worked out once rather than per plane:
  // a plane's row of 14 outputs at 3x3 is only 63 cycles of FMAs.
  std::vector<ConvRange> kh_rows(s.OH);
  for (int64_t oh = 0; oh < s.OH; ++oh) kh_rows[oh] = conv_valid_range(s.KH, s.H, s.dh, oh * s.sh - s.ph);
  // A partial last plane: its weights with zeros in the spare lanes, and its rows' outputs
  // whole (a store of some lanes in the pixel loop kept the accumulators on the stack).
  std::vector<T> last, row;
  for (int64_t task = begin; task < end;) {
    const int64_t pl = task / s.OH, c0 = pl * L, nl = std::min(L, s.C - c0);
    const T* w = static_cast<const T*>(a.w) + c0;
    int64_t wtap = a.w_step;
    if (nl < L) {  // (reading whole vectors in place would run past the weight's end)
      last.assign(KK * L, T(0));
      for (int64_t k = 0; k < KK; ++k) std::copy(w + k * wtap, w + k * wtap + nl, last.data() + k * L);
      w = last.data(), wtap = L;
      row.resize(s.OW * L);
    }
    const vec<T> bv = bias ? vm::load_partial(bias + c0, nl) : vec<T>{};
    const T* xp = x + pl * a.plane;
    for (const int64_t row_end = std::min(end, (pl + 1) * s.OH); task < row_end; ++task) {
      const int64_t oh = task - pl * s.OH;
      const ConvRange kh_r = kh_rows[oh];
      const T* xr = xp + (oh * s.sh - s.ph) * xrow;  // row of kh = 0 (may lie outside)
      T* const yr = y + oh * s.OW * a.y_step + c0;
      T* const out = nl < L ? row.data() : yr;
      const int64_t ystep = nl < L ? L : a.y_step;
      auto step = [&](auto q, int64_t ow) {
        pixels<A, T, KW, SW, decltype(q)::value>(xr + ow * SW * L, s.dh * xrow, kh_r, w, wtap, bv, out + ow * ystep,
                                                ystep);
      };
      int64_t ow = 0;
      for (; ow + 8 <= s.OW; ow += 8) step(std::integral_constant<int, 8>{}, ow);
      // The rest in one step: of as many chains (7 at 7x7, not 4 + 3), or, fewer than four,
      // as the last four pixels again (the same bits; three chains take as long as four).
      switch (s.OW - ow) {
        case 0: break;
        case 7: step(std::integral_constant<int, 7>{}, ow); break;
        case 6: step(std::integral_constant<int, 6>{}, ow); break;
        case 5: step(std::integral_constant<int, 5>{}, ow); break;
        case 4: step(std::integral_constant<int, 4>{}, ow); break;
        default:
          if (s.OW >= 4) step(std::integral_constant<int, 4>{}, s.OW - 4);
          else
            for (; ow < s.OW; ++ow) step(std::integral_constant<int, 1>{}, ow);
      }
      if (nl < L)
        for (int64_t ow = 0; ow < s.OW; ++ow) std::copy(out + ow * L, out + ow * L + nl, yr + ow * a.y_step);
    }
  }
}

template <typename T>
void rows_for(const DepthwiseBlockedArgs& a, int64_t begin, int64_t end) {
  with_conv_act(a.act, [&](auto act) {
    with_dw_fixed_form(a.s, [&](auto kw, auto sw) {
      rows<T, decltype(act)::value, decltype(kw)::value, decltype(sw)::value>(a, begin, end);
    });
  });
}

void fwd_blocked(DType dtype, const DepthwiseBlockedArgs& a, int64_t begin, int64_t end) {
  if (dtype == DType::Float64) rows_for<double>(a, begin, end);
  else rows_for<float>(a, begin, end);
}

}  // namespace
TZ_REGISTER_KERNEL(dw_blocked_lanes_stub, &lanes);
TZ_REGISTER_KERNEL(dw_fwd_blocked_stub, &fwd_blocked);
}  // namespace TZ_CPU_CAPABILITY
}  // namespace tz
