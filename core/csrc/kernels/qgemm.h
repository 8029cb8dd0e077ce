// The int8 GEMM of quantized linear and convolution: u8 activations A (M x K, row-major)
// times s8 weights B (N x K, one row per output channel) accumulated exactly in int32,
// then an output stage (requantization to u8, or float for dynamic quantization).
//
// B is packed once (quantized modules keep it): blocks of 16 output channels, each block
// K4 / 4 rows of 64 bytes where row r holds B[n][4r .. 4r+3] for its 16 channels n, zeros
// past K and past N. A row of A's 4 bytes broadcast to every int32 lane against one such
// row is one VNNI vpdpbusd (or vpmaddubsw + vpmaddwd without VNNI).
//
// Zero points: acc[m][n] = sum_k (A - a_zp)(B - b_zp[n]) =
//   dot - a_zp * colsum[n] - b_zp[n] * rowsum[m] + K * a_zp * b_zp[n],
// with colsum precomputed at packing time and rowsum only when B has zero points.
//
// Builds: baseline (the scalar int32 reference), AVX2 and AVX-512 (vpmaddubsw, whose int16
// pair sums a0 * b0 + a1 * b1 saturate: when a_max times B's largest same-sign pair magnitude
// could pass 32767 they widen both operands' bytes to int16 for vpmaddwd, exact at any value),
// AVX-512 VNNI (kernels/isa_vnni/). All give the same bits.
#pragma once
#include <cstdint>

#include "kernels/dispatch.h"

namespace tz {

struct QBinaryArgs;  // kernels/quant.h

constexpr int64_t kQGemmBlock = 16;  // output channels per packed block

inline int64_t round_up4(int64_t k) { return (k + 3) / 4 * 4; }

struct QGemmPackedB {
  const int8_t* data;      // (N16 / 16, K4 / 4, 64)
  const int32_t* colsum;   // (N,): sum over k of B[n][k]
  int64_t N, K, K4;
  int32_t pair_max;        // max over n and even k of |B[n][k]| + |B[n][k + 1]| for same signs
};

// The output stage of a tile, for row m and channel n (acc is zero-point corrected):
//   u8:    y = clamp(nearbyint((float(acc) + bias[n]) * mult[n]) + out_zp, lo, hi)
//          (bias already divided by a_scale * w_scale[n]; lo = out_zp under a fused ReLU)
//   float: y = float(acc) * mult[n] + bias[n]      (mult = a_scale * w_scale[n])
// Per-channel arrays (colsum, b_zp, mult, bias) must be readable kQGemmBlock entries past N:
// the output stage loads whole vectors.
struct QGemmOutput {
  bool to_float = false;
  const float* mult = nullptr;  // (N,)
  const float* bias = nullptr;  // (N,) or null
  int32_t out_zp = 0, lo = 0, hi = 255;
  // u8 only: |(acc + bias) * mult| < 2^30 for every accumulator this K allows, so the SIMD
  // builds may round before clamping and clamp in the integers (the saturating packs).
  bool pack_clamps = false;
  void* y = nullptr;            // uint8_t or float
  int64_t ldy = 0;              // elements between rows of y
  const uint8_t* table = nullptr;  // u8 only, or null: the bytes are then mapped through it (a fused
                                   // activation; applied by the caller of qgemm_stub)
  const uint8_t* residual = nullptr;   // u8 only, or null: rows laid out as y's, then added to
  const QBinaryArgs* add = nullptr;    // the bytes, y = add(residual, y) (kernels/quant.h; also
                                       // applied by the caller, after the table)
};

struct QGemmArgs {
  const uint8_t* a;            // M rows of lda bytes; K4 bytes of each are read (B is zero past K)
  int64_t lda, M;
  int32_t a_zp;
  const int32_t* a_rowsum;     // (M,), only with b_zp
  const int32_t* b_zp;         // (N,) or null for symmetric weights
  QGemmPackedB b;
  QGemmOutput out;
  bool widen;                  // vpmaddubsw could saturate: int16 products (vpmaddwd) instead
};

// Rows [m0, m1) and packed blocks [nb0, nb1) of the product and its output stage.
using QGemmFn = void (*)(const QGemmArgs& args, int64_t m0, int64_t m1, int64_t nb0, int64_t nb1);
extern DispatchStub<QGemmFn> qgemm_stub;

// Packs B (N x K int8, row stride ldb) into `packed` (N16 * K4 bytes), its column sums and pair_max.
void qgemm_pack(const int8_t* b, int64_t ldb, int64_t N, int64_t K, int8_t* packed, int32_t* colsum,
                int32_t* pair_max);

}  // namespace tz
