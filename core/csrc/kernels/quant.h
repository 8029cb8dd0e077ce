// Elementwise and pooling kernels of quantized tensors, on contiguous runs. Every float
// step is written out (no contraction, nearbyint = round half to even), so the per-ISA
// builds give the same bits; the formulas are PyTorch's (fbgemm's on x86):
//   quantize:   q = clamp(nearbyint(fma(x, 1 / scale, zp)), qmin, qmax) for a per-tensor 8-bit
//               tensor (fbgemm's vector rounding: the zero point joins before rounding), else
//               q = clamp(nearbyint(x * (1 / scale)) + zp, qmin, qmax) (fbgemm's scalar quantize_val)
//   dequantize: x = float(q - zp) * scale
#pragma once
#include <cstdint>

#include "kernels/dispatch.h"
#include "tensor/dtype.h"

namespace tz {

// qdtype: QUInt8, QInt8 or QInt32 storage. Returns whether x held a NaN.
using QuantizeFn = bool (*)(DType qdtype, const float* x, void* q, int64_t n, float inv_scale, int64_t zp,
                            bool zp_before_rounding);
using DequantizeFn = void (*)(DType qdtype, const void* q, float* x, int64_t n, float scale, int64_t zp);
extern DispatchStub<QuantizeFn> quantize_stub;
extern DispatchStub<DequantizeFn> dequantize_stub;

// fake quantization: out = (clamp(nearbyint(x * inv_scale) + zp, qmin, qmax) - zp) * scale;
// mask (may be null) = whether nearbyint(x * inv_scale) + zp lies in [qmin, qmax].
using FakeQuantFn = void (*)(const float* x, float* out, bool* mask, int64_t n, float scale, float inv_scale,
                             int64_t zp, int64_t qmin, int64_t qmax);
extern DispatchStub<FakeQuantFn> fake_quant_stub;

// Binary ops of two quint8 runs into a quint8 run (PyTorch's qadd / qmul):
//   add: y = q(float(a - za) * sa + float(b - zb) * sb)       (then ReLU if relu)
//   mul: y = q(float((a - za) * (b - zb)) * (sa * sb / sy))    (then ReLU if relu)
// where q(v) = clamp(nearbyint(v * inv_sy) + zy) for add and clamp(nearbyint(v) + zy) for mul.
enum class QBinaryOp : uint8_t { Add, Mul };
struct QBinaryArgs {
  float a_scale, b_scale, inv_out_scale, multiplier;
  int32_t a_zp, b_zp, out_zp;
  bool relu;
  // Every value either op can reach before its rounding stays within 2^30 (qbinary_args), so
  // the SIMD builds may round first and clamp in the integers (as QGemmOutput::pack_clamps).
  bool pack_clamps = false;
};
using QBinaryFn = void (*)(QBinaryOp op, const uint8_t* a, const uint8_t* b, uint8_t* y, int64_t n,
                           const QBinaryArgs& args);
extern DispatchStub<QBinaryFn> qbinary_stub;

// The largest of `rows` rows of k bytes, ld apart (the int8 GEMM's saturation check).
using QMaxByteFn = uint8_t (*)(const uint8_t* a, int64_t rows, int64_t ld, int64_t k);
extern DispatchStub<QMaxByteFn> qmax_byte_stub;

// y[i] = table[x[i]] (quint8 activations: hardswish, hardsigmoid, requantization...).
using QLookupFn = void (*)(const uint8_t* x, uint8_t* y, int64_t n, const uint8_t* table);
extern DispatchStub<QLookupFn> qlookup_stub;

// f(offset, n) over bytes [c0, c1) of `rows` rows, ld apart: one run when the rows are whole
// (a fused step on a task's output).
template <class F> void for_row_runs(int64_t rows, int64_t ld, int64_t c0, int64_t c1, F&& f) {
  if (c0 == 0 && c1 == ld) return f(int64_t(0), rows * ld);
  for (int64_t r = 0; r < rows; ++r) f(r * ld + c0, c1 - c0);
}

// Bytes [c0, c1) of `rows` rows, ld apart, mapped through table in place (a fused activation).
inline void lookup_rows(uint8_t* y, int64_t rows, int64_t ld, int64_t c0, int64_t c1, const uint8_t* table) {
  const QLookupFn lookup = qlookup_stub.get();
  for_row_runs(rows, ld, c0, c1, [&](int64_t at, int64_t n) { lookup(y + at, y + at, n, table); });
}

// Bytes [c0, c1) of `rows` rows, ld apart, replaced by add(residual, y) (a fused residual add;
// residual laid out as y).
inline void add_rows(uint8_t* y, const uint8_t* residual, int64_t rows, int64_t ld, int64_t c0, int64_t c1,
                     const QBinaryArgs& args) {
  const QBinaryFn binary = qbinary_stub.get();
  for_row_runs(rows, ld, c0, c1,
               [&](int64_t at, int64_t n) { binary(QBinaryOp::Add, residual + at, y + at, y + at, n, args); });
}

// y = clamp(x, lo, hi) on stored integers (relu, relu6 keep the input's qparams).
using QClampFn = void (*)(DType qdtype, const void* x, void* y, int64_t n, int32_t lo, int32_t hi);
extern DispatchStub<QClampFn> qclamp_stub;

// NHWC average pooling of quint8 over windows [h0, h1) x [w0, w1) of each output pixel:
// y[c] = clamp(nearbyint(float(sum - count * in_zp) * (1 / (1 / (multiplier)))) + out_zp), with
// multiplier = in_scale / out_scale / count (PyTorch's adaptive pooling).
struct QAvgPoolArgs {
  const uint8_t* x;      // one image, H x W x C
  uint8_t* y;            // one image, OH x OW x C
  int64_t H, W, C, OH, OW;
  float in_scale, out_scale;
  int32_t in_zp, out_zp;
  bool qnnpack_scale;  // sum * in / (out * count) as qnnpack, else fbgemm's sum / (out / (in / count))
};
// Output rows [oh0, oh1) of adaptive average pooling.
using QAvgPoolFn = void (*)(const QAvgPoolArgs& args, int64_t oh0, int64_t oh1);
extern DispatchStub<QAvgPoolFn> qadaptive_avg_pool_stub;

// Depthwise quantized convolution, NHWC, one input channel per group (C == O, multiplier 1):
// acc[c] = sum over valid taps (x - x_zp) * w[tap][c], w packed as int32 (KH*KW, C) already
// minus the weight zero points; then the output stage of kernels/qgemm.h per channel.
// The vector builds take two kernel rows per multiply (vpmaddwd): w_pairs holds rows 2r and
// 2r + 1 of w as int16 pairs (row 2r low, zero past KH), ((KH + 1) / 2, KW, C), and pair_sums
// each pair's weights summed over both rows and kw, ((KH + 1) / 2, C).
constexpr int64_t kMaxDepthwiseTaps = 49;  // KH * KW of the direct kernel (larger ones use im2col)
struct QDepthwiseArgs {
  const uint8_t* x;          // N x H x W x C
  const int32_t* w;          // KH*KW x C, int8 weight minus int8 zero point: within int16
  const int32_t* w_pairs;    // ((KH + 1) / 2) x KW x C
  const int32_t* pair_sums;  // ((KH + 1) / 2) x C
  uint8_t* y;                // N x OH x OW x C
  int64_t N, H, W, C, OH, OW, KH, KW, sh, sw, ph, pw, dh, dw;
  int32_t x_zp, out_zp, lo, hi;
  const float* mult;         // (C,)
  const float* bias;         // (C,) divided by x_scale * w_scale[c], or null
  const uint8_t* table;      // or null: each task maps its output bytes through it (a fused activation)
  // The tasks: task t is image t / (bands * chunks), its output rows [b * band_rows, ...) of
  // band b = t / chunks % bands, and channels [k * chunk_channels, ...) of chunk k = t % chunks
  // (the last chunk runs to C; each chunk has at least one vector of channels, or all of C).
  int64_t band_rows, bands, chunk_channels, chunks;
  bool pack_clamps = false;  // as QGemmOutput::pack_clamps
};
// Tasks [begin, end).
using QDepthwiseFn = void (*)(const QDepthwiseArgs& args, int64_t begin, int64_t end);
extern DispatchStub<QDepthwiseFn> qconv_depthwise_stub;

}  // namespace tz
