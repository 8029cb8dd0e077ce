// Elementwise, pooling and depthwise kernels of quantized tensors (kernels/quant.h): plain
// loops that the compiler vectorises under each ISA build's flags. Integer steps are exact
// and every float step is spelled out, so all builds give the same bits.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <utility>

#include "kernels/isa_vector.h"
#include "kernels/quant.h"
#include "kernels/simd_narrow.h"
#include "kernels/simd_vec.h"

namespace tz {
namespace TZ_CPU_CAPABILITY {
namespace {

template <typename Q> constexpr int64_t quant_lo() { return std::numeric_limits<Q>::min(); }
template <typename Q> constexpr int64_t quant_hi() { return std::numeric_limits<Q>::max(); }

// nearbyint(v) + zp clamped to [lo, hi], for v already scaled to the integer domain.
inline int32_t requant(float v, float zp, float lo, float hi) {
  float r = std::nearbyint(v) + zp;
  return static_cast<int32_t>(std::min(std::max(r, lo), hi));
}

// fbgemm's per-tensor 8-bit quantize, a vector at a time: clamp(nearbyint(fma(x, inv, zp))).
// Clamping to the integer bounds before rounding gives the same result and keeps the
// 1.5 * 2^23 rounding exact; NaN lanes are reported (and stored as qmin).
template <typename Q>
bool quantize_zp_first_run(const float* x, Q* q, int64_t n, float inv_scale, float fzp) {
  using vm::vfloat;
  using vm::vint32;
  constexpr int64_t L = vm::kLanes<float>;
  const vfloat inv = vm::splat<vfloat>(inv_scale), zp = vm::splat<vfloat>(fzp);
  const vfloat lo = vm::splat<vfloat>(static_cast<float>(quant_lo<Q>()));
  const vfloat hi = vm::splat<vfloat>(static_cast<float>(quant_hi<Q>()));
  const vfloat kShift = vm::splat<vfloat>(12582912.0f);
  vint32 nan = {};
  int64_t i = 0;
  for (; i + L <= n; i += L) {
    vfloat v = vm::vfma(vm::load(x + i), inv, zp);
    nan |= v != v;
    v = v > lo ? v : lo;  // NaN compares false: it becomes lo
    v = v < hi ? v : hi;
    v = (v + kShift) - kShift;
    vm::store_narrow(q + i, __builtin_convertvector(v, vint32));
  }
  bool any_nan = false;
  for (int64_t l = 0; l < L; ++l) any_nan |= nan[l] != 0;
  for (; i < n; ++i) {
    any_nan |= x[i] != x[i];
    const float v = std::fma(x[i], inv_scale, fzp);
    const float r = std::nearbyint(std::min(std::max(v, static_cast<float>(quant_lo<Q>())),
                                            static_cast<float>(quant_hi<Q>())));
    q[i] = static_cast<Q>(r == r ? r : static_cast<float>(quant_lo<Q>()));
  }
  return any_nan;
}

template <typename Q>
bool quantize_run(const float* x, Q* q, int64_t n, float inv_scale, int64_t zp, bool zp_before_rounding) {
  const float lo = static_cast<float>(quant_lo<Q>()), hi = static_cast<float>(quant_hi<Q>());
  const float fzp = static_cast<float>(zp);
  if constexpr (sizeof(Q) == 1) {
    if (zp_before_rounding) return quantize_zp_first_run(x, q, n, inv_scale, fzp);
  }
  bool nan = false;
  for (int64_t i = 0; i < n; ++i) {
    nan |= x[i] != x[i];
    if constexpr (sizeof(Q) == 4) {  // int32 range: clamp in double (float cannot hold INT32_MAX)
      double r = static_cast<double>(std::nearbyint(x[i] * inv_scale)) + static_cast<double>(zp);
      q[i] = static_cast<Q>(std::min(std::max(r, double(quant_lo<Q>())), double(quant_hi<Q>())));
    } else {
      q[i] = static_cast<Q>(requant(x[i] * inv_scale, fzp, lo, hi));
    }
  }
  return nan;
}

bool quantize_kernel(DType qdtype, const float* x, void* q, int64_t n, float inv_scale, int64_t zp,
                     bool zp_before_rounding) {
  switch (qdtype) {
    case DType::QUInt8: return quantize_run(x, static_cast<uint8_t*>(q), n, inv_scale, zp, zp_before_rounding);
    case DType::QInt8: return quantize_run(x, static_cast<int8_t*>(q), n, inv_scale, zp, zp_before_rounding);
    default: return quantize_run(x, static_cast<int32_t*>(q), n, inv_scale, zp, false);
  }
}

template <typename Q>
void dequantize_run(const Q* q, float* x, int64_t n, float scale, int64_t zp) {
  if constexpr (sizeof(Q) == 4) {
    for (int64_t i = 0; i < n; ++i) x[i] = static_cast<float>(static_cast<int64_t>(q[i]) - zp) * scale;
  } else {
    const int32_t z = static_cast<int32_t>(zp);
    for (int64_t i = 0; i < n; ++i) x[i] = static_cast<float>(static_cast<int32_t>(q[i]) - z) * scale;
  }
}

void dequantize_kernel(DType qdtype, const void* q, float* x, int64_t n, float scale, int64_t zp) {
  switch (qdtype) {
    case DType::QUInt8: return dequantize_run(static_cast<const uint8_t*>(q), x, n, scale, zp);
    case DType::QInt8: return dequantize_run(static_cast<const int8_t*>(q), x, n, scale, zp);
    default: return dequantize_run(static_cast<const int32_t*>(q), x, n, scale, zp);
  }
}

void fake_quant_kernel(const float* x, float* out, bool* mask, int64_t n, float scale, float inv_scale, int64_t zp,
                       int64_t qmin, int64_t qmax) {
  const float fzp = static_cast<float>(zp), lo = static_cast<float>(qmin), hi = static_cast<float>(qmax);
  for (int64_t i = 0; i < n; ++i) {
    const float r = std::nearbyint(x[i] * inv_scale) + fzp;
    out[i] = (std::min(std::max(r, lo), hi) - fzp) * scale;
  }
  if (mask)
    for (int64_t i = 0; i < n; ++i) {
      const float r = std::nearbyint(x[i] * inv_scale) + fzp;
      mask[i] = r >= lo && r <= hi;
    }
}

// The largest of n bytes: four 32-byte maxima on AVX2 (one would wait on its own latency).
uint8_t max_of_run(const uint8_t* p, int64_t n) {
  int64_t i = 0;
  uint8_t best = 0;
#if defined(__AVX2__)
  if (n >= 32) {
    auto at = [p](int64_t j) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + j)); };
    __m256i m[4] = {_mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256()};
    for (; i + 128 <= n; i += 128)
      for (int v = 0; v < 4; ++v) m[v] = _mm256_max_epu8(m[v], at(i + 32 * v));
    for (; i + 32 <= n; i += 32) m[0] = _mm256_max_epu8(m[0], at(i));
    const __m256i all = _mm256_max_epu8(_mm256_max_epu8(m[0], m[1]), _mm256_max_epu8(m[2], m[3]));
    __m128i x = _mm_max_epu8(_mm256_castsi256_si128(all), _mm256_extracti128_si256(all, 1));
    x = _mm_max_epu8(x, _mm_srli_si128(x, 8));
    x = _mm_max_epu8(x, _mm_srli_si128(x, 4));
    x = _mm_max_epu8(x, _mm_srli_si128(x, 2));
    x = _mm_max_epu8(x, _mm_srli_si128(x, 1));
    best = static_cast<uint8_t>(_mm_cvtsi128_si32(x));
  }
#endif
  for (; i < n; ++i) best = p[i] > best ? p[i] : best;
  return best;
}

