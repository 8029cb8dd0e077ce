// Derivative formulas of the elementwise losses (ops/loss_pointwise.cpp): each loss is one
// node whose backward computes d self (and d target) directly, from differentiable ops.
#pragma once
#include "autograd/op_node.h"

namespace tz::grad {

TensorList mse_loss(BackwardContext& c);
TensorList smooth_l1_loss(BackwardContext& c);
TensorList huber_loss(BackwardContext& c);
TensorList soft_margin_loss(BackwardContext& c);
TensorList binary_cross_entropy(BackwardContext& c);
TensorList binary_cross_entropy_with_logits(BackwardContext& c);

}  // namespace tz::grad
