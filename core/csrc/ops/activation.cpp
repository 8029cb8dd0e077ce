#include "ops/activation.h"

#include "iter/tensor_iter.h"
#include "ops/conversion.h"
#include "ops/creation.h"
#include "ops/elementwise_util.h"
#include "ops/views.h"
#include "tensor/scalar_range.h"

namespace tz {

namespace {

void check_dtype(ActOp op, DType t, const char* name) {
  if (is_floating(t)) return;
  if (op == ActOp::Threshold && is_integral(t, false)) return;
  fail(ErrorKind::NotImplemented, name, "(): \"", name, "\" not implemented for '", scalar_type_name(t), "'");
}

// threshold's Scalar arguments are converted to the input's dtype (an int threshold on uint8).
void check_scalars(ActOp op, DType t, const ActArgs& args) {
  if (op != ActOp::Threshold) return;
  check_scalar_fits(Scalar(args.p0), t);
  check_scalar_fits(Scalar(args.p1), t);
}

// out <- f(x) (or the backward when grad is defined), computing in the compute dtype.
void run(ActOp op, const Tensor& out, const Tensor& grad, const Tensor& x, const ActArgs& args) {
  const DType ct = compute_dtype(out.dtype());
  Tensor o = out.dtype() == ct ? out : empty_like(out, ct);
  Tensor in = to_dtype(x, ct);  // alive while iterating
  if (grad.defined()) {
    Tensor g = to_dtype(grad, ct);
    TensorIter iter({o, g, in}, out.sizes());
    act_backward_stub(iter, ct, op, args);
  } else {
    TensorIter iter({o, in}, out.sizes());
    act_forward_stub(iter, ct, op, args);
  }
  if (!o.is_same(out)) copy_(out, o);
}

}  // namespace

Tensor activation(ActOp op, const Tensor& x, const ActArgs& args, const char* name) {
  check_dtype(op, x.dtype(), name);
  check_scalars(op, x.dtype(), args);
  Tensor out = empty_like(x, x.dtype());
  run(op, out, Tensor(), x, args);
  return out;
}

const Tensor& activation_(ActOp op, const Tensor& x, const ActArgs& args, const char* name) {
  check_dtype(op, x.dtype(), name);
  check_scalars(op, x.dtype(), args);
  check_inplace(x, x.dtype(), x.sizes(), name);
  run(op, x, Tensor(), x, args);
  x.bump_version();
  return x;
}

Tensor activation_backward(ActOp op, const Tensor& grad, const Tensor& x, const ActArgs& args,
                           const char* name) {
  check_dtype(op, x.dtype(), name);
  TZ_CHECK(grad.sizes() == x.sizes(), Runtime, name, "(): grad_output of shape ", shape_str(grad.sizes()),
           " does not match the input's shape ", shape_str(x.sizes()));
  Tensor out = empty_like(x, x.dtype());
  run(op, out, grad, x, args);
  return out;
}

Shape prelu_weight_shape(const Tensor& x, const Tensor& weight) {
  TZ_CHECK(weight.dim() <= 1, Runtime, "prelu(): Expected `weight` to be a scalar or 1D tensor, but got ndim = ",
           weight.dim());
  const int64_t channels = x.dim() >= 2 ? x.size(1) : 1;
  const int64_t n = weight.numel();
  TZ_CHECK(n == 1 || n == channels, Runtime, "prelu(): Mismatch of parameter numbers and input channel size. "
           "Found parameter numbers = ", n, " and channel size = ", channels, ".");
  if (n == 1 || x.dim() < 2) return Shape();
  Shape s(x.dim(), 1);
  s[1] = n;
  return s;
}

Tensor prelu(const Tensor& x, const Tensor& weight) {
  TZ_CHECK(is_floating(x.dtype()), NotImplemented, "prelu(): \"prelu\" not implemented for '",
           scalar_type_name(x.dtype()), "'");
  const Shape ws = prelu_weight_shape(x, weight);
  const DType ct = compute_dtype(x.dtype());
  Tensor out = empty_like(x, x.dtype());
  Tensor o = ct == x.dtype() ? out : empty_like(x, ct);
  Tensor in = to_dtype(x, ct);
  Tensor w = reshape(to_dtype(weight, ct), ws);
  TensorIter iter({o, in, w}, x.sizes());
  prelu_stub(iter, ct);
  if (!o.is_same(out)) copy_(out, o);
  return out;
}

}  // namespace tz
