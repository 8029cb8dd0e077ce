#include "derivatives/loss.h"

#include "autograd/engine.h"
#include "autograd/functions.h"

namespace tz::grad {

namespace {

using F::number;

// The incoming gradient at each element of the unreduced loss: itself for reduction='none',
// the 0-d gradient (divided by the element count for 'mean') otherwise; it broadcasts.
Tensor per_element(BackwardContext& c, const Tensor& loss_like) {
  const Tensor& g = c.grad(0);
  if (c.arg("reduction").to_int() != 1) return g;
  return F::div(g, number(static_cast<double>(loss_like.numel())));
}

Tensor sigmoid(const Tensor& x) { return F::tensor_call(TZ_OP("sigmoid"), {x}); }
Tensor abs(const Tensor& x) { return F::tensor_call(TZ_OP("abs"), {x}); }

// d self and d target = -d self, each summed back to its input's shape.
TensorList symmetric(BackwardContext& c, const Tensor& d) {
  TensorList out(2);
  if (c.needs_grad("self")) out[0] = autograd::sum_to(d, c.input_sizes("self"));
  if (c.needs_grad("target")) out[1] = autograd::sum_to(F::neg(d), c.input_sizes("target"));
  return out;
}

Tensor difference(BackwardContext& c) { return F::sub(c.input("self"), c.input("target")); }

Tensor times_weight(BackwardContext& c, const Tensor& d) {
  const Value& w = c.arg("weight");
  return w.is_none() ? d : F::mul(d, w.tensor());
}

}  // namespace

TensorList mse_loss(BackwardContext& c) {
  Tensor d = difference(c);
  return symmetric(c, F::mul(F::mul(d, number(2.0)), per_element(c, d)));
}

TensorList smooth_l1_loss(BackwardContext& c) {
  Tensor d = difference(c);
  const double beta = c.arg("beta").to_double();
  Tensor slope = beta == 0 ? F::sgn(d) : F::where(F::lt(abs(d), number(beta)), F::div(d, number(beta)), F::sgn(d));
  return symmetric(c, F::mul(slope, per_element(c, d)));
}

TensorList huber_loss(BackwardContext& c) {
  Tensor d = difference(c);
  const double delta = c.arg("delta").to_double();
  Tensor slope = F::where(F::lt(abs(d), number(delta)), d, F::mul(F::sgn(d), number(delta)));
  return symmetric(c, F::mul(slope, per_element(c, d)));
}

TensorList soft_margin_loss(BackwardContext& c) {
  // loss = log(1 + exp(-y x)): d x = -y sigmoid(-y x), d y = -x sigmoid(-y x)
  const Tensor& x = c.input("self");
  const Tensor& y = c.input("target");
  Tensor s = F::mul(sigmoid(F::neg(F::mul(x, y))), per_element(c, x));
  TensorList out(2);
  if (c.needs_grad("self")) out[0] = autograd::sum_to(F::neg(F::mul(y, s)), c.input_sizes("self"));
  if (c.needs_grad("target")) out[1] = autograd::sum_to(F::neg(F::mul(x, s)), c.input_sizes("target"));
  return out;
}

TensorList binary_cross_entropy(BackwardContext& c) {
  const Tensor& x = c.input("self");
  const Tensor& t = c.input("target");
  Tensor g = times_weight(c, per_element(c, x));
  TensorList out(2);
  if (c.needs_grad("self")) {
    // (x - t) / max(x (1 - x), 1e-12), as PyTorch (its EPSILON keeps x in {0, 1} finite)
    Tensor denom = F::tensor_call(TZ_OP("clamp_min"), {F::mul(x, F::add(F::neg(x), Scalar(1.0))), number(1e-12)});
    out[0] = autograd::sum_to(F::mul(F::div(F::sub(x, t), denom), g), c.input_sizes("self"));
  }
  if (c.needs_grad("target")) {
    auto clamped_log = [](const Tensor& v) { return F::tensor_call(TZ_OP("clamp_min"), {F::log(v), number(-100.0)}); };
    Tensor d = F::sub(clamped_log(F::add(F::neg(x), Scalar(1.0))), clamped_log(x));
    out[1] = autograd::sum_to(F::mul(d, g), c.input_sizes("target"));
  }
  return out;
}

TensorList binary_cross_entropy_with_logits(BackwardContext& c) {
  const Tensor& x = c.input("self");
  const Tensor& t = c.input("target");
  const Value& pos_weight = c.arg("pos_weight");
  Tensor g = times_weight(c, per_element(c, x));
  TensorList out(2);
  if (c.needs_grad("self")) {
    // d x = (1 - t) - lw sigmoid(-x); without pos_weight that is sigmoid(x) - t
    Tensor d;
    if (pos_weight.is_none()) {
      d = F::sub(sigmoid(x), t);
    } else {
      Tensor lw = F::add(F::mul(F::add(pos_weight.tensor(), Scalar(-1.0)), t), Scalar(1.0));
      d = F::sub(F::add(F::neg(t), Scalar(1.0)), F::mul(lw, sigmoid(F::neg(x))));
    }
    out[0] = autograd::sum_to(F::mul(d, g), c.input_sizes("self"));
  }
  if (c.needs_grad("target")) {
    // d t = -x + (pos_weight - 1) log(1 + exp(-x))
    Tensor d = F::neg(x);
    if (!pos_weight.is_none()) {
      Tensor softplus_neg = F::tensor_call(TZ_OP("softplus"), {F::neg(x)});
      d = F::add(d, F::mul(F::add(pos_weight.tensor(), Scalar(-1.0)), softplus_neg));
    }
    out[1] = autograd::sum_to(F::mul(d, g), c.input_sizes("target"));
  }
  return out;
}

}  // namespace tz::grad
