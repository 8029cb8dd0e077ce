#include "autograd/views.h"

#include "autograd/functions.h"
#include "autograd/grad_mode.h"
#include "autograd/storage_space.h"
#include "ops/ops.h"

namespace tz::autograd {

namespace {

// Base's history after an in-place op wrote through a view of it. Its gradient input is the
// base's; the region the view covers goes through the in-place op's node (fn), the rest
// straight to the base's old history. Works in storage space, so any view geometry fits.
class CopySlices final : public Node {
 public:
  CopySlices(const Tensor& base, const Tensor& view, NodePtr fn)
      : base_(TensorGeometry::of(base)), view_(TensorGeometry::of(view)), fn_(std::move(fn)) {
    next_edges.push_back(gradient_edge(base));
    for (size_t i = 1; i < fn_->next_edges.size(); ++i) next_edges.push_back(fn_->next_edges[i]);
    outputs.push_back(OutputMeta{base.sizes(), base.dtype()});
  }

  std::string name() const override { return "CopySlices"; }

  TensorList apply(TensorList&& grads) override {
    TensorList out(next_edges.size());
    if (grads.empty() || !grads[0].defined()) return out;
    const Tensor& grad = grads[0];
    const StorageSpan span = storage_span({&base_, &view_});
    Tensor buffer = to_storage(grad, base_, span);
    Tensor region = from_storage(buffer, view_, span);
    TensorList through = fn_->apply({region});
    // The old values in the region were overwritten: they get no gradient from here.
    Tensor outside = ones({span.extent}, DType::Bool);
    fill_(Tensor::view_of(outside, view_.sizes, view_.strides, view_.offset - span.min_offset), Scalar(false));
    Tensor rest = F::tensor_call(TZ_OP("where.self"), {outside, buffer, scalar_to_tensor(Scalar(0.0))});
    if (!through.empty() && through[0].defined()) rest = F::add(rest, to_storage(through[0], view_, span));
    out[0] = from_storage(rest, base_, span);
    for (size_t i = 1; i < through.size() && i < out.size(); ++i) out[i] = through[i];
    return out;
  }

  void release_variables() override { fn_->release_variables(); }
  bool released() const override { return fn_->released(); }

 private:
  TensorGeometry base_, view_;
  NodePtr fn_;
};

}  // namespace

void as_view(const Tensor& view, const Tensor& source) {
  if (InferenceMode::is_enabled()) return;
  const ViewInfo* parent = view_info(source);
  ViewInfo info;
  info.base = parent ? parent->base : source;
  info.rebasable = view.dtype() == info.base.dtype();  // geometry counts base elements
  info.created_in_no_grad = !GradMode::is_enabled() || (parent && parent->created_in_no_grad);
  info.attr_version = view.version();
  ensure_meta(view).view = std::move(info);
}

const ViewInfo* view_info(const Tensor& t) {
  AutogradMeta* m = meta(t);
  return m && m->view ? &*m->view : nullptr;
}

void set_view_grad_fn_from_base(const Tensor& view, AutogradMeta& m) {
  ViewInfo& info = *m.view;
  AutoGradMode enable(true);
  Tensor fresh = F::tensor_call(TZ_OP("as_strided"), {info.base, IntList(view.sizes().begin(), view.sizes().end()),
                                                     IntList(view.strides().begin(), view.strides().end()), view.offset()});
  m.grad_fn = grad_fn(fresh);
  m.output_nr = 0;
  info.attr_version = view.version();
}

void refresh_view_grad_fn(const Tensor& t, AutogradMeta& m) {
  ViewInfo& info = *m.view;
  // Views made under no_grad (e.g. in a custom Function's forward) keep what they were given.
  if (!m.grad_fn || info.attr_version == t.version() || !info.rebasable || info.created_in_no_grad) return;
  if (!requires_grad(info.base)) {
    info.attr_version = t.version();
    return;
  }
  set_view_grad_fn_from_base(t, m);
}

NodePtr make_copy_slices(const Tensor& base, const Tensor& view, NodePtr fn) {
  return std::make_shared<CopySlices>(base, view, std::move(fn));
}

}  // namespace tz::autograd
