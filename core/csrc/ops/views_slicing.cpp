// Views of part of one dim: slice, narrow, select, and the splitting ops built on them.
#include <algorithm>

#include "ops/views.h"

namespace tz {

Tensor slice(const Tensor& t, int64_t dim, int64_t start, int64_t stop, int64_t step) {
  TZ_CHECK(t.dim() > 0, Index, "slice(): slice() cannot be applied to a 0-dim tensor.");
  TZ_CHECK(step > 0, Value, "slice(): step must be greater than zero");
  int64_t d = wrap_dim(dim, t.dim(), "slice");
  const int64_t n = t.sizes()[d];
  // Python's clamping: negative bounds count from the end, then both clamp to [0, n].
  auto clamp = [n](int64_t i) { return std::min(std::max(i < 0 ? i + n : i, int64_t(0)), n); };
  start = clamp(start);
  stop = std::max(clamp(stop), start);
  Shape sizes = t.sizes(), strides = t.strides();
  int64_t offset = t.offset() + start * strides[d];
  sizes[d] = (stop - start + step - 1) / step;
  strides[d] *= step;
  return Tensor::view_of(t, sizes, strides, offset);
}

Tensor narrow(const Tensor& t, int64_t dim, int64_t start, int64_t length) {
  TZ_CHECK(t.dim() > 0, Runtime, "narrow(): narrow() cannot be applied to a 0-dim tensor.");
  int64_t d = wrap_dim(dim, t.dim(), "narrow");
  const int64_t n = t.sizes()[d];
  TZ_CHECK(start >= -n && start <= n, Index, "narrow(): start out of range (expected to be in range of [",
           -n, ", ", n, "], but got ", start, ")");
  if (start < 0) start += n;
  TZ_CHECK(length >= 0, Runtime, "narrow(): length must be non-negative.");
  TZ_CHECK(start <= n - length, Runtime, "narrow(): start (", start, ") + length (", length,
           ") exceeds dimension size (", n, ").");
  Shape sizes = t.sizes();
  sizes[d] = length;
  return Tensor::view_of(t, sizes, t.strides(), t.offset() + start * t.strides()[d]);
}

Tensor select(const Tensor& t, int64_t dim, int64_t index) {
  TZ_CHECK(t.dim() > 0, Index, "select(): select() cannot be applied to a 0-dim tensor.");
  int64_t d = wrap_dim(dim, t.dim(), "select");
  const int64_t n = t.sizes()[d];
  TZ_CHECK(index >= -n && index < n, Index, "select(): index ", index, " out of range for tensor of size ",
           shape_str(t.sizes()), " at dimension ", d);
  if (index < 0) index += n;
  Shape sizes = t.sizes(), strides = t.strides();
  int64_t offset = t.offset() + index * strides[d];
  sizes.erase(sizes.begin() + d);
  strides.erase(strides.begin() + d);
  return Tensor::view_of(t, sizes, strides, offset);
}

TensorList unbind(const Tensor& t, int64_t dim) {
  TZ_CHECK(t.dim() > 0, Index, "unbind(): Dimension specified as ", dim, " but tensor has no dimensions");
  int64_t d = wrap_dim(dim, t.dim(), "unbind");
  TensorList out;
  out.reserve(t.sizes()[d]);
  for (int64_t i = 0; i < t.sizes()[d]; ++i) out.push_back(select(t, d, i));
  return out;
}

TensorList split_with_sizes(const Tensor& t, const IntList& split_sizes, int64_t dim) {
  TZ_CHECK(t.dim() > 0, Runtime, "split_with_sizes(): split expects at least a 1-dimensional tensor");
  int64_t d = wrap_dim(dim, t.dim(), "split_with_sizes");
  int64_t total = 0;
  for (int64_t s : split_sizes) {
    TZ_CHECK(s >= 0, Runtime, "split_with_sizes(): split_with_sizes expects split_sizes have only "
             "non-negative entries, but got split_sizes=", shape_str(split_sizes));
    total += s;
  }
  TZ_CHECK(total == t.sizes()[d], Runtime, "split_with_sizes(): split_with_sizes expects split_sizes to "
           "sum exactly to ", t.sizes()[d], " (input tensor's size at dimension ", d,
           "), but got split_sizes=", shape_str(split_sizes));
  TensorList out;
  out.reserve(split_sizes.size());
  int64_t start = 0;
  for (int64_t s : split_sizes) {
    out.push_back(narrow(t, d, start, s));
    start += s;
  }
  return out;
}

TensorList split(const Tensor& t, int64_t split_size, int64_t dim) {
  TZ_CHECK(t.dim() > 0, Runtime, "split(): split expects at least a 1-dimensional tensor");
  TZ_CHECK(split_size >= 0, Runtime, "split(): split expects split_size be non-negative, but got split_size=", split_size);
  int64_t d = wrap_dim(dim, t.dim(), "split");
  const int64_t n = t.sizes()[d];
  TZ_CHECK(split_size > 0 || n == 0, Runtime, "split(): split_size can only be 0 if dimension size is 0, "
           "but got dimension size of ", n);
  int64_t pieces = split_size == 0 ? 1 : std::max<int64_t>((n + split_size - 1) / split_size, 1);
  IntList sizes(pieces, split_size);
  sizes.back() = n - split_size * (pieces - 1);  // the last piece takes the remainder
  return split_with_sizes(t, sizes, d);
}

TensorList chunk(const Tensor& t, int64_t chunks, int64_t dim) {
  TZ_CHECK(t.dim() > 0, Runtime, "chunk(): chunk expects at least a 1-dimensional tensor");
  TZ_CHECK(chunks > 0, Runtime, "chunk(): chunk expects `chunks` to be greater than 0, got: ", chunks);
  int64_t d = wrap_dim(dim, t.dim(), "chunk");
  const int64_t n = t.sizes()[d];
  // Chunks of ceil(n / chunks) elements, so there may be fewer than `chunks` of them.
  int64_t split_size = (n + chunks - 1) / chunks;
  if (split_size == 0 && n == 0) return split_with_sizes(t, IntList(chunks, 0), d);
  return split(t, split_size, d);
}

TensorList tensor_split(const Tensor& t, int64_t sections, int64_t dim) {
  TZ_CHECK(t.dim() > 0, Runtime, "tensor_split(): tensor_split expected at least a 1-dimensional tensor, "
           "but got a tensor with 0 dims");
  TZ_CHECK(sections > 0, Runtime, "tensor_split(): number of sections must be larger than 0, got ", sections);
  int64_t d = wrap_dim(dim, t.dim(), "tensor_split");
  const int64_t n = t.sizes()[d];
  // The first n % sections pieces get one extra element.
  int64_t base = n / sections, extra = n % sections;
  TensorList out;
  out.reserve(sections);
  int64_t start = 0;
  for (int64_t i = 0; i < sections; ++i) {
    int64_t len = base + (i < extra ? 1 : 0);
    out.push_back(slice(t, d, start, start + len));
    start += len;
  }
  return out;
}

TensorList tensor_split(const Tensor& t, const IntList& indices, int64_t dim) {
  TZ_CHECK(t.dim() > 0, Runtime, "tensor_split(): tensor_split expected at least a 1-dimensional tensor, "
           "but got a tensor with 0 dims");
  int64_t d = wrap_dim(dim, t.dim(), "tensor_split");
  TensorList out;
  out.reserve(indices.size() + 1);
  int64_t start = 0;
  for (int64_t stop : indices) {
    out.push_back(slice(t, d, start, stop));
    start = stop;
  }
  out.push_back(slice(t, d, start, t.sizes()[d]));
  return out;
}

Tensor unfold(const Tensor& t, int64_t dim, int64_t size, int64_t step) {
  int64_t d = wrap_dim(dim, t.dim(), "unfold");
  const int64_t n = t.dim() == 0 ? 1 : t.sizes()[d];
  TZ_CHECK(size <= n, Runtime, "unfold(): maximum size for tensor at dimension ", d, " is ", n,
           " but size is ", size);
  TZ_CHECK(size >= 0, Runtime, "unfold(): size is ", size, " but must be >= 0");
  TZ_CHECK(step > 0, Runtime, "unfold(): step is ", step, " but must be > 0");
  Shape sizes = t.sizes(), strides = t.strides();
  if (t.dim() == 0) return Tensor::view_of(t, {size}, {1}, t.offset());
  int64_t inner = strides[d];
  sizes[d] = (n - size) / step + 1;
  strides[d] *= step;
  sizes.push_back(size);
  strides.push_back(inner);
  return Tensor::view_of(t, sizes, strides, t.offset());
}

}  // namespace tz
