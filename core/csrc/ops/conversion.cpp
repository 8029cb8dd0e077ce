#include "ops/conversion.h"

#include <algorithm>
#include <cstring>
#include <numeric>

#include "iter/tensor_iter.h"
#include "kernels/copy.h"
#include "quantized/quantize.h"
#include "tensor/scalar_range.h"

namespace tz {

namespace {

// Elements cover one dense block without aliasing, in some order of the dims.
bool non_overlapping_and_dense(const Tensor& t) {
  if (t.is_contiguous()) return true;
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < t.dim(); ++d)
    if (t.sizes()[d] != 1) dims.push_back(d);
  std::sort(dims.begin(), dims.end(), [&](int64_t a, int64_t b) { return t.strides()[a] < t.strides()[b]; });
  int64_t expected = 1;
  for (int64_t d : dims) {
    if (t.strides()[d] != expected) return false;
    expected *= t.sizes()[d];
  }
  return true;
}

// Writing through a stride-0 dim would store several results into one element.
void check_no_internal_overlap(const Tensor& t) {
  if (non_overlapping_and_dense(t)) return;
  for (int64_t d = 0; d < t.dim(); ++d)
    TZ_CHECK(!(t.sizes()[d] > 1 && t.strides()[d] == 0), Runtime,
             "copy_(): unsupported operation: more than one element of the written-to tensor refers "
             "to a single memory location. Please clone() the tensor before performing the operation.");
}

enum class Overlap { None, Same, Full, Partial };

// How src's memory relates to dst's (PyTorch's rule: only dense tensors are judged).
Overlap overlap(const Tensor& dst, const Tensor& src) {
  if (dst.storage() != src.storage() || dst.numel() == 0 || src.numel() == 0) return Overlap::None;
  if (dst.raw_data() == src.raw_data() && dst.sizes() == src.sizes() &&
      dst.strides() == src.strides() && dst.dtype() == src.dtype())
    return Overlap::Same;
  if (!non_overlapping_and_dense(dst) || !non_overlapping_and_dense(src)) return Overlap::None;
  const char* d0 = static_cast<const char*>(dst.raw_data());
  const char* s0 = static_cast<const char*>(src.raw_data());
  const char* d1 = d0 + dst.numel() * dst.itemsize();
  const char* s1 = s0 + src.numel() * src.itemsize();
  if (d0 == s0 && d1 == s1) return Overlap::Full;
  return d0 < s1 && s0 < d1 ? Overlap::Partial : Overlap::None;
}

}  // namespace

// Quantized tensors: between two of one dtype the integers are copied and dst takes src's
// quantizer (as in PyTorch); float values are quantized with dst's per-tensor qparams.
const Tensor& copy_quantized_(const Tensor& dst, const Tensor& src) {
  TZ_CHECK(is_quantized(dst.dtype()), Runtime,
           "copy_(): copying from a quantized tensor to a ", dtype_name(dst.dtype()),
           " tensor is not allowed; use dequantize() to get its float values");
  if (is_quantized(src.dtype())) {
    TZ_CHECK(dst.dtype() == src.dtype(), Runtime, "copy_(): quantized copy needs one dtype, got ",
             dtype_name(src.dtype()), " into ", dtype_name(dst.dtype()));
    const Quantizer& q = quantizer_of(src, "copy_");
    copy_(int_view(dst), int_view(src));
    dst.impl()->quantizer = std::make_shared<Quantizer>(q);
    return dst;
  }
  const Quantizer& q = quantizer_of(dst, "copy_");
  TZ_CHECK(!q.per_channel(), NotImplemented, "copy_(): quantizing into a per-channel quantized tensor is not supported");
  Tensor values = contiguous(to_dtype(src, DType::Float32, false), MemoryFormat::Contiguous);
  copy_(int_view(dst), int_view(quantize_per_tensor(values, q.scale, q.zero_point, dst.dtype())));
  return dst;
}

const Tensor& copy_(const Tensor& dst, const Tensor& src) {
  if (is_quantized(dst.dtype()) || is_quantized(src.dtype())) return copy_quantized_(dst, src);
  Shape bs = broadcast_shapes(dst.sizes(), src.sizes(), "copy_");
  TZ_CHECK(bs == dst.sizes(), Runtime, "copy_(): the source of shape ", shape_str(src.sizes()),
           " cannot be broadcast to the destination shape ", shape_str(dst.sizes()));
  if (dst.numel() == 0) return dst;
  check_no_internal_overlap(dst);
  Overlap ov = overlap(dst, src);
  TZ_CHECK(ov != Overlap::Partial, Runtime,
           "copy_(): unsupported operation: some elements of the input tensor and the written-to "
           "tensor refer to a single memory location. Please clone() the tensor before performing "
           "the operation.");
  if (ov == Overlap::Same) {
    dst.bump_version();
    return dst;
  }
  // Same memory in another element order (a.copy_(a.t())): read from a snapshot.
  Tensor source = ov == Overlap::Full ? clone(src) : src;
  if (dst.dtype() == source.dtype() && dst.is_contiguous() && source.is_contiguous() &&
      dst.sizes() == source.sizes()) {
    std::memmove(dst.raw_data(), source.raw_data(), dst.numel() * dst.itemsize());
  } else {
    TensorIter iter({dst, source}, dst.sizes());
    copy_stub(iter, dst.dtype(), source.dtype());
  }
  dst.bump_version();
  return dst;
}