uint8_t qmax_byte_kernel(const uint8_t* a, int64_t rows, int64_t ld, int64_t k) {
  if (ld == k) k *= rows, rows = 1;  // dense rows: one run
  uint8_t best = 0;
  for (int64_t m = 0; m < rows; ++m) best = std::max(best, max_of_run(a + m * ld, k));
  return best;
}

void qlookup_kernel(const uint8_t* x, uint8_t* y, int64_t n, const uint8_t* table) {
  int64_t i = 0;
#if defined(__AVX2__)
  // 32 lookups at a time: vpshufb looks each byte's low nibble up in all 16 rows of 16 bytes of
  // the table, then a tree of byte blends picks the byte's row by its high nibble, one bit per
  // level (vpblendvb reads bit 7 of each mask byte: x shifted left by 3, 2, 1, 0 puts bit 4, 5,
  // 6, 7 of each byte there; 16-bit shifts move no bit across a byte boundary into bit 7).
  __m256i rows[16];
  for (int h = 0; h < 16; ++h)
    rows[h] = _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(table + 16 * h)));
  const __m256i low_nibble = _mm256_set1_epi8(0x0f);
  for (; i + 32 <= n; i += 32) {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x + i));
    const __m256i index = _mm256_and_si256(v, low_nibble);
    __m256i level[16];
    for (int h = 0; h < 16; ++h) level[h] = _mm256_shuffle_epi8(rows[h], index);
    for (int bit = 4, width = 16; bit < 8; ++bit, width /= 2) {
      const __m256i mask = _mm256_slli_epi16(v, 7 - bit);
      for (int j = 0; j < width / 2; ++j) level[j] = _mm256_blendv_epi8(level[2 * j], level[2 * j + 1], mask);
    }
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(y + i), level[0]);
  }
