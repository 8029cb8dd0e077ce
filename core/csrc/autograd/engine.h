// The backward engine: dependency counting over the reachable graph, a ready queue ordered
// by creation (latest first), gradient buffers summed before a node runs, central
// un-broadcasting of gradients to the shape their tensor had, and optional capture of the
// gradients of chosen inputs (autograd.grad, backward(inputs=...)).
#pragma once
#include <vector>

#include "autograd/node.h"

namespace tz::autograd {

struct BackwardOptions {
  bool keep_graph = false;
  bool create_graph = false;
  bool accumulate_grad = true;  // false for autograd.grad: only capture
  bool allow_unused = false;
};

// Runs backward from `roots` (their gradients in `grad_roots`, undefined = implicit 1 for
// scalars). Returns the gradients of `inputs` (empty if none were asked for).
TensorList run_backward(const TensorList& roots, const TensorList& grad_roots,
                        const TensorList& inputs, const BackwardOptions& options);

// Reduces a broadcast gradient back to `shape` (summing broadcast dims).
Tensor sum_to(const Tensor& grad, const Shape& shape);

}  // namespace tz::autograd
