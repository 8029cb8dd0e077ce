// Autograd state of a tensor, created lazily (TensorImpl::autograd): requires_grad, .grad,
// the node that produced it, hooks, and for leaves the accumulate-grad sink.
#pragma once
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "autograd/node.h"

namespace tz {

// What autograd knows about a tensor made by a view op (any op whose output shares its
// input's storage): the root base it views (itself never a tracked view), so that an in-place
// op on the view can rebase the base's history (CopySlices, autograd/views.cpp).
struct ViewInfo {
  Tensor base;
  bool rebasable = true;            // same dtype as the base: expressible as as_strided of it
  bool created_in_no_grad = false;  // made while grad mode was off (in-place then forbidden)
  uint32_t attr_version = 0;        // the version counter's value when grad_fn was last set
};

struct AutogradMeta {
  bool requires_grad = false;  // meaningful for leaves; non-leaves require grad via grad_fn
  bool retains_grad = false;
  Tensor grad;
  NodePtr grad_fn;                       // null for leaves
  uint32_t output_nr = 0;                // which output of grad_fn this tensor is
  std::weak_ptr<Node> grad_accumulator;  // leaves: their AccumulateGrad, while in some graph
  HookList hooks;                        // leaves' Tensor.register_hook (non-leaves: on grad_fn)
  std::optional<ViewInfo> view;          // set for tensors made by view ops
  std::mutex mutex;                      // guards grad and grad_accumulator
};

namespace autograd {

AutogradMeta* meta(const Tensor& t);            // null when the tensor has none
AutogradMeta& ensure_meta(const Tensor& t);     // creates it
bool requires_grad(const Tensor& t);
bool is_leaf(const Tensor& t);
void set_requires_grad(const Tensor& t, bool requires_grad);
// For a view whose memory was written since its grad_fn was set, the grad_fn is first
// regenerated as an as_strided of its base's current history (like PyTorch).
const NodePtr& grad_fn(const Tensor& t);
// Makes `t` output `output_nr` of `fn` (records its metadata in fn->outputs).
void set_history(const Tensor& t, const NodePtr& fn, uint32_t output_nr);
// Where a gradient for `t` should go: its grad_fn, or its leaf accumulator (made on demand).
Edge gradient_edge(const Tensor& t);
// A new tensor sharing t's data and version counter, outside any graph.
Tensor detach(const Tensor& t);
// Records t's current names (set after its op ran) where its gradients are fitted, so they carry them.
void note_names(const Tensor& t);

}  // namespace autograd
}  // namespace tz
