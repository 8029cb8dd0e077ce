// The SIMD math library of the kernels: exp, log, tanh, sigmoid and erf written once, as
// templates over the lane type V, which is either one float (in plain loops that the
// compiler vectorises) or a native vector of floats (kernels/simd_vec.h's vfloat, in explicit
// SIMD loops). float64 lanes call libm (sigmoid is shared by both).
//
// Only +, -, *, /, fused multiply-add, conversions and bit operations are used, and
// TZ_BASE_FLAGS has -ffp-contract=off (no FMA the source does not ask for): the AVX2 and
// AVX-512 builds run each fma() as one vfmadd instruction, the baseline build calls libm's
// fmaf, which is correctly rounded too (and slow: it serves only CPUs without AVX2). So every
// ISA build and both lane kinds round identically: results are bit-identical across builds.
// Polynomials are evaluated by Horner's rule in FMAs. Largest error from the exact result,
// measured over every 7th float32 bit pattern against float64 libm: exp 0.85 ulp, log 0.80
// ulp, tanh 1.36 ulp, sigmoid 2.33 ulp, erf 1.13 ulp, normal_cdf 8.3 ulp (relative error
// 5e-7, all the way into the far tail) and its density 2.1 ulp (tests/core/test_elementwise.py
// checks <= 1, 1, 2, 3, 2 ulp; tests/core/nn/test_activation.py gelu and its gradient, which
// are built on normal_cdf, within 10 ulp). log and tanh are the classic Cephes single-precision
// minimax fits; exp's, erf's and normal_cdf's polynomials were fitted for tensorzoo by
// tools/fit_vec_math.py.
//
// Like everything under kernels/isa/, it lives in tz::<capability>::vm: each ISA build has
// its own copy, and the linker can never hand one build's instructions to another.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

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
// a * b + c rounded once: vfmadd in the AVX2 and AVX-512 builds; the baseline has no FMA
// instruction and calls libm's fmaf (correctly rounded, so the same bits, only slower).
template <typename V> TZ_VINLINE V fma(V a, V b, V c) {
  if constexpr (kIsScalar<V>) return std::fma(a, b, c);
  else return vfma(a, b, c);
}
// c[0] + z * (c[1] + z * (... + z * c[n-1])), one FMA a step, unrolled at compile time (GCC
// does not unroll a loop of FMA calls by itself, and then cannot vectorise the caller's loop).
template <typename V, size_t N, size_t... I>
TZ_VINLINE V horner_steps(V z, const float (&c)[N], std::index_sequence<I...>) {
  V r = constant<V>(c[N - 1]);
  ((r = fma(r, z, constant<V>(c[N - 2 - I]))), ...);
  return r;
}
template <typename V, size_t N> TZ_VINLINE V horner(V z, const float (&c)[N]) {
  return horner_steps(z, c, std::make_index_sequence<N - 1>{});
}

// ---------------------------------------------------------------- float32 functions

// e^x: x = n*ln2 + r with |r| <= ln2/2 (Cody-Waite: n * the float nearest ln2 is subtracted
// exactly by the FMA, then n * the rest), e^r by a degree-7 polynomial evaluated by Horner's
// rule entirely in FMAs, then scaled by 2^n. ExpSplit holds t = n + 1.5 * 2^23 (its low bits
// are n) and r.
constexpr float kExpShift = 12582912.0f;  // 1.5 * 2^23: adding it rounds to an integer (ties even)
template <typename V> struct ExpSplit { V t, r; };
template <typename V> TZ_VINLINE ExpSplit<V> exp_split(V x) {
  const V t = fma(x, constant<V>(1.44269504088896341), constant<V>(kExpShift));
  const V n = t - kExpShift;
  V r = fma(n, constant<V>(-0.693147182464599609375), x);  // exact: that float has 4 spare bits
  r = fma(n, constant<V>(1.9046542121259336e-09), r);  // ln2 - the float above
  return {t, r};
}
// e^r for |r| <= ln2/2: minimax in relative error (1e-9).
template <typename V> TZ_VINLINE V exp_reduced(V r) {
  static constexpr float kP[] = {1.0f, 1.0f, 5.000000000e-01f, 1.666666567e-01f, 4.166646302e-02f,
                                 8.333571255e-03f, 1.393508399e-03f, 1.973946346e-04f};
  return horner(r, kP);
}
// 2^(n + k) as a float from exp_split's t (for n + k in [-126, 127]).
template <typename V> TZ_VINLINE V exp2_of_split(V t, int k) {
  return from_bits<V>((BitsOf<V>)((IntOf<V>)(bits(t) - (bits(constant<V>(kExpShift)) - 127 - k)) << 23));
}

