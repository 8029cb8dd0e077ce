// Quantized linear and 2-d convolution on tensorzoo's int8 kernels (kernels/qgemm.h and
// the depthwise kernel of kernels/quant.h). Weights are packed once into a PackedWeight,
// the "packed params" of PyTorch's quantized modules: activations quint8 (per tensor),
// weights qint8 (per tensor or per channel, any zero points), bias float32.
#pragma once
#include <memory>
#include <vector>

#include "ops/value.h"
#include "tensor/quantizer.h"

namespace tz {

// Whose rounding the output stage of linear and convolution follows (core.backends.quantized
// .engine): fbgemm's float bias (x86, the default) or qnnpack's int32 bias.
enum class QuantizedEngine : uint8_t { FBGEMM, QNNPACK };
QuantizedEngine quantized_engine();
void set_quantized_engine(QuantizedEngine engine);

struct OutputStage;  // qlinear_conv.cpp

struct PackedWeight {
  Tensor weight;  // the qint8 weight as given: (O, K) for linear, (O, C/groups, KH, KW) for conv
  Tensor bias;    // float32 (O,), or undefined
  bool is_conv = false;
  IntList stride{1, 1}, padding{0, 0}, dilation{1, 1};
  int64_t groups = 1;
  int64_t O = 0, Cg = 0, KH = 1, KW = 1;  // output channels, input channels per group, kernel
  bool depthwise = false;                 // groups == C == O: the direct kernel
  int64_t K = 0, K4 = 0;                  // GEMM depth per group (KH * KW * Cg) and its padded size
  std::vector<int8_t> packed;             // per group: (Og rounded to 16) x K4 bytes
  std::vector<int32_t> colsum;            // (O,)
  int32_t pair_max = 0;                   // QGemmPackedB::pair_max over the groups
  std::vector<float> w_scales;            // (O,)
  std::vector<int32_t> w_zero_points;     // (O,)
  bool has_w_zero_points = false;
  std::vector<int32_t> depthwise_w;       // depthwise: (KH*KW, C) int32, weight minus zero point
  std::vector<int32_t> depthwise_pairs;   // and its kernel-row pairs, QDepthwiseArgs::w_pairs
  std::vector<int32_t> depthwise_pair_sums;  // QDepthwiseArgs::pair_sums
  // The output stage of the last scales and engine it ran with (a model's layer sees the same
  // ones at every call); read and replaced atomically.
  mutable std::shared_ptr<const OutputStage> last_stage;
};
using PackedWeightPtr = std::shared_ptr<PackedWeight>;

PackedWeightPtr pack_linear(const Tensor& weight, const Tensor& bias);
PackedWeightPtr pack_conv2d(const Tensor& weight, const Tensor& bias, const IntList& stride, const IntList& padding,
                            const IntList& dilation, int64_t groups);

// y = x @ W^T + b, requantized to (scale, zero_point); relu fuses a ReLU. x: quint8 (..., K).
Tensor quantized_linear(const Tensor& x, const PackedWeight& w, double scale, int64_t zero_point, bool relu);
// Dynamic quantization: x float32 is quantized per tensor from its min/max (7 bits with
// reduce_range), the result is float32.
Tensor quantized_linear_dynamic(const Tensor& x, const PackedWeight& w, bool reduce_range);
// Conv2d of quint8 NCHW (any memory format); the result is quint8 in channels_last memory.
Tensor quantized_conv2d(const Tensor& x, const PackedWeight& w, double scale, int64_t zero_point, bool relu);
// Conv2d requantized to (conv_scale, conv_zero_point) and then quantized hardswish to (scale,
// zero_point), as one op: the bytes go through hardswish's table while they are in cache.
Tensor quantized_conv2d_hardswish(const Tensor& x, const PackedWeight& w, double conv_scale, int64_t conv_zero_point,
                                  double scale, int64_t zero_point);
// Conv2d requantized to (conv_scale, conv_zero_point) and then quantized::add(residual, conv) to
// (scale, zero_point), as one op: each task adds the residual to its rows while they are in
// cache. residual: quint8 per tensor, of the output's shape.
Tensor quantized_conv2d_add(const Tensor& x, const PackedWeight& w, double conv_scale, int64_t conv_zero_point,
                            const Tensor& residual, double scale, int64_t zero_point);

// fbgemm's choice of (scale, zero_point) for a tensor spanning [min, max] (dynamic quantization).
void choose_qparams(float min, float max, int64_t qmin, int64_t qmax, double* scale, int64_t* zero_point);

}  // namespace tz