#endif
  for (; i < n; ++i) y[i] = table[x[i]];
}

template <typename Q> void clamp_run(const Q* x, Q* y, int64_t n, int32_t lo, int32_t hi) {
  const Q l = static_cast<Q>(std::max<int64_t>(lo, quant_lo<Q>())), h = static_cast<Q>(std::min<int64_t>(hi, quant_hi<Q>()));
  for (int64_t i = 0; i < n; ++i) y[i] = std::min(std::max(x[i], l), h);
}

void qclamp_kernel(DType qdtype, const void* x, void* y, int64_t n, int32_t lo, int32_t hi) {
  switch (qdtype) {
    case DType::QUInt8: return clamp_run(static_cast<const uint8_t*>(x), static_cast<uint8_t*>(y), n, lo, hi);
    case DType::QInt8: return clamp_run(static_cast<const int8_t*>(x), static_cast<int8_t*>(y), n, lo, hi);
    default: return clamp_run(static_cast<const int32_t*>(x), static_cast<int32_t*>(y), n, lo, hi);
  }
}

void qadaptive_avg_pool_kernel(const QAvgPoolArgs& a, int64_t oh0, int64_t oh1) {
  Vector<int32_t> acc(a.C);
  const float zy = static_cast<float>(a.out_zp);
  for (int64_t oh = oh0; oh < oh1; ++oh) {
    const int64_t h0 = oh * a.H / a.OH, h1 = ((oh + 1) * a.H + a.OH - 1) / a.OH;
    for (int64_t ow = 0; ow < a.OW; ++ow) {
      const int64_t w0 = ow * a.W / a.OW, w1 = ((ow + 1) * a.W + a.OW - 1) / a.OW;
      const int64_t count = (h1 - h0) * (w1 - w0);
      const int32_t start = -static_cast<int32_t>(count) * a.in_zp;
      int32_t* s = acc.data();
      for (int64_t c = 0; c < a.C; ++c) s[c] = start;
      for (int64_t h = h0; h < h1; ++h)
        for (int64_t w = w0; w < w1; ++w) {
          const uint8_t* px = a.x + (h * a.W + w) * a.C;
          for (int64_t c = 0; c < a.C; ++c) s[c] += px[c];
        }
      const float multiplier = a.in_scale / a.out_scale / static_cast<float>(count);
      const float inv = a.qnnpack_scale ? a.in_scale / (a.out_scale * static_cast<float>(count))
                                        : 1.0f / (1.0f / multiplier);  // fbgemm quantizes with scale 1 / multiplier
      uint8_t* py = a.y + (oh * a.OW + ow) * a.C;
      for (int64_t c = 0; c < a.C; ++c)
        py[c] = static_cast<uint8_t>(requant(static_cast<float>(s[c]) * inv, zy, 0.0f, 255.0f));
    }
  }
}

// The taps of one output pixel that fall inside the image: offsets into the image relative to
// the pixel's first column (ow * sw * C), and weight rows. Pixels whose valid kw range is the
// same share them, so the list is rebuilt only at the borders.
struct DepthwiseTaps {
  int64_t count = 0;
  int64_t x_offset[kMaxDepthwiseTaps];
  int64_t w_offset[kMaxDepthwiseTaps];  // (kh * KW + kw) * C
};

// The output stage of one lane: clamp(nearbyint((acc + bias) * mult) + zy, lo, hi).
inline uint8_t depthwise_out(int32_t acc, float bias, float mult, float zy, float lo, float hi) {
  return static_cast<uint8_t>(requant((static_cast<float>(acc) + bias) * mult, zy, lo, hi));
}

