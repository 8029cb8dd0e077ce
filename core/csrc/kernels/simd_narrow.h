// Int32 vectors requantized and narrowed to bytes for the quantized kernels
// (kernels/qgemm_body.h, kernels/isa/quant_kernels.cpp), with pack instructions.
#pragma once
#include "kernels/simd_vec.h"

namespace tz::TZ_CPU_CAPABILITY::vm {

// The u8 output stage of a vector v already scaled to the output's integer domain:
// clamp(nearbyint(v) + zp, out_lo, out_hi), given lo = out_lo - zp and hi = out_hi - zp
// (clamping to those integers before rounding gives the clamp after it).
TZ_VINLINE vint32 requantize_scaled(vfloat v, vfloat lo, vfloat hi, vint32 zp) {
  v = v < lo ? lo : v;
  v = v > hi ? hi : v;
  return round_to_int(v) + zp;
}

// The same for one vector of zero-point corrected int32 dot products: v = (acc + bias) * mult.
// Without a bias, bias is zero: + 0.0f is exact on float(int).
TZ_VINLINE vint32 requantize(vint32 acc, vfloat bias, vfloat mult, vfloat lo, vfloat hi, vint32 zp) {
  return requantize_scaled((__builtin_convertvector(acc, vfloat) + bias) * mult, lo, hi, zp);
}

// requantize's lanes before its clamp, for values that stay within int32 (QGemmOutput::
// pack_clamps): store_clamped_row clamps them after rounding, which gives the same bytes
// (rounding is monotone and the bounds are integers).
TZ_VINLINE vint32 requantize_unclamped(vint32 acc, vfloat bias, vfloat mult, vint32 zp) {
  return round_to_int((__builtin_convertvector(acc, vfloat) + bias) * mult) + zp;
}

// Int32 lanes that already lie within Q's range (uint8_t or int8_t) stored as kLanes bytes,
// or only the first n: pack instructions (GCC 12 spells a narrowing __builtin_convertvector
// lane by lane, an extract and a scalar store per byte).
template <typename Q> TZ_VINLINE void store_narrow(Q* p, const vec<int32_t>& v, int64_t n = kLanes<int32_t>) {
  static_assert(sizeof(Q) == 1, "store_narrow is for 8-bit lanes");
  uint8_t bytes[16];
#if defined(__AVX512F__)  // truncation (lanes are in range); the zero-masked form keeps GCC 12 quiet
  const __m128i b = _mm512_maskz_cvtepi32_epi8(0xFFFF, reinterpret_cast<__m512i>(v));
  if (n == 16) return _mm_storeu_si128(reinterpret_cast<__m128i*>(p), b);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(bytes), b);
#elif defined(__AVX2__)
  const __m256i x = reinterpret_cast<__m256i>(v);
  const __m128i w = _mm_packs_epi32(_mm256_castsi256_si128(x), _mm256_extracti128_si256(x, 1));
  const __m128i b = std::is_unsigned_v<Q> ? _mm_packus_epi16(w, w) : _mm_packs_epi16(w, w);
  if (n == 8) return _mm_storel_epi64(reinterpret_cast<__m128i*>(p), b);
  _mm_storel_epi64(reinterpret_cast<__m128i*>(bytes), b);
#else
  const __m128i x = reinterpret_cast<__m128i>(v);
  const __m128i w = _mm_packs_epi32(x, x);
  const __m128i b = std::is_unsigned_v<Q> ? _mm_packus_epi16(w, w) : _mm_packs_epi16(w, w);
  const int32_t four = _mm_cvtsi128_si32(b);
  if (n == 4) return std::memcpy(p, &four, 4), void();
  std::memcpy(bytes, &four, 4);
#endif
  std::memcpy(p, bytes, static_cast<size_t>(n));
}

// Lane i = a[i] | b[i] << 16 for the first kLanes bytes of a and b: two rows of u8 as the int16
// pairs of a vpmaddwd (zero-extended, so the int16 reading is the byte's value).
TZ_VINLINE vint32 u8_pairs_as_i16(const uint8_t* a, const uint8_t* b) {
#if defined(__AVX512F__)
  const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(a));
  const __m128i y = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b));
  return reinterpret_cast<vint32>(_mm512_cvtepu8_epi16(_mm256_set_m128i(_mm_unpackhi_epi8(x, y), _mm_unpacklo_epi8(x, y))));
#elif defined(__AVX2__)
  const __m128i x = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(a));
  const __m128i y = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(b));
  return reinterpret_cast<vint32>(_mm256_cvtepu8_epi16(_mm_unpacklo_epi8(x, y)));
