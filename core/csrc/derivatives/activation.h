// Derivative formulas of the activation ops (ops/activation.h).
#pragma once
#include "autograd/op_node.h"
#include "kernels/activation.h"

namespace tz::grad {

// grad * f'(x) for activation `op`: the fused backward kernel when no graph is being built
// (plain backward), else a composite of differentiable ops (create_graph, double backward).
// `x` is the input, or the result for relu/hardtanh (their masks are the same).
Tensor activation(const Tensor& grad, const Tensor& x, ActOp op, const ActArgs& args);
// prelu: gradients of self and weight.
TensorList prelu(BackwardContext& c);

}  // namespace tz::grad
