#include "ops/views.h"

#include <algorithm>

#include "ops/conversion.h"
#include "tensor/size_math.h"

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
  return view(clone(t, MemoryFormat::Contiguous), IntList(shape.begin(), shape.end()));
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
  strided_extent(sizes, strides, "expand");  // the element count must fit in int64
  return Tensor::view_of(t, sizes, strides, t.offset());
}

Tensor as_strided(const Tensor& t, const IntList& size, const IntList& stride,
                  std::optional<int64_t> storage_offset) {
  TZ_CHECK(size.size() == stride.size(), Runtime, "as_strided(): mismatch in length of strides and shape");
  int64_t offset = storage_offset.value_or(t.offset());
  TZ_CHECK(offset >= 0, Runtime, "as_strided(): negative storage offset ", offset);
  for (int64_t st : stride)
    TZ_CHECK(st >= 0, Runtime, "as_strided(): negative strides are not supported");
  const int64_t capacity = static_cast<int64_t>(t.storage()->nbytes()) / t.itemsize();
  check_geometry(size, stride, offset, capacity, "as_strided");
  return Tensor::view_of(t, Shape(size.begin(), size.end()), Shape(stride.begin(), stride.end()), offset);
}

}  // namespace tz

namespace tz {

Tensor view_with_dtype(const Tensor& base, Shape sizes, Shape strides, int64_t offset, DType dtype) {
  return Tensor(std::make_shared<TensorImpl>(base.storage(), std::move(sizes), std::move(strides),
                                             offset, dtype, base.impl()->version));
}

Tensor alias(const Tensor& t) { return Tensor::view_of(t, t.sizes(), t.strides(), t.offset()); }

Tensor view_as(const Tensor& t, const Tensor& other) {
  return view(t, IntList(other.sizes().begin(), other.sizes().end()));
}

Tensor reshape_as(const Tensor& t, const Tensor& other) {
  return reshape(t, IntList(other.sizes().begin(), other.sizes().end()));
}

Tensor expand_as(const Tensor& t, const Tensor& other) {
  return expand(t, IntList(other.sizes().begin(), other.sizes().end()));
}

Tensor matrix_t(const Tensor& t) {
  TZ_CHECK(t.dim() <= 2, Runtime, "t(): t() expects a tensor with <= 2 dimensions, but self is ",
           t.dim(), "D");
  return t.dim() < 2 ? alias(t) : transpose(t, 0, 1);
}

Tensor squeeze(const Tensor& t) {
  Shape sizes, strides;
  for (int64_t d = 0; d < t.dim(); ++d) {
    if (t.sizes()[d] == 1) continue;
    sizes.push_back(t.sizes()[d]);
    strides.push_back(t.strides()[d]);
  }
  return Tensor::view_of(t, sizes, strides, t.offset());
}

Tensor squeeze(const Tensor& t, int64_t dim) {
  int64_t d = wrap_dim(dim, t.dim(), "squeeze");
  if (t.dim() == 0 || t.sizes()[d] != 1) return alias(t);
  Shape sizes = t.sizes(), strides = t.strides();
  sizes.erase(sizes.begin() + d);
  strides.erase(strides.begin() + d);
  return Tensor::view_of(t, sizes, strides, t.offset());
}

Tensor unsqueeze(const Tensor& t, int64_t dim) {
  int64_t d = wrap_dim(dim, t.dim() + 1, "unsqueeze");
  Shape sizes = t.sizes(), strides = t.strides();
  // Any stride is valid for a size-1 dim; this one keeps contiguous tensors contiguous.
  int64_t stride = d >= t.dim() ? 1 : sizes[d] * strides[d];
  sizes.insert(sizes.begin() + d, 1);
  strides.insert(strides.begin() + d, stride);
  return Tensor::view_of(t, sizes, strides, t.offset());
}

Tensor flatten(const Tensor& t, int64_t start_dim, int64_t end_dim) {
  int64_t start = wrap_dim(start_dim, t.dim(), "flatten"), end = wrap_dim(end_dim, t.dim(), "flatten");
  TZ_CHECK(start <= end, Runtime, "flatten(): flatten() has invalid args: start_dim cannot come after end_dim");
  if (t.dim() == 0) return reshape(t, {1});
  if (start == end) return t;
  IntList shape(t.sizes().begin(), t.sizes().begin() + start);
  int64_t merged = 1;
  for (int64_t d = start; d <= end; ++d) merged *= t.sizes()[d];
  shape.push_back(merged);
  shape.insert(shape.end(), t.sizes().begin() + end + 1, t.sizes().end());
  return reshape(t, shape);
}

Tensor unflatten(const Tensor& t, int64_t dim, const IntList& sizes) {
  int64_t d = wrap_dim(dim, t.dim(), "unflatten");
  TZ_CHECK(!sizes.empty(), Runtime, "unflatten(): sizes must be non-empty");
  int64_t size = t.dim() == 0 ? 1 : t.sizes()[d];
  Shape inferred = infer_size(sizes, size, "unflatten");
  IntList shape(t.sizes().begin(), t.sizes().begin() + d);
  shape.insert(shape.end(), inferred.begin(), inferred.end());
  if (t.dim() > 0) shape.insert(shape.end(), t.sizes().begin() + d + 1, t.sizes().end());
  return view(t, shape);
}

Tensor movedim(const Tensor& t, const IntList& source, const IntList& destination) {
  const int64_t n = t.dim();
  TZ_CHECK(source.size() == destination.size(), Runtime, "movedim(): Invalid source or destination "
           "dims: source (", shape_str(source), " dims) should contain the same number of dims as "
           "destination (", shape_str(destination), " dims)");
  std::vector<int64_t> order(std::max<int64_t>(n, 1), -1);
  std::vector<bool> src_used(std::max<int64_t>(n, 1), false);
  for (size_t i = 0; i < source.size(); ++i) {
    int64_t s = wrap_dim(source[i], n, "movedim"), d = wrap_dim(destination[i], n, "movedim");
    TZ_CHECK(!src_used[s], Runtime, "movedim(): repeated dim in `source` (", shape_str(source), ")");
    TZ_CHECK(order[d] < 0, Runtime, "movedim(): repeated dim in `destination` (", shape_str(destination), ")");
    src_used[s] = true;
    order[d] = s;
  }
  if (n == 0) return alias(t);
  // The dims not moved keep their relative order in the free destination slots.
  int64_t next_src = 0;
  for (int64_t d = 0; d < n; ++d) {
    if (order[d] >= 0) continue;
    while (src_used[next_src]) ++next_src;
    order[d] = next_src++;
  }
  return permute(t, order);
}

Tensor view_as_real(const Tensor& t) {
  TZ_CHECK(is_complex(t.dtype()), Runtime, "view_as_real(): view_as_real is only supported for complex tensors");
  Shape sizes = t.sizes(), strides = t.strides();
  for (int64_t& s : strides) s *= 2;
  sizes.push_back(2);
  strides.push_back(1);
  return view_with_dtype(t, sizes, strides, t.offset() * 2, complex_part_dtype(t.dtype()));
}

Tensor view_as_complex(const Tensor& t) {
  TZ_CHECK(t.dtype() == DType::Float32 || t.dtype() == DType::Float64, Runtime, "view_as_complex(): view_as_complex is only supported "
           "for float and double tensors, but got a tensor of scalar type: ", dtype_name(t.dtype()));
  TZ_CHECK(t.dim() > 0, Runtime, "view_as_complex(): Input tensor must have one or more dimensions");
  TZ_CHECK(t.sizes().back() == 2, Runtime, "view_as_complex(): Tensor must have a last dimension of size 2");
  Shape sizes(t.sizes().begin(), t.sizes().end() - 1), strides(t.strides().begin(), t.strides().end() - 1);
  // An empty tensor's strides mean nothing: view it with contiguous ones.
  const DType complex_type = complex_dtype_of(t.dtype());
  if (t.numel() == 0) return view_with_dtype(t, sizes, contiguous_strides(sizes), 0, complex_type);
  TZ_CHECK(t.strides().back() == 1, Runtime, "view_as_complex(): Tensor must have a last dimension with stride 1");
  for (int64_t& s : strides) {
    TZ_CHECK(s % 2 == 0, Runtime, "view_as_complex(): Tensor must have a stride divisible by 2 for all but last dimension");
    s /= 2;
  }
  TZ_CHECK(t.offset() % 2 == 0, Runtime, "view_as_complex(): Tensor must have a storage_offset divisible by 2");
  return view_with_dtype(t, sizes, strides, t.offset() / 2, complex_type);
}

}  // namespace tz
