#include "ops/elementwise_grad.h"

#include "autograd/functions.h"
#include "ops/conversion.h"

namespace tz::grad {

namespace {
using F::number;
bool has_rounding_mode(const BackwardContext& c) { return c.args.size() > 2 && !c.arg("rounding_mode").is_none(); }
// t + v. Arithmetic between two wrapped numbers would give a default-dtype (float32) tensor,
// so a wrapped number's value is shifted here instead (it never requires grad).
Tensor plus(const Tensor& t, double v) {
  if (!t.impl()->wrapped_number || is_complex(t.dtype())) return F::add(t, Scalar(v));
  Scalar s = item(t);
  return scalar_to_tensor(s.is_integral() ? Scalar(s.to_int() + static_cast<int64_t>(v)) : Scalar(s.to_double() + v));
}
}  // namespace

Scalar alpha_factor(const Scalar& alpha, bool negate) {
  const double sign = negate ? -1.0 : 1.0;
  if (alpha.is_complex()) {
    complex128 z = alpha.to_complex128();
    return Scalar(complex128(sign * z.real(), -sign * z.imag()));
  }
  return alpha.is_integral() && !alpha.is_bool() ? Scalar(int64_t(sign) * alpha.to_int()) : Scalar(sign * alpha.to_double());
}

TensorList zeros(BackwardContext& c) {
  TensorList out;
  for (size_t i = 0; i < c.num_inputs(); ++i) out.push_back(c.needs_grad_at(i) ? F::zeros_like(c.grad()) : Tensor());
  return out;
}

TensorList div(BackwardContext& c) {
  if (has_rounding_mode(c)) return zeros(c);  // trunc/floor: piecewise constant
  Tensor g_self = F::div(c.grad(), F::conj(c.input("other")));
  return {g_self, c.needs_grad("other") ? F::neg(F::mul(g_self, F::conj(F::div(c.input("self"), c.input("other"))))) : Tensor()};
}

TensorList pow(BackwardContext& c) {
  const Tensor& self = c.input("self");
  const Tensor& exponent = c.input("exponent");
  Tensor g_self, g_exp;
  if (c.needs_grad("self")) {
    // exponent * self^(exponent-1), taken as 0 where the exponent is 0 (also at self == 0)
    Tensor d = F::mul(exponent, F::pow(self, plus(exponent, -1.0)));
    g_self = F::where(F::eq(exponent, number(0.0)), Scalar(0.0), F::mul(c.grad(), F::conj(d)));
  }
  if (c.needs_grad("exponent")) {
    // result * log(self); 0 where self == 0 and exponent >= 0 (0^y is flat there)
    Tensor e = is_complex(exponent.dtype()) ? F::tensor_call(TZ_OP("real"), {exponent}) : exponent;
    Tensor flat = F::logical_and(F::eq(self, number(0.0)), F::ge(e, number(0.0)));
    Tensor d = F::mul(F::pow(self, exponent), F::log(self));
    g_exp = F::mul(c.grad(), F::conj(F::where(flat, Scalar(0.0), d)));
  }
  return {g_self, g_exp};
}

TensorList atan2(BackwardContext& c) {
  const Tensor& self = c.input("self");
  const Tensor& other = c.input("other");
  Tensor scale = F::div(c.grad(), F::add(F::square(self), F::square(other)));
  return {c.needs_grad("self") ? F::mul(scale, other) : Tensor(), c.needs_grad("other") ? F::neg(F::mul(scale, self)) : Tensor()};
}

TensorList hypot(BackwardContext& c) {
  Tensor scale = F::div(c.grad(), c.result());
  return {c.needs_grad("self") ? F::mul(scale, c.input("self")) : Tensor(),
          c.needs_grad("other") ? F::mul(scale, c.input("other")) : Tensor()};
}

TensorList xlogy(BackwardContext& c) {
  const Tensor& self = c.input("self");
  const Tensor& other = c.input("other");
  Tensor g_self;
  if (c.needs_grad("self")) {
    Tensor flat = F::logical_and(F::eq(self, number(0.0)), F::le(other, number(0.0)));
    g_self = F::where(flat, Scalar(0.0), F::xlogy(c.grad(), other));
  }
  return {g_self, c.needs_grad("other") ? F::div(F::mul(c.grad(), self), other) : Tensor()};
}

namespace {
// maximum/minimum: the winner takes the gradient, a tie splits it.
TensorList extremum(BackwardContext& c, bool is_max) {
  const Tensor& self = c.input("self");
  const Tensor& other = c.input("other");
  Tensor shared = F::where(F::eq(self, other), F::mul(c.grad(), Scalar(0.5)), c.grad());
  Tensor self_loses = is_max ? F::lt(self, other) : F::gt(self, other);
  Tensor other_loses = is_max ? F::gt(self, other) : F::lt(self, other);
  return {c.needs_grad("self") ? F::where(self_loses, Scalar(0.0), shared) : Tensor(),
          c.needs_grad("other") ? F::where(other_loses, Scalar(0.0), shared) : Tensor()};
}
// fmax/fmin: self takes the gradient where it wins or ties, or where other is NaN.
TensorList nan_extremum(BackwardContext& c, bool is_max) {
  const Tensor& self = c.input("self");
  const Tensor& other = c.input("other");
  Tensor self_wins = F::logical_or(is_max ? F::ge(self, other) : F::le(self, other), F::isnan(other));
  return {c.needs_grad("self") ? F::keep_where(self_wins, c.grad()) : Tensor(),
          c.needs_grad("other") ? F::where(self_wins, Scalar(0.0), c.grad()) : Tensor()};
}
}  // namespace

TensorList maximum(BackwardContext& c) { return extremum(c, true); }
TensorList minimum(BackwardContext& c) { return extremum(c, false); }
TensorList fmax(BackwardContext& c) { return nan_extremum(c, true); }
TensorList fmin(BackwardContext& c) { return nan_extremum(c, false); }

TensorList lerp(BackwardContext& c) {
  const Tensor& weight = c.input("weight");  // often a wrapped number: kept out of scalar arithmetic
  Tensor w = F::conj(weight);
  return {c.needs_grad("self") ? F::sub(c.grad(), F::mul(c.grad(), w)) : Tensor(),
          c.needs_grad("end") ? F::mul(c.grad(), w) : Tensor(),
          c.needs_grad("weight") ? F::mul(c.grad(), F::conj(F::sub(c.input("end"), c.input("self")))) : Tensor()};
}

namespace {
// PyTorch's rule: self gets the gradient where min <= self <= max; min where self < min
// (and min < max); max where self > max (or max < min, when the result is max throughout).
TensorList clamp_bounds(BackwardContext& c, const Tensor& min, const Tensor& max) {
  const Tensor& self = c.input("self");
  const Tensor& grad = c.grad();
  Tensor g_self, g_min, g_max;
  if (c.needs_grad("self")) {
    if (min.defined() && max.defined()) g_self = F::keep_where(F::logical_and(F::ge(self, min), F::le(self, max)), grad);
    else if (min.defined()) g_self = F::keep_where(F::ge(self, min), grad);
    else if (max.defined()) g_self = F::keep_where(F::le(self, max), grad);
    else g_self = grad;
  }
  if (min.defined() && c.needs_grad("min")) {
    Tensor below = F::lt(self, min);
    g_min = F::keep_where(max.defined() ? F::logical_and(below, F::lt(min, max)) : below, grad);
  }
  if (max.defined() && c.needs_grad("max")) {
    Tensor above = F::gt(self, max);
    g_max = F::keep_where(min.defined() ? F::logical_or(above, F::lt(max, min)) : above, grad);
  }
  return {g_self, g_min, g_max};
}
const Tensor& opt(const BackwardContext& c, std::string_view name) {
  static const Tensor none;
  return c.arg(name).is_none() ? none : c.input(name);
}
}  // namespace

TensorList clamp(BackwardContext& c) { return clamp_bounds(c, opt(c, "min"), opt(c, "max")); }

TensorList clamp_min(BackwardContext& c) {
  TensorList g = clamp_bounds(c, c.input("min"), Tensor());
  return {g[0], g[1]};
}

TensorList clamp_max(BackwardContext& c) {
  const Tensor& self = c.input("self");
  const Tensor& max = c.input("max");
  return {c.needs_grad("self") ? F::keep_where(F::le(self, max), c.grad()) : Tensor(),
          c.needs_grad("max") ? F::keep_where(F::gt(self, max), c.grad()) : Tensor()};
}

TensorList logit(BackwardContext& c) {
  const Tensor& self = c.input("self");
  // d/dx log(x / (1 - x)) = 1 / (x (1 - x))
  Tensor d = F::div(c.grad(), F::mul(self, F::add(F::neg(self), Scalar(1.0))));
  const bool has_eps = !c.arg("eps").is_none();
  const double lo = has_eps ? c.arg("eps").to_double() : 0.0;
  // outside [eps, 1 - eps] the input was clamped (0); without eps, outside [0, 1] it is NaN
  Tensor outside = F::logical_or(F::lt(self, number(lo)), F::gt(self, number(1.0 - lo)));
  return {F::where(outside, Scalar(has_eps ? 0.0 : std::nan("")), d)};
}

TensorList angle(BackwardContext& c) {
  const Tensor& self = c.input("self");
  if (!is_complex(self.dtype())) return {F::zeros_like(c.grad())};  // 0 or pi: piecewise constant
  Tensor d = F::div(F::mul(c.grad(), self), F::square(F::tensor_call(TZ_OP("abs"), {self})));
  return {F::where(F::eq(self, number(0.0)), Scalar(0.0), F::mul(d, Scalar(complex64(0.0f, 1.0f))))};
}

}  // namespace tz::grad
