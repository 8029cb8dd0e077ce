#include "ops/dropout.h"

#include "iter/tensor_iter.h"
#include "ops/conversion.h"
#include "ops/creation.h"
#include "ops/elementwise_util.h"

namespace tz {

namespace {

void check_args(const Tensor& x, const Tensor& mask, const char* name) {
  TZ_CHECK(is_floating(x.dtype()), Runtime, name, "(): expected a floating point input, but got ",
           dtype_name(x.dtype()));
  TZ_CHECK(mask.dtype() == DType::Bool, Runtime, name, "(): expected a bool mask, but got ", dtype_name(mask.dtype()));
  TZ_CHECK(broadcast_shapes(x.sizes(), mask.sizes(), name) == x.sizes(), Runtime, name, "(): a mask of shape ",
           shape_str(mask.sizes()), " does not broadcast to the input's shape ", shape_str(x.sizes()));
}

void run(const Tensor& out, const Tensor& x, const Tensor& mask, const DropoutArgs& args) {
  const DType ct = compute_dtype(out.dtype());
  Tensor o = out.dtype() == ct ? out : empty_like(out, ct);
  Tensor in = to_dtype(x, ct);  // alive while iterating
  TensorIter iter({o, in, mask}, out.sizes());
  dropout_stub(iter, ct, args);
  if (!o.is_same(out)) copy_(out, o);
}

}  // namespace

Tensor dropout_apply(const Tensor& x, const Tensor& mask, const DropoutArgs& args) {
  check_args(x, mask, "dropout");
  Tensor out = empty_like(x, x.dtype());
  run(out, x, mask, args);
  return out;
}

const Tensor& dropout_apply_(const Tensor& x, const Tensor& mask, const DropoutArgs& args) {
  check_args(x, mask, "dropout_");
  check_inplace(x, x.dtype(), x.sizes(), "dropout_");
  run(x, x, mask, args);
  x.bump_version();
  return x;
}

}  // namespace tz
