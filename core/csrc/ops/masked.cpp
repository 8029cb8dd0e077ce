// Mask-driven ops: masked_fill, masked_select, masked_scatter, where, nonzero.
#include "iter/tensor_iter.h"
#include "ops/conversion.h"
#include "ops/index_utils.h"
#include "ops/indexing.h"
#include "ops/promotion.h"
#include "ops/views.h"

namespace tz {

namespace {

void check_mask(const Tensor& mask, const char* op) {
  TZ_CHECK(mask.dtype() == DType::Bool || mask.dtype() == DType::UInt8, Runtime, op, "(): ", op,
           " only supports boolean masks, but got mask with dtype ", dtype_name(mask.dtype()));
}

// In-place mask ops: the mask broadcasts to self's shape without growing it.
void check_mask_shape(const Tensor& self, const Tensor& mask, const char* op) {
  Shape shape = broadcast_shapes(self.sizes(), mask.sizes(), op);
  TZ_CHECK(shape == self.sizes(), Runtime, op, "(): output with shape ", shape_str(self.sizes()),
           " doesn't match the broadcast shape ", shape_str(shape));
}

// Contiguous bool tensor of self's shape: true where self is nonzero.
Tensor truth_mask(const Tensor& self) {
  if (!is_complex(self.dtype())) return contiguous(to_dtype(self, DType::Bool));
  // A complex number is nonzero when either part is.
  Tensor parts = contiguous(to_dtype(view_as_real(self), DType::Bool));
  Tensor mask = Tensor::empty(self.sizes(), DType::Bool);
  const bool* p = parts.data<bool>();
  bool* m = mask.data<bool>();
  for (int64_t i = 0, n = mask.numel(); i < n; ++i) m[i] = p[2 * i] || p[2 * i + 1];
  return mask;
}

}  // namespace

Scalar zero_dim_value(const Tensor& value, const char* op) {
  TZ_CHECK(value.dim() == 0, Runtime, op, "(): ", op, " only supports a 0-dimensional value tensor, "
           "but got tensor with ", value.dim(), " dimension(s).");
  return item(value);
}

const Tensor& masked_fill_(const Tensor& self, const Tensor& mask, const Scalar& value) {
  check_mask(mask, "masked_fill_");
  check_mask_shape(self, mask, "masked_fill_");
  check_no_internal_overlap(self, "masked_fill_");
  masked_fill_kernel(self, mask, scalar_to_tensor(value, self.dtype()));
  self.bump_version();
  return self;
}

Tensor masked_fill(const Tensor& self, const Tensor& mask, const Scalar& value) {
  check_mask(mask, "masked_fill");
  Tensor out = Tensor::empty(broadcast_shapes(self.sizes(), mask.sizes(), "masked_fill"), self.dtype());
  copy_(out, self);
  return fresh(masked_fill_(out, mask, value));
}

Tensor masked_select(const Tensor& self, const Tensor& mask) {
  TZ_CHECK(mask.dtype() == DType::Bool || mask.dtype() == DType::UInt8, Runtime,
           "masked_select(): masked_select: expected BoolTensor for mask");
  Shape shape = broadcast_shapes(self.sizes(), mask.sizes(), "masked_select");
  if (shape.empty()) shape = {1};  // the result is 1-D even for 0-d inputs
  IntList size(shape.begin(), shape.end());
  return index(expand(self, size), {expand(mask, size)});
}

const Tensor& masked_scatter_(const Tensor& self, const Tensor& mask, const Tensor& source) {
  check_mask(mask, "masked_scatter_");
  TZ_CHECK(source.dtype() == self.dtype(), Runtime, "masked_scatter_(): masked_scatter: expected self and "
           "source to have same dtypes but got ", dtype_name(self.dtype()), " and ", dtype_name(source.dtype()));
  check_mask_shape(self, mask, "masked_scatter_");
  Tensor target = self.dim() ? self : reshape(self, {1});
  IntList size(target.sizes().begin(), target.sizes().end());
  // Source elements, in order, go to the true positions in row-major order.
  TensorList coords = expand_index_masks(target, {expand(mask, size)});
  int64_t count = coords[0].numel();
  TZ_CHECK(source.numel() >= count, Runtime, "masked_scatter_(): Number of elements of source < number of ones in mask");
  index_put_(target, coords, narrow(reshape(source, {-1}), 0, 0, count));  // shares self's version
  return self;
}

Tensor masked_scatter(const Tensor& self, const Tensor& mask, const Tensor& source) {
  Tensor out = Tensor::empty(broadcast_shapes(self.sizes(), mask.sizes(), "masked_scatter"), self.dtype());
  copy_(out, self);
  return fresh(masked_scatter_(out, mask, source));
}

Tensor where(const Tensor& cond, const Tensor& a, const Tensor& b) {
  TZ_CHECK(cond.dtype() == DType::Bool || cond.dtype() == DType::UInt8, Runtime, "where(): where expected "
           "condition to be a boolean tensor, but got a tensor with dtype ", dtype_name(cond.dtype()));
  DType dt = result_type(a, b);
  Shape shape = broadcast_shapes(broadcast_shapes(cond.sizes(), a.sizes(), "where"), b.sizes(), "where");
  Tensor out = Tensor::empty(shape, dt);
  Tensor ca = to_dtype(a, dt), cb = to_dtype(b, dt);  // alive while the kernel runs
  where_kernel(out, cond, ca, cb);
  return out;
}

Tensor nonzero(const Tensor& self) {
  Tensor mask = truth_mask(self);
  const bool* m = mask.data<bool>();
  const int64_t n = mask.numel(), nd = self.dim();
  int64_t count = 0;
  for (int64_t i = 0; i < n; ++i) count += m[i];
  Tensor out = Tensor::empty({count, nd}, DType::Int64);
  int64_t* o = out.data<int64_t>();
  std::vector<int64_t> idx(nd, 0);
  for (int64_t i = 0; i < n; ++i) {
    if (m[i]) {
      std::copy(idx.begin(), idx.end(), o);
      o += nd;
    }
    for (int64_t d = nd - 1; d >= 0 && ++idx[d] == self.sizes()[d]; --d) idx[d] = 0;
  }
  return out;
}

TensorList nonzero_numpy(const Tensor& self) {
  return unbind(nonzero(self.dim() ? self : reshape(self, {1})), 1);
}

}  // namespace tz
