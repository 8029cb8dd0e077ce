// Box-Muller over blocks of 16 floats (see kernels/random.h). Every step is one IEEE
// operation or an explicit fma, so the scalar code (the baseline build and the reference)
// and the AVX2 code (AVX2 and AVX-512 builds) give identical bits.
#include <cmath>
#include <cstring>

#if defined(__AVX2__)
#include <immintrin.h>
#endif

#include "kernels/random.h"

namespace tz {
namespace TZ_CPU_CAPABILITY {
namespace {

inline uint32_t bits_of(float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; }
inline float float_of(uint32_t u) { float f; std::memcpy(&f, &u, 4); return f; }

// Natural log for x in (0, 1]: exponent split, then a degree-9 Cephes polynomial.
inline float cephes_log(float x) {
  constexpr float kP[9] = {7.0376836292E-2f, -1.1514610310E-1f, 1.1676998740E-1f,
                           -1.2420140846E-1f, 1.4249322787E-1f, -1.6668057665E-1f,
                           2.0000714765E-1f, -2.4999993993E-1f, 3.3333331174E-1f};
  x = std::fmax(x, float_of(0x00800000u));  // no denormals
  int exponent = static_cast<int>(bits_of(x) >> 23);
  x = float_of((bits_of(x) & ~0x7f800000u) | bits_of(0.5f));  // mantissa in [0.5, 1)
  float e = static_cast<float>(exponent - 0x7f) + 1.0f;
  bool small = x < 0.707106781186547524f;
  float extra = small ? x : 0.0f;
  x = x - 1.0f;
  e = e - (small ? 1.0f : 0.0f);
  x = x + extra;
  float z = x * x;
  float y = kP[0];
  for (int i = 1; i < 9; ++i) y = std::fma(y, x, kP[i]);
  y = y * x;
  y = std::fma(y, z, e * -2.12194440e-4f);
  y = std::fma(-z, 0.5f, y);
  x = x + y;
  return std::fma(e, 0.693359375f, x);
}

// sin and cos of x >= 0 by octant reduction (three-part pi/4) and Cephes polynomials.
inline void cephes_sincos(float x, float* s, float* c) {
  uint32_t sign_sin = bits_of(x) & 0x80000000u;
  x = std::fabs(x);
  int j = static_cast<int>(x * 1.27323954473516f);  // 4/pi; truncation
  j = (j + 1) & ~1;
  float y = static_cast<float>(j);
  sign_sin ^= static_cast<uint32_t>(j & 4) << 29;
  uint32_t sign_cos = static_cast<uint32_t>(~(j - 2) & 4) << 29;
  bool sin_poly = (j & 2) == 0;  // which polynomial gives the sine
  x = std::fma(y, -0.78515625f, x);
  x = std::fma(y, -2.4187564849853515625e-4f, x);
  x = std::fma(y, -3.77489497744594108e-8f, x);
  float z = x * x;
  float yc = std::fma(2.443315711809948E-005f, z, -1.388731625493765E-003f);
  yc = std::fma(yc, z, 4.166664568298827E-002f);
  yc = yc * z;
  yc = std::fma(yc, z, -(z * 0.5f));
  yc = yc + 1.0f;
  float ys = std::fma(-1.9515295891E-4f, z, 8.3321608736E-3f);
  ys = std::fma(ys, z, -1.6666654611E-1f);
  ys = ys * z;
  ys = std::fma(ys, x, x);
  // The vector code selects with masks and adds the other polynomial's zero (which can
  // turn -0 into +0); do the same.
  float from_ys = sin_poly ? ys : 0.0f, from_yc = sin_poly ? 0.0f : yc;
  *s = float_of(bits_of(from_yc + from_ys) ^ sign_sin);
  *c = float_of(bits_of((yc - from_yc) + (ys - from_ys)) ^ sign_cos);
}

void normal_blocks_scalar(float* data, int64_t nblocks, float mean, float std) {
  const float two_pi = static_cast<float>(2.0 * 3.14159265358979323846);
  for (int64_t b = 0; b < nblocks; ++b, data += 16) {
    for (int j = 0; j < 8; ++j) {
      float u1 = 1.0f - data[j];
      float u2 = data[j + 8];
      float radius = std::sqrt(-2.0f * cephes_log(u1));
      float s, c;
      cephes_sincos(two_pi * u2, &s, &c);
      data[j] = std::fma(radius * c, std, mean);
      data[j + 8] = std::fma(radius * s, std, mean);
    }
  }
}

#if defined(__AVX2__)
// The same arithmetic on 8 lanes: cephes_log and cephes_sincos step for step.
inline __m256 set(float v) { return _mm256_set1_ps(v); }
inline __m256 bits(uint32_t v) { return _mm256_castsi256_ps(_mm256_set1_epi32(static_cast<int>(v))); }

inline __m256 cephes_log8(__m256 x) {
  constexpr float kP[9] = {7.0376836292E-2f, -1.1514610310E-1f, 1.1676998740E-1f,
                           -1.2420140846E-1f, 1.4249322787E-1f, -1.6668057665E-1f,
                           2.0000714765E-1f, -2.4999993993E-1f, 3.3333331174E-1f};
  const __m256 one = set(1.0f);
  x = _mm256_max_ps(x, bits(0x00800000u));
  __m256i exponent = _mm256_srli_epi32(_mm256_castps_si256(x), 23);
  x = _mm256_or_ps(_mm256_and_ps(x, bits(~0x7f800000u)), set(0.5f));
  __m256 e = _mm256_add_ps(_mm256_cvtepi32_ps(_mm256_sub_epi32(exponent, _mm256_set1_epi32(0x7f))), one);
  __m256 small = _mm256_cmp_ps(x, set(0.707106781186547524f), _CMP_LT_OS);
  __m256 extra = _mm256_and_ps(x, small);
  x = _mm256_sub_ps(x, one);
  e = _mm256_sub_ps(e, _mm256_and_ps(one, small));
  x = _mm256_add_ps(x, extra);
  __m256 z = _mm256_mul_ps(x, x);
  __m256 y = set(kP[0]);
  for (int i = 1; i < 9; ++i) y = _mm256_fmadd_ps(y, x, set(kP[i]));
  y = _mm256_mul_ps(y, x);
  y = _mm256_fmadd_ps(y, z, _mm256_mul_ps(e, set(-2.12194440e-4f)));
  y = _mm256_fnmadd_ps(z, set(0.5f), y);
  x = _mm256_add_ps(x, y);
  return _mm256_fmadd_ps(e, set(0.693359375f), x);
}

inline void cephes_sincos8(__m256 x, __m256* s, __m256* c) {
  __m256 sign_sin = _mm256_and_ps(x, bits(0x80000000u));
  x = _mm256_and_ps(x, bits(0x7fffffffu));
  __m256i j = _mm256_cvttps_epi32(_mm256_mul_ps(x, set(1.27323954473516f)));
  j = _mm256_and_si256(_mm256_add_epi32(j, _mm256_set1_epi32(1)), _mm256_set1_epi32(~1));
  __m256 y = _mm256_cvtepi32_ps(j);
  const __m256i four = _mm256_set1_epi32(4), two = _mm256_set1_epi32(2);
  sign_sin = _mm256_xor_ps(sign_sin, _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_and_si256(j, four), 29)));
  __m256 sign_cos = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_andnot_si256(_mm256_sub_epi32(j, two), four), 29));
  __m256 sin_poly = _mm256_castsi256_ps(_mm256_cmpeq_epi32(_mm256_and_si256(j, two), _mm256_setzero_si256()));
  x = _mm256_fmadd_ps(y, set(-0.78515625f), x);
  x = _mm256_fmadd_ps(y, set(-2.4187564849853515625e-4f), x);
  x = _mm256_fmadd_ps(y, set(-3.77489497744594108e-8f), x);
  __m256 z = _mm256_mul_ps(x, x);
  __m256 yc = _mm256_fmadd_ps(set(2.443315711809948E-005f), z, set(-1.388731625493765E-003f));
  yc = _mm256_fmadd_ps(yc, z, set(4.166664568298827E-002f));
  yc = _mm256_mul_ps(yc, z);
  yc = _mm256_fmsub_ps(yc, z, _mm256_mul_ps(z, set(0.5f)));
  yc = _mm256_add_ps(yc, set(1.0f));
  __m256 ys = _mm256_fmadd_ps(set(-1.9515295891E-4f), z, set(8.3321608736E-3f));
  ys = _mm256_fmadd_ps(ys, z, set(-1.6666654611E-1f));
  ys = _mm256_mul_ps(ys, z);
  ys = _mm256_fmadd_ps(ys, x, x);
  __m256 from_ys = _mm256_and_ps(sin_poly, ys), from_yc = _mm256_andnot_ps(sin_poly, yc);
  *s = _mm256_xor_ps(_mm256_add_ps(from_yc, from_ys), sign_sin);
  *c = _mm256_xor_ps(_mm256_add_ps(_mm256_sub_ps(yc, from_yc), _mm256_sub_ps(ys, from_ys)), sign_cos);
}

