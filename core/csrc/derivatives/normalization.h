// Derivative formulas of the normalization ops (ops/normalization.h): the fused backward
// ops when no graph is built, else composites of differentiable ops (double backward).
#pragma once
#include "autograd/op_node.h"

namespace tz::grad {

TensorList native_batch_norm(BackwardContext& c);
TensorList native_layer_norm(BackwardContext& c);
TensorList native_group_norm(BackwardContext& c);

}  // namespace tz::grad
