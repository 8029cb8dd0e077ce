// The elementwise losses PyTorch computes as one op (one autograd node, MseLossBackward0 ...):
// the per-element loss, then the reduction. Their gradients are in derivatives/loss.cpp.
#include <cmath>

#include "ops/conversion.h"
#include "ops/elementwise.h"
#include "ops/indexing.h"
#include "ops/loss.h"
#include "ops/reduction.h"

namespace tz {

namespace {

Tensor number(double v) { return scalar_to_tensor(Scalar(v)); }  // a Python-number operand

Tensor reduce_loss(const Tensor& loss, int64_t reduction, const char* op) {
  switch (loss_reduction(reduction, op)) {
    case LossReduction::Mean: return mean(loss, std::nullopt, false, std::nullopt);
    case LossReduction::Sum: return sum(loss, std::nullopt, false, std::nullopt);
    case LossReduction::None: break;
  }
  return loss;
}

Tensor weighted(const Tensor& loss, const std::optional<Tensor>& weight) {
  return weight ? mul(loss, *weight) : loss;
}

}  // namespace

Tensor mse_loss(const Tensor& self, const Tensor& target, int64_t reduction) {
  return reduce_loss(square(sub(self, target)), reduction, "mse_loss");
}

Tensor smooth_l1_loss(const Tensor& self, const Tensor& target, int64_t reduction, double beta) {
  TZ_CHECK(beta >= 0, Runtime, "smooth_l1_loss(): smooth_l1_loss does not support negative values for beta.");
  Tensor z = abs(sub(self, target));
  if (beta == 0) return reduce_loss(z, reduction, "smooth_l1_loss");
  Tensor quadratic = div(mul(mul(z, z), number(0.5)), number(beta));
  Tensor linear = sub(z, number(0.5 * beta));
  return reduce_loss(where(lt(z, number(beta)), quadratic, linear), reduction, "smooth_l1_loss");
}

Tensor huber_loss(const Tensor& self, const Tensor& target, int64_t reduction, double delta) {
  TZ_CHECK(delta > 0, Runtime, "huber_loss(): huber_loss does not support non-positive values for delta.");
  Tensor z = abs(sub(self, target));
  Tensor quadratic = mul(mul(z, z), number(0.5));
  Tensor linear = mul(sub(z, number(0.5 * delta)), number(delta));
  return reduce_loss(where(lt(z, number(delta)), quadratic, linear), reduction, "huber_loss");
}

Tensor soft_margin_loss(const Tensor& self, const Tensor& target, int64_t reduction) {
  return reduce_loss(log1p(exp(neg(mul(self, target)))), reduction, "soft_margin_loss");
}

Tensor binary_cross_entropy(const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight,
                            int64_t reduction) {
  // log clamped at -100 like PyTorch, so that 0 * log(0) stays finite.
  Tensor log_x = maximum(log(self), number(-100.0));
  Tensor log_1mx = maximum(log(sub(number(1.0), self)), number(-100.0));
  Tensor loss = neg(add(mul(target, log_x), mul(sub(number(1.0), target), log_1mx)));
  return reduce_loss(weighted(loss, weight), reduction, "binary_cross_entropy");
}

Tensor binary_cross_entropy_with_logits(const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight,
                                        const std::optional<Tensor>& pos_weight, int64_t reduction) {
  // (1 - t) x + lw (log(1 + exp(-|x|)) + max(-x, 0)), lw = 1 + (pos_weight - 1) t: stable for any x.
  Tensor softplus_neg = add(log1p(exp(neg(abs(self)))), maximum(neg(self), number(0.0)));
  if (pos_weight) softplus_neg = mul(softplus_neg, add(mul(sub(*pos_weight, number(1.0)), target), number(1.0)));
  Tensor loss = add(mul(sub(number(1.0), target), self), softplus_neg);
  return reduce_loss(weighted(loss, weight), reduction, "binary_cross_entropy_with_logits");
}

}  // namespace tz
