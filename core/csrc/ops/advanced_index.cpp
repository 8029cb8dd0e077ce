// Advanced (integer-tensor and mask) indexing, and the flat take/put.
#include <algorithm>

#include "iter/tensor_iter.h"
#include "ops/conversion.h"
#include "ops/creation.h"
#include "ops/index_utils.h"
#include "ops/indexing.h"
#include "ops/views.h"

namespace tz {

namespace {

const IndexBounds kAdvancedBounds{true, ErrorKind::Index, IndexBounds::Message::Dim};
const IndexBounds kFlatBounds{true, ErrorKind::Index, IndexBounds::Message::Flat};

Shape broadcast_index_shapes(const TensorList& indices) {
  Shape shape;
  bool first = true;
  try {
    for (const Tensor& t : indices) {
      shape = first ? t.sizes() : broadcast_shapes(shape, t.sizes(), "index");
      first = false;
    }
  } catch (const Error&) {
    std::string shapes;
    for (const Tensor& t : indices) shapes += (shapes.empty() ? "" : ", ") + shape_str(t.sizes());
    fail(ErrorKind::Index, "shape mismatch: indexing tensors could not be broadcast together with shapes ", shapes);
  }
  return shape;
}

// Flat (row-major) element numbers of `self` -> offsets through its strides, in place.
void flat_to_strided(const Tensor& offsets, const Tensor& self) {
  if (self.is_contiguous()) return;
  int64_t* p = offsets.data<int64_t>();
  const Shape& sizes = self.sizes();
  const Shape& strides = self.strides();
  for (int64_t i = 0, n = offsets.numel(); i < n; ++i) {
    int64_t rem = p[i], off = 0;
    for (int64_t d = self.dim() - 1; d >= 0; --d) {
      off += (rem % sizes[d]) * strides[d];
      rem /= sizes[d];
    }
    p[i] = off;
  }
}

// The offsets of take/put: `index` into self seen as flat, and self's elements as a view of
// index's shape that stays at self's first element.
IndexedView flat_view(const Tensor& self, const Tensor& index, const char* op) {
  check_index_dtype(index, false, op);
  Tensor offsets = index_offsets({index}, index.sizes(), {self.numel()}, {1}, kFlatBounds);
  flat_to_strided(offsets, self);
  Tensor view = Tensor::view_of(self, index.sizes(), Shape(index.dim(), 0), self.offset());
  return {view, offsets};
}

}  // namespace

TensorList expand_index_masks(const Tensor& self, const TensorList& indices) {
  TensorList out;
  out.reserve(indices.size());
  for (const Tensor& index : indices) {
    if (!index.defined()) {
      out.emplace_back();
      continue;
    }
    DType t = index.dtype();
    if (t != DType::Bool && t != DType::UInt8) {
      TZ_CHECK(t == DType::Int64 || t == DType::Int32, Index,
               "tensors used as indices must be long, int, byte or bool tensors");
      out.push_back(index);
      continue;
    }
    // A k-dim mask stands for k index tensors: the coordinates of its true elements.
    const int64_t at = static_cast<int64_t>(out.size());
    TZ_CHECK(at + index.dim() <= self.dim(), Index, "too many indices for tensor of dimension ", self.dim());
    for (int64_t j = 0; j < index.dim(); ++j)
      TZ_CHECK(index.sizes()[j] == self.sizes()[at + j], Index, "The shape of the mask ",
               shape_str(index.sizes()), " at index ", j, " does not match the shape of the indexed tensor ",
               shape_str(self.sizes()), " at index ", at + j);
    Tensor coords = nonzero(index);
    for (int64_t j = 0; j < index.dim(); ++j) out.push_back(select(coords, 1, j));
  }
  TZ_CHECK(static_cast<int64_t>(out.size()) <= self.dim(), Index, "too many indices for tensor of dimension ",
           self.dim(), " (got ", out.size(), ")");
  return out;
}

IndexedView indexed_view(const Tensor& self, const TensorList& indices, const IndexBounds& bounds) {
  std::vector<int64_t> indexed;
  TensorList defined;
  for (size_t d = 0; d < indices.size(); ++d)
    if (indices[d].defined()) indexed.push_back(static_cast<int64_t>(d)), defined.push_back(indices[d]);
  const int64_t k = static_cast<int64_t>(indexed.size());
  Shape index_shape = broadcast_index_shapes(defined);

  // Indexed dims that are not adjacent move to the front, as in numpy.
  Tensor src = self;
  int64_t first = indexed.front();
  if (indexed.back() - indexed.front() + 1 != k) {
    IntList order(indexed.begin(), indexed.end());
    for (int64_t d = 0; d < self.dim(); ++d)
      if (d >= static_cast<int64_t>(indices.size()) || !indices[d].defined()) order.push_back(d);
    src = permute(self, order);
    first = 0;
  }
  // Result: [dims before] + index_shape + [dims after]; the indexed block reads through offsets.
  Shape rsizes(src.sizes().begin(), src.sizes().begin() + first);
  Shape rstrides(src.strides().begin(), src.strides().begin() + first);
  rsizes.insert(rsizes.end(), index_shape.begin(), index_shape.end());
  rstrides.insert(rstrides.end(), index_shape.size(), 0);
  rsizes.insert(rsizes.end(), src.sizes().begin() + first + k, src.sizes().end());
  rstrides.insert(rstrides.end(), src.strides().begin() + first + k, src.strides().end());

  // An empty result reads and writes nothing, so (as in PyTorch) its indices go unchecked,
  // unless they index into a dim of size 0.
  Shape sizes(src.sizes().begin() + first, src.sizes().begin() + first + k);
  Shape strides(src.strides().begin() + first, src.strides().begin() + first + k);
  bool check = bounds.check_unused || numel_of(rsizes) > 0 ||
               (numel_of(index_shape) > 0 && std::find(sizes.begin(), sizes.end(), 0) != sizes.end());
  Tensor offsets = check ? index_offsets(defined, index_shape, sizes, strides, bounds)
                         : index_offsets({}, index_shape, {}, {}, bounds);
  Tensor view = Tensor::view_of(src, rsizes, rstrides, src.offset());
  return {view, spread_offsets(offsets, rsizes, first)};
}

Tensor index(const Tensor& self, const TensorList& indices) {
  TensorList expanded = expand_index_masks(self, indices);
  bool any = false;
  for (const Tensor& t : expanded) any = any || t.defined();
  if (!any) return clone(self);
  IndexedView v = indexed_view(self, expanded, kAdvancedBounds);
  Tensor out = Tensor::empty(v.view.sizes(), self.dtype());
  index_gather_kernel(out, v.view, v.offsets);
  return out;
}

const Tensor& index_put_(const Tensor& self, const TensorList& indices, const Tensor& values, bool accumulate) {
  TZ_CHECK(values.dtype() == self.dtype(), Runtime, "index_put_(): Index put requires the source and "
           "destination dtypes match, got ", dtype_name(self.dtype()), " for the destination and ",
           dtype_name(values.dtype()), " for the source.");
  check_no_internal_overlap(self, "index_put_");
  TensorList expanded = expand_index_masks(self, indices);
  bool any = false;
  for (const Tensor& t : expanded) any = any || t.defined();
  // No index at all: the whole tensor is the target.
  if (!any) expanded.assign(1, arange(Scalar(int64_t(0)), Scalar(self.dim() ? self.sizes()[0] : 1),
                                      Scalar(int64_t(1)), DType::Int64));
  const Tensor& target = self.dim() ? self : reshape(self, {1});
  IndexedView v = indexed_view(target, expanded, kAdvancedBounds);
  const Shape& shape = v.view.sizes();
  bool fits = values.dim() <= static_cast<int64_t>(shape.size());
  for (int64_t i = 1; fits && i <= values.dim(); ++i) {
    int64_t have = values.sizes()[values.dim() - i], want = shape[shape.size() - i];
    fits = have == want || have == 1;
  }
  TZ_CHECK(fits, Runtime, "index_put_(): shape mismatch: value tensor of shape ", shape_str(values.sizes()),
           " cannot be broadcast to indexing result of shape ", shape_str(shape));
  Tensor vals = expand(unaliased(values, self), IntList(shape.begin(), shape.end()));
  index_scatter_kernel(v.view, vals, v.offsets, accumulate ? ScatterMode::Add : ScatterMode::Assign);
  self.bump_version();
  return self;
}

Tensor index_put(const Tensor& self, const TensorList& indices, const Tensor& values, bool accumulate) {
  return fresh(index_put_(clone(self), indices, values, accumulate));
}

Tensor take(const Tensor& self, const Tensor& index) {
  IndexedView v = flat_view(self, index, "take");
  Tensor out = Tensor::empty(index.sizes(), self.dtype());
  index_gather_kernel(out, v.view, v.offsets);
  return out;
}

const Tensor& put_(const Tensor& self, const Tensor& index, const Tensor& source, bool accumulate) {
  TZ_CHECK(source.dtype() == self.dtype(), Runtime, "put_(): self and source expected to have the same "
           "dtype, but got self.dtype = ", dtype_name(self.dtype()), " and source.dtype = ",
           dtype_name(source.dtype()));
  TZ_CHECK(source.numel() == index.numel(), Index, "put_(): Expected source and index to have the same "
           "number of elements, but got source.numel() = ", source.numel(), ", index.numel() = ", index.numel());
  check_no_internal_overlap(self, "put_");
  IndexedView v = flat_view(self, index, "put_");
  Tensor vals = reshape(unaliased(source, self), IntList(index.sizes().begin(), index.sizes().end()));
  index_scatter_kernel(v.view, vals, v.offsets, accumulate ? ScatterMode::Add : ScatterMode::Assign);
  self.bump_version();
  return self;
}

Tensor put(const Tensor& self, const Tensor& index, const Tensor& source, bool accumulate) {
  return fresh(put_(clone(self), index, source, accumulate));
}

}  // namespace tz
