// float32 exp, log, tanh and sigmoid written without branches or libm calls, so that a loop
// calling them vectorises under each ISA build (kernels/isa/*.cpp). Only +, -, *, /,
// conversions and bit operations are used, and TZ_BASE_FLAGS has -ffp-contract=off, so every
// build (scalar, SSE, AVX2, AVX-512) rounds identically: results are bit-identical across
// builds. Largest error from the exact result, measured over every 7th float32 bit pattern
// against float64 libm: exp 0.98 ulp, log 0.82 ulp, tanh 1.33 ulp, sigmoid 2.33 ulp
// (tests/core/test_elementwise.py checks <= 1, 1, 2, 3 ulp against numpy float64).
// The polynomials are the classic Cephes single-precision minimax fits.
#pragma once
#include <cstdint>
#include <cstring>

namespace tz {
namespace vec_math {

inline uint32_t as_bits(float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; }
inline float as_float(uint32_t u) { float f; std::memcpy(&f, &u, 4); return f; }
// cond ? a : b on the bits. GCC will not if-convert a select between computed floats (they
// might trap under the default -ftrapping-math), which would stop vectorisation.
inline float select(bool cond, float a, float b) {
  uint32_t m = 0u - static_cast<uint32_t>(cond);
  return as_float((as_bits(a) & m) | (as_bits(b) & ~m));
}
inline float min_f(float a, float b) { return select(b < a, b, a); }  // NaN in `a` passes through
inline float max_f(float a, float b) { return select(a < b, b, a); }
inline float abs_f(float x) { return as_float(as_bits(x) & 0x7fffffffu); }
inline float copysign_f(float mag, float sign) {
  return as_float((as_bits(mag) & 0x7fffffffu) | (as_bits(sign) & 0x80000000u));
}

// e^x: x = n*ln2 + r with |r| <= ln2/2 (Cody-Waite split of ln2 so n*ln2_hi is exact),
// e^r by a degree-7 polynomial, then scaled by 2^n in two halves so that subnormal results
// are rounded once and 2^128 overflows to inf.
inline float exp(float x) {
  const float kShift = 12582912.0f;  // 1.5 * 2^23: adding it rounds to an integer (ties even)
  float xc = min_f(max_f(x, -104.0f), 89.0f);  // beyond these e^x is 0 or inf in float
  float t = xc * 1.44269504088896341f + kShift;
  float n = t - kShift;
  int32_t ni = static_cast<int32_t>(as_bits(t) - as_bits(kShift));
  float r = xc - n * 0.693359375f;
  r = r - n * -2.12194440e-4f;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * (r * r) + r + 1.0f;
  int32_t n1 = ni >> 1, n2 = ni - n1;
  return p * as_float(static_cast<uint32_t>(n1 + 127) << 23) *
         as_float(static_cast<uint32_t>(n2 + 127) << 23);
}

// log(x): x = m * 2^e with m in [sqrt(1/2), sqrt(2)), log(m) = z - z^2/2 + z^3 P(z) with z = m-1,
// and e*ln2 added in two parts. Subnormals are scaled into the normal range first.
inline float log(float x) {
  const bool sub = x < 1.17549435e-38f;
  float xs = select(sub, x * 8388608.0f, x);  // 2^23
  uint32_t u = as_bits(xs);
  int32_t e = static_cast<int32_t>((u >> 23) & 0xffu) - 126 - (sub ? 23 : 0);
  float m = as_float((u & 0x007fffffu) | 0x3f000000u);  // in [0.5, 1)
  const bool low = m < 0.707106781186547524f;
  e -= low ? 1 : 0;
  float z = select(low, (m + m) - 1.0f, m - 1.0f);
  float zz = z * z;
  float p = 7.0376836292e-2f;
  p = p * z - 1.1514610310e-1f;
  p = p * z + 1.1676998740e-1f;
  p = p * z - 1.2420140846e-1f;
  p = p * z + 1.4249322787e-1f;
  p = p * z - 1.6668057665e-1f;
  p = p * z + 2.0000714765e-1f;
  p = p * z - 2.4999993993e-1f;
  p = p * z + 3.3333331174e-1f;
  float fe = static_cast<float>(e);
  float y = p * z * zz;
  y = y + fe * -2.12194440e-4f;
  y = y - 0.5f * zz;
  float r = z + y;
  r = r + fe * 0.693359375f;
  const float inf = as_float(0x7f800000u), nan = as_float(0x7fc00000u);
  r = select(x == 0.0f, -inf, r);
  r = select(x < 0.0f, nan, r);
  r = select(x == inf, inf, r);
  return select(x != x, x, r);
}

// tanh: an odd polynomial below |x| = 0.625, else 1 - 2/(e^{2|x|} + 1) with x's sign.
inline float tanh(float x) {
  float ax = abs_f(x);
  float z = x * x;
  float p = -5.70498872745e-3f;
  p = p * z + 2.06390887954e-2f;
  p = p * z - 5.37397155531e-2f;
  p = p * z + 1.33314422036e-1f;
  p = p * z - 3.33332819422e-1f;
  float small = copysign_f(p * z * x + x, x);  // keeps tanh(-0) = -0
  float e = exp(2.0f * min_f(ax, 20.0f));  // tanh(20) is 1 in float
  float large = copysign_f(1.0f - 2.0f / (e + 1.0f), x);
  return select(ax < 0.625f, small, large);
}

// 1 / (1 + e^-x) for x >= 0, e^x / (1 + e^x) below, so tiny results keep their precision.
inline float sigmoid(float x) {
  float e = exp(-abs_f(x));
  float d = 1.0f + e;
  return select(x < 0.0f, e / d, 1.0f / d);
}

}  // namespace vec_math
}  // namespace tz
