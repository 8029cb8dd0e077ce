#include "autograd/joining_grad.h"

#include <algorithm>

#include "autograd/grad_util.h"
#include "ops/conversion.h"
#include "ops/creation.h"
#include "ops/joining.h"
#include "ops/joining_util.h"

namespace tz::grad {

namespace {

bool skipped_in_cat(const Shape& s) { return s.size() == 1 && s[0] == 0; }

Tensor reshape_to(const Tensor& x, const Shape& shape) { return x.sizes() == shape ? x : F::reshape(x, shape); }

Tensor flip(const Tensor& x, int64_t dim) { return op(TZ_OP("flip"), {x, IntList{dim}}); }

Tensor add_parts(const Tensor& acc, const Tensor& part) { return acc.defined() ? F::add(acc, part) : part; }

}  // namespace

TensorList cat_backward(const BackwardContext& c, const std::vector<Shape>& cat_shapes, int64_t dim) {
  const Tensor& g = c.grad();
  TensorList out(cat_shapes.size());
  int64_t at = 0;
  for (size_t i = 0; i < cat_shapes.size(); ++i) {
    const Shape& s = cat_shapes[i];
    if (skipped_in_cat(s)) {
      if (c.needs_grad_at(i)) out[i] = zeros(c.input_sizes_at(i), g.dtype());
      continue;
    }
    const int64_t d = wrap_dim(dim, g.dim(), "cat");
    if (c.needs_grad_at(i)) out[i] = reshape_to(slice(g, d, at, s[d]), c.input_sizes_at(i));
    at += s[d];
  }
  return out;
}

TensorList cat_backward(const BackwardContext& c, int64_t dim) {
  std::vector<Shape> shapes;
  for (const OutputMeta& m : c.inputs) shapes.push_back(m.sizes);
  return cat_backward(c, shapes, dim);
}

TensorList stack_backward(const BackwardContext& c, int64_t dim) {
  const int64_t d = wrap_dim(dim, c.grad().dim(), "stack");
  std::vector<Shape> shapes;
  for (const OutputMeta& m : c.inputs) {
    Shape s = m.sizes;
    s.insert(s.begin() + d, 1);
    shapes.push_back(s);
  }
  return cat_backward(c, shapes, d);
}

TensorList stack_np_backward(const BackwardContext& c, StackKind kind) {
  std::vector<Shape> shapes;
  for (const OutputMeta& m : c.inputs) {
    const Shape& s = m.sizes;
    switch (kind) {
      case StackKind::H: shapes.push_back(joining::atleast_shape(s, 1)); break;
      case StackKind::V: shapes.push_back(joining::atleast_shape(s, 2)); break;
      case StackKind::D: shapes.push_back(joining::atleast_shape(s, 3)); break;
      case StackKind::Column: shapes.push_back(s.size() <= 1 ? Shape{numel_of(s), 1} : s); break;
    }
  }
  int64_t dim = 1;
  if (kind == StackKind::H) dim = shapes[0].size() == 1 ? 0 : 1;
  if (kind == StackKind::V) dim = 0;
  if (kind == StackKind::D) dim = 2;
  return cat_backward(c, shapes, dim);
}

TensorList reshape_each_backward(const BackwardContext& c) {
  TensorList out(c.inputs.size());
  for (size_t i = 0; i < out.size(); ++i)
    if (c.needs_grad_at(i)) out[i] = reshape_to(c.grad(i), c.input_sizes_at(i));
  return out;
}

Tensor repeat_backward(const Tensor& grad, const Shape& input, const IntList& repeats) {
  // The output viewed as (r0, s0, r1, s1, ...) (unit axes left out), summed over the r axes.
  const size_t lead = repeats.size() - input.size();
  Shape split;
  IntList tiles;
  for (size_t i = 0; i < repeats.size(); ++i) {
    const int64_t s = i < lead ? 1 : input[i - lead];
    if (repeats[i] != 1) tiles.push_back(static_cast<int64_t>(split.size())), split.push_back(repeats[i]);
    if (s != 1) split.push_back(s);
  }
  return reshape_to(sum_dims(reshape_to(grad, split), tiles), input);
}

Tensor tile_backward(const Tensor& grad, const Shape& input, const IntList& dims) {
  IntList reps = dims;
  if (reps.size() < input.size()) reps.insert(reps.begin(), input.size() - reps.size(), 1);
  return repeat_backward(grad, input, reps);
}

Tensor repeat_interleave_backward(const Tensor& grad, const Shape& input, int64_t repeats,
                                  std::optional<int64_t> dim) {
  // Copies of element i sit next to each other: split the dim into (n, repeats) and sum.
  Shape split = dim ? input : Shape{numel_of(input)};
  const int64_t d = dim ? wrap_dim(*dim, static_cast<int64_t>(input.size()), "repeat_interleave") : 0;
  split.insert(split.begin() + d + 1, repeats);
  return reshape_to(sum_dims(F::reshape(grad, split), {d + 1}), input);
}

Tensor repeat_interleave_backward(const Tensor& grad, const Shape& input, const Tensor& repeats,
                                  std::optional<int64_t> dim) {
  if (repeats.numel() == 1 && repeats.dim() <= 1)
    return repeat_interleave_backward(grad, input, item(repeats).to<int64_t>(), dim);
  // Output position j came from element index[j]: add the gradient back there.
  const Shape shape = dim ? input : Shape{numel_of(input)};
  const int64_t d = dim ? wrap_dim(*dim, static_cast<int64_t>(input.size()), "repeat_interleave") : 0;
  Tensor index = repeat_interleave(repeats);
  Tensor summed = op(TZ_OP("index_add"), {zeros(shape, grad.dtype()), d, index, grad});
  return reshape_to(summed, input);
}

Tensor diagonal_backward(const Tensor& grad, const Shape& input, int64_t offset, int64_t dim1, int64_t dim2) {
  const int64_t nd = static_cast<int64_t>(input.size());
  const int64_t d1 = wrap_dim(dim1, nd, "diagonal"), d2 = wrap_dim(dim2, nd, "diagonal");
  // diag_embed makes the matrices square (n = length + |offset|); pad or crop to the input's.
  const int64_t n = grad.size(-1) + std::abs(offset);
  Tensor embedded = op(TZ_OP("diag_embed"), {grad, offset, d1, d2});
  return pad_dims(embedded, {{d1, 0, input[d1] - n}, {d2, 0, input[d2] - n}});
}

Tensor trace_backward(const Tensor& grad, const Shape& input) {
  const int64_t n = std::min(input[0], input[1]);
  return diagonal_backward(F::expand(grad, {n}), input, 0, 0, 1);
}

TensorList meshgrid_backward(const BackwardContext& c, const std::string& indexing) {
  const size_t n = c.inputs.size();
  const bool swap = indexing == "xy" && n >= 2;
  TensorList out(n);
  for (size_t i = 0; i < n; ++i) {
    const int64_t axis = swap && i < 2 ? 1 - static_cast<int64_t>(i) : static_cast<int64_t>(i);
    if (c.needs_grad_at(i)) out[i] = reshape_to(sum_all_but(c.grad(i), axis), c.input_sizes_at(i));
  }
  return out;
}

TensorList cartesian_prod_backward(const BackwardContext& c) {
  const size_t n = c.inputs.size();
  if (n == 1) return {c.grad()};
  // Column i of the result is input i broadcast over the grid (n0, n1, ...).
  Shape grid;
  for (const OutputMeta& m : c.inputs) grid.push_back(m.sizes[0]);
  TensorList out(n);
  for (size_t i = 0; i < n; ++i)
    if (c.needs_grad_at(i))
      out[i] = sum_all_but(F::reshape(slice(c.grad(), 1, static_cast<int64_t>(i), 1), grid), static_cast<int64_t>(i));
  return out;
}

namespace {

// The gradient of padding dim d (input size n) by (l, r) in a non-constant mode: every
// output range adds onto the input range it was read from (see pad.cpp's border_source).
Tensor pad_dim_backward(const Tensor& g, int64_t d, int64_t n, int64_t l, int64_t r, const std::string& mode) {
  if (mode == "circular" && (l < 0 || r < 0)) {
    // The forward cropped first, then wrapped within what was left.
    const int64_t lo = std::max<int64_t>(-l, 0), hi = std::max<int64_t>(-r, 0);
    return place(pad_dim_backward(g, d, n - lo - hi, l + lo, r + hi, mode), d, lo, n);
  }
  const int64_t out_n = n + l + r;
  const int64_t left_end = std::min(std::max<int64_t>(l, 0), out_n);
  const int64_t mid_end = std::max(left_end, std::min(l + n, out_n));
  Tensor acc;
  if (mid_end > left_end) acc = place(slice(g, d, left_end, mid_end - left_end), d, left_end - l, n);
  if (left_end > 0) {
    Tensor part = slice(g, d, 0, left_end);
    if (mode == "reflect") acc = add_parts(acc, place(flip(part, d), d, l - left_end + 1, n));
    else if (mode == "replicate") acc = add_parts(acc, place(sum_dims(part, {d}, true), d, 0, n));
    else acc = add_parts(acc, place(part, d, n - l, n));
  }
  if (out_n > mid_end) {
    const int64_t count = out_n - mid_end;
    Tensor part = slice(g, d, mid_end, count);
    if (mode == "reflect") acc = add_parts(acc, place(flip(part, d), d, 2 * (n - 1) - (out_n - 1 - l), n));
    else if (mode == "replicate") acc = add_parts(acc, place(sum_dims(part, {d}, true), d, n - 1, n));
    else acc = add_parts(acc, place(part, d, mid_end - l - n, n));
  }
  if (!acc.defined()) {
    Shape shape = g.sizes();
    shape[d] = n;
    acc = zeros(shape, g.dtype());
  }
  return acc;
}

}  // namespace

Tensor pad_backward(const Tensor& grad, const Shape& input, const IntList& pad, const std::string& mode) {
  if (mode == "constant") {
    IntList back(pad.size());
    for (size_t i = 0; i < pad.size(); ++i) back[i] = -pad[i];
    return op(TZ_OP("pad"), {grad, back});
  }
  const int64_t nd = static_cast<int64_t>(input.size()), k = static_cast<int64_t>(pad.size()) / 2;
  Tensor g = grad;
  for (int64_t j = k - 1; j >= 0; --j) {
    const int64_t d = nd - 1 - j;
    g = pad_dim_backward(g, d, input[d], pad[2 * j], pad[2 * j + 1], mode);
  }
  return g;
}

}  // namespace tz::grad