// L bytes widened to int32 lanes (GCC 12 spells __builtin_convertvector of bytes lane by lane).
TZ_VINLINE vm::vint32 load_u8_as_i32(const uint8_t* p) {
#if defined(__AVX512F__)
  // the zero-masked form: the plain one's undefined source trips GCC 12's -Wmaybe-uninitialized
  return reinterpret_cast<vm::vint32>(
      _mm512_maskz_cvtepu8_epi32(0xFFFF, _mm_loadu_si128(reinterpret_cast<const __m128i*>(p))));
#elif defined(__AVX2__)
  return reinterpret_cast<vm::vint32>(_mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p))));
#else
  int32_t v;
  std::memcpy(&v, p, 4);
  const __m128i zero = _mm_setzero_si128();
  const __m128i bytes = _mm_cvtsi32_si128(v);
  return reinterpret_cast<vm::vint32>(_mm_unpacklo_epi16(_mm_unpacklo_epi8(bytes, zero), zero));
#endif
}

// Lanes [i, i + L) of qbinary_kernel's a and b scaled to the output's integer domain (before
// rounding): the scalar loop's float steps.
TZ_VINLINE vm::vfloat qbinary_scaled(QBinaryOp op, const uint8_t* a, const uint8_t* b, const QBinaryArgs& p) {
  using vm::vfloat;
  using vm::vint32;
  const vint32 ai = load_u8_as_i32(a) - vm::splat<vint32>(p.a_zp), bi = load_u8_as_i32(b) - vm::splat<vint32>(p.b_zp);
  if (op == QBinaryOp::Add) {
    const vfloat da = __builtin_convertvector(ai, vfloat) * vm::splat<vfloat>(p.a_scale);
    const vfloat db = __builtin_convertvector(bi, vfloat) * vm::splat<vfloat>(p.b_scale);
    return (da + db) * vm::splat<vfloat>(p.inv_out_scale);
  }
  return __builtin_convertvector(ai * bi, vfloat) * vm::splat<vfloat>(p.multiplier);
}

void qbinary_kernel(QBinaryOp op, const uint8_t* a, const uint8_t* b, uint8_t* y, int64_t n, const QBinaryArgs& p) {
  const float zy = static_cast<float>(p.out_zp);
  const float lo = p.relu ? zy : 0.0f, hi = 255.0f;
  constexpr int64_t L = vm::kLanes<int32_t>;
  const vm::vfloat vlo = vm::splat<vm::vfloat>(lo - zy), vhi = vm::splat<vm::vfloat>(hi - zy);
  const vm::vint32 vzp = vm::splat<vm::vint32>(p.out_zp);
  int64_t i = 0;
#if defined(__AVX2__) && !defined(__AVX512F__)
  if (p.pack_clamps) {  // round first, clamp in the packs (and a byte max for ReLU)
    const __m128i relu_lo = _mm_set1_epi8(static_cast<char>(p.out_zp));
    for (; i + 2 * L <= n; i += 2 * L) {
      __m128i bytes = vm::saturated_bytes_plus(vm::round_to_int(qbinary_scaled(op, a + i, b + i, p)),
                                               vm::round_to_int(qbinary_scaled(op, a + i + L, b + i + L, p)), p.out_zp);
      if (p.relu) bytes = _mm_max_epu8(bytes, relu_lo);
      _mm_storeu_si128(reinterpret_cast<__m128i*>(y + i), bytes);
    }
  }
#endif
  for (; i + L <= n; i += L)
    vm::store_narrow(y + i, vm::requantize_scaled(qbinary_scaled(op, a + i, b + i, p), vlo, vhi, vzp));
  if (op == QBinaryOp::Add) {
    for (; i < n; ++i) {
      const float da = static_cast<float>(int32_t(a[i]) - p.a_zp) * p.a_scale;
      const float db = static_cast<float>(int32_t(b[i]) - p.b_zp) * p.b_scale;
      y[i] = static_cast<uint8_t>(requant((da + db) * p.inv_out_scale, zy, lo, hi));
    }
  } else {
    for (; i < n; ++i) {
      const int32_t prod = (int32_t(a[i]) - p.a_zp) * (int32_t(b[i]) - p.b_zp);
      y[i] = static_cast<uint8_t>(requant(static_cast<float>(prod) * p.multiplier, zy, lo, hi));
    }
  }
}

// One output pixel, channel by channel (C < one vector; wider ones take the row pairs).
void depthwise_pixel(const QDepthwiseArgs& a, const uint8_t* x, const DepthwiseTaps& taps, const int32_t* zp_wsum,
                     uint8_t* y, float zy, float lo, float hi) {
  for (int64_t c = 0; c < a.C; ++c) {
    int32_t acc = -zp_wsum[c];
    for (int64_t t = 0; t < taps.count; ++t)
      acc += static_cast<int32_t>(x[taps.x_offset[t] + c]) * a.w[taps.w_offset[t] + c];
    y[c] = depthwise_out(acc, a.bias ? a.bias[c] : 0.0f, a.mult[c], zy, lo, hi);
  }
}