// e^x for x in [-104, 89] or NaN (callers that know their range skip exp's clamp). 2^n is
// applied as two normal factors 2^(h - 127) * 2^(m - h - 127) with m = n + 254, h = m / 2, so
// that subnormal results are rounded once (n >= -150) and 2^128 overflows to inf.
template <typename V> TZ_VINLINE V exp_in_range(V x) {
  using Int = IntOf<V>;
  const ExpSplit<V> s = exp_split(x);
  const Int m = (Int)(bits(s.t) - (bits(constant<V>(kExpShift)) - 254));
  const Int h = m >> 1;
  return exp_reduced(s.r) * from_bits<V>((BitsOf<V>)(h << 23)) * from_bits<V>((BitsOf<V>)((m - h) << 23));
}
// NaN passes; exp(-inf) = 0, exp(inf) = inf.
template <typename V> TZ_VINLINE V exp(V x) {
  return exp_in_range(min(max(x, constant<V>(-104.0)), constant<V>(89.0)));  // e^x is 0 or inf beyond
}
// e^x for x <= 0 or NaN: exp without the upper clamp.
template <typename V> TZ_VINLINE V exp_nonpositive(V x) { return exp_in_range(max(x, constant<V>(-104.0))); }

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
  y = fma(fe, constant<V>(-2.12194440e-4), y);
  y = fma(zz, constant<V>(-0.5), y);
  V r = fma(fe, constant<V>(0.693359375), z + y);
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
  const V small = copysign(fma(horner(z, kP) * z, x, x), x);  // keeps tanh(-0) = -0
  const V e = exp_in_range(2.0f * min(ax, constant<V>(20.0)));  // tanh(20) is 1 in float
  const V large = copysign(1.0f - 2.0f / (e + 1.0f), x);
  return select(ax < 0.625f, small, large);
}

// erf: below |x| = 0.921875, x + x * P(x^2); above, 1 - e^{-x^2} R(|x|) with the sign of x,
// |x| clamped at 4 where erf is 1 in float. Both polynomials are minimax fits in float64.
template <typename V> TZ_VINLINE V erf(V x) {
  static constexpr float kP[] = {1.283791661e-01f, -3.761262894e-01f, 1.128362417e-01f,
                                 -2.685557865e-02f, 5.191889126e-03f, -8.042697445e-04f,
                                 7.962679229e-05f};
  static constexpr float kR[] = {2.108063549e-01f, -7.434733957e-02f, 2.493826859e-02f,
                                 -8.001721464e-03f, 2.465710975e-03f, -7.329829969e-04f,
                                 2.133563685e-04f, -5.978485206e-05f, 1.413751397e-05f,
                                 -3.595843509e-06f, 1.713502797e-06f, -4.560183982e-07f};
  const V ax = abs(x);
  const V small = fma(x, horner(x * x, kP), x);
  const V t = min(ax, constant<V>(4.0));  // NaN passes
  const V tail = exp(-(t * t)) * horner(t - 2.5f, kR);  // erfc(t), R centred at 2.5
  const V large = copysign(1.0f - tail, x);
  return select(ax < 0.921875f, small, large);
}

// The standard normal distribution function Phi(x) = erfc(-x / sqrt(2)) / 2, for gelu. Its
// tail Phi(-a), a = |x|, is u * e^{-a^2/2} * Q(u) with u = 1 / (1 + k a): one form for the whole
// range (Q fitted in relative error, 2.4e-8 with its float coefficients), cheaper than erf's two branches. a^2 is carried
// as hi + lo (the FMA gives lo exactly) so that e^{-a^2/2} stays accurate far in the tail;
// e^{-a^2/2} is formed as 2^26 times itself so that it is never subnormal, and the 2^-26 is
// folded into Q. `density` receives phi(x) = e^{-x^2/2} / sqrt(2 pi), which shares the
// exponential (gelu's derivative is Phi + x phi).
template <typename V> TZ_VINLINE V normal_cdf(V x, V* density = nullptr) {
  constexpr float kScale = 0x1p-26f;
  static constexpr float kQ[] = {8.459381014e-02f * kScale, 8.536043018e-02f * kScale,
                                 7.415216416e-02f * kScale, 1.075229347e-01f * kScale,
                                 -4.745074362e-02f * kScale, 2.740238309e-01f * kScale,
                                 -2.562697232e-01f * kScale, 2.428398728e-01f * kScale,
                                 -6.477258354e-02f * kScale};
  const V a = min(abs(x), constant<V>(14.5));  // Phi(-14.5) and phi(14.5) round to 0
  const V hi = a * a, lo = fma(a, a, -hi);
  const ExpSplit<V> s = exp_split(hi * -0.5f);
  const V e = exp_reduced(fma(lo, constant<V>(-0.5), s.r)) * exp2_of_split(s.t, 26);
  const V u = 1.0f / fma(a, constant<V>(0.2121320366859436), constant<V>(1.0));
  const V tail = u * horner(u, kQ) * e;  // Phi(-|x|)
  if (density) *density = e * (0.398942280401432678f * kScale);
  return select(x < 0.0f, tail, 1.0f - tail);
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
TZ_VINLINE double exp_nonpositive(double x) { return std::exp(x); }
TZ_VINLINE vec<double> exp_nonpositive(vec<double> x) { return exp(x); }

// ---------------------------------------------------------------- every lane type

// 1 / (1 + e^-x) for x >= 0, e^x / (1 + e^x) below, so tiny results keep their precision.
template <typename V> TZ_VINLINE V sigmoid(V x) {
  const V e = exp_nonpositive(-abs(x));
  const V d = 1.0f + e;
  return select(x < 0.0f, e, constant<V>(1.0)) / d;
}

}  // namespace tz::TZ_CPU_CAPABILITY::vm
