#include "autograd/grad_util.h"

#include <algorithm>

#include "ops/creation.h"
#include "ops/joining_util.h"

namespace tz::grad {

using joining::prod_range;

namespace {

constexpr int64_t kMinBatchedCols = 32;

// x viewed as (a, r, b) summed over r: a GEMV or a batched GEMM against ones, so that the
// sum is recorded (as mv/matmul) for double backward. Returns a*b elements in any shape.
Tensor sum_middle(const Tensor& x, int64_t a, int64_t r, int64_t b) {
  Tensor ones_r = ones({r}, x.dtype());
  if (b == 1) return op(TZ_OP("mv"), {F::reshape(x, {a, r}), ones_r});
  if (a == 1) return op(TZ_OP("mv"), {F::transpose(F::reshape(x, {r, b}), 0, 1), ones_r});
  // Narrow rows make a batched GEMM a loop of tiny calls: move r last (a copy), one GEMV.
  if (b < kMinBatchedCols)
    return op(TZ_OP("mv"), {F::reshape(F::transpose(F::reshape(x, {a, r, b}), 1, 2), {a * b, r}), ones_r});
  return op(TZ_OP("matmul"), {ones_r, F::reshape(x, {a, r, b})});
}

}  // namespace

Tensor sum_dims(const Tensor& x, IntList dims, bool keepdim) {
  if (dims.empty()) return x;
  // The reduction family's sum once it has a derivative; until then products with ones.
  const Op& sum = TZ_OP("sum");
  if (sum.def.backward != nullptr) return op(sum, {x, dims, keepdim});
  const int64_t nd = x.dim();
  for (int64_t& d : dims) d = wrap_dim(d, nd, "sum");
  std::sort(dims.begin(), dims.end());
  dims.erase(std::unique(dims.begin(), dims.end()), dims.end());
  Tensor cur = x;
  Shape sizes = x.sizes();
  // Runs of adjacent dims, last run first, each summed as the middle of (a, r, b).
  for (size_t i = dims.size(); i > 0;) {
    const size_t last = --i;
    while (i > 0 && dims[i - 1] == dims[i] - 1) --i;
    const int64_t first = dims[i], stop = dims[last] + 1;
    const int64_t a = prod_range(sizes, 0, first), r = prod_range(sizes, first, stop), b = prod_range(sizes, stop, nd);
    for (int64_t k = first; k < stop; ++k) sizes[k] = 1;
    if (r != 1) cur = F::reshape(sum_middle(cur, a, r, b), sizes);
  }
  if (!keepdim) {
    Shape kept;
    for (int64_t d = 0; d < nd; ++d)
      if (!std::binary_search(dims.begin(), dims.end(), d)) kept.push_back(sizes[d]);
    sizes = kept;
  }
  return cur.sizes() == sizes ? cur : F::reshape(cur, sizes);
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
  complex64 v = s.to_complex();
  return Scalar(complex64(v.real(), -v.imag()));
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
