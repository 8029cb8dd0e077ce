// Ops along one dim through a vector of indices: index_select, index_add_, index_copy_,
// index_fill_. Each is a gather or scatter over indexed_view with one index tensor.
#include "ops/conversion.h"
#include "ops/elementwise.h"
#include "ops/index_utils.h"
#include "ops/indexing.h"
#include "ops/views.h"

namespace tz {

namespace {

// self seen through `index` (0-d or 1-D) along dim `d`: the result has self's shape with
// dim d replaced by index.numel(). A 0-d self counts as a 1-element vector.
IndexedView dim_view(const Tensor& self, int64_t d, const Tensor& index, IndexBounds bounds) {
  const Tensor target = self.dim() ? self : reshape(self, {1});
  TensorList indices(d);
  indices.push_back(index.dim() == 1 ? index : reshape(index, {-1}));
  bounds.dim = d;
  return indexed_view(target, indices, bounds);
}

void check_vector_index(const Tensor& index, const char* op) {
  TZ_CHECK(index.dim() <= 1, Index, op, "(): Index is supposed to be a vector");
}

// The source of index_add_/index_copy_ must be self's shape with dim d resized to the
// number of indices; returns it shaped like the dim_view result.
Tensor check_source(const Tensor& self, int64_t d, const Tensor& index, const Tensor& source, const char* op) {
  TZ_CHECK(source.dtype() == self.dtype(), Runtime, op, "(): self (", dtype_name(self.dtype()),
           ") and source (", dtype_name(source.dtype()), ") must have the same scalar type");
  int64_t src_n = source.dim() ? source.sizes()[std::min(d, source.dim() - 1)] : 1;
  TZ_CHECK(index.numel() == src_n, Runtime, op, "(): Number of indices (", index.numel(),
           ") should be equal to source.size(dim): (", src_n, "), for dim: ", d);
  Shape want = self.dim() ? self.sizes() : Shape{1};
  want[d] = index.numel();
  bool same = source.dim() == self.dim();
  for (int64_t i = 0; same && i < source.dim(); ++i) same = source.sizes()[i] == want[i];
  TZ_CHECK(same, Runtime, op, "(): source tensor shape must match self tensor shape, excluding the "
           "specified dimension. Got self.shape = ", shape_str(self.sizes()), " source.shape = ",
           shape_str(source.sizes()));
  return reshape(unaliased(source, self), IntList(want.begin(), want.end()));
}

}  // namespace

Tensor index_select(const Tensor& self, int64_t dim, const Tensor& index) {
  check_vector_index(index, "index_select");
  check_index_dtype(index, true, "index_select");
  int64_t d = wrap_dim(dim, self.dim(), "index_select");
  TZ_CHECK(self.dim() > 0 || index.numel() == 1, Index, "index_select(): Index to scalar can have only 1 "
           "value, got ", index.numel(), " value(s)");
  IndexedView v = dim_view(self, d, index, {false, ErrorKind::Index, IndexBounds::Message::InSelf, -1, true});
  Tensor out = Tensor::empty(v.view.sizes(), self.dtype());
  index_gather_kernel(out, v.view, v.offsets);
  return self.dim() ? out : reshape(out, {});
}

const Tensor& index_add_(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source,
                         const Scalar& alpha) {
  check_vector_index(index, "index_add_");
  check_index_dtype(index, true, "index_add_");
  check_no_internal_overlap(self, "index_add_");
  int64_t d = wrap_dim(dim, self.dim(), "index_add_");
  Tensor src = check_source(self, d, index, source, "index_add_");
  bool unit = alpha.is_integral() ? alpha.to_int() == 1 : alpha.to_double() == 1.0;
  if (!unit) src = to_dtype(mul(src, scalar_to_tensor(alpha)), self.dtype());
  IndexedView v = dim_view(self, d, index, {false, ErrorKind::Index, IndexBounds::Message::Dim});
  index_scatter_kernel(v.view, src, v.offsets, ScatterMode::Add);
  self.bump_version();
  return self;
}

Tensor index_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source, const Scalar& alpha) {
  return fresh(index_add_(clone(self), dim, index, source, alpha));
}

const Tensor& index_copy_(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source) {
  TZ_CHECK(index.dim() <= 1, Index, "index_copy_(): Index should have dimension 1 or 0 (got ", index.dim(), ")");
  check_index_dtype(index, false, "index_copy_");
  check_no_internal_overlap(self, "index_copy_");
  int64_t d = wrap_dim(dim, self.dim(), "index_copy_");
  Tensor src = check_source(self, d, index, source, "index_copy_");
  IndexedView v = dim_view(self, d, index, {false, ErrorKind::Index, IndexBounds::Message::Dim});
  index_scatter_kernel(v.view, src, v.offsets, ScatterMode::Assign);
  self.bump_version();
  return self;
}

Tensor index_copy(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source) {
  return fresh(index_copy_(clone(self), dim, index, source));
}

const Tensor& index_fill_(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  TZ_CHECK(index.dim() <= 1, Index, "index_fill_(): Index has to be a vector/scalar");
  check_index_dtype(index, false, "index_fill_");
  check_no_internal_overlap(self, "index_fill_");
  int64_t d = wrap_dim(dim, self.dim(), "index_fill_");
  IndexedView v = dim_view(self, d, index, {true, ErrorKind::Index, IndexBounds::Message::Dim});
  Tensor fill = scalar_to_tensor(value, self.dtype());
  Tensor vals = expand(fill, IntList(v.view.sizes().begin(), v.view.sizes().end()));
  index_scatter_kernel(v.view, vals, v.offsets, ScatterMode::Assign);
  self.bump_version();
  return self;
}

Tensor index_fill(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  return fresh(index_fill_(clone(self), dim, index, value));
}

}  // namespace tz
