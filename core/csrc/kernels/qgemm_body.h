// The int8 GEMM kernel of kernels/qgemm.h, included by kernels/isa/qgemm_kernels.cpp (the
// baseline, AVX2 and AVX-512 builds) and kernels/isa_vnni/qgemm_vnni_kernels.cpp (AVX-512
// VNNI). The baseline build is the scalar int32 reference; the SIMD builds run a register
// tile of MR rows x 16 * kBlocks channels, one packed row of B per 4 values of k.
#pragma once
#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "kernels/qgemm.h"
#include "kernels/simd_narrow.h"
#include "kernels/simd_vec.h"

#ifndef TZ_CPU_CAPABILITY
#error "kernels/qgemm_body.h is for the per-ISA kernel files only"
#endif

namespace tz {
namespace TZ_CPU_CAPABILITY {
namespace {

// The output stage of row m, channels [n0, n0 + count), from its int32 dot products (which
// already hold -a_zp * colsum), a vector of channels at a time (the per-channel arrays and
// the tile row are padded, so every load is whole; only the stores stop at count).
inline void store_row(const QGemmArgs& g, int64_t m, int64_t n0, int64_t count, const int32_t* tile_row) {
  using vm::vfloat;
  using vm::vint32;
  constexpr int64_t L = vm::kLanes<int32_t>;
  const QGemmOutput& o = g.out;
  const vint32 row_term = vm::splat<vint32>(g.b_zp ? static_cast<int32_t>(g.b.K) * g.a_zp - g.a_rowsum[m] : 0);
  const vint32 zp = vm::splat<vint32>(o.out_zp);
  const vfloat lo = vm::splat<vfloat>(static_cast<float>(o.lo - o.out_zp));
  const vfloat hi = vm::splat<vfloat>(static_cast<float>(o.hi - o.out_zp));
  for (int64_t j = 0; j < count; j += L) {
    const int64_t n = std::min(L, count - j), c = n0 + j;
    vint32 acc = vm::load(tile_row + j);
    if (g.b_zp) acc += row_term * vm::load(g.b_zp + c);
    const vfloat mult = vm::load(o.mult + c);
    if (o.to_float) {
      vfloat v = __builtin_convertvector(acc, vfloat) * mult;
      if (o.bias) v += vm::load(o.bias + c);
      float* y = static_cast<float*>(o.y) + m * o.ldy + c;
      n == L ? vm::store(y, v) : vm::store_partial(y, v, n);
      continue;
    }
    const vfloat bias = o.bias ? vm::load(o.bias + c) : vfloat{};
    vm::store_narrow(static_cast<uint8_t*>(o.y) + m * o.ldy + c, vm::requantize(acc, bias, mult, lo, hi, zp), n);
  }
}

#if !defined(__AVX2__)

// The scalar int32 reference.
void qgemm_kernel(const QGemmArgs& g, int64_t m0, int64_t m1, int64_t nb0, int64_t nb1) {
  const QGemmPackedB& b = g.b;
  int32_t acc[kQGemmBlock];
  for (int64_t nb = nb0; nb < nb1; ++nb) {
    const int8_t* block = b.data + nb * b.K4 * kQGemmBlock;
    const int64_t count = std::min<int64_t>(kQGemmBlock, b.N - nb * kQGemmBlock);
    for (int64_t m = m0; m < m1; ++m) {
      const uint8_t* a = g.a + m * g.lda;
      for (int64_t j = 0; j < count; ++j) {
        int32_t sum = -g.a_zp * b.colsum[nb * kQGemmBlock + j];
        for (int64_t k = 0; k < b.K; ++k)
          sum += static_cast<int32_t>(a[k]) * static_cast<int32_t>(block[(k / 4) * 64 + j * 4 + k % 4]);
        acc[j] = sum;
      }
      store_row(g, m, nb * kQGemmBlock, count, acc);
    }
  }
}

#else

#if defined(__AVX512F__)
using VI = __m512i;
constexpr int kVecPerBlock = 1;  // vectors per packed block of 16 channels
constexpr int kMaxBlocks = 2;
constexpr int kMR = 8;
TZ_VINLINE VI vload(const void* p) { return _mm512_loadu_si512(p); }
TZ_VINLINE VI vbroadcast4(const uint8_t* p) {
  int32_t v;
  std::memcpy(&v, p, 4);
  return _mm512_set1_epi32(v);
}
TZ_VINLINE void vstore(int32_t* p, VI v) { _mm512_storeu_si512(p, v); }
TZ_VINLINE VI vscale(VI v, int32_t s) { return _mm512_mullo_epi32(v, _mm512_set1_epi32(s)); }
#if defined(__AVX512VNNI__)
TZ_VINLINE VI dot4(VI acc, VI a, VI b) { return _mm512_dpbusd_epi32(acc, a, b); }
#else
TZ_VINLINE VI dot4(VI acc, VI a, VI b) {
  return _mm512_add_epi32(acc, _mm512_madd_epi16(_mm512_maddubs_epi16(a, b), _mm512_set1_epi16(1)));
}
// The even and odd bytes of every quad widened to int16 in place (A's unsigned, B's signed):
// two vpmaddwd, whose int32 pair sums cannot overflow.
TZ_VINLINE VI dot4_widened(VI acc, VI a, VI b) {
  const VI a_even = _mm512_and_si512(a, _mm512_set1_epi16(0x00ff)), a_odd = _mm512_srli_epi16(a, 8);
  const VI b_even = _mm512_srai_epi16(_mm512_slli_epi16(b, 8), 8), b_odd = _mm512_srai_epi16(b, 8);
  acc = _mm512_add_epi32(acc, _mm512_madd_epi16(a_even, b_even));
  return _mm512_add_epi32(acc, _mm512_madd_epi16(a_odd, b_odd));
}
#endif
#else  // AVX2
using VI = __m256i;
constexpr int kVecPerBlock = 2;
constexpr int kMaxBlocks = 1;
constexpr int kMR = 5;  // 10 accumulators, two B vectors, the broadcast, a product and the ones: 15 of 16
TZ_VINLINE VI vload(const void* p) { return _mm256_loadu_si256(static_cast<const __m256i*>(p)); }
TZ_VINLINE VI vbroadcast4(const uint8_t* p) {
  int32_t v;
  std::memcpy(&v, p, 4);
  return _mm256_set1_epi32(v);
}
TZ_VINLINE void vstore(int32_t* p, VI v) { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v); }
TZ_VINLINE VI vscale(VI v, int32_t s) { return _mm256_mullo_epi32(v, _mm256_set1_epi32(s)); }
TZ_VINLINE VI dot4(VI acc, VI a, VI b) {
  return _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_maddubs_epi16(a, b), _mm256_set1_epi16(1)));
}
TZ_VINLINE VI dot4_widened(VI acc, VI a, VI b) {
  const VI a_even = _mm256_and_si256(a, _mm256_set1_epi16(0x00ff)), a_odd = _mm256_srli_epi16(a, 8);
  const VI b_even = _mm256_srai_epi16(_mm256_slli_epi16(b, 8), 8), b_odd = _mm256_srai_epi16(b, 8);
  acc = _mm256_add_epi32(acc, _mm256_madd_epi16(a_even, b_even));
  return _mm256_add_epi32(acc, _mm256_madd_epi16(a_odd, b_odd));
}
#endif