namespace {

Tensor copy_in_format(const Tensor& t, MemoryFormat format, const char* op) {
  Tensor out = format == MemoryFormat::Preserve ? empty_in_layout_of(t.sizes(), t.dtype(), t)
                                                : empty_with_format(t.sizes(), t.dtype(), format, op);
  copy_(out, t);
  out.impl()->version->version = 0;
  return out;
}

}  // namespace

Tensor clone(const Tensor& t, MemoryFormat format) { return copy_in_format(t, format, "clone"); }

Tensor contiguous(const Tensor& t, MemoryFormat format) {
  return is_contiguous_as(t, format) ? t : copy_in_format(t, format, "contiguous");
}

Tensor to_dtype(const Tensor& t, DType dtype, bool copy) {
  if (t.dtype() == dtype && !copy) return t;
  Tensor out = empty_in_layout_of(t.sizes(), dtype, t);
  copy_(out, t);
  out.impl()->version->version = 0;
  return out;
}

void check_cpu_device(const std::string& device, const char* op) {
  size_t colon = device.find(':');
  std::string type = device.substr(0, colon);
  if (type == "cpu") {
    std::string index = colon == std::string::npos ? "0" : device.substr(colon + 1);
    TZ_CHECK(!index.empty() && index.size() < 10 &&
                 std::all_of(index.begin(), index.end(), [](char c) { return c >= '0' && c <= '9'; }),
             Runtime, op, "(): invalid device string: '", device, "'");
    return;
  }
  static const char* const kOtherDevices[] = {"cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl",
                                              "ideep", "hip", "ve", "fpga", "maia", "xla", "lazy",
                                              "vulkan", "mps", "meta", "hpu", "mtia", "privateuseone"};
  for (const char* other : kOtherDevices)
    TZ_CHECK(type != other, Runtime, op, "(): device '", device,
             "' is not available: tensorzoo core runs on the CPU only");
  fail(ErrorKind::Runtime, op, "(): expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, "
       "hip, ve, fpga, maia, xla, lazy, vulkan, mps, meta, hpu, mtia, privateuseone device type at "
       "start of device string: ", device);
}

Tensor to_device(const Tensor& t, const std::optional<std::string>& device,
                 std::optional<DType> dtype, bool copy) {
  if (device) check_cpu_device(*device, "to");
  return to_dtype(t, dtype.value_or(t.dtype()), copy);
}

Tensor scalar_to_tensor(const Scalar& s, std::optional<DType> dtype) {
  if (dtype) check_scalar_fits(s, *dtype);  // a fill value, bound or alpha meeting a tensor's dtype
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
    case DType::Complex128: out = Scalar(*t.data<complex128>()); break;
    default:
      TZ_DISPATCH_REAL(t.dtype(), "item", [&] { out = Scalar(static_cast<int64_t>(*t.data<scalar_t>())); });
  }
  return out;
}

namespace {
// Indexed by DType.
constexpr const char* kTypeNames[kNumDTypes] = {
    "BoolTensor", "ByteTensor", "CharTensor", "ShortTensor", "IntTensor", "LongTensor",
    "HalfTensor", "BFloat16Tensor", "FloatTensor", "DoubleTensor", "ComplexFloatTensor", "ComplexDoubleTensor",
    "QUInt8Tensor", "QInt8Tensor", "QInt32Tensor"};
}  // namespace

std::string tensor_type_name(DType t) { return std::string("core.") + kTypeNames[static_cast<int>(t)]; }

DType dtype_from_type_name(const std::string& name) {
  // PyTorch code spells these "torch.FloatTensor"; both prefixes name the same types.
  for (const char* prefix : {"core.", "torch."}) {
    const size_t n = std::strlen(prefix);
    if (name.compare(0, n, prefix) != 0) continue;
    for (int i = 0; i < kNumDTypes; ++i)
      if (name.compare(n, std::string::npos, kTypeNames[i]) == 0) return static_cast<DType>(i);
  }
  fail(ErrorKind::Value, "type(): invalid type: '", name, "'");
}

}  // namespace tz
