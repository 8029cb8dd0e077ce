// Differentiable building blocks shared by the joining and linalg derivative formulas:
// sums over dims, slicing/placing along one dim, conjugation. Every helper calls ops
// through the table (F::), so formulas built from them support double backward.
#pragma once
#include "autograd/functions.h"

namespace tz::grad {

// Calls op `name` through the table with leading args (the rest take defaults).
inline Tensor op(const Op& o, Stack args) { return F::tensor_call(o, std::move(args)); }

inline IntList to_list(const Shape& s) { return IntList(s.begin(), s.end()); }

// x summed over `dims` (wrapped, in any order); keepdim leaves size-1 dims in their place.
Tensor sum_dims(const Tensor& x, const IntList& dims, bool keepdim = false);
// x summed over every dim but `keep`: a 1-d tensor of x.size(keep).
Tensor sum_all_but(const Tensor& x, int64_t keep);

// The `length` elements of x along `dim` from `start` (a copy).
Tensor slice(const Tensor& x, int64_t dim, int64_t start, int64_t length);
// x placed at `start` along `dim` in zeros of size `total` there (the adjoint of slice).
Tensor place(const Tensor& x, int64_t dim, int64_t start, int64_t total);
// x zero-padded (or cropped, for negative values) by (before, after) along each listed dim.
struct DimPad {
  int64_t dim, before, after;
};
Tensor pad_dims(const Tensor& x, const std::vector<DimPad>& pads);

// conj(x) for complex x (x itself otherwise); PyTorch's gradients use conjugated factors.
Tensor conj(const Tensor& x);
Scalar conj(const Scalar& s);
// x * s, skipping the multiplication when s == 1.
Tensor scale(const Tensor& x, const Scalar& s);
// x cast to dtype (differentiably), or x when it already has it.
Tensor cast(const Tensor& x, DType dtype);
// Every value negated (shifts, pads, rotations run backwards).
IntList negated(IntList values);
// x with size-1 dims inserted at `dim` (wrapped against x.dim() + 1).
Tensor unsqueeze(const Tensor& x, int64_t dim);

}  // namespace tz::grad