constexpr int kLanes32 = static_cast<int>(sizeof(VI) / 4);

// The u8 output stage of an MR x NV register tile of whole vectors, straight from the
// accumulators: store_row's arithmetic with the per-channel vectors loaded once per tile and
// the fields of g read before the first byte store (which could alias them). kPackClamps
// (QGemmOutput::pack_clamps): the clamp after rounding, in the integers.
template <int MR, int NV, bool kPackClamps>
TZ_VINLINE void requantize_tile(const QGemmArgs& g, int64_t m, int64_t n0, const VI (&acc)[MR][NV]) {
  using vm::vfloat;
  using vm::vint32;
  const QGemmOutput& o = g.out;
  const int32_t* b_zp = g.b_zp;
  const int32_t k_azp = static_cast<int32_t>(g.b.K) * g.a_zp;
  const int32_t* rowsum = b_zp ? g.a_rowsum + m : nullptr;
  uint8_t* y = static_cast<uint8_t*>(o.y) + m * o.ldy + n0;
  const int64_t ldy = o.ldy;
  const vint32 zp = vm::splat<vint32>(o.out_zp);
  const vfloat lo = vm::splat<vfloat>(static_cast<float>(o.lo - o.out_zp));
  const vfloat hi = vm::splat<vfloat>(static_cast<float>(o.hi - o.out_zp));
  const int32_t out_lo = o.lo, out_hi = o.hi;
  vfloat mult[NV], bias[NV];
  vint32 wzp[NV];
#pragma GCC unroll 4
  for (int v = 0; v < NV; ++v) {
    mult[v] = vm::load(o.mult + n0 + v * kLanes32);
    bias[v] = o.bias ? vm::load(o.bias + n0 + v * kLanes32) : vfloat{};
    if (b_zp) wzp[v] = vm::load(b_zp + n0 + v * kLanes32);
  }
  vint32 a[MR][NV];
#pragma GCC unroll 8
  for (int r = 0; r < MR; ++r) {
    const vint32 row_term = vm::splat<vint32>(b_zp ? k_azp - rowsum[r] : 0);
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) {
      a[r][v] = reinterpret_cast<vint32>(acc[r][v]);
      if (b_zp) a[r][v] += row_term * wzp[v];
    }
  }
  vm::requantize_rows<MR, NV, kPackClamps>(y, ldy, a, bias, mult, lo, hi, zp, out_lo, out_hi);
}

