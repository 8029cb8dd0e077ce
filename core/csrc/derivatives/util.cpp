#include "derivatives/util.h"

#include <algorithm>

namespace tz::grad {

Tensor sum_dims(const Tensor& x, const IntList& dims, bool keepdim) {
  if (dims.empty()) return x;  // (sum's empty dim list means every dim)
  return op(TZ_OP("sum"), {x, dims, keepdim});
}

Tensor sum_all_but(const Tensor& x, int64_t keep) {
  IntList dims;
  for (int64_t d = 0; d < x.dim(); ++d)
    if (d != keep) dims.push_back(d);
  return sum_dims(x, dims);
}

Tensor pad_dims(const Tensor& x, const std::vector<DimPad>& pads) {
  const int64_t nd = x.dim();
  int64_t lowest = nd;
  bool any = false;
  for (const DimPad& p : pads) {
    lowest = std::min(lowest, p.dim);
    any = any || p.before != 0 || p.after != 0;
  }
  if (!any) return x;
  IntList widths(2 * (nd - lowest), 0);
  for (const DimPad& p : pads) {
    const int64_t j = nd - 1 - p.dim;  // pad lists start at the last dim
    widths[2 * j] += p.before;
    widths[2 * j + 1] += p.after;
  }
  return op(TZ_OP("pad"), {x, widths});
}

Tensor slice(const Tensor& x, int64_t dim, int64_t start, int64_t length) {
  return pad_dims(x, {{dim, -start, start + length - x.size(dim)}});
}

Tensor place(const Tensor& x, int64_t dim, int64_t start, int64_t total) {
  return pad_dims(x, {{dim, start, total - start - x.size(dim)}});
}

Tensor conj(const Tensor& x) { return is_complex(x.dtype()) ? op(TZ_OP("conj"), {x}) : x; }

Scalar conj(const Scalar& s) {
  if (!s.is_complex()) return s;
  complex128 v = s.to_complex128();
  return Scalar(complex128(v.real(), -v.imag()));
}

Tensor scale(const Tensor& x, const Scalar& s) {
  if (!s.is_complex() && s.to_double() == 1.0) return x;
  return F::mul(x, s);
}

Tensor cast(const Tensor& x, DType dtype) {
  return x.dtype() == dtype ? x : op(TZ_OP("to.dtype"), {x, dtype});
}

IntList negated(IntList values) {
  for (int64_t& v : values) v = -v;
  return values;
}

Tensor unsqueeze(const Tensor& x, int64_t dim) {
  Shape s = x.sizes();
  s.insert(s.begin() + wrap_dim(dim, x.dim() + 1, "unsqueeze"), 1);
  return F::reshape(x, s);
}

}  // namespace tz::grad
