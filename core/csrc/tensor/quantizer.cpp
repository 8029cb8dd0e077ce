#include "tensor/quantizer.h"

namespace tz {

const char* qscheme_name(QScheme s) {
  static constexpr const char* names[] = {"per_tensor_affine", "per_channel_affine", "per_tensor_symmetric",
                                          "per_channel_symmetric", "per_channel_affine_float_qparams"};
  return names[static_cast<int>(s)];
}

int64_t quant_min_of(DType t) {
  switch (t) {
    case DType::QUInt8: return 0;
    case DType::QInt8: return -128;
    case DType::QInt32: return INT32_MIN;
    default: fail(ErrorKind::Type, "quantization: ", dtype_name(t), " is not a quantized dtype");
  }
}

int64_t quant_max_of(DType t) {
  switch (t) {
    case DType::QUInt8: return 255;
    case DType::QInt8: return 127;
    case DType::QInt32: return INT32_MAX;
    default: fail(ErrorKind::Type, "quantization: ", dtype_name(t), " is not a quantized dtype");
  }
}

DType storage_dtype_of(DType quantized) {
  switch (quantized) {
    case DType::QUInt8: return DType::UInt8;
    case DType::QInt8: return DType::Int8;
    case DType::QInt32: return DType::Int32;
    default: return quantized;
  }
}

DType quantized_dtype_of(DType storage, const char* op) {
  switch (storage) {
    case DType::UInt8: return DType::QUInt8;
    case DType::Int8: return DType::QInt8;
    case DType::Int32: return DType::QInt32;
    default:
      fail(ErrorKind::Type, op, "(): the integer representation must be uint8, int8 or int32, got ",
           dtype_name(storage));
  }
}

const Quantizer& quantizer_of(const Tensor& t, const char* op) {
  TZ_CHECK(t.defined() && is_quantized(t.dtype()) && t.impl()->quantizer, Type, op,
           "(): expected a quantized tensor, got ", t.defined() ? dtype_name(t.dtype()) : "None",
           is_quantized(t.dtype()) ? " without quantization parameters (made by empty(); use quantize_per_tensor)" : "");
  return *t.impl()->quantizer;
}

Tensor int_view(const Tensor& t) {
  return Tensor(std::make_shared<TensorImpl>(t.storage(), t.sizes(), t.strides(), t.offset(),
                                             storage_dtype_of(t.dtype()), t.impl()->version));
}

Tensor empty_quantized(const Shape& sizes, DType dtype, QuantizerPtr q, bool channels_last) {
  Tensor out = Tensor::empty(sizes, dtype);
  if (channels_last && sizes.size() == 4) {
    const int64_t C = sizes[1], H = sizes[2], W = sizes[3];
    out.impl()->strides = {H * W * C, 1, W * C, C};
    out.impl()->refresh_contiguous();
  }
  out.impl()->quantizer = std::move(q);
  return out;
}

QuantizerPtr per_tensor_quantizer(double scale, int64_t zero_point) {
  auto q = std::make_shared<Quantizer>();
  q->scale = scale;
  q->zero_point = zero_point;
  return q;
}

QuantizerPtr quantizer_for_view(const Tensor& base, const Shape& sizes, const Shape& strides) {
  const QuantizerPtr& q = base.impl()->quantizer;
  if (!q || !q->per_channel()) return q;
  const int64_t size = base.sizes()[q->axis], stride = base.strides()[q->axis];
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (sizes[d] == size && (strides[d] == stride || size == 1)) {
      if (static_cast<int64_t>(d) == q->axis) return q;
      auto moved = std::make_shared<Quantizer>(*q);
      moved->axis = static_cast<int64_t>(d);
      return moved;
    }
  }
  fail(ErrorKind::NotImplemented, "view of a per-channel quantized tensor: the view must keep the channel dim (",
       q->axis, ", size ", size, ") whole; dequantize() first");
}

}  // namespace tz