// MR rows x NV vectors of channels from the block nb (whole blocks, or a block's first vector
// when that holds all its channels) and their output stage (count channels).
// Every loop that indexes acc is fully unrolled ("GCC unroll"): one that is not (a loop over
// rows calling store_row, say) leaves acc in a stack array, stored and reloaded at every k.
template <int MR, int NV, bool kWiden>
TZ_VINLINE void micro_tile(const QGemmArgs& g, int64_t m, int64_t nb, int64_t count) {
  VI start[NV];  // -a_zp * colsum: the activations' zero-point correction
#pragma GCC unroll 4
  for (int v = 0; v < NV; ++v) start[v] = vscale(vload(g.b.colsum + nb * kQGemmBlock + v * kLanes32), -g.a_zp);
  VI acc[MR][NV];
#pragma GCC unroll 8
  for (int r = 0; r < MR; ++r)
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) acc[r][v] = start[v];
  const int64_t K4 = g.b.K4, lda = g.lda;
  const int8_t* b0 = g.b.data + nb * K4 * kQGemmBlock;
  const uint8_t* a0 = g.a + m * lda;
  for (int64_t k = 0; k < K4; k += 4) {
    VI bv[NV];
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v)
      bv[v] = vload(b0 + v / kVecPerBlock * K4 * kQGemmBlock + k * kQGemmBlock + v % kVecPerBlock * sizeof(VI));
#pragma GCC unroll 8
    for (int r = 0; r < MR; ++r) {
      const VI av = vbroadcast4(a0 + r * lda + k);
#pragma GCC unroll 4
      for (int v = 0; v < NV; ++v) {
#if defined(__AVX512VNNI__)
        acc[r][v] = dot4(acc[r][v], av, bv[v]);
#else
        acc[r][v] = kWiden ? dot4_widened(acc[r][v], av, bv[v]) : dot4(acc[r][v], av, bv[v]);
#endif
      }
    }
  }
  const int64_t n0 = nb * kQGemmBlock;
  if (!g.out.to_float && count == NV * kLanes32)
    return g.out.pack_clamps ? requantize_tile<MR, NV, true>(g, m, n0, acc) : requantize_tile<MR, NV, false>(g, m, n0, acc);
  alignas(64) int32_t tile[MR][NV * kLanes32];  // float output or a partial block: through store_row
#pragma GCC unroll 8
  for (int r = 0; r < MR; ++r)
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) vstore(tile[r] + v * kLanes32, acc[r][v]);
  for (int r = 0; r < MR; ++r) store_row(g, m + r, n0, count, tile[r]);
}

template <int NV, bool kWiden>
void tile_rows(const QGemmArgs& g, int64_t m, int64_t rows, int64_t nb, int64_t count) {
  switch (rows) {
    case 1: return micro_tile<1, NV, kWiden>(g, m, nb, count);
    case 2: return micro_tile<2, NV, kWiden>(g, m, nb, count);
    case 3: return micro_tile<3, NV, kWiden>(g, m, nb, count);
    case 4: return micro_tile<4, NV, kWiden>(g, m, nb, count);
    case 5: return micro_tile<5, NV, kWiden>(g, m, nb, count);
    case 6: return micro_tile<6, NV, kWiden>(g, m, nb, count);
#if defined(__AVX512F__)
    case 7: return micro_tile<7, NV, kWiden>(g, m, nb, count);
    case 8: return micro_tile<8, NV, kWiden>(g, m, nb, count);
#endif
  }
}

template <bool kWiden>
void qgemm_tiles(const QGemmArgs& g, int64_t m0, int64_t m1, int64_t nb0, int64_t nb1) {
  for (int64_t nb = nb0; nb < nb1; nb += kMaxBlocks) {
    const int64_t blocks = std::min<int64_t>(kMaxBlocks, nb1 - nb);
    const int64_t count = std::min<int64_t>(blocks * kQGemmBlock, g.b.N - nb * kQGemmBlock);
    for (int64_t m = m0; m < m1; m += kMR) {
      const int64_t rows = std::min<int64_t>(kMR, m1 - m);
      if (count <= kLanes32)  // the last block's channels fit its first vector (24 = 16 + 8)
        tile_rows<1, kWiden>(g, m, rows, nb, count);
      else if (blocks == kMaxBlocks)
        tile_rows<kMaxBlocks * kVecPerBlock, kWiden>(g, m, rows, nb, count);
      else
        tile_rows<kVecPerBlock, kWiden>(g, m, rows, nb, count);
    }
  }
}

void qgemm_kernel(const QGemmArgs& g, int64_t m0, int64_t m1, int64_t nb0, int64_t nb1) {
#if defined(__AVX512VNNI__)
  qgemm_tiles<false>(g, m0, m1, nb0, nb1);  // vpdpbusd never saturates
#else
  if (g.widen)
    qgemm_tiles<true>(g, m0, m1, nb0, nb1);
  else
    qgemm_tiles<false>(g, m0, m1, nb0, nb1);
#endif
}

#endif  // __AVX2__

}  // namespace
TZ_REGISTER_KERNEL(qgemm_stub, &qgemm_kernel);
}  // namespace TZ_CPU_CAPABILITY
}  // namespace tz
