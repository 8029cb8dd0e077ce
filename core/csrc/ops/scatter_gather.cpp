// gather / scatter: elementwise along one dim, out[i][j] = self[index[i][j]][j] (dim 0) and
// its inverse. Both run on views of index's shape with stride 0 along `dim`, plus offsets
// index * stride(dim).
#include "ops/conversion.h"
#include "ops/index_utils.h"
#include "ops/indexing.h"
#include "ops/views.h"

namespace tz {

namespace {

// 0-d tensors take part as 1-element vectors.
Tensor nonempty(const Tensor& t) { return t.dim() ? t : reshape(t, {1}); }

// `t` (a 1-D-or-more tensor) seen with index's sizes; stride 0 along `zero_dim` (or none).
Tensor sized_like(const Tensor& t, const Tensor& index, int64_t zero_dim) {
  Shape strides = t.strides();
  if (zero_dim >= 0) strides[zero_dim] = 0;
  return Tensor::view_of(t, index.sizes(), strides, t.offset());
}

Tensor dim_offsets(const Tensor& self, int64_t d, const Tensor& index) {
  IndexBounds bounds{false, ErrorKind::Runtime, IndexBounds::Message::Dim, d};
  return index_offsets({index}, index.sizes(), {self.sizes()[d]}, {self.strides()[d]}, bounds);
}

bool all_strides_zero(const Tensor& t) {
  for (int64_t s : t.strides())
    if (s != 0) return false;
  return true;
}

// The rows kernels' case: along the last dim, contiguous int64 index and tensors, the index
// covering every row of self (and, for scatter, as large as src).
bool along_rows(const Tensor& self, int64_t d, const Tensor& index, const Tensor* src) {
  if (d != self.dim() - 1 || index.dtype() != DType::Int64 || !self.is_contiguous() || !index.is_contiguous())
    return false;
  if (src && (src->sizes() != index.sizes() || !(src->is_contiguous() || all_strides_zero(*src)))) return false;
  for (int64_t k = 0; k < d; ++k)
    if (index.sizes()[k] != self.sizes()[k]) return false;
  return true;
}

ScatterMode scatter_mode(const std::optional<std::string>& reduce) {
  if (!reduce) return ScatterMode::Assign;
  if (*reduce == "add") return ScatterMode::Add;
  if (*reduce == "multiply") return ScatterMode::Multiply;
  fail(ErrorKind::Runtime, "scatter_(): reduce argument must be either add or multiply.");
}

// Shape rules of scatter: index has self's (and src's) number of dims, is no larger than src
// anywhere and no larger than self except along `dim`. Returns the wrapped dim.
int64_t check_scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor* src, const char* op) {
  check_index_dtype(index, false, op);
  int64_t d = wrap_dim(dim, self.dim(), op);
  Tensor s = nonempty(self), i = nonempty(index);
  TZ_CHECK(i.dim() == s.dim(), Runtime, op, "(): Index tensor must have the same number of dimensions as self tensor");
  if (src) {
    TZ_CHECK(src->dtype() == self.dtype(), Runtime, op, "(): Expected self.dtype to be equal to src.dtype");
    TZ_CHECK(std::max<int64_t>(src->dim(), 1) == i.dim(), Runtime, op,
             "(): Index tensor must have the same number of dimensions as src tensor");
  }
  Tensor sr = src ? nonempty(*src) : Tensor();
  for (int64_t k = 0; k < i.dim(); ++k) {
    bool ok = (k == d || i.sizes()[k] <= s.sizes()[k]) && (!src || i.sizes()[k] <= sr.sizes()[k]);
    TZ_CHECK(ok, Runtime, op, "(): Expected index ", shape_str(i.sizes()), " to be no larger than self ",
             shape_str(s.sizes()), " apart from dimension ", d,
             src ? " and to be no larger size than src " + shape_str(sr.sizes()) : std::string());
  }
  check_no_internal_overlap(self, op);
  return d;
}

const Tensor& scatter_values(const Tensor& self, int64_t d, const Tensor& index, const Tensor& values,
                             ScatterMode mode) {
  Tensor s = nonempty(self), i = nonempty(index);
  index_scatter_kernel(sized_like(s, i, d), values, dim_offsets(s, d, i), mode);
  self.bump_version();
  return self;
}

const Tensor& scatter_src(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                          ScatterMode mode, const char* op) {
  int64_t d = check_scatter(self, dim, index, &src, op);
  Tensor values = sized_like(nonempty(unaliased(src, self)), nonempty(index), -1);
  return scatter_values(self, d, index, values, mode);
}

}  // namespace

Tensor gather(const Tensor& self, int64_t dim, const Tensor& index) {
  check_index_dtype(index, false, "gather");
  int64_t d = wrap_dim(dim, self.dim(), "gather");
  Tensor s = nonempty(self), i = nonempty(index);
  TZ_CHECK(i.dim() == s.dim(), Runtime, "gather(): Index tensor must have the same number of dimensions as input tensor");
  for (int64_t k = 0; k < i.dim(); ++k)
    TZ_CHECK(k == d || i.sizes()[k] <= s.sizes()[k], Runtime, "gather(): Size does not match at dimension ",
             k, " expected index ", shape_str(i.sizes()), " to be no larger than self ", shape_str(s.sizes()),
             " apart from dimension ", d);
  Tensor out = Tensor::empty(index.sizes(), self.dtype());
  if (along_rows(s, d, i, nullptr) && gather_rows_kernel(out, s, i)) return out;
  index_gather_kernel(nonempty(out), sized_like(s, i, d), dim_offsets(s, d, i));
  return out;
}

const Tensor& scatter_(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                       const std::optional<std::string>& reduce) {
  return scatter_src(self, dim, index, src, scatter_mode(reduce), "scatter");
}

const Tensor& scatter_(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value,
                       const std::optional<std::string>& reduce) {
  ScatterMode mode = scatter_mode(reduce);
  int64_t d = check_scatter(self, dim, index, nullptr, "scatter");
  Tensor i = nonempty(index);
  Tensor values = expand(scalar_to_tensor(value, self.dtype()), IntList(i.sizes().begin(), i.sizes().end()));
  return scatter_values(self, d, index, values, mode);
}

Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
               const std::optional<std::string>& reduce) {
  return fresh(scatter_(clone(self), dim, index, src, reduce));
}

Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value,
               const std::optional<std::string>& reduce) {
  return fresh(scatter_(clone(self), dim, index, value, reduce));
}

const Tensor& scatter_add_(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  int64_t d = check_scatter(self, dim, index, &src, "scatter_add");
  Tensor values = unaliased(src, self), s = nonempty(self), i = nonempty(index), v = nonempty(values);
  if (along_rows(s, d, i, &v) && scatter_add_rows_kernel(s, v, i)) {
    self.bump_version();
    return self;
  }
  return scatter_values(self, d, index, sized_like(v, i, -1), ScatterMode::Add);
}

Tensor scatter_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  return fresh(scatter_add_(clone(self), dim, index, src));
}

}  // namespace tz
