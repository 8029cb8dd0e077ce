// lerp(a, b, w): a ternary kernel over three broadcast operands.
#include "iter/tensor_iter.h"
#include "kernels/lerp.h"
#include "ops/conversion.h"
#include "ops/elementwise.h"
#include "ops/elementwise_util.h"

namespace tz {

namespace {

void check_lerp(const Tensor& a, const Tensor& b, const Tensor& w, const char* name) {
  TZ_CHECK(a.dtype() == b.dtype(), Runtime, name, "(): expected dtype ", dtype_name(a.dtype()),
           " for `end` but got dtype ", dtype_name(b.dtype()));
  // Numbers and 0-dim weights are converted; weight tensors with dims must match.
  TZ_CHECK(w.dim() == 0 || w.dtype() == a.dtype(), Runtime, name, "(): expected dtype ",
           dtype_name(a.dtype()), " for `weight` but got dtype ", dtype_name(w.dtype()));
  TZ_CHECK(is_floating(a.dtype()) || is_complex(a.dtype()), NotImplemented, name,
           "(): not implemented for dtype ", dtype_name(a.dtype()));
  TZ_CHECK(!is_complex(w.dtype()) || is_complex(a.dtype()), Runtime, name,
           "(): a complex weight needs complex inputs");
}

void run_lerp(const Tensor& out, const Tensor& a, const Tensor& b, const Tensor& w) {
  const DType ct = compute_dtype(out.dtype());
  Tensor o = out.dtype() == ct ? out : Tensor::empty(out.sizes(), ct);
  Tensor ca = to_compute(a, ct), cb = to_compute(b, ct), cw = to_compute(w, ct);  // alive while iterating
  TensorIter iter({o, ca, cb, cw}, out.sizes());
  lerp_kernel(iter, ct);
  if (!o.is_same(out)) copy_(out, o);
}

}  // namespace

Tensor lerp(const Tensor& a, const Tensor& b, const Tensor& weight) {
  check_lerp(a, b, weight, "lerp");
  Shape shape = broadcast_shapes(broadcast_shapes(a.sizes(), b.sizes(), "lerp"), weight.sizes(), "lerp");
  Tensor out = empty_in_layout_of(shape, a.dtype(), a);
  run_lerp(out, a, b, weight);
  out.impl()->version->version = 0;
  return out;
}

const Tensor& lerp_(const Tensor& self, const Tensor& end_in, const Tensor& weight_in) {
  const Tensor end = unalias(end_in, self), weight = unalias(weight_in, self);
  check_lerp(self, end, weight, "lerp_");
  Shape shape = broadcast_shapes(broadcast_shapes(self.sizes(), end.sizes(), "lerp_"), weight.sizes(), "lerp_");
  check_inplace(self, self.dtype(), shape, "lerp_");
  if (compute_dtype(self.dtype()) == self.dtype()) {
    run_lerp(self, self, end, weight);
    self.bump_version();
  } else {
    Tensor tmp = Tensor::empty(self.sizes(), self.dtype());
    run_lerp(tmp, self, end, weight);
    copy_(self, tmp);
  }
  return self;
}

}  // namespace tz
