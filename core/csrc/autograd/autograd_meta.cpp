#include "autograd/autograd_meta.h"

#include "autograd/accumulate_grad.h"
#include "autograd/grad_mode.h"
#include "autograd/views.h"

namespace tz::autograd {

AutogradMeta* meta(const Tensor& t) { return t.impl()->autograd.get(); }

AutogradMeta& ensure_meta(const Tensor& t) {
  auto& m = t.impl()->autograd;
  if (!m) m = std::make_shared<AutogradMeta>();
  return *m;
}

bool requires_grad(const Tensor& t) {
  AutogradMeta* m = meta(t);
  return m && (m->requires_grad || m->grad_fn);
}

bool is_leaf(const Tensor& t) {
  AutogradMeta* m = meta(t);
  return !m || !m->grad_fn;
}

void set_requires_grad(const Tensor& t, bool requires_grad) {
  if (!requires_grad && !meta(t)) return;
  AutogradMeta& m = ensure_meta(t);
  if (!requires_grad && m.grad_fn)
    fail(ErrorKind::Runtime, "requires_grad_(): you can only change requires_grad flags of leaf "
         "variables. If you want to use a computed variable in a subgraph that doesn't require "
         "differentiation use var_no_grad = var.detach().");
  if (requires_grad) {
    TZ_CHECK(is_floating(t.dtype()) || is_complex(t.dtype()), Runtime,
             "requires_grad_(): only Tensors of floating point and complex dtype can require "
             "gradients (got ", dtype_name(t.dtype()), ")");
    TZ_CHECK(!t.is_inference() || InferenceMode::is_enabled(), Runtime,
             "requires_grad_(): Setting requires_grad=True on inference tensor outside InferenceMode "
             "is not allowed.");
  }
  m.requires_grad = requires_grad;
}

const NodePtr& grad_fn(const Tensor& t) {
  static const NodePtr none;
  AutogradMeta* m = meta(t);
  if (m && m->view) refresh_view_grad_fn(t, *m);
  return m ? m->grad_fn : none;
}

void set_history(const Tensor& t, const NodePtr& fn, uint32_t output_nr) {
  AutogradMeta& m = ensure_meta(t);
  m.grad_fn = fn;
  m.output_nr = output_nr;
  m.requires_grad = false;
  if (fn->outputs.size() <= output_nr) fn->outputs.resize(output_nr + 1);
  fn->outputs[output_nr] = OutputMeta{t.sizes(), t.dtype()};
}

Edge gradient_edge(const Tensor& t) {
  AutogradMeta* m = meta(t);
  if (!m) return Edge{};
  if (m->view) refresh_view_grad_fn(t, *m);
  if (m->grad_fn) return Edge{m->grad_fn, m->output_nr};
  if (!m->requires_grad) return Edge{};
  std::lock_guard<std::mutex> lock(m->mutex);
  NodePtr acc = m->grad_accumulator.lock();
  if (!acc) {
    acc = std::make_shared<AccumulateGrad>(t);
    acc->outputs.push_back(OutputMeta{t.sizes(), t.dtype()});
    m->grad_accumulator = acc;
  }
  return Edge{acc, 0};
}

Tensor detach(const Tensor& t) {
  return Tensor::view_of(t, t.sizes(), t.strides(), t.offset());
}

}  // namespace tz::autograd
