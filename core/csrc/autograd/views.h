// Views in autograd. Every op output sharing an input's storage is recorded as a view of
// that input's root base (ViewInfo). An in-place op on such a view rewrites part of the
// base, so the base's history is rebased onto a CopySlices node (PyTorch's mechanism): its
// backward hands the base's old history the gradient with the view's region replaced by
// what flows through the in-place op. A view whose memory changed since its grad_fn was set
// gets a fresh grad_fn: an as_strided of its base's current history.
#pragma once
#include "autograd/autograd_meta.h"
#include "autograd/op_node.h"

namespace tz::autograd {

// Records `view` (sharing `source`'s storage) as a view of source's root base. Nothing in
// inference mode.
void as_view(const Tensor& view, const Tensor& source);
// The view record of `t`, or null.
const ViewInfo* view_info(const Tensor& t);
// Regenerates the grad_fn of a view whose memory was written since it was set.
void refresh_view_grad_fn(const Tensor& t, AutogradMeta& m);
// Makes `view`'s grad_fn an as_strided of its base's current history.
void set_view_grad_fn_from_base(const Tensor& view, AutogradMeta& m);
// The node that becomes `base`'s history after `fn` (the node of an in-place op on `view`)
// ran: its edges are the base's current history, then fn's edges for its other inputs.
NodePtr make_copy_slices(const Tensor& base, const Tensor& view, NodePtr fn);

}  // namespace tz::autograd
