// Autograd for op-table ops: the generic backward node (named like PyTorch's, e.g.
// MulBackward0) that runs an entry's derivative formula, and the recording done by call_op.
#pragma once
#include <string_view>

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
// arrived), the forward arguments by their schema names (tensors only where the entry saves
// them), the saved outputs, and which tensor inputs need a gradient. Formulas return the
// gradients of the tensor inputs in argument order (each element of a Tensor[] counts).
struct BackwardContext {
  const TensorList& grads;
  const Stack& args;  // matched to the schema; for argument helpers shared with the forward
  const TensorList& results;
  const std::vector<bool>& needs;         // per tensor input, in argument order
  const std::vector<OutputMeta>& inputs;  // sizes and dtype of each tensor input
  const std::vector<TensorGeometry>* geometry = nullptr;  // per tensor input, if saved
  const Op* op = nullptr;                                  // the entry being differentiated

  const Tensor& grad(size_t i = 0) const { return grads.at(i); }
  const Tensor& result(size_t i = 0) const { return results.at(i); }
  const Value& arg(std::string_view name) const { return args[op->arg_index(name)]; }
  const Tensor& input(std::string_view name) const { return arg(name).tensor(); }
  // A tensor argument by name (of a Tensor[] argument, its first element).
  bool needs_grad(std::string_view name) const { return needs_grad_at(input_index(name)); }
  // Whether the schema has a Tensor argument `name` (overloads that take a Scalar instead).
  bool has_input(std::string_view name) const;
  const Shape& input_sizes(std::string_view name) const { return input_sizes_at(input_index(name)); }
  const TensorGeometry& input_geometry(std::string_view name) const { return geometry->at(input_index(name)); }
  // Tensor inputs by position, for formulas over all of them (Tensor[] elements, zeros...).
  size_t num_inputs() const { return needs.size(); }
  bool needs_grad_at(size_t i) const { return i < needs.size() && needs[i]; }
  const Shape& input_sizes_at(size_t i) const { return inputs.at(i).sizes; }
  size_t input_index(std::string_view name) const { return op->input_index(op->arg_index(name), needs.size()); }
};

namespace autograd {

// Runs `op` and, when grad mode is on and a tensor input requires grad, records its node.
Value call_with_autograd(const Op& op, Stack& args);
// Whether any tensor argument requires grad.
bool any_requires_grad(const Stack& args);

}  // namespace autograd
}  // namespace tz