#else
  int32_t x, y;
  std::memcpy(&x, a, 4);
  std::memcpy(&y, b, 4);
  const __m128i bytes = _mm_unpacklo_epi8(_mm_cvtsi32_si128(x), _mm_cvtsi32_si128(y));
  return reinterpret_cast<vint32>(_mm_unpacklo_epi8(bytes, _mm_setzero_si128()));
#endif
}

// The int16 pair products of two vectors summed per int32 lane (vpmaddwd): exact for int16 lanes.
TZ_VINLINE vint32 madd_i16(vint32 x, vint32 w) {
#if defined(__AVX512F__)
  return reinterpret_cast<vint32>(_mm512_madd_epi16(reinterpret_cast<__m512i>(x), reinterpret_cast<__m512i>(w)));
#elif defined(__AVX2__)
  return reinterpret_cast<vint32>(_mm256_madd_epi16(reinterpret_cast<__m256i>(x), reinterpret_cast<__m256i>(w)));
#else
  return reinterpret_cast<vint32>(_mm_madd_epi16(reinterpret_cast<__m128i>(x), reinterpret_cast<__m128i>(w)));
#endif
}

// NV vectors of int32 lanes within [0, 255] stored as NV * kLanes consecutive bytes.
#if defined(__AVX2__) && !defined(__AVX512F__)
// Two vectors of int32 lanes as 16 bytes in lane order, each saturated to 0..255: one pack
// per step for both vectors; the 128-bit lanes put back in order.
TZ_VINLINE __m128i saturated_bytes(const vint32& a, const vint32& b) {
  const __m256i w = _mm256_packs_epi32(reinterpret_cast<__m256i>(a), reinterpret_cast<__m256i>(b));
  const __m256i o = _mm256_permute4x64_epi64(w, 0xD8);
  return _mm_packus_epi16(_mm256_castsi256_si128(o), _mm256_extracti128_si256(o, 1));
}

// Two vectors of rounded int32 lanes plus zp (within 0..255), saturated to 0..255, as 16 bytes
// in lane order: zp added to the int16 pack with saturation, which gives the bytes of adding
// it first (a lane the pack saturated saturates again).
TZ_VINLINE __m128i saturated_bytes_plus(const vint32& a, const vint32& b, int32_t zp) {
  __m256i w = _mm256_packs_epi32(reinterpret_cast<__m256i>(a), reinterpret_cast<__m256i>(b));
  w = _mm256_permute4x64_epi64(_mm256_adds_epi16(w, _mm256_set1_epi16(static_cast<int16_t>(zp))), 0xD8);
  return _mm_packus_epi16(_mm256_castsi256_si128(w), _mm256_extracti128_si256(w, 1));
}
#endif

template <int NV> TZ_VINLINE void store_narrow_row(uint8_t* p, const vec<int32_t> (&v)[NV]) {
#if defined(__AVX2__) && !defined(__AVX512F__)
  if constexpr (NV == 2) return _mm_storeu_si128(reinterpret_cast<__m128i*>(p), saturated_bytes(v[0], v[1]));
#endif
  for (int i = 0; i < NV; ++i) store_narrow(p + i * kLanes<int32_t>, v[i]);
}

// NV vectors of int32 lanes clamped to [lo, hi] (0 <= lo <= hi <= 255) and stored as bytes. On
// AVX2, two vectors take the saturating packs (to 0..255) and then a byte clamp where the
// bounds are narrower: fewer instructions than a clamp of the lanes.
template <int NV>
TZ_VINLINE void store_clamped_row(uint8_t* p, const vec<int32_t> (&v)[NV], int32_t lo, int32_t hi) {
#if defined(__AVX2__) && !defined(__AVX512F__)
  if constexpr (NV == 2) {
    __m128i b = saturated_bytes(v[0], v[1]);
    if (lo > 0) b = _mm_max_epu8(b, _mm_set1_epi8(static_cast<char>(lo)));
    if (hi < 255) b = _mm_min_epu8(b, _mm_set1_epi8(static_cast<char>(hi)));
    return _mm_storeu_si128(reinterpret_cast<__m128i*>(p), b);
  }
#endif
  const vint32 vlo = splat<vint32>(lo), vhi = splat<vint32>(hi);
  vint32 c[NV];
#pragma GCC unroll 4
  for (int i = 0; i < NV; ++i) {
    c[i] = v[i] < vlo ? vlo : v[i];
    c[i] = c[i] > vhi ? vhi : c[i];
  }
  store_narrow_row<NV>(p, c);
}

