// The depthwise forward over a channel-blocked input (see DepthwiseBlockedArgs in
// kernels/conv.h). Within a plane, pixels are one vector apart: every tap's offset is a
// compile-time constant (the NHWC kernel keeps one register per pixel for its offsets and
// spills), and with the zero columns no output pixel takes a border path.
#include <algorithm>

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
void planes(const DepthwiseBlockedArgs& a, int64_t begin, int64_t end) {
  constexpr int64_t L = kLanes<T>;
  const ConvShape& s = a.s;
  const int64_t xrow = (s.W + 2 * s.pw) * L, whole = s.C / L, nl = s.C - whole * L;
  const T* x = static_cast<const T*>(a.in);
  const T* w = static_cast<const T*>(a.w);
  const T* bias = static_cast<const T*>(a.bias);
  T* y = static_cast<T*>(a.out);
  // A partial last plane: its weights with zeros in the spare lanes (whole vectors read in
  // place would run past the weight's end), and each of its rows' outputs made whole in `row`
  // (a store of some lanes in the pixel loop kept the accumulators on the stack).
  Vector<T> last, row;
  if (nl > 0 && end > whole) {
    last.assign(s.KH * KW * L, T(0));
    for (int64_t k = 0; k < s.KH * KW; ++k)
      std::copy(w + k * a.w_step + whole * L, w + k * a.w_step + s.C, last.data() + k * L);
    row.resize(s.OW * L);
  }
  // Output rows outermost, every plane in each: a row's setup serves them all (a plane's row of
  // 14 outputs at 3x3 is only 63 cycles of FMAs), and the row's outputs are written in one pass.
  // Plane by plane over a band's rows, a fused 112 -> 672 expansion and 3x3 depthwise at 14x14
  // without a projection took 1.1x the time of the NHWC path; row by row, 1.0x.
  for (int64_t oh = 0; oh < s.OH; ++oh) {
    const ConvRange kh_r = conv_valid_range(s.KH, s.H, s.dh, oh * s.sh - s.ph);
    const int64_t x_row = (oh * s.sh - s.ph) * xrow;  // kh = 0 (may lie outside)
    T* const y_row = y + oh * s.OW * a.y_step;
    for (int64_t pl = begin; pl < end; ++pl) {
      const bool partial = pl == whole;
      const T* xr = x + pl * a.plane + x_row;
      const T* wp = partial ? last.data() : w + pl * L;
      const int64_t wtap = partial ? L : a.w_step, ystep = partial ? L : a.y_step;
      const vec<T> bv = !bias ? vec<T>{} : partial ? vm::load_partial(bias + pl * L, nl) : vm::load(bias + pl * L);
      T* const out = partial ? row.data() : y_row + pl * L;
      auto step = [&](auto q, int64_t ow) {
        pixels<A, T, KW, SW, decltype(q)::value>(xr + ow * SW * L, s.dh * xrow, kh_r, wp, wtap, bv, out + ow * ystep,
                                                ystep);
      };
      int64_t ow = 0;
      for (; ow + 8 <= s.OW; ow += 8) step(std::integral_constant<int, 8>{}, ow);
      // The rest in one step: of as many chains (7 at 7x7, not 4 + 3), or, fewer than four, as
      // the last four pixels again (the same bits; three chains take as long as four).
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
      if (partial)
        for (int64_t o = 0; o < s.OW; ++o) std::copy(out + o * L, out + o * L + nl, y_row + pl * L + o * a.y_step);
    }
  }
}

template <typename T>
void planes_for(const DepthwiseBlockedArgs& a, int64_t begin, int64_t end) {
  with_conv_act(a.act, [&](auto act) {
    with_dw_fixed_form(a.s, [&](auto kw, auto sw) {
      planes<T, decltype(act)::value, decltype(kw)::value, decltype(sw)::value>(a, begin, end);
    });
  });
}

void fwd_blocked(DType dtype, const DepthwiseBlockedArgs& a, int64_t begin, int64_t end) {
  if (dtype == DType::Float64) planes_for<double>(a, begin, end);
  else planes_for<float>(a, begin, end);
}

}  // namespace
TZ_REGISTER_KERNEL(dw_blocked_lanes_stub, &lanes);
TZ_REGISTER_KERNEL(dw_fwd_blocked_stub, &fwd_blocked);
}  // namespace TZ_CPU_CAPABILITY
}  // namespace tz
