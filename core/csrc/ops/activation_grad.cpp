#include "ops/activation_grad.h"

#include <cmath>

#include "autograd/grad_mode.h"
#include "autograd/grad_util.h"
#include "ops/activation.h"

namespace tz::grad {

namespace {

Tensor num(double v) { return F::number(v); }
Tensor call1(const Op& o, const Tensor& x) { return F::tensor_call(o, {x}); }
Tensor tanh(const Tensor& x) { return call1(TZ_OP("tanh"), x); }
Tensor sigmoid(const Tensor& x) { return call1(TZ_OP("sigmoid"), x); }
Tensor erf(const Tensor& x) { return call1(TZ_OP("erf"), x); }
Tensor softplus(const Tensor& x) { return call1(TZ_OP("softplus"), x); }
Tensor band(const Tensor& x, double lo, double hi) {  // lo < x < hi
  return F::logical_and(F::gt(x, num(lo)), F::lt(x, num(hi)));
}

// The derivative formulas of kernels/isa/activation_kernels.cpp's backward, as ops.
Tensor composite(const Tensor& g, const Tensor& x, ActOp op, const ActArgs& a) {
  switch (op) {
    case ActOp::Threshold: return F::where(F::le(x, num(a.p0)), Scalar(0.0), g);
    case ActOp::LeakyRelu: return F::where(F::gt(x, num(0.0)), g, F::mul(g, Scalar(a.p0)));
    case ActOp::Hardtanh: return F::keep_where(band(x, a.p0, a.p1), g);
    case ActOp::Elu: {
      Tensor neg = F::mul(F::mul(g, F::exp(F::mul(x, Scalar(a.p2)))), Scalar(a.p0 * a.p1 * a.p2));
      return F::where(F::le(x, num(0.0)), neg, F::mul(g, Scalar(a.p1)));
    }
    case ActOp::Gelu: {
      Tensor cdf = F::mul(F::add(erf(F::mul(x, Scalar(M_SQRT1_2))), Scalar(1.0)), Scalar(0.5));
      Tensor pdf = F::mul(F::exp(F::mul(F::square(x), Scalar(-0.5))), Scalar(0.5 * M_2_SQRTPI * M_SQRT1_2));
      return F::mul(g, F::add(cdf, F::mul(x, pdf)));
    }
    case ActOp::GeluTanh: {
      const double beta = M_SQRT2 * M_2_SQRTPI * 0.5, kappa = 0.044715;
      Tensor x2 = F::square(x);
      Tensor t = tanh(F::mul(F::add(x, F::mul(F::mul(x2, x), Scalar(kappa))), Scalar(beta)));
      Tensor dinner = F::mul(F::add(F::mul(x2, Scalar(3 * kappa)), Scalar(1.0)), Scalar(beta));
      Tensor left = F::mul(F::add(t, Scalar(1.0)), Scalar(0.5));
      Tensor right = F::mul(F::mul(F::mul(x, Scalar(0.5)), F::add(F::neg(F::square(t)), Scalar(1.0))), dinner);
      return F::mul(g, F::add(left, right));
    }
    case ActOp::Silu: {
      Tensor s = sigmoid(x);
      return F::mul(F::mul(g, s), F::add(F::mul(x, F::add(F::neg(s), Scalar(1.0))), Scalar(1.0)));
    }
    case ActOp::Mish: {
      Tensor t = tanh(softplus(x));
      Tensor d = F::add(t, F::mul(F::mul(x, sigmoid(x)), F::add(F::neg(F::square(t)), Scalar(1.0))));
      return F::mul(g, d);
    }
    case ActOp::Hardswish: {
      Tensor mid = F::mul(g, F::add(F::div(x, num(3.0)), Scalar(0.5)));
      return F::where(F::le(x, num(-3.0)), Scalar(0.0), F::where(F::lt(x, num(3.0)), mid, g));
    }
    case ActOp::Hardsigmoid: return F::keep_where(band(x, -3.0, 3.0), F::div(g, num(6.0)));
    case ActOp::Softplus: {
      Tensor z = F::mul(x, Scalar(a.p0));
      return F::where(F::gt(z, num(a.p1)), g, F::mul(g, sigmoid(z)));
    }
    case ActOp::Hardshrink:
    case ActOp::Softshrink:
      return F::zero_where(F::logical_and(F::ge(x, num(-a.p0)), F::le(x, num(a.p0))), g);
    case ActOp::LogSigmoid: return F::mul(g, sigmoid(F::neg(x)));
  }
  fail(ErrorKind::Runtime, "activation derivative: unknown op");
}

}  // namespace

Tensor activation(const Tensor& grad, const Tensor& x, ActOp op, const ActArgs& args) {
  // With grad mode off nothing is recorded: the fused kernel (called directly) is exact.
  if (!GradMode::is_enabled()) return activation_backward(op, grad, x, args, "activation_backward");
  return composite(grad, x, op, args);
}

TensorList prelu(BackwardContext& c) {
  const Tensor& g = c.grad();
  const Tensor& x = c.input("self");
  const Tensor& w = c.input("weight");
  Tensor pos = F::gt(x, num(0.0));
  Tensor wb = F::reshape(w, prelu_weight_shape(x, w));
  Tensor gx = c.needs_grad("self") ? F::where(pos, g, F::mul(g, wb)) : Tensor();
  Tensor gw;
  if (c.needs_grad("weight")) {
    Tensor contrib = F::zero_where(pos, F::mul(g, x));
    Tensor summed = wb.dim() == 0 ? F::tensor_call(TZ_OP("sum"), {contrib}) : sum_all_but(contrib, 1);
    gw = F::reshape(summed, w.sizes());
  }
  return {gx, gw};
}

}  // namespace tz::grad
