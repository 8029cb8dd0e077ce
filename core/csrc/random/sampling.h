// Scalar draws from an engine (a Generator, or a CPUGenerator for inlined draws; see
// with_engine) that follow PyTorch's CPU sampling bit for bit: which engine call a sample
// consumes (32 or 64 bits), the masks, and the floating-point order of operations
// (PyTorch's kernels are compiled with FMA contraction, so `a * b + c` there is one
// rounding: std::fma here). The caller holds the generator's lock.
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "random/generator.h"
#include "tensor/half.h"

namespace tz::sampling {

constexpr double kPi = 3.14159265358979323846;

// Mantissa digits of T (what random_() spans for floating types).
template <typename T>
constexpr int mantissa_digits() {
  if constexpr (std::is_same_v<T, double>) return 53;
  else if constexpr (std::is_same_v<T, float>) return 24;
  else if constexpr (std::is_same_v<T, Half>) return 11;
  else return 8;  // BFloat16
}

// The type uniform reals of type T are computed in: half types use float's uniforms.
template <typename T>
using acc_t = std::conditional_t<std::is_same_v<T, double>, double, float>;

// Uniform in [0, 1): 53 bits of a 64-bit draw for double, else 24 bits of a 32-bit draw.
template <typename T, typename E>
inline acc_t<T> uniform01(E& g) {
  if constexpr (std::is_same_v<T, double>) {
    return static_cast<double>(g.random64() & ((uint64_t(1) << 53) - 1)) * (1.0 / 9007199254740992.0);
  } else {
    return static_cast<float>(g.random() & ((1u << 24) - 1)) * (1.0f / 16777216.0f);
  }
}

// Uniform in [from, to) computed in acc_t<T> and rounded to T; a value that rounds up to
// `to` becomes `from`, so the range stays half-open.
template <typename T, typename E>
inline T uniform_real(E& g, acc_t<T> from, acc_t<T> to) {
  T v = static_cast<T>(std::fma(uniform01<T>(g), to - from, from));
  return static_cast<acc_t<T>>(v) >= static_cast<acc_t<T>>(static_cast<T>(to)) ? static_cast<T>(from) : v;
}

// Standard normal by Box-Muller on two 53-bit uniforms; the sine half is cached in the
// generator and returned by the next call. Returns z * std + mean.
template <typename E>
inline double normal_double(E& g, double mean, double std) {
  double z;
  if (g.next_double_normal) {
    z = *g.next_double_normal;
    g.next_double_normal.reset();
  } else {
    double u1 = uniform01<double>(g);
    double u2 = uniform01<double>(g);
    double r = std::sqrt(-2.0 * std::log1p(-u2));
    double theta = (2.0 * kPi) * u1;
    g.next_double_normal = r * std::sin(theta);
    z = r * std::cos(theta);
  }
  return std::fma(z, std, mean);
}

template <typename E>
inline bool bernoulli(E& g, double p) { return uniform01<double>(g) < p; }
// Probabilities stored in a float-like tensor draw 24-bit uniforms and compare in float.
template <typename E>
inline bool bernoulli(E& g, float p) { return uniform01<float>(g) < p; }

template <typename E>
inline double exponential(E& g, double lambd) {
  return (-1.0 / lambd) * std::log1p(-uniform01<double>(g));
}

template <typename E>
inline double cauchy(E& g, double median, double sigma) {
  return std::fma(sigma, std::tan(kPi * (uniform01<double>(g) - 0.5)), median);
}

template <typename E>
inline double log_normal(E& g, double mean, double std) {
  return std::exp(normal_double(g, mean, std));
}

template <typename E>
inline double geometric(E& g, double p) {
  return std::ceil(std::log(uniform01<double>(g)) / std::log1p(-p));
}

// random_(): [0, max] for integers, [0, 2^digits] for floating types, {0, 1} for bool.
template <typename T, typename E>
inline T random_bits(E& g) {
  if constexpr (std::is_same_v<T, bool>) {
    return (g.random() & 1u) != 0;
  } else if constexpr (std::is_same_v<T, int64_t>) {
    return static_cast<int64_t>(g.random64() % (uint64_t(INT64_MAX) + 1));
  } else if constexpr (std::is_same_v<T, double>) {
    return static_cast<double>(g.random64() % ((uint64_t(1) << 53) + 1));
  } else if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(g.random() % (uint64_t(std::numeric_limits<T>::max()) + 1));
  } else {
    return T(static_cast<float>(g.random() % ((uint64_t(1) << mantissa_digits<T>()) + 1)));
  }
}

// An integer in [base, base + range); ranges of 2^28 and more draw 64 bits.
template <typename E>
inline int64_t random_from_to(E& g, uint64_t range, int64_t base) {
  uint64_t v = range >= (uint64_t(1) << 28) ? g.random64() : g.random();
  return static_cast<int64_t>(v % range + static_cast<uint64_t>(base));
}

}  // namespace tz::sampling
