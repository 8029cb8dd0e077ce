// Quantized elementwise ops, activations, pooling and cat on quint8 tensors (per-tensor
// qparams), PyTorch's quantized:: ops: each result carries the requested or the documented
// output qparams.
#pragma once
#include <array>
#include <cstdint>

#include "ops/value.h"
#include "tensor/quantizer.h"

namespace tz {

using ByteTable = std::array<uint8_t, 256>;
struct QBinaryArgs;  // kernels/quant.h

// The kernel arguments of quantized add / mul of a (a_scale, a_zp) and b (b_scale, b_zp) into
// (scale, zero_point).
QBinaryArgs qbinary_args(double a_scale, int64_t a_zp, double b_scale, int64_t b_zp, double scale, int64_t zero_point,
                         bool relu);

Tensor quantized_add(const Tensor& a, const Tensor& b, double scale, int64_t zero_point, bool relu);
Tensor quantized_mul(const Tensor& a, const Tensor& b, double scale, int64_t zero_point, bool relu);
// a + s and a * s for a Python number s: PyTorch picks the output qparams (see qops.cpp).
Tensor quantized_add_scalar(const Tensor& a, double s, bool relu);
Tensor quantized_mul_scalar(const Tensor& a, double s, bool relu);
Tensor quantized_cat(const TensorList& tensors, int64_t dim, double scale, int64_t zero_point, bool relu);
// Activations through a 256-entry table: output qparams as given (hardswish, sigmoid-like ones fixed).
Tensor quantized_hardswish(const Tensor& x, double scale, int64_t zero_point);
// Quantized hardswish's table from bytes of (in_scale, in_zp) to bytes of (out_scale, out_zp).
ByteTable hardswish_table(double in_scale, int64_t in_zp, double out_scale, int64_t out_zp);
Tensor quantized_hardsigmoid(const Tensor& x);  // output scale 1/256, zero point 0 (quint8)
// relu / relu6 / clamp keep the input's qparams.
Tensor quantized_clamp(const Tensor& x, std::optional<double> min, std::optional<double> max, const char* op);
Tensor quantized_adaptive_avg_pool2d(const Tensor& x, const IntList& output_size);

}  // namespace tz

namespace tz {
// Max pooling on stored integers (order-preserving), keeping the input's qparams.
Tensor quantized_max_pool2d(const Tensor& x, const IntList& kernel, const IntList& stride, const IntList& padding,
                            const IntList& dilation, bool ceil_mode);
}  // namespace tz
