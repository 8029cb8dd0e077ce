// The inner step of the depthwise kernels with a fixed-size kernel, shared by the NHWC kernel
// (conv_kernels.cpp) and the channel-blocked one (conv_dw_blocked_kernels.cpp), so both add
// the same taps in the same order.
#pragma once
#include <cstdint>

#include "kernels/conv.h"
#include "kernels/simd_vec.h"

namespace tz::TZ_CPU_CAPABILITY {

// P output pixels (SW input pixels apart) of one vector of channels, kernel width KW, undilated
// along rows: acc[p] += the taps of the rows kh_r, in (kh, kw) order, by fused multiply-adds. P
// FMA chains (eight cover the FMA latency), each weight load serving all of them. Input pixels
// are `xpix` elements apart and rows `xrow`; a tap's weights `wtap` elements after the last
// tap's. A stride passed as a std::integral_constant keeps its offsets out of the registers.
// kUnrollRows: where all KW rows of a square kernel are inside, they are unrolled, the loads
// scheduled across them (the NHWC kernel's 3x3: 16 channels at 112x112 42 -> 34 us, 1 thread,
// AVX-512; the blocked kernel, its offsets constants, lost a third with it).
template <typename T, int KW, int SW, int P, bool kUnrollRows = false, typename XPix, typename WTap>
TZ_VINLINE void dw_fixed_pixels(vm::vec<T> (&acc)[P], const T* x, XPix xpix, int64_t xrow, ConvRange kh_r,
                                const T* w, WTap wtap) {
  auto row = [&](int64_t kh) {
    const T* xr = x + kh * xrow;
    const T* wr = w + kh * KW * wtap;
#pragma GCC unroll 8
    for (int kw = 0; kw < KW; ++kw) {
      const vm::vec<T> wv = vm::load(wr + kw * wtap);
#pragma GCC unroll 8
      for (int p = 0; p < P; ++p) acc[p] = vm::vfma(vm::load(xr + (p * SW + kw) * xpix), wv, acc[p]);
    }
  };
  if (kUnrollRows && kh_r.lo == 0 && kh_r.hi == KW) {
#pragma GCC unroll 8
    for (int kh = 0; kh < KW; ++kh) row(kh);
    return;
  }
  for (int64_t kh = kh_r.lo; kh < kh_r.hi; ++kh) row(kh);
}

// Calls fn(kw, sw) with std::integral_constants for a shape with dw_fixed_form.
template <typename Fn> TZ_VINLINE void with_dw_fixed_form(const ConvShape& s, Fn&& fn) {
  using I1 = std::integral_constant<int, 1>;
  using I2 = std::integral_constant<int, 2>;
  using I3 = std::integral_constant<int, 3>;
  using I5 = std::integral_constant<int, 5>;
  if (s.KW == 3) s.sw == 1 ? fn(I3{}, I1{}) : fn(I3{}, I2{});
  else s.sw == 1 ? fn(I5{}, I1{}) : fn(I5{}, I2{});
}

}  // namespace tz::TZ_CPU_CAPABILITY
