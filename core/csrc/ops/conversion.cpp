#include "ops/conversion.h"

#include <cstring>

#include "iter/tensor_iter.h"
#include "kernels/copy.h"

namespace tz {

const Tensor& copy_(const Tensor& dst, const Tensor& src) {
  TZ_CHECK(!is_quantized(dst.dtype()) && !is_quantized(src.dtype()), NotImplemented,
           "copy_(): copying between quantized tensors is not supported here; use dequantize()");
  Shape bs = broadcast_shapes(dst.sizes(), src.sizes(), "copy_");
  TZ_CHECK(bs == dst.sizes(), Runtime, "copy_(): the source of shape ", shape_str(src.sizes()),
           " cannot be broadcast to the destination shape ", shape_str(dst.sizes()));
  if (dst.numel() == 0) return dst;
  if (dst.dtype() == src.dtype() && dst.is_contiguous() && src.is_contiguous() &&
      dst.sizes() == src.sizes()) {
    std::memmove(dst.raw_data(), src.raw_data(), dst.numel() * dst.itemsize());
  } else {
    TensorIter iter({dst, src}, dst.sizes());
    copy_stub(iter, dst.dtype(), src.dtype());
  }
  dst.bump_version();
  return dst;
}

Tensor clone(const Tensor& t) {
  Tensor out = Tensor::empty(t.sizes(), t.dtype());
  copy_(out, t);
  out.impl()->version->version = 0;
  return out;
}

Tensor contiguous(const Tensor& t) { return t.is_contiguous() ? t : clone(t); }

Tensor to_dtype(const Tensor& t, DType dtype, bool copy) {
  if (t.dtype() == dtype && !copy) return t;
  Tensor out = Tensor::empty(t.sizes(), dtype);
  copy_(out, t);
  out.impl()->version->version = 0;
  return out;
}

Tensor scalar_to_tensor(const Scalar& s, std::optional<DType> dtype) {
  DType natural = s.is_floating() ? DType::Float64 : s.natural_dtype();
  Tensor t = Tensor::empty({}, dtype.value_or(natural));
  TZ_DISPATCH_ALL(t.dtype(), "scalar_to_tensor", [&] { *t.data<scalar_t>() = s.to<scalar_t>(); });
  t.impl()->wrapped_number = !dtype.has_value();
  return t;
}

Scalar item(const Tensor& t) {
  TZ_CHECK(t.numel() == 1, Runtime, "item(): a Tensor with ", t.numel(),
           " elements cannot be converted to Scalar");
  Scalar out;
  switch (t.dtype()) {
    case DType::Bool: out = Scalar(*t.data<bool>()); break;
    case DType::Float16: case DType::BFloat16: case DType::Float32: case DType::Float64:
      out = Scalar(*to_dtype(t, DType::Float64).data<double>());
      break;
    case DType::Complex64: out = Scalar(*t.data<complex64>()); break;
    default:
      TZ_DISPATCH_REAL(t.dtype(), "item", [&] { out = Scalar(static_cast<int64_t>(*t.data<scalar_t>())); });
  }
  return out;
}

}  // namespace tz
