// The quantizer of a quantized tensor (TensorImpl::quantizer): how its stored integers map
// to real values. Per tensor: real = (q - zero_point) * scale. Per channel: the same with
// scales[c] / zero_points[c] for index c along `axis`; with float qparams
// (per_channel_affine_float_qparams, embedding weights) zero_points are float32 offsets in
// the integer domain: real = (q - zero_points[c]) * scales[c].
#pragma once
#include <cstdint>

#include "tensor/tensor.h"

namespace tz {

// torch.qscheme, in PyTorch's numbering. Tensors carry the affine kinds only; the symmetric
// ones name observer choices.
enum class QScheme : int8_t {
  PerTensorAffine = 0,
  PerChannelAffine = 1,
  PerTensorSymmetric = 2,
  PerChannelSymmetric = 3,
  PerChannelAffineFloatQParams = 4,
};
const char* qscheme_name(QScheme s);  // "per_tensor_affine", ...

struct Quantizer {
  QScheme scheme = QScheme::PerTensorAffine;
  double scale = 1.0;       // per tensor
  int64_t zero_point = 0;   // per tensor
  Tensor scales;            // per channel: (C,) float64, or float32 with float qparams
  Tensor zero_points;       // per channel: (C,) int64, or float32 with float qparams
  int64_t axis = 0;         // per channel

  bool per_channel() const { return scheme != QScheme::PerTensorAffine; }
};
using QuantizerPtr = std::shared_ptr<Quantizer>;

// The range of a quantized dtype's stored integers.
int64_t quant_min_of(DType t);
int64_t quant_max_of(DType t);
// The integer dtype a quantized dtype stores (quint8 -> uint8, ...), and the reverse.
DType storage_dtype_of(DType quantized);
DType quantized_dtype_of(DType storage, const char* op);

// The quantizer of `t`; a clear error naming `op` if t is not a quantized tensor.
const Quantizer& quantizer_of(const Tensor& t, const char* op);
// A view of t's memory as its integer storage type (no quantizer), sharing the version counter.
Tensor int_view(const Tensor& t);
// A new quantized tensor of this shape (contiguous, or NHWC when channels_last) and quantizer.
Tensor empty_quantized(const Shape& sizes, DType dtype, QuantizerPtr q, bool channels_last = false);
QuantizerPtr per_tensor_quantizer(double scale, int64_t zero_point);
// The quantizer of a view of `base` with these sizes and strides: per-tensor ones are
// shared; per-channel ones follow the channel dim, which the view must keep whole.
QuantizerPtr quantizer_for_view(const Tensor& base, const Shape& sizes, const Shape& strides);

}  // namespace tz