// x_zp times the per-channel sums of the weights over the kernel rectangles [0, kh) x [0, kw),
// (KH + 1) x (KW + 1) rows of C: a pixel's valid taps form a rectangle, whose sum is four of
// them (rebuilding it from the taps at every border pixel cost as much as a small image's conv).
Vector<int32_t> zp_weight_prefix_sums(const QDepthwiseArgs& a) {
  const int64_t stride = (a.KW + 1) * a.C;
  Vector<int32_t> sums((a.KH + 1) * stride, 0);
  for (int64_t kh = 0; kh < a.KH; ++kh)
    for (int64_t kw = 0; kw < a.KW; ++kw) {
      int32_t* s = sums.data() + (kh + 1) * stride + (kw + 1) * a.C;
      const int32_t* up = s - stride;
      const int32_t* w = a.w + (kh * a.KW + kw) * a.C;
      for (int64_t c = 0; c < a.C; ++c) s[c] = w[c] * a.x_zp + s[c - a.C] + up[c] - up[c - a.C];
    }
  return sums;
}

// ---- Two kernel rows per vpmaddwd (C >= one vector): a tap pair multiplies the int16 pairs
// (x of rows kh and kh + 1) by (w of rows kh and kh + 1), exact since x is u8 and w within int16.
// Per output row and block of channels the pairs' image rows are interleaved once into a
// padded buffer whose columns every output pixel reads at the same offsets; padding and rows
// outside the image hold x_zp, so each tap adds (x - x_zp) * w once the start takes back
// x_zp times the used pairs' weight sums.

// One block of channels of interleaved image row pairs (rows ih and ih + dh, x_zp outside the
// image and in the padding columns), cached by (image, ih) in direct-mapped slots: the output
// rows that share a pair (the next one at stride 2, the one after at stride 1) build it once.
// 2 * dh * pairs slots keep one output row's pairs apart.
struct DepthwisePairCache {
  int64_t slots, cols;  // cols: the padded columns the output row reads
  Vector<int32_t> buf;  // slots x cols x (the block's lanes)
  std::vector<std::pair<int64_t, int64_t>> tag;
  DepthwisePairCache(const QDepthwiseArgs& a, int64_t pairs, int64_t lanes)
      : slots(2 * a.dh * pairs), cols((a.OW - 1) * a.sw + (a.KW - 1) * a.dw + 1), buf(slots * cols * lanes),
        tag(slots) {}
  void clear() { std::fill(tag.begin(), tag.end(), std::pair<int64_t, int64_t>(-1, 0)); }
};

// The pair taps of an output row: buffer columns (slot * cols + kw * dw, from the pixel's first
// column) and offsets into the packed weights (from the block's first channel).
struct DepthwisePairTaps {
  int64_t count = 0;
  int64_t x_column[kMaxDepthwiseTaps];
  int64_t w_offset[kMaxDepthwiseTaps];
};

// kPixels neighbouring output pixels, NV vectors of channels: acc in registers over the pair
// taps, each tap's weights loaded once for all pixels, then the output stage. kStride: the
// column stride when fixed (1 or 2; the pixels' loads then take constant offsets), else 0.
template <int kPixels, int NV, int kStride>
void depthwise_pair_run(const QDepthwiseArgs& a, const DepthwisePairTaps& taps, const int32_t* x,
                        int64_t stride_step, const int32_t* w, const vm::vint32 (&start)[NV], int64_t c, uint8_t* y,
                        float zy, float lo, float hi) {
  using vm::vfloat;
  using vm::vint32;
  constexpr int64_t L = vm::kLanes<int32_t>;
  const int64_t x_step = kStride ? kStride * NV * L : stride_step;
  vint32 acc[kPixels][NV];
#pragma GCC unroll 4
  for (int v = 0; v < NV; ++v)
#pragma GCC unroll 8
    for (int p = 0; p < kPixels; ++p) acc[p][v] = start[v];
  for (int64_t t = 0; t < taps.count; ++t) {
    const int32_t* px = x + taps.x_column[t] * (NV * L);
    const int32_t* pw = w + taps.w_offset[t];
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) {
      const vint32 wv = vm::load(pw + v * L);
#pragma GCC unroll 8
      for (int p = 0; p < kPixels; ++p) acc[p][v] += vm::madd_i16(vm::load(px + p * x_step + v * L), wv);
    }
  }
  const vfloat vlo = vm::splat<vfloat>(lo - zy), vhi = vm::splat<vfloat>(hi - zy);
  const vint32 vzy = vm::splat<vint32>(static_cast<int32_t>(zy));
  vfloat b[NV], m[NV];
