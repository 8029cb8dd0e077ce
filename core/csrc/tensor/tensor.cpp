#include "tensor/tensor.h"

#include "tensor/quantizer.h"
#include "tensor/size_math.h"

#include <sstream>

namespace tz {

namespace {
thread_local bool t_inference_tensors = false;
}  // namespace

bool making_inference_tensors() { return t_inference_tensors; }
void set_making_inference_tensors(bool enabled) { t_inference_tensors = enabled; }

TensorImpl::TensorImpl(StoragePtr storage_, Shape sizes_, Shape strides_, int64_t offset_,
                       DType dtype_, std::shared_ptr<VersionCounter> version_)
    : storage(std::move(storage_)), sizes(std::move(sizes_)), strides(std::move(strides_)),
      offset(offset_), dtype(dtype_), contiguous(false), version(std::move(version_)) {
  // The backstop under every view and allocation: no tensor may reach outside its storage.
  const int64_t capacity = storage ? static_cast<int64_t>(storage->nbytes()) / tz::itemsize(dtype) : 0;
  check_geometry(sizes, strides, offset, capacity, "set_storage");
  refresh_contiguous();
}

TensorImpl::~TensorImpl() = default;

void TensorImpl::refresh_contiguous() {
  int64_t expected = 1;
  contiguous = true;
  for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
    if (sizes[d] == 1) continue;
    if (sizes[d] == 0) { contiguous = true; return; }
    if (strides[d] != expected) contiguous = false;
    expected *= sizes[d];
  }
}

int64_t numel_of(const Shape& sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) {
    TZ_CHECK(s >= 0, Runtime, "negative dimension ", s, " in shape ", shape_str(sizes));
    TZ_CHECK(!__builtin_mul_overflow(n, s, &n), Runtime, "shape ", shape_str(sizes),
             " has too many elements (size overflow)");
  }
  return n;
}

Shape contiguous_strides(const Shape& sizes) {
  Shape strides(sizes.size());
  int64_t acc = 1;
  for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
    strides[d] = acc;
    acc *= std::max<int64_t>(sizes[d], 1);
  }
  return strides;
}

int64_t wrap_dim(int64_t dim, int64_t ndim, const char* op) {
  int64_t lo = ndim > 0 ? -ndim : -1, hi = ndim > 0 ? ndim - 1 : 0;
  if (dim < lo || dim > hi)
    fail(ErrorKind::Index, op, "(): dimension out of range (expected to be in range of [", lo,
         ", ", hi, "], but got ", dim, ")");
  return dim < 0 ? dim + std::max<int64_t>(ndim, 1) : dim;
}

std::string shape_str(const Shape& s) {
  std::ostringstream os;
  os << "[";
  for (size_t i = 0; i < s.size(); ++i) os << (i ? ", " : "") << s[i];
  os << "]";
  return os.str();
}

Tensor Tensor::empty(const Shape& sizes, DType dtype) {
  int64_t n = numel_of(sizes);
  int64_t nbytes;
  TZ_CHECK(!__builtin_mul_overflow(n, tz::itemsize(dtype), &nbytes), Runtime,
           "shape ", shape_str(sizes), " is too large to allocate");
  return Tensor(std::make_shared<TensorImpl>(Storage::allocate(static_cast<size_t>(nbytes)), sizes,
                                             contiguous_strides(sizes), 0, dtype,
                                             std::make_shared<VersionCounter>()));
}

Tensor Tensor::view_of(const Tensor& base, Shape sizes, Shape strides, int64_t offset) {
  auto impl = std::make_shared<TensorImpl>(base.storage(), std::move(sizes), std::move(strides), offset,
                                           base.dtype(), base.impl()->version);
  if (base.impl()->quantizer) impl->quantizer = quantizer_for_view(base, impl->sizes, impl->strides);
  return Tensor(std::move(impl));
}

int64_t Tensor::size(int64_t d) const { return impl_->sizes[wrap_dim(d, dim(), "size")]; }
int64_t Tensor::stride(int64_t d) const { return impl_->strides[wrap_dim(d, dim(), "stride")]; }
int64_t Tensor::numel() const {
  int64_t n = 1;
  for (int64_t s : impl_->sizes) n *= s;
  return n;
}

}  // namespace tz
