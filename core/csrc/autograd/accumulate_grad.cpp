#include "autograd/accumulate_grad.h"

#include "autograd/grad_mode.h"
#include "ops/conversion.h"
#include "ops/elementwise.h"

namespace tz {

AccumulateGrad::AccumulateGrad(Tensor leaf) : leaf_(std::move(leaf)) {}

TensorList AccumulateGrad::apply(TensorList&& grads) {
  const Tensor& grad = grads.at(0);
  if (!grad.defined()) return {};
  AutogradMeta& m = autograd::ensure_meta(leaf_);
  std::lock_guard<std::mutex> lock(m.mutex);
  if (GradMode::is_enabled()) {
    // create_graph: the accumulated gradient stays differentiable.
    m.grad = m.grad.defined() ? add(m.grad, grad) : grad;
  } else if (!m.grad.defined()) {
    m.grad = clone(grad);  // never alias a buffer the engine or the user still holds
  } else if (autograd::requires_grad(m.grad)) {
    m.grad = add(m.grad, grad);  // the old grad is part of a graph: don't mutate it
  } else {
    binary_op_(BinaryOp::Add, m.grad, grad, "AccumulateGrad");
  }
  return {};
}

}  // namespace tz
