#include "ops/joining_util.h"

#include <cstring>

#include "iter/tensor_iter.h"
#include "kernels/copy.h"

namespace tz::joining {

namespace {
constexpr int64_t kMemcpyGrain = 1 << 18;  // bytes per parallel chunk: ~L2-sized pieces
}

void parallel_memcpy(void* dst, const void* src, int64_t nbytes) {
  if (nbytes <= 0) return;
  char* d = static_cast<char*>(dst);
  const char* s = static_cast<const char*>(src);
  if (nbytes < 2 * kMemcpyGrain) {
    std::memcpy(d, s, nbytes);
    return;
  }
  parallel_for(0, nbytes, kMemcpyGrain, [&](int64_t b, int64_t e) { std::memcpy(d + b, s + b, e - b); });
}

void copy_into(const Tensor& dst, const Tensor& src) {
  if (dst.numel() == 0) return;
  if (dst.dtype() == src.dtype() && dst.is_contiguous() && src.is_contiguous() &&
      dst.sizes() == src.sizes()) {
    parallel_memcpy(dst.raw_data(), src.raw_data(), dst.numel() * dst.itemsize());
    return;
  }
  TensorIter iter({dst, src}, dst.sizes());
  copy_stub(iter, dst.dtype(), src.dtype());
}

Tensor slice_dim(const Tensor& t, int64_t dim, int64_t start, int64_t length, int64_t step) {
  Shape sizes = t.sizes(), strides = t.strides();
  int64_t offset = t.offset() + (length > 0 ? start * strides[dim] : 0);
  sizes[dim] = length;
  strides[dim] *= step;
  return Tensor::view_of(t, std::move(sizes), std::move(strides), offset);
}

Tensor unsqueeze_view(const Tensor& t, int64_t dim) {
  Shape sizes = t.sizes(), strides = t.strides();
  int64_t stride = dim < t.dim() ? sizes[dim] * strides[dim] : 1;
  sizes.insert(sizes.begin() + dim, 1);
  strides.insert(strides.begin() + dim, stride);
  return Tensor::view_of(t, std::move(sizes), std::move(strides), t.offset());
}

int64_t prod_range(const Shape& sizes, int64_t begin, int64_t end) {
  int64_t p = 1;
  for (int64_t i = begin; i < end; ++i) p *= sizes[i];
  return p;
}

}  // namespace tz::joining
