// Derivative formulas of the joining family (cat/stack and relatives, repeats, diagonals,
// meshgrid, pad), written with differentiable calls (see derivatives/util.h).
#pragma once
#include <optional>
#include <string>

#include "autograd/op_node.h"

namespace tz::grad {

// cat along `dim` of inputs that entered it with shapes `cat_shapes` (their own shapes for
// cat, after atleast_*d for hstack & co): each input gets its slice of the gradient, reshaped
// back. Legacy-skipped (0,) entries get an empty gradient.
TensorList cat_backward(const BackwardContext& c, const std::vector<Shape>& cat_shapes, int64_t dim);
TensorList cat_backward(const BackwardContext& c, int64_t dim);
TensorList stack_backward(const BackwardContext& c, int64_t dim);
enum class StackKind { H, V, D, Column };
TensorList stack_np_backward(const BackwardContext& c, StackKind kind);
// Ops whose output i is a reshaped view of input i (atleast_*d on lists).
TensorList reshape_each_backward(const BackwardContext& c);

// repeat: the gradient summed over the repeated tiles.
Tensor repeat_backward(const Tensor& grad, const Shape& input, const IntList& repeats);
Tensor tile_backward(const Tensor& grad, const Shape& input, const IntList& dims);
// repeat_interleave: each element's copies summed back.
Tensor repeat_interleave_backward(const Tensor& grad, const Shape& input, int64_t repeats,
                                  std::optional<int64_t> dim);
Tensor repeat_interleave_backward(const Tensor& grad, const Shape& input, const Tensor& repeats,
                                  std::optional<int64_t> dim);

// Zeros of the input's shape with the diagonal (offset, dim1, dim2) set to grad.
Tensor diagonal_backward(const Tensor& grad, const Shape& input, int64_t offset, int64_t dim1, int64_t dim2);
Tensor trace_backward(const Tensor& grad, const Shape& input);

TensorList meshgrid_backward(const BackwardContext& c, const std::string& indexing);
TensorList cartesian_prod_backward(const BackwardContext& c);

// torch.nn.functional.pad: constant mode crops/zero-pads back; reflect, replicate and
// circular add every border's gradient onto the input elements it was read from.
Tensor pad_backward(const Tensor& grad, const Shape& input, const IntList& pad, const std::string& mode);

}  // namespace tz::grad
