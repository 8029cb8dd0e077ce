#include "autograd/accumulate_grad.h"

#include "autograd/grad_mode.h"
#include "ops/conversion.h"
#include "ops/elementwise.h"
#include "tensor/names.h"

namespace tz {

namespace {

bool sole_owner(const Tensor& t) {
  const TensorImpl* impl = t.impl();
  return t.impl_ptr().use_count() == 1 && t.storage().use_count() == 1 && t.storage()->owns_memory() &&
         impl->version.use_count() == 1 && impl->pyobj == nullptr && impl->autograd == nullptr && !t.has_names();
}

}  // namespace

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
    // Never alias a buffer the engine or the user still holds; a gradient nothing else
    // references (no other handle, view, Python object, borrowed memory or names) is taken as it is.
    m.grad = sole_owner(grad) ? std::move(grads[0]) : clone(grad);
  } else if (autograd::requires_grad(m.grad)) {
    m.grad = add(m.grad, grad);  // the old grad is part of a graph: don't mutate it
  } else {
    binary_op_(BinaryOp::Add, m.grad, grad, "AccumulateGrad");
  }
  // .grad carries the leaf's names (formulas run on unnamed values).
  if (leaf_.has_names() && !m.grad.has_names()) [[unlikely]] set_names(m.grad, leaf_.impl()->names.get());
  return {};
}

}  // namespace tz