#pragma GCC unroll 4
  for (int v = 0; v < NV; ++v) {
    b[v] = a.bias ? vm::load(a.bias + c + v * L) : vfloat{};
    m[v] = vm::load(a.mult + c + v * L);
  }
  const int64_t ldy = a.C;
  const int32_t out_lo = a.lo, out_hi = a.hi;
  // (a call per form: a lambda over both captured acc by reference, and it left the registers,
  // 6% slower at 72 channels on 56x56)
  if (a.pack_clamps)
    return vm::requantize_rows<kPixels, NV, true>(y + c, ldy, acc, b, m, vlo, vhi, vzy, out_lo, out_hi);
  vm::requantize_rows<kPixels, NV, false>(y + c, ldy, acc, b, m, vlo, vhi, vzy, out_lo, out_hi);
}

// One output row's pixels, four at a time (depthwise_pair_run), from its pairs' buffer x.
template <int NV, int kStride>
void depthwise_pair_row(const QDepthwiseArgs& a, const DepthwisePairTaps& taps, const int32_t* x, int64_t x_step,
                        const int32_t* w, const vm::vint32 (&start)[NV], int64_t c, uint8_t* y, float zy, float lo,
                        float hi) {
  int64_t ow = 0;
  for (; ow + 4 <= a.OW; ow += 4)
    depthwise_pair_run<4, NV, kStride>(a, taps, x + ow * x_step, x_step, w, start, c, y + ow * a.C, zy, lo, hi);
  const int32_t* xo = x + ow * x_step;
  uint8_t* yo = y + ow * a.C;
  switch (a.OW - ow) {
    case 3: return depthwise_pair_run<3, NV, kStride>(a, taps, xo, x_step, w, start, c, yo, zy, lo, hi);
    case 2: return depthwise_pair_run<2, NV, kStride>(a, taps, xo, x_step, w, start, c, yo, zy, lo, hi);
    case 1: return depthwise_pair_run<1, NV, kStride>(a, taps, xo, x_step, w, start, c, yo, zy, lo, hi);
    default: return;
  }
}

// Rows ih and ih + dh of image x, channels [c, c + NV * L), interleaved into the padded
// columns of slot b.
template <int NV>
void depthwise_pair_build(const QDepthwiseArgs& a, const uint8_t* x, int64_t ih, const uint8_t* zp_column,
                          int64_t cols, int64_t c, int32_t* b) {
  using vm::vint32;
  constexpr int64_t L = vm::kLanes<int32_t>, B = NV * L;
  const uint8_t* row[2];
  int64_t step[2];
  for (int i = 0; i < 2; ++i) {
    const int64_t h = ih + i * a.dh;
    const bool inside = h >= 0 && h < a.H;
    step[i] = inside ? a.C : 0;
    row[i] = (inside ? x + h * a.W * a.C : zp_column) + c - a.pw * step[i];
  }
  const int64_t j0 = std::min(cols, a.pw), j1 = std::max(j0, std::min(cols, a.W + a.pw));  // inside the image
  const vint32 zp_pair = vm::splat<vint32>(a.x_zp | a.x_zp << 16);
  for (int64_t j = 0; j < j0; ++j)
    for (int v = 0; v < NV; ++v) vm::store(b + j * B + v * L, zp_pair);
  for (int64_t j = j0; j < j1; ++j)
    for (int v = 0; v < NV; ++v)
      vm::store(b + j * B + v * L, vm::u8_pairs_as_i16(row[0] + j * step[0] + v * L, row[1] + j * step[1] + v * L));
  for (int64_t j = j1; j < cols; ++j)
    for (int v = 0; v < NV; ++v) vm::store(b + j * B + v * L, zp_pair);
}

