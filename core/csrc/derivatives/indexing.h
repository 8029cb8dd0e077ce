// Derivatives of the views and indexing family: the kernels of the internal backward ops
// (op table entries, so that they are differentiable in turn), storage-space helpers for
// as_strided-like geometry, and the longer derivative formulas the op table points at.
#pragma once
#include <initializer_list>

#include "autograd/op_node.h"

namespace tz {

// ---- kernels of internal table entries
// zeros(base_sizes) (contiguous), plus `grad` added through the geometry (size, stride,
// offset) laid over it; elements the geometry visits twice accumulate (unfold's windows).
Tensor view_scatter_add(const Tensor& grad, const IntList& base_sizes, const IntList& size,
                        const IntList& stride, int64_t offset);
// The gradient of the split-like ops: zeros(sizes) plus grads[i] added at starts[i] along
// `dim` (keepdim=false: grads[i] is one index of dim, as for unbind). Pieces may overlap.
Tensor split_backward(const TensorList& grads, const IntList& sizes, int64_t dim, const IntList& starts,
                      bool keepdim);

// Whether no two elements of the geometry share a memory location.
bool is_non_overlapping(const Shape& sizes, const Shape& strides);

// ---- derivative formulas (see op_table.cpp)
namespace grad {
TensorList as_strided(BackwardContext& c);
TensorList view_scatter_add(BackwardContext& c);
TensorList split_backward(BackwardContext& c);
// Single-output view ops that only compute metadata (narrow, select, unfold, slice): the op
// reruns on a contiguous tensor of the input's sizes to learn the view's geometry over it.
TensorList strided_view(BackwardContext& c);
// unbind (keepdim=false) and split / split_with_sizes / chunk / tensor_split, likewise.
TensorList pieces(BackwardContext& c, int64_t dim, bool keepdim);

TensorList scatter(BackwardContext& c);  // scatter(_).src and .value
TensorList scatter_add(BackwardContext& c);
TensorList index_add(BackwardContext& c);
TensorList index_copy(BackwardContext& c);
TensorList index_fill(BackwardContext& c);
TensorList masked_fill(BackwardContext& c);
TensorList masked_select(BackwardContext& c);
TensorList masked_scatter(BackwardContext& c);
TensorList take(BackwardContext& c);
TensorList put(BackwardContext& c);
TensorList index(BackwardContext& c);
TensorList index_put(BackwardContext& c);
}  // namespace grad

}  // namespace tz