// One row of NV vectors of zero-point corrected int32 dot products requantized and stored as
// bytes in [lo_int, hi_int] (lo, hi: those bounds less zp, as floats): requantize's clamp of
// the floats, or with kPackClamps (QGemmOutput::pack_clamps) the clamp after rounding.
template <int NV, bool kPackClamps>
TZ_VINLINE void requantize_row(uint8_t* y, const vint32 (&acc)[NV], const vfloat (&bias)[NV], const vfloat (&mult)[NV],
                               vfloat lo, vfloat hi, vint32 zp, int32_t lo_int, int32_t hi_int) {
  vint32 q[NV];
#pragma GCC unroll 4
  for (int v = 0; v < NV; ++v)
    q[v] = kPackClamps ? requantize_unclamped(acc[v], bias[v], mult[v], zp)
                       : requantize(acc[v], bias[v], mult[v], lo, hi, zp);
  if constexpr (kPackClamps)
    store_clamped_row<NV>(y, q, lo_int, hi_int);
  else
    store_narrow_row<NV>(y, q);
}

// requantize_row for two rows (y and y + ldy). On AVX2 the pack-clamps form of two rows of two
// vectors shares its packs: the int16 packs of the rounded lanes, out_zp added with int16
// saturation (exact: a lane the pack saturated saturates again, and zp is within 0..255), one
// byte pack of both rows, one clamp and one lane permutation, where a row alone takes its own.
template <int NV, bool kPackClamps>
TZ_VINLINE void requantize_row_pair(uint8_t* y, int64_t ldy, const vint32 (&acc0)[NV], const vint32 (&acc1)[NV],
                                    const vfloat (&bias)[NV], const vfloat (&mult)[NV], vfloat lo, vfloat hi, vint32 zp,
                                    int32_t lo_int, int32_t hi_int) {
#if defined(__AVX2__) && !defined(__AVX512F__)
  if constexpr (kPackClamps && NV == 2) {
    auto words = [&](const vint32(&acc)[NV]) {
      const vint32 r0 = round_to_int((__builtin_convertvector(acc[0], vfloat) + bias[0]) * mult[0]);
      const vint32 r1 = round_to_int((__builtin_convertvector(acc[1], vfloat) + bias[1]) * mult[1]);
      return _mm256_packs_epi32(reinterpret_cast<__m256i>(r0), reinterpret_cast<__m256i>(r1));
    };
    const __m256i zp16 = _mm256_set1_epi16(static_cast<int16_t>(zp[0]));
    __m256i b = _mm256_packus_epi16(_mm256_adds_epi16(words(acc0), zp16), _mm256_adds_epi16(words(acc1), zp16));
    if (lo_int > 0) b = _mm256_max_epu8(b, _mm256_set1_epi8(static_cast<char>(lo_int)));
    if (hi_int < 255) b = _mm256_min_epu8(b, _mm256_set1_epi8(static_cast<char>(hi_int)));
    // dwords by 128-bit lane: (row 0 ch 0-3, 8-11, row 1 ch 0-3, 8-11 | the same for 4-7, 12-15)
    b = _mm256_permutevar8x32_epi32(b, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(y), _mm256_castsi256_si128(b));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(y + ldy), _mm256_extracti128_si256(b, 1));
    return;
  }
#endif
  requantize_row<NV, kPackClamps>(y, acc0, bias, mult, lo, hi, zp, lo_int, hi_int);
  requantize_row<NV, kPackClamps>(y + ldy, acc1, bias, mult, lo, hi, zp, lo_int, hi_int);
}

// R rows of a register tile (ldy apart) through requantize_row: in pairs (requantize_row_pair),
// the last one alone when R is odd. The GEMM tile's rows and the depthwise kernel's pixels.
template <int R, int NV, bool kPackClamps>
TZ_VINLINE void requantize_rows(uint8_t* y, int64_t ldy, const vint32 (&acc)[R][NV], const vfloat (&bias)[NV],
                                const vfloat (&mult)[NV], vfloat lo, vfloat hi, vint32 zp, int32_t lo_int,
                                int32_t hi_int) {
#pragma GCC unroll 8
  for (int r = 0; r + 1 < R; r += 2)
    requantize_row_pair<NV, kPackClamps>(y + r * ldy, ldy, acc[r], acc[r + 1], bias, mult, lo, hi, zp, lo_int, hi_int);
  if constexpr (R % 2 == 1)
    requantize_row<NV, kPackClamps>(y + (R - 1) * ldy, acc[R - 1], bias, mult, lo, hi, zp, lo_int, hi_int);
}

}  // namespace tz::TZ_CPU_CAPABILITY::vm