// Output rows [oh0, oh1) of image n, channels [c, c + NV * L): each row's used pairs (one of
// the two kernel rows inside the image) from the cache, then its pixels four at a time.
template <int NV>
void depthwise_pair_block(const QDepthwiseArgs& a, DepthwisePairCache& cache, const uint8_t* zp_column, int64_t n,
                          int64_t oh0, int64_t oh1, int64_t c, float zy, float lo, float hi) {
  using vm::vint32;
  constexpr int64_t L = vm::kLanes<int32_t>, B = NV * L;
  const uint8_t* x = a.x + n * a.H * a.W * a.C;
  const int32_t* w = a.w_pairs + c;
  const int64_t pairs = (a.KH + 1) / 2, x_step = a.sw * B;
  const vint32 x_zp = vm::splat<vint32>(a.x_zp);
  for (int64_t oh = oh0; oh < oh1; ++oh) {
    DepthwisePairTaps taps;
    vint32 start[NV];
    for (int v = 0; v < NV; ++v) start[v] = vint32{};
    for (int64_t r = 0; r < pairs; ++r) {
      const int64_t ih = oh * a.sh - a.ph + 2 * r * a.dh, ih2 = ih + a.dh;
      if ((ih < 0 || ih >= a.H) && (2 * r + 1 >= a.KH || ih2 < 0 || ih2 >= a.H)) continue;
      const int64_t slot = (ih % cache.slots + cache.slots) % cache.slots;
      int32_t* b = cache.buf.data() + slot * cache.cols * B;
      if (cache.tag[slot] != std::make_pair(n, ih)) {
        depthwise_pair_build<NV>(a, x, ih, zp_column, cache.cols, c, b);
        cache.tag[slot] = {n, ih};
      }
      for (int v = 0; v < NV; ++v) start[v] -= x_zp * vm::load(a.pair_sums + r * a.C + c + v * L);
      for (int64_t kw = 0; kw < a.KW; ++kw) {
        taps.x_column[taps.count] = slot * cache.cols + kw * a.dw;
        taps.w_offset[taps.count++] = (r * a.KW + kw) * a.C;
      }
    }
    uint8_t* y = a.y + (n * a.OH + oh) * a.OW * a.C;
    if (a.sw == 1)
      depthwise_pair_row<NV, 1>(a, taps, cache.buf.data(), x_step, w, start, c, y, zy, lo, hi);
    else if (a.sw == 2)
      depthwise_pair_row<NV, 2>(a, taps, cache.buf.data(), x_step, w, start, c, y, zy, lo, hi);
    else
      depthwise_pair_row<NV, 0>(a, taps, cache.buf.data(), x_step, w, start, c, y, zy, lo, hi);
  }
}

// Output rows [oh0, oh1) of image n, channels [c0, c1) (at least one vector of them), through
// kernel-row pairs: blocks of two vectors of channels outside the rows, then one; a ragged end
// is one more vector ending at c1 (it recomputes a few channels, with the same values).
void depthwise_row_pairs(const QDepthwiseArgs& a, DepthwisePairCache& cache, const uint8_t* zp_column, int64_t n,
                         int64_t oh0, int64_t oh1, int64_t c0, int64_t c1) {
  constexpr int64_t L = vm::kLanes<int32_t>;
  const float zy = static_cast<float>(a.out_zp), lo = static_cast<float>(a.lo), hi = static_cast<float>(a.hi);
  int64_t c = c0;
  for (; c + 2 * L <= c1; c += 2 * L) {
    cache.clear();
    depthwise_pair_block<2>(a, cache, zp_column, n, oh0, oh1, c, zy, lo, hi);
  }
  for (; c < c1; c += L) {
    cache.clear();
    depthwise_pair_block<1>(a, cache, zp_column, n, oh0, oh1, std::min(c, c1 - L), zy, lo, hi);
  }
}

