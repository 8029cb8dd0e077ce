// SIMD vectors for kernels/isa files, written on GCC vector types so one source compiles to
// SSE2, AVX2 or AVX-512 with the file's flags: types, loads and stores, broadcasts, and
// vfma(a, b, c) = a * b + c rounded once in every build (bit-identical kernels rely on it).
// The math functions on them are kernels/vec_math.h's.
// Only for kernels/isa/*.cpp: everything lives in tz::<capability>::vm, so the builds for
// different ISAs never share (ODR-merge) a function.
#pragma once
#include <immintrin.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#ifndef TZ_CPU_CAPABILITY
#error "kernels/simd_vec.h is for kernels/isa/*.cpp only"
#endif

// Vector arguments change the ABI between ISA builds; the builds never call each other.
#pragma GCC diagnostic ignored "-Wpsabi"

// Helpers taking or returning vectors are always inlined: an out-of-line copy would have an
// ISA-dependent ABI (and GCC warns about it).
#define TZ_VINLINE inline __attribute__((always_inline))

namespace tz::TZ_CPU_CAPABILITY::vm {

// Native vectors: 64 bytes (AVX-512), 32 (AVX2) or 16 (SSE2).
#if defined(__AVX512F__)
constexpr int kVecBytes = 64;
#elif defined(__AVX2__)
constexpr int kVecBytes = 32;
#else
constexpr int kVecBytes = 16;
#endif
template <typename T> struct VecOf { typedef T type __attribute__((vector_size(kVecBytes))); };
template <typename T> using vec = typename VecOf<T>::type;
template <typename T> constexpr int kLanes = kVecBytes / sizeof(T);

// A 64-byte "wide" vector made of kParts native ones. Reductions accumulate in wide
// vectors and fold their lanes in a fixed order, so every build (whatever its native width)
// combines the same elements in the same order: results are bit-identical across builds.
constexpr int kParts = 64 / kVecBytes;
template <typename T> constexpr int kWideLanes = 64 / sizeof(T);
template <typename T> struct Wide { vec<T> v[kParts]; };

using vfloat = vec<float>;
using vint32 = vec<int32_t>;

// Every lane s, as one broadcast: lane 0 shuffled everywhere (V{} + s would add 0.0 first,
// an extra dependent add that also turns -0.0 into +0.0; a per-lane loop gives inserts).
template <typename V, typename T> TZ_VINLINE V splat(T s) {
  using Lane = std::remove_cv_t<std::remove_reference_t<decltype(std::declval<V>()[0])>>;
  using Index = std::conditional_t<
      sizeof(Lane) == 8, int64_t,
      std::conditional_t<sizeof(Lane) == 4, int32_t, std::conditional_t<sizeof(Lane) == 2, int16_t, int8_t>>>;
  typedef Index Mask __attribute__((vector_size(sizeof(V))));
  const V first = {static_cast<Lane>(s)};
  return __builtin_shuffle(first, Mask{});
}
template <typename T> TZ_VINLINE vec<T> load(const T* p) {
  vec<T> v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}
template <typename T> TZ_VINLINE void store(T* p, const vec<T>& v) { std::memcpy(p, &v, sizeof(v)); }
// The first n (0 <= n < lanes) elements of p, zeros elsewhere: masked loads and stores of
// float and double with AVX-512 or AVX2 (neither touches the lanes left out), otherwise
// through a local array (a variable-length copy into the vector itself would pin it, and
// whatever it flows into, to the stack).
#if defined(__AVX512F__)
TZ_VINLINE __mmask16 first_lanes(int64_t n) { return static_cast<__mmask16>((1u << n) - 1); }
#elif defined(__AVX2__)
template <typename T> TZ_VINLINE __m256i first_lanes(int64_t n) {  // all ones in lanes below n
  if constexpr (sizeof(T) == 4)
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(n)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  else
    return _mm256_cmpgt_epi64(_mm256_set1_epi64x(n), _mm256_setr_epi64x(0, 1, 2, 3));
}
#endif
template <typename T> TZ_VINLINE vec<T> load_partial(const T* p, int64_t n) {
#if defined(__AVX512F__)
  if constexpr (std::is_same_v<T, float>) return (vec<T>)_mm512_maskz_loadu_ps(first_lanes(n), p);
  if constexpr (std::is_same_v<T, double>) return (vec<T>)_mm512_maskz_loadu_pd(static_cast<__mmask8>(first_lanes(n)), p);
#elif defined(__AVX2__)
  if constexpr (std::is_same_v<T, float>) return (vec<T>)_mm256_maskload_ps(p, first_lanes<T>(n));
  if constexpr (std::is_same_v<T, double>) return (vec<T>)_mm256_maskload_pd(p, first_lanes<T>(n));
#endif
  alignas(kVecBytes) T lanes[kLanes<T>] = {};
  std::memcpy(lanes, p, n * sizeof(T));
  return load(lanes);
}
template <typename T> TZ_VINLINE void store_partial(T* p, const vec<T>& v, int64_t n) {
#if defined(__AVX512F__)
  if constexpr (std::is_same_v<T, float>) return _mm512_mask_storeu_ps(p, first_lanes(n), (__m512)v);
  if constexpr (std::is_same_v<T, double>) return _mm512_mask_storeu_pd(p, static_cast<__mmask8>(first_lanes(n)), (__m512d)v);
#elif defined(__AVX2__)
  if constexpr (std::is_same_v<T, float>) return _mm256_maskstore_ps(p, first_lanes<T>(n), (__m256)v);
  if constexpr (std::is_same_v<T, double>) return _mm256_maskstore_pd(p, first_lanes<T>(n), (__m256d)v);
#endif
  alignas(kVecBytes) T lanes[kLanes<T>];
  store(lanes, v);
  std::memcpy(p, lanes, n * sizeof(T));
}

// Lanes p[0], p[kStride], p[2 * kStride], ... for kStride 1 or 2 (two loads and a constant
// shuffle: p[2 * lanes - 1] must be readable).
template <int64_t kStride, typename T> TZ_VINLINE vec<T> load_every(const T* p) {
  static_assert(kStride == 1 || kStride == 2, "load_every: stride 1 or 2");
  if constexpr (kStride == 1) {
    return load(p);
  } else {
    using Index = std::conditional_t<sizeof(T) == 8, int64_t, int32_t>;
    typedef Index Mask __attribute__((vector_size(kVecBytes)));
    Mask even;
    for (int l = 0; l < kLanes<T>; ++l) even[l] = 2 * l;
    return __builtin_shuffle(load(p), load(p + kLanes<T>), even);
  }
}

// a * b + c rounded once: the FMA instruction where the build has one, std::fma per lane
// otherwise, so every build gives the same bits.
template <typename V> TZ_VINLINE V vfma(const V& a, const V& b, const V& c) {
  using T = std::remove_cv_t<std::remove_reference_t<decltype(a[0])>>;
#if defined(__AVX512F__)
  if constexpr (std::is_same_v<T, float>) return (V)_mm512_fmadd_ps((__m512)a, (__m512)b, (__m512)c);
  else return (V)_mm512_fmadd_pd((__m512d)a, (__m512d)b, (__m512d)c);
#elif defined(__FMA__)
  if constexpr (std::is_same_v<T, float>) return (V)_mm256_fmadd_ps((__m256)a, (__m256)b, (__m256)c);
  else return (V)_mm256_fmadd_pd((__m256d)a, (__m256d)b, (__m256d)c);
#else
  V r;
  for (int l = 0; l < kLanes<T>; ++l) r[l] = std::fma(a[l], b[l], c[l]);
  return r;
#endif
}

// Float lanes rounded to the nearest int32, ties to even (the default MXCSR mode, as
// nearbyint); lanes must lie within the int32 range.
TZ_VINLINE vec<int32_t> round_to_int(vec<float> v) {
#if defined(__AVX512F__)  // the zero-masked form: the plain one's undefined source trips GCC 12's warnings
  return reinterpret_cast<vec<int32_t>>(_mm512_maskz_cvtps_epi32(0xFFFF, reinterpret_cast<__m512>(v)));
#elif defined(__AVX2__)
  return reinterpret_cast<vec<int32_t>>(_mm256_cvtps_epi32(reinterpret_cast<__m256>(v)));
#else
  return reinterpret_cast<vec<int32_t>>(_mm_cvtps_epi32(reinterpret_cast<__m128>(v)));
#endif
}

}  // namespace tz::TZ_CPU_CAPABILITY::vm

