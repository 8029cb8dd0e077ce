#include "ops/views.h"

#include <algorithm>

#include "ops/conversion.h"

namespace tz {

Shape infer_size(const IntList& size, int64_t numel, const char* op) {
  Shape out(size.begin(), size.end());
  int64_t known = 1, infer = -1;
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i] == -1) {
      TZ_CHECK(infer < 0, Runtime, op, "(): only one dimension can be inferred");
      infer = static_cast<int64_t>(i);
    } else {
      TZ_CHECK(out[i] >= 0, Runtime, op, "(): invalid shape dimension ", out[i]);
      known *= out[i];
    }
  }
  if (infer >= 0) {
    TZ_CHECK(known != 0 && numel % known == 0, Runtime, op, "(): shape '", shape_str(out),
             "' is invalid for input of size ", numel);
    out[infer] = numel / known;
  }
  TZ_CHECK(numel_of(out) == numel, Runtime, op, "(): shape '", shape_str(out),
           "' is invalid for input of size ", numel);
  return out;
}

namespace {
// Strides for viewing `t` as `shape` without copying, if possible (PyTorch's computeStride).
std::optional<Shape> view_strides(const Tensor& t, const Shape& shape) {
  if (t.numel() == 0 || t.dim() == 0) return contiguous_strides(shape);
  const Shape& old_sizes = t.sizes();
  const Shape& old_strides = t.strides();
  Shape new_strides(shape.size());
  int64_t view_d = static_cast<int64_t>(shape.size()) - 1;
  int64_t chunk_base_stride = old_strides.empty() ? 1 : old_strides.back();
  int64_t tensor_numel = 1, view_numel = 1;
  for (int64_t d = static_cast<int64_t>(old_sizes.size()) - 1; d >= 0; --d) {
    tensor_numel *= old_sizes[d];
    if (d == 0 || (old_sizes[d - 1] != 1 && old_strides[d - 1] != tensor_numel * chunk_base_stride)) {
      while (view_d >= 0 && (view_numel < tensor_numel || shape[view_d] == 1)) {
        new_strides[view_d] = view_numel * chunk_base_stride;
        view_numel *= shape[view_d];
        view_d--;
      }
      if (view_numel != tensor_numel) return std::nullopt;
      if (d > 0) {
        chunk_base_stride = old_strides[d - 1];
        tensor_numel = 1;
        view_numel = 1;
      }
    }
  }
  if (view_d != -1) return std::nullopt;
  return new_strides;
}
}  // namespace

Tensor view(const Tensor& t, const IntList& size) {
  Shape shape = infer_size(size, t.numel(), "view");
  auto strides = view_strides(t, shape);
  TZ_CHECK(strides.has_value(), Runtime,
           "view(): view size is not compatible with input tensor's size and stride (at least one "
           "dimension spans across two contiguous subspaces). Use .reshape(...) instead.");
  return Tensor::view_of(t, shape, *strides, t.offset());
}

Tensor reshape(const Tensor& t, const IntList& size) {
  Shape shape = infer_size(size, t.numel(), "reshape");
  if (auto strides = view_strides(t, shape)) return Tensor::view_of(t, shape, *strides, t.offset());
  return view(clone(t), IntList(shape.begin(), shape.end()));
}

Tensor permute(const Tensor& t, const IntList& dims) {
  int64_t n = t.dim();
  TZ_CHECK(static_cast<int64_t>(dims.size()) == n, Runtime, "permute(): number of dims don't match "
           "in permute (got ", dims.size(), " dims for a tensor of ", n, " dims)");
  Shape sizes(n), strides(n);
  std::vector<bool> seen(n, false);
  for (int64_t i = 0; i < n; ++i) {
    int64_t d = wrap_dim(dims[i], n, "permute");
    TZ_CHECK(!seen[d], Runtime, "permute(): repeated dim ", dims[i]);
    seen[d] = true;
    sizes[i] = t.sizes()[d];
    strides[i] = t.strides()[d];
  }
  return Tensor::view_of(t, sizes, strides, t.offset());
}

Tensor transpose(const Tensor& t, int64_t dim0, int64_t dim1) {
  int64_t n = t.dim();
  int64_t a = wrap_dim(dim0, n, "transpose"), b = wrap_dim(dim1, n, "transpose");
  Shape sizes = t.sizes(), strides = t.strides();
  if (n > 0) {
    std::swap(sizes[a], sizes[b]);
    std::swap(strides[a], strides[b]);
  }
  return Tensor::view_of(t, sizes, strides, t.offset());
}

Tensor expand(const Tensor& t, const IntList& size) {
  int64_t n = static_cast<int64_t>(size.size());
  TZ_CHECK(n >= t.dim(), Runtime, "expand(): the number of sizes provided (", n,
           ") must be greater or equal to the number of dimensions in the tensor (", t.dim(), ")");
  Shape sizes(n), strides(n);
  for (int64_t i = n - 1; i >= 0; --i) {
    int64_t j = i - (n - t.dim());
    int64_t want = size[i];
    if (j < 0) {
      TZ_CHECK(want >= 0, Runtime, "expand(): the expanded size of the tensor (", want,
               ") isn't allowed in a leading, non-existing dimension ", i);
      sizes[i] = want;
      strides[i] = 0;
      continue;
    }
    int64_t have = t.sizes()[j];
    if (want == -1) want = have;
    TZ_CHECK(have == want || have == 1, Runtime, "expand(): the expanded size of the tensor (", want,
             ") must match the existing size (", have, ") at non-singleton dimension ", i,
             ".  Target sizes: ", shape_str(Shape(size.begin(), size.end())),
             ".  Tensor sizes: ", shape_str(t.sizes()));
    sizes[i] = want;
    strides[i] = have == want ? t.strides()[j] : 0;
  }
  return Tensor::view_of(t, sizes, strides, t.offset());
}

Tensor as_strided(const Tensor& t, const IntList& size, const IntList& stride,
                  std::optional<int64_t> storage_offset) {
  TZ_CHECK(size.size() == stride.size(), Runtime, "as_strided(): mismatch in length of strides and shape");
  int64_t offset = storage_offset.value_or(t.offset());
  TZ_CHECK(offset >= 0, Runtime, "as_strided(): negative storage offset ", offset);
  int64_t max_index = offset;
  for (size_t i = 0; i < size.size(); ++i) {
    TZ_CHECK(size[i] >= 0, Runtime, "as_strided(): negative size ", size[i]);
    TZ_CHECK(stride[i] >= 0, Runtime, "as_strided(): negative strides are not supported");
    if (size[i] == 0) max_index = -1;
    if (max_index >= 0) max_index += (size[i] - 1) * stride[i];
  }
  int64_t capacity = static_cast<int64_t>(t.storage()->nbytes()) / t.itemsize();
  TZ_CHECK(max_index < capacity, Runtime, "as_strided(): setStorage: sizes ",
           shape_str(Shape(size.begin(), size.end())), ", strides ",
           shape_str(Shape(stride.begin(), stride.end())), " and storage offset ", offset,
           " require a storage of at least ", max_index + 1, " elements, but it has ", capacity);
  return Tensor::view_of(t, Shape(size.begin(), size.end()), Shape(stride.begin(), stride.end()), offset);
}

}  // namespace tz