void normal_blocks(float* data, int64_t nblocks, float mean, float std) {
  const __m256 two_pi = set(static_cast<float>(2.0 * 3.14159265358979323846));
  const __m256 vmean = set(mean), vstd = set(std);
  for (int64_t b = 0; b < nblocks; ++b, data += 16) {
    __m256 u1 = _mm256_sub_ps(set(1.0f), _mm256_loadu_ps(data));
    __m256 u2 = _mm256_loadu_ps(data + 8);
    __m256 radius = _mm256_sqrt_ps(_mm256_mul_ps(set(-2.0f), cephes_log8(u1)));
    __m256 s, c;
    cephes_sincos8(_mm256_mul_ps(two_pi, u2), &s, &c);
    _mm256_storeu_ps(data, _mm256_fmadd_ps(_mm256_mul_ps(radius, c), vstd, vmean));
    _mm256_storeu_ps(data + 8, _mm256_fmadd_ps(_mm256_mul_ps(radius, s), vstd, vmean));
  }
}
#else
void normal_blocks(float* data, int64_t nblocks, float mean, float std) {
  normal_blocks_scalar(data, nblocks, mean, std);
}
#endif

}  // namespace
TZ_REGISTER_KERNEL(normal_blocks_stub, &normal_blocks);
}  // namespace TZ_CPU_CAPABILITY
}  // namespace tz
