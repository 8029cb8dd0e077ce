// Derivatives of the elementwise family that are too long to sit in the op table (written
// with the differentiable F:: calls, so they support double backward).
#pragma once
#include "autograd/op_node.h"

namespace tz::grad {

// What add/sub's `alpha` multiplies the gradient by: conj(alpha), negated for subtraction.
Scalar alpha_factor(const Scalar& alpha, bool negate);
TensorList div(BackwardContext& c);          // div/divide/true_divide (rounding modes: zeros)
// Zero for every tensor input: piecewise-constant ops (floor/round/sign/floor_divide,
// comparisons in place...) and the samplers, as PyTorch defines them (draws are not
// reparameterised; in-place ones cut the gradient to self's old value).
TensorList zeros(BackwardContext& c);
TensorList pow(BackwardContext& c);          // pow/float_power: 0 where the exponent is 0
TensorList atan2(BackwardContext& c);
TensorList hypot(BackwardContext& c);
TensorList xlogy(BackwardContext& c);
TensorList maximum(BackwardContext& c);      // ties: half to each side
TensorList minimum(BackwardContext& c);
TensorList fmax(BackwardContext& c);         // ties (and a NaN other): all to self
TensorList fmin(BackwardContext& c);
TensorList lerp(BackwardContext& c);
TensorList clamp(BackwardContext& c);        // clamp/clip(self, min?, max?)
TensorList clamp_min(BackwardContext& c);
TensorList clamp_max(BackwardContext& c);
TensorList logit(BackwardContext& c);
TensorList angle(BackwardContext& c);        // real inputs: 0; complex: i * grad * z / |z|^2

}  // namespace tz::grad
