// The SIMD math library of the kernels: exp, log, tanh, sigmoid and erf written once, as
// templates over the lane type V, which is either one float (in plain loops that the
// compiler vectorises) or a native vector of floats (kernels/simd_vec.h's vfloat, in explicit
// SIMD loops). float64 lanes call libm (sigmoid is shared by both).
//
// Only +, -, *, /, conversions and bit operations are used, and TZ_BASE_FLAGS has
// -ffp-contract=off, so every ISA build and both lane kinds round identically: results are
// bit-identical across builds. Largest error from the exact result, measured over every 7th
// float32 bit pattern against float64 libm: exp 0.98 ulp, log 0.82 ulp, tanh 1.33 ulp,
// sigmoid 2.33 ulp, erf 1.2 ulp (tests/core/test_elementwise.py checks <= 1, 1, 2, 3, 2 ulp).
// exp, log and tanh are the classic Cephes single-precision minimax fits; erf's polynomials
// were fitted for tensorzoo by tools/fit_erf.py.
//
// Like everything under kernels/isa/, it lives in tz::<capability>::vm: each ISA build has
// its own copy, and the linker can never hand one build's instructions to another.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kernels/simd_vec.h"

namespace tz::TZ_CPU_CAPABILITY::vm {

// ---------------------------------------------------------------- lane-generic primitives

template <typename V> struct LaneTypes;
template <> struct LaneTypes<float> { using Bits = uint32_t; using Int = int32_t; };
template <> struct LaneTypes<double> { using Bits = uint64_t; using Int = int64_t; };
template <> struct LaneTypes<vfloat> { using Bits = vec<uint32_t>; using Int = vint32; };
template <> struct LaneTypes<vec<double>> { using Bits = vec<uint64_t>; using Int = vec<int64_t>; };
template <typename V> using BitsOf = typename LaneTypes<V>::Bits;
template <typename V> using IntOf = typename LaneTypes<V>::Int;
template <typename V> constexpr bool kIsScalar = std::is_floating_point_v<V>;

template <typename V> TZ_VINLINE BitsOf<V> bits(V x) {
  if constexpr (kIsScalar<V>) {
    BitsOf<V> u;
    std::memcpy(&u, &x, sizeof(u));
    return u;
  } else {
    return (BitsOf<V>)x;
  }
}
template <typename V> TZ_VINLINE V from_bits(BitsOf<V> u) {
  if constexpr (kIsScalar<V>) {
    V x;
    std::memcpy(&x, &u, sizeof(x));
    return x;
  } else {
    return (V)u;
  }
}
// Every lane c (a constant folds to one register; for scalars, c itself).
template <typename V> TZ_VINLINE V constant(double c) {
  if constexpr (kIsScalar<V>) return static_cast<V>(c);
  else return splat<V>(static_cast<std::remove_reference_t<decltype(V{}[0])>>(c));
}
// A comparison's result as all-ones / all-zeros lanes (vector comparisons already are).
template <typename V, typename Cond> TZ_VINLINE BitsOf<V> mask(Cond c) {
  if constexpr (kIsScalar<V>) return BitsOf<V>(0) - static_cast<BitsOf<V>>(c);
  else return (BitsOf<V>)c;
}
// cond ? a : b on the bits: GCC will not if-convert a select between computed floats (they
// might trap under the default -ftrapping-math), which would stop vectorisation.
template <typename V, typename Cond> TZ_VINLINE V select(Cond cond, V a, V b) {
  const BitsOf<V> m = mask<V>(cond);
  return from_bits<V>((bits(a) & m) | (bits(b) & ~m));
}
template <typename V> TZ_VINLINE V min(V a, V b) { return select(b < a, b, a); }  // NaN in `a` passes
template <typename V> TZ_VINLINE V max(V a, V b) { return select(a < b, b, a); }
template <typename V> TZ_VINLINE V abs(V x) {
  return from_bits<V>(bits(x) & ~bits(constant<V>(-0.0)));
}
template <typename V> TZ_VINLINE V copysign(V mag, V sign) {
  const BitsOf<V> s = bits(constant<V>(-0.0));
  return from_bits<V>((bits(mag) & ~s) | (bits(sign) & s));
}
template <typename V> TZ_VINLINE V int_to_float(IntOf<V> i) {
  if constexpr (kIsScalar<V>) return static_cast<V>(i);
  else return __builtin_convertvector(i, V);
}
// c[0] + z * (c[1] + z * (... + z * c[n-1])), fully unrolled.
template <typename V, size_t N> TZ_VINLINE V horner(V z, const float (&c)[N]) {
  V r = constant<V>(c[N - 1]);
  for (size_t i = N - 1; i-- > 0;) r = r * z + constant<V>(c[i]);
  return r;
}

// ---------------------------------------------------------------- float32 functions

// e^x: x = n*ln2 + r with |r| <= ln2/2 (Cody-Waite split of ln2 so n*ln2_hi is exact),
// e^r by a degree-7 polynomial, then scaled by 2^n in two halves so that subnormal results
// are rounded once and 2^128 overflows to inf. NaN passes; exp(-inf) = 0, exp(inf) = inf.
template <typename V> TZ_VINLINE V exp(V x) {
  using Int = IntOf<V>;
  const float kShift = 12582912.0f;  // 1.5 * 2^23: adding it rounds to an integer (ties even)
  const V xc = min(max(x, constant<V>(-104.0)), constant<V>(89.0));  // e^x is 0 or inf beyond
  const V t = xc * 1.44269504088896341f + kShift;
  const V n = t - kShift;
  const Int ni = (Int)(bits(t) - bits(constant<V>(kShift)));
  V r = xc - n * 0.693359375f;
  r = r - n * -2.12194440e-4f;
  static constexpr float kP[] = {5.0000001201e-1f, 1.6666665459e-1f, 4.1665795894e-2f,
                                 8.3334519073e-3f, 1.3981999507e-3f, 1.9875691500e-4f};
  const V p = horner(r, kP) * (r * r) + r + 1.0f;
  const Int n1 = ni >> 1, n2 = ni - n1;  // 2^n as two normal factors for n in [-150, 128]
  return p * from_bits<V>((BitsOf<V>)((n1 + 127) << 23)) * from_bits<V>((BitsOf<V>)((n2 + 127) << 23));
}

// log(x): x = m * 2^e with m in [sqrt(1/2), sqrt(2)), log(m) = z - z^2/2 + z^3 P(z) with
// z = m-1, and e*ln2 added in two parts. Subnormals are scaled into the normal range first.
template <typename V> TZ_VINLINE V log(V x) {
  using Int = IntOf<V>;
  using Bits = BitsOf<V>;
  const auto sub = x < 1.17549435e-38f;
  const Bits u = bits(select(sub, x * 8388608.0f, x));  // * 2^23
  Int e = (Int)((u >> 23) & 0xffu) - 126 - ((Int)mask<V>(sub) & 23);
  const V m = from_bits<V>((u & 0x007fffffu) | 0x3f000000u);  // in [0.5, 1)
  const auto low = m < 0.707106781186547524f;
  e = e + (Int)mask<V>(low);  // one less where m is doubled
  const V z = select(low, (m + m) - 1.0f, m - 1.0f);
  const V zz = z * z;
  static constexpr float kP[] = {3.3333331174e-1f, -2.4999993993e-1f, 2.0000714765e-1f,
                                 -1.6668057665e-1f, 1.4249322787e-1f, -1.2420140846e-1f,
                                 1.1676998740e-1f, -1.1514610310e-1f, 7.0376836292e-2f};
  const V fe = int_to_float<V>(e);
  V y = horner(z, kP) * z * zz;
  y = y + fe * -2.12194440e-4f;
  y = y - 0.5f * zz;
  V r = z + y;
  r = r + fe * 0.693359375f;
  const V inf = constant<V>(HUGE_VAL), nan = constant<V>(NAN);
  r = select(x == 0.0f, -inf, r);
  r = select(x < 0.0f, nan, r);
  r = select(x == inf, inf, r);
  return select(x != x, x, r);
}

// tanh: an odd polynomial below |x| = 0.625, else 1 - 2/(e^{2|x|} + 1) with x's sign.
template <typename V> TZ_VINLINE V tanh(V x) {
  const V ax = abs(x);
  const V z = x * x;
  static constexpr float kP[] = {-3.33332819422e-1f, 1.33314422036e-1f, -5.37397155531e-2f,
                                 2.06390887954e-2f, -5.70498872745e-3f};
  const V small = copysign(horner(z, kP) * z * x + x, x);  // keeps tanh(-0) = -0
  const V e = exp(2.0f * min(ax, constant<V>(20.0)));  // tanh(20) is 1 in float
  const V large = copysign(1.0f - 2.0f / (e + 1.0f), x);
  return select(ax < 0.625f, small, large);
}

// erf: below |x| = 0.921875, x + x * P(x^2); above, 1 - e^{-x^2} R(|x|) with the sign of x,
// |x| clamped at 4 where erf is 1 in float. Both polynomials are minimax fits in float64.
template <typename V> TZ_VINLINE V erf(V x) {
  static constexpr float kP[] = {1.283791661e-01f, -3.761263490e-01f, 1.128370166e-01f,
                                 -2.685970441e-02f, 5.201718770e-03f, -8.149830974e-04f,
                                 8.397887723e-05f};
  static constexpr float kR[] = {2.108063549e-01f, -7.434733212e-02f, 2.493827231e-02f,
                                 -8.001740091e-03f, 2.465698635e-03f, -7.329513319e-04f,
                                 2.133698581e-04f, -5.980930655e-05f, 1.413152768e-05f,
                                 -3.587123501e-06f, 1.714439691e-06f, -4.571840293e-07f};
  const V ax = abs(x);
  const V small = x + x * horner(x * x, kP);
  const V t = min(ax, constant<V>(4.0));  // NaN passes
  const V tail = exp(-(t * t)) * horner(t - 2.5f, kR);  // erfc(t), R centred at 2.5
  const V large = copysign(1.0f - tail, x);
  return select(ax < 0.921875f, small, large);
}

// The standard normal distribution function Phi(x) = erfc(-x / sqrt(2)) / 2, for gelu. Its
// tail erfc(t), t >= 0, is u * e^{-t^2} * Q(u) with u = 1 / (1 + 0.3 t): one form over the
// whole range (relative error about 2e-8, up to 4e-6 far in the tail where the rounding of t^2
// shows), cheaper than erf's two branches. `density` receives phi(x) = e^{-x^2/2} / sqrt(2 pi),
// which shares the exponential (gelu's derivative is Phi + x phi).
template <typename V> TZ_VINLINE V normal_cdf(V x, V* density = nullptr) {
  static constexpr float kQ[] = {1.691880077e-01f, 1.707152128e-01f, 1.483392417e-01f,
                                 2.149257809e-01f, -9.465005249e-02f, 5.477190018e-01f,
                                 -5.122771859e-01f, 4.855627716e-01f, -1.295228153e-01f};
  const V t = abs(x) * 0.707106781186547524f;
  const V e = exp(-(t * t));
  const V u = 1.0f / (1.0f + t * 0.3f);
  const V half_tail = (u * e) * horner(u, kQ) * 0.5f;  // erfc(t) / 2
  if (density) *density = e * 0.398942280401432678f;
  return select(x < 0.0f, half_tail, 1.0f - half_tail);
}

// ---------------------------------------------------------------- float64 lanes: libm

TZ_VINLINE double exp(double x) { return std::exp(x); }
TZ_VINLINE double log(double x) { return std::log(x); }
TZ_VINLINE double tanh(double x) { return std::tanh(x); }
TZ_VINLINE double erf(double x) { return std::erf(x); }
TZ_VINLINE vec<double> exp(vec<double> x) {
  for (int i = 0; i < kLanes<double>; ++i) x[i] = std::exp(x[i]);
  return x;
}

// ---------------------------------------------------------------- every lane type

// 1 / (1 + e^-x) for x >= 0, e^x / (1 + e^x) below, so tiny results keep their precision.
template <typename V> TZ_VINLINE V sigmoid(V x) {
  const V e = exp(-abs(x));
  const V d = 1.0f + e;
  return select(x < 0.0f, e / d, 1.0f / d);
}

}  // namespace tz::TZ_CPU_CAPABILITY::vm
