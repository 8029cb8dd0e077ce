// Autograd for op-table ops: the generic backward node (named like PyTorch's, e.g.
// MulBackward0) that runs an entry's derivative formula, and the recording done by call_op.
#pragma once
#include "autograd/saved_variable.h"
#include "ops/registry.h"

namespace tz {

// Where a tensor's elements sit in its storage (entries saving "geometry" get their inputs').
struct TensorGeometry {
  Shape sizes;
  Shape strides;
  int64_t offset = 0;
  static TensorGeometry of(const Tensor& t) { return {t.sizes(), t.strides(), t.offset()}; }
};

// What a derivative formula sees: the gradients of the forward outputs (zeros where none
// arrived), the forward arguments (tensors listed in the entry's `saves`, others undefined),
// the saved outputs, and which tensor inputs need a gradient.
struct BackwardContext {
  const TensorList& grads;
  const Stack& args;
  const TensorList& results;
  const std::vector<bool>& needs;         // per tensor input, in argument order
  const std::vector<OutputMeta>& inputs;  // sizes and dtype of each tensor input
  const std::vector<TensorGeometry>* geometry = nullptr;  // per tensor input, if saved
  const Op* op = nullptr;                                  // the entry being differentiated

  const Tensor& grad(size_t i = 0) const { return grads.at(i); }
  const Tensor& result(size_t i = 0) const { return results.at(i); }
  const Tensor& tensor(size_t arg) const { return args.at(arg).tensor(); }
  bool needs_grad(size_t input) const { return input < needs.size() && needs[input]; }
  const Shape& input_sizes(size_t input) const { return inputs.at(input).sizes; }
  const TensorGeometry& input_geometry(size_t input) const { return geometry->at(input); }
};

namespace autograd {

// Runs `op` and, when grad mode is on and a tensor input requires grad, records its node.
Value call_with_autograd(const Op& op, Stack& args);
// Whether any tensor argument requires grad.
bool any_requires_grad(const Stack& args);

}  // namespace autograd
}  // namespace tz