// Output rows [oh0, oh1) of image n, every channel, tap by tap (fewer channels than a vector).
void depthwise_taps(const QDepthwiseArgs& a, const Vector<int32_t>& prefix, int64_t n, int64_t oh0, int64_t oh1) {
  const float zy = static_cast<float>(a.out_zp), lo = static_cast<float>(a.lo), hi = static_cast<float>(a.hi);
  DepthwiseTaps taps;
  Vector<int32_t> zp_wsum(a.C);
  const int64_t prefix_row = (a.KW + 1) * a.C;
  const uint8_t* x = a.x + n * a.H * a.W * a.C;
  for (int64_t oh = oh0; oh < oh1; ++oh) {
    uint8_t* y = a.y + (n * a.OH + oh) * a.OW * a.C;
    int64_t kw0 = -1, kw1 = -1;  // the valid kw range the taps were built for
    for (int64_t ow = 0; ow < a.OW; ++ow, y += a.C) {
      const int64_t iw0 = ow * a.sw - a.pw;
      const int64_t lo_kw = iw0 >= 0 ? 0 : (-iw0 + a.dw - 1) / a.dw;
      const int64_t hi_kw = std::min(a.KW, a.W - iw0 <= 0 ? 0 : (a.W - iw0 + a.dw - 1) / a.dw);
      if (lo_kw != kw0 || hi_kw != kw1) {
        kw0 = lo_kw;
        kw1 = hi_kw;
        taps.count = 0;
        int64_t kh0 = a.KH, kh1 = 0;  // the valid kernel rows (a range)
        for (int64_t kh = 0; kh < a.KH; ++kh) {
          const int64_t ih = oh * a.sh - a.ph + kh * a.dh;
          if (ih < 0 || ih >= a.H) continue;
          kh0 = std::min(kh0, kh);
          kh1 = kh + 1;
          for (int64_t kw = kw0; kw < kw1; ++kw) {
            taps.x_offset[taps.count] = (ih * a.W + kw * a.dw - a.pw) * a.C;
            taps.w_offset[taps.count++] = (kh * a.KW + kw) * a.C;
          }
        }
        if (taps.count == 0) {
          std::fill(zp_wsum.begin(), zp_wsum.end(), 0);
        } else {
          const int32_t* p00 = prefix.data() + kh0 * prefix_row + kw0 * a.C;
          const int32_t* p01 = prefix.data() + kh0 * prefix_row + kw1 * a.C;
          const int32_t* p10 = prefix.data() + kh1 * prefix_row + kw0 * a.C;
          const int32_t* p11 = prefix.data() + kh1 * prefix_row + kw1 * a.C;
          for (int64_t c = 0; c < a.C; ++c) zp_wsum[c] = p11[c] - p10[c] - p01[c] + p00[c];
        }
      }
      depthwise_pixel(a, x + ow * a.sw * a.C, taps, zp_wsum.data(), y, zy, lo, hi);
    }
  }
}

// Tasks [begin, end) of the args' split: channels in vector lanes through the row pairs,
// fewer channels than a vector (a single chunk then) tap by tap.
void qconv_depthwise_kernel(const QDepthwiseArgs& a, int64_t begin, int64_t end) {
  constexpr int64_t L = vm::kLanes<int32_t>;
  const bool pairs = a.C >= L;
  const Vector<uint8_t> zp_column(pairs ? a.C : 0, static_cast<uint8_t>(a.x_zp));
  DepthwisePairCache cache(a, pairs ? (a.KH + 1) / 2 : 0, a.C >= 2 * L ? 2 * L : L);
  const Vector<int32_t> prefix = pairs ? Vector<int32_t>() : zp_weight_prefix_sums(a);
  for (int64_t t = begin; t < end; ++t) {
    const int64_t n = t / (a.bands * a.chunks), band = t / a.chunks % a.bands, chunk = t % a.chunks;
    const int64_t oh0 = band * a.band_rows, oh1 = std::min(a.OH, oh0 + a.band_rows);
    const int64_t c0 = chunk * a.chunk_channels, c1 = chunk + 1 == a.chunks ? a.C : c0 + a.chunk_channels;
    if (pairs)
      depthwise_row_pairs(a, cache, zp_column.data(), n, oh0, oh1, c0, c1);
    else
      depthwise_taps(a, prefix, n, oh0, oh1);
    if (a.table)  // the task's pixels, still in cache
      lookup_rows(a.y + (n * a.OH + oh0) * a.OW * a.C, (oh1 - oh0) * a.OW, a.C, c0, c1, a.table);
  }
}

}  // namespace
TZ_REGISTER_KERNEL(quantize_stub, &quantize_kernel);
TZ_REGISTER_KERNEL(dequantize_stub, &dequantize_kernel);
TZ_REGISTER_KERNEL(fake_quant_stub, &fake_quant_kernel);
TZ_REGISTER_KERNEL(qbinary_stub, &qbinary_kernel);
TZ_REGISTER_KERNEL(qmax_byte_stub, &qmax_byte_kernel);
TZ_REGISTER_KERNEL(qlookup_stub, &qlookup_kernel);
TZ_REGISTER_KERNEL(qclamp_stub, &qclamp_kernel);
TZ_REGISTER_KERNEL(qadaptive_avg_pool_stub, &qadaptive_avg_pool_kernel);
TZ_REGISTER_KERNEL(qconv_depthwise_stub, &qconv_depthwise_kernel);
}  // namespace TZ_CPU_CAPABILITY
}  // namespace tz
