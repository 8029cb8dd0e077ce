// clamp / clip with number, 0-dim or tensor bounds.
#include "iter/tensor_iter.h"
#include "tensor/scalar_range.h"
#include "ops/conversion.h"
#include "ops/elementwise.h"
#include "ops/elementwise_util.h"

namespace tz {

namespace {

DType clamp_result_type(const Tensor& t, const Tensor& min, const Tensor& max, const char* name) {
  TZ_CHECK(min.defined() || max.defined(), Runtime, name,
           "(): At least one of 'min' or 'max' must not be None");
  TZ_CHECK(!is_complex(t.dtype()), NotImplemented, name, "(): clamp is not supported for complex types");
  DType r = result_type(std::vector<Tensor>{t, min, max});
  // bool works with one tensor bound (it is maximum or minimum then), like PyTorch
  TZ_CHECK(!is_complex(r) && !(r == DType::Bool && min.defined() && max.defined()), NotImplemented, name,
           "(): not implemented for dtype ", dtype_name(r));
  return r;
}

bool is_scalar_bound(const Tensor& b) { return !b.defined() || b.dim() == 0; }

// out <- clamp(t) for number (or 0-dim) bounds, in one pass.
void run_clamp_scalar(const Tensor& out, const Tensor& t, const Tensor& min, const Tensor& max) {
  const DType ct = compute_dtype(out.dtype());
  Tensor o = out.dtype() == ct ? out : Tensor::empty(out.sizes(), ct);
  Tensor in = to_dtype(t, ct);
  Scalar lo = min.defined() ? item(min) : Scalar(), hi = max.defined() ? item(max) : Scalar();
  // Python-number bounds are Scalar arguments: they must fit the result's dtype.
  if (min.defined() && min.impl()->wrapped_number) check_scalar_fits(lo, out.dtype());
  if (max.defined() && max.impl()->wrapped_number) check_scalar_fits(hi, out.dtype());
  TensorIter iter({o, in}, out.sizes());
  clamp_stub(iter, ct, lo, hi, min.defined(), max.defined());
  if (!o.is_same(out)) copy_(out, o);
}

// Tensor bounds: minimum(maximum(t, min), max) in the promoted dtype.
Tensor clamp_tensor(const Tensor& t, const Tensor& min, const Tensor& max, DType r) {
  Tensor x = to_dtype(t, r);
  if (min.defined()) x = maximum(x, min);
  if (max.defined()) x = minimum(x, max);
  return x;
}

}  // namespace

Tensor clamp(const Tensor& t, const Tensor& min, const Tensor& max) {
  DType r = clamp_result_type(t, min, max, "clamp");
  if (!is_scalar_bound(min) || !is_scalar_bound(max)) return clamp_tensor(t, min, max, r);
  Tensor out = empty_in_layout_of(t.sizes(), r, t);
  run_clamp_scalar(out, t, min, max);
  return out;
}

const Tensor& clamp_(const Tensor& t, const Tensor& min, const Tensor& max) {
  DType r = clamp_result_type(t, min, max, "clamp_");
  Shape shape = t.sizes();
  if (min.defined()) shape = broadcast_shapes(shape, min.sizes(), "clamp_");
  if (max.defined()) shape = broadcast_shapes(shape, max.sizes(), "clamp_");
  check_inplace(t, r, shape, "clamp_");
  if (is_scalar_bound(min) && is_scalar_bound(max) && r == t.dtype() && compute_dtype(r) == r) {
    run_clamp_scalar(t, t, min, max);
    t.bump_version();
  } else if (is_scalar_bound(min) && is_scalar_bound(max)) {
    Tensor tmp = Tensor::empty(t.sizes(), r);
    run_clamp_scalar(tmp, t, min, max);
    copy_(t, tmp);
  } else {
    copy_(t, clamp_tensor(t, min, max, r));
  }
  return t;
}

}  // namespace tz
