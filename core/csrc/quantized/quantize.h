// Quantized tensors: making them (quantize, from integers), reading them (dequantize,
// int_repr, qparams) and fake quantization for quantization-aware training.
#pragma once
#include "tensor/quantizer.h"

namespace tz {

Tensor quantize_per_tensor(const Tensor& x, double scale, int64_t zero_point, DType dtype);
Tensor quantize_per_channel(const Tensor& x, const Tensor& scales, const Tensor& zero_points, int64_t axis,
                            DType dtype);
// Float32 values of a quantized tensor (a float tensor is returned as float32).
Tensor dequantize(const Tensor& t);
// The stored integers as a new uint8 / int8 / int32 tensor.
Tensor int_repr(const Tensor& t);
// A quantized tensor holding a copy of these integers (uint8 -> quint8, int8 -> qint8, int32 -> qint32).
Tensor make_per_tensor_quantized(const Tensor& ints, double scale, int64_t zero_point);
Tensor make_per_channel_quantized(const Tensor& ints, const Tensor& scales, const Tensor& zero_points, int64_t axis);
// A quantized tensor with new qparams (per tensor) holding the same real values, rounded.
Tensor requantize(const Tensor& q, double scale, int64_t zero_point, DType dtype);

// Fake quantization (float in, float out) and the mask of inputs that were not clamped,
// which is the straight-through gradient.
Tensor fake_quantize_per_tensor(const Tensor& x, double scale, int64_t zero_point, int64_t quant_min,
                                int64_t quant_max, bool mask);
Tensor fake_quantize_per_channel(const Tensor& x, const Tensor& scales, const Tensor& zero_points, int64_t axis,
                                 int64_t quant_min, int64_t quant_max, bool mask);

// Checks shared by the quantized ops.
void check_qparams(double scale, int64_t zero_point, int64_t qmin, int64_t qmax, const char* op);
void check_float_input(const Tensor& x, const char* op);

}  // namespace tz
