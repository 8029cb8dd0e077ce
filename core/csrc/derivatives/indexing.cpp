#include "derivatives/indexing.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "autograd/functions.h"
#include "autograd/storage_space.h"
#include "ops/index_utils.h"
#include "ops/ops.h"

namespace tz {

namespace {

IntList ints(const Shape& s) { return IntList(s.begin(), s.end()); }
Tensor call(const Op& op, Stack args) { return F::tensor_call(op, std::move(args)); }

using F::keep_where;
using F::zero_where;

// `g` in the leading corner of a zero tensor of `sizes` (g's sizes are no larger anywhere):
// the gradient of a source of which an op read only the part its index covers.
Tensor pad_to(const Tensor& g, const Shape& sizes) {
  if (g.sizes() == sizes) return g;
  if (g.dim() == 0 || static_cast<int64_t>(sizes.size()) != g.dim())  // 0-d vs 1-element
    return F::reshape(strided_scatter(F::reshape(g, {-1}), {numel_of(sizes)}, {g.numel()}, {1}, 0), sizes);
  return strided_scatter(g, sizes, g.sizes(), contiguous_strides(sizes), 0);
}

// A contiguous tensor of `sizes` for rerunning a view op to learn its geometry: view ops
// only compute metadata, so no memory stands behind it; its storage claims the largest size
// so that the geometry check every tensor passes accepts it.
Tensor geometry_probe(const Shape& sizes) {
  StoragePtr nothing = Storage::wrap(nullptr, static_cast<size_t>(INT64_MAX), nullptr);
  return Tensor(std::make_shared<TensorImpl>(std::move(nothing), sizes, contiguous_strides(sizes), 0, DType::UInt8,
                                             std::make_shared<VersionCounter>()));
}

// The op of `c` rerun on a probe of its input's sizes: the geometry of its outputs.
Value rerun_on_probe(const BackwardContext& c) {
  Stack args = c.args;
  args[0] = geometry_probe(c.input_sizes("self"));
  return c.op->def.fn(args);
}

// Storage positions of the geometry's elements (row-major), relative to `base_offset`.
Tensor storage_positions(const Shape& size, const Shape& stride, int64_t base_offset) {
  Tensor out = Tensor::empty(size, DType::Int64);
  int64_t* p = out.data<int64_t>();
  const int64_t nd = static_cast<int64_t>(size.size());
  Shape idx(nd, 0);
  int64_t pos = base_offset;
  for (int64_t i = 0, n = out.numel(); i < n; ++i) {
    p[i] = pos;
    for (int64_t d = nd - 1; d >= 0; --d) {
      pos += stride[d];
      if (++idx[d] < size[d]) break;
      pos -= idx[d] * stride[d];
      idx[d] = 0;
    }
  }
  return out;
}

// Where a dim-wise op's `index` selects along `dim` of a tensor shaped like `g`: true there.
Tensor index_fill_mask(const Tensor& g, int64_t dim, const Tensor& index) {
  return index_fill(zeros(g.sizes(), DType::Bool), dim, index, Scalar(true));
}

}  // namespace

// ---------------------------------------------------------------- kernels

bool is_non_overlapping(const Shape& sizes, const Shape& strides) {
  std::vector<std::pair<int64_t, int64_t>> dims;  // (stride, size) of dims that move
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (sizes[d] == 0) return true;
    if (sizes[d] > 1) dims.emplace_back(strides[d], sizes[d]);
  }
  std::sort(dims.begin(), dims.end());
  int64_t reach = 0;  // the furthest offset the smaller dims get to
  for (auto [stride, size] : dims) {
    if (stride <= reach) return false;
    reach += (size - 1) * stride;
  }
  return true;
}

Tensor view_scatter_add(const Tensor& grad, const IntList& base_sizes, const IntList& size,
                        const IntList& stride, int64_t offset) {
  TZ_CHECK(size.size() == stride.size(), Runtime, "_view_scatter_add(): size and stride differ in length");
  const Shape shape(size.begin(), size.end()), strides(stride.begin(), stride.end());
  TZ_CHECK(grad.sizes() == shape, Runtime, "_view_scatter_add(): grad of shape ", shape_str(grad.sizes()),
           " does not match the view's shape ", shape_str(shape));
  Tensor out = zeros(Shape(base_sizes.begin(), base_sizes.end()), grad.dtype());
  if (grad.numel() == 0) return out;
  int64_t last = offset;
  for (size_t d = 0; d < shape.size(); ++d) {
    TZ_CHECK(strides[d] >= 0, Runtime, "_view_scatter_add(): negative stride");
    last += (shape[d] - 1) * strides[d];
  }
  TZ_CHECK(offset >= 0 && last < out.numel(), Runtime, "_view_scatter_add(): the view reaches element ", last,
           " of a base of ", out.numel(), " elements");
  if (is_non_overlapping(shape, strides)) {
    copy_(Tensor::view_of(out, shape, strides, offset), grad);
  } else {
    put_(out, storage_positions(shape, strides, offset), contiguous(grad), /*accumulate=*/true);
  }
  return fresh(out);
}

Tensor split_backward(const TensorList& grads, const IntList& sizes, int64_t dim, const IntList& starts,
                      bool keepdim) {
  TZ_CHECK(!grads.empty() && grads.size() == starts.size(), Runtime,
           "_split_backward(): expected one start per gradient, and at least one gradient");
  const Shape shape(sizes.begin(), sizes.end());
  const int64_t d = wrap_dim(dim, static_cast<int64_t>(shape.size()), "_split_backward");
  Tensor out = zeros(shape, grads[0].dtype());
  for (size_t i = 0; i < grads.size(); ++i) {
    const Tensor& g = grads[i];
    Tensor piece = keepdim ? narrow(out, d, starts[i], g.sizes().at(d)) : tz::select(out, d, starts[i]);
    binary_op_(BinaryOp::Add, piece, g, "_split_backward");  // pieces of tensor_split may overlap
  }
  return fresh(out);
}

// ---------------------------------------------------------------- formulas

namespace grad {

// PyTorch's as_strided_backward: through a buffer standing for the shared storage.
TensorList as_strided(BackwardContext& c) {
  const TensorGeometry& in = c.input_geometry("self");
  const IntList& stride = c.arg("stride").int_list();
  std::optional<int64_t> offset = c.arg("storage_offset").opt_int();
  TensorGeometry out{c.grad().sizes(), Shape(stride.begin(), stride.end()), offset.value_or(in.offset)};
  TZ_CHECK(is_non_overlapping(in.sizes, in.strides), NotImplemented, "as_strided(): the derivative of "
           "as_strided is not implemented for an input whose elements overlap in memory (an expanded "
           "tensor); clone() it first");
  if (numel_of(in.sizes) == 0) return {zeros(in.sizes, c.grad().dtype())};
  StorageSpan span = storage_span({&in, &out});
  return {from_storage(to_storage(c.grad(), out, span), in, span)};
}

TensorList view_scatter_add(BackwardContext& c) {
  // The scatter's adjoint is the gather through the same geometry.
  Tensor g = call(TZ_OP("contiguous"), {c.grad()});
  return {call(TZ_OP("as_strided"), {g, c.arg("size").int_list(), c.arg("stride").int_list(), g.offset() + c.arg("offset").to_int()})};
}

TensorList split_backward(BackwardContext& c) {
  const int64_t d = wrap_dim(c.arg("dim").to_int(), c.grad().dim(), "_split_backward");
  const IntList& starts = c.arg("starts").int_list();
  const bool keepdim = c.arg("keepdim").to_bool();
  TensorList out(c.num_inputs());
  for (size_t i = 0; i < out.size(); ++i) {
    if (!c.needs_grad_at(i)) continue;
    out[i] = keepdim ? call(TZ_OP("narrow"), {c.grad(), d, starts[i], c.input_sizes_at(i).at(d)})
                     : call(TZ_OP("select"), {c.grad(), d, starts[i]});
  }
  return out;
}

TensorList strided_view(BackwardContext& c) {
  Tensor v = rerun_on_probe(c).tensor();
  return {strided_scatter(c.grad(), c.input_sizes("self"), v.sizes(), v.strides(), v.offset())};
}

TensorList pieces(BackwardContext& c, int64_t dim, bool keepdim) {
  const Shape& sizes = c.input_sizes("self");
  const int64_t d = wrap_dim(dim, static_cast<int64_t>(sizes.size()), "backward");
  const int64_t stride = contiguous_strides(sizes)[d];
  IntList starts;
  const Value outputs = rerun_on_probe(c);
  for (const Tensor& piece : outputs.tensor_list()) starts.push_back(stride ? piece.offset() / stride : 0);
  return {call(TZ_OP("_split_backward"), {c.grads, ints(sizes), d, starts, keepdim})};
}

// scatter(self, dim, index, src | value, reduce): inputs self, index[, src].
TensorList scatter(BackwardContext& c) {
  TZ_CHECK(c.arg("reduce").is_none(), NotImplemented, "the derivative for 'scatter' with reduce='", c.arg("reduce").str(),
           "' is not implemented");
  const int64_t dim = c.arg("dim").to_int();
  const Tensor& index = c.input("index");
  TensorList out(3);
  if (c.needs_grad("self")) out[0] = call(TZ_OP("scatter.value"), {c.grad(), dim, index, Scalar(0.0)});
  if (c.has_input("src") && c.needs_grad("src"))
    out[2] = pad_to(call(TZ_OP("gather"), {c.grad(), dim, index}), c.input_sizes("src"));
  return out;
}

TensorList scatter_add(BackwardContext& c) {
  TensorList out{c.grad(), Tensor(), Tensor()};
  if (c.needs_grad("src"))
    out[2] = pad_to(call(TZ_OP("gather"), {c.grad(), c.arg("dim").to_int(), c.input("index")}), c.input_sizes("src"));
  return out;
}

// index_add(self, dim, index, source, alpha): inputs self, index, source.
TensorList index_add(BackwardContext& c) {
  TensorList out{c.grad(), Tensor(), Tensor()};
  if (c.needs_grad("source")) {
    Tensor picked = call(TZ_OP("index_select"), {c.grad(), c.arg("dim").to_int(), c.input("index")});
    out[2] = F::reshape(F::mul(picked, c.arg("alpha").scalar()), c.input_sizes("source"));
  }
  return out;
}

TensorList index_copy(BackwardContext& c) {
  const int64_t dim = c.arg("dim").to_int();
  const Tensor& index = c.input("index");
  TensorList out(3);
  if (c.needs_grad("self")) out[0] = call(TZ_OP("index_fill.int_Scalar"), {c.grad(), dim, index, Scalar(0.0)});
  if (c.needs_grad("source")) out[2] = F::reshape(call(TZ_OP("index_select"), {c.grad(), dim, index}), c.input_sizes("source"));
  return out;
}

// index_fill(self, dim, index, value): inputs self, index[, value (a 0-d tensor)].
TensorList index_fill(BackwardContext& c) {
  const int64_t dim = c.arg("dim").to_int();
  const Tensor& index = c.input("index");
  TensorList out(3);
  if (c.needs_grad("self")) out[0] = call(TZ_OP("index_fill.int_Scalar"), {c.grad(), dim, index, Scalar(0.0)});
  // Every filled element (each once, however often the index names it) came from value.
  if (c.has_input("value") && c.needs_grad("value")) out[2] = keep_where(index_fill_mask(c.grad(), dim, index), c.grad());
  return out;
}

// masked_fill(self, mask, value): inputs self, mask[, value].
TensorList masked_fill(BackwardContext& c) {
  const Tensor& mask = c.input("mask");
  TensorList out(3);
  if (c.needs_grad("self")) out[0] = zero_where(mask, c.grad());
  if (c.needs_grad("value")) out[2] = keep_where(mask, c.grad());
  return out;
}

TensorList masked_select(BackwardContext& c) {
  Shape shape = broadcast_shapes(c.input_sizes("self"), c.input_sizes("mask"), "masked_select");
  return {call(TZ_OP("masked_scatter"), {zeros(shape, c.grad().dtype()), c.input("mask"), c.grad()})};
}

// masked_scatter(self, mask, source): the true positions, in order, came from source's front.
TensorList masked_scatter(BackwardContext& c) {
  const Tensor& mask = c.input("mask");
  TensorList out(3);
  if (c.needs_grad("self")) out[0] = zero_where(mask, c.grad());
  if (c.needs_grad("source")) {
    const Shape& sizes = c.input_sizes("source");
    Tensor used = call(TZ_OP("masked_select"), {c.grad(), mask});
    out[2] = F::reshape(pad_to(used, {numel_of(sizes)}), sizes);
  }
  return out;
}

TensorList take(BackwardContext& c) {
  Tensor z = zeros(c.input_sizes("self"), c.grad().dtype());
  return {call(TZ_OP("put"), {z, c.input("index"), c.grad(), true})};
}

// put(self, index, source, accumulate): inputs self, index, source.
TensorList put(BackwardContext& c) {
  const Tensor& index = c.input("index");
  TensorList out(3);
  if (c.needs_grad("self"))
    out[0] = c.arg("accumulate").to_bool() ? c.grad()
                                 : call(TZ_OP("put"), {c.grad(), index, zeros(index.sizes(), c.grad().dtype()), false});
  if (c.needs_grad("source")) out[2] = F::reshape(call(TZ_OP("take"), {c.grad(), index}), c.input_sizes("source"));
  return out;
}

// self[indices]: the gradient goes back where each element came from, summed over repeats.
TensorList index(BackwardContext& c) {
  Tensor z = zeros(c.input_sizes("self"), c.grad().dtype());
  return {call(TZ_OP("index_put"), {z, c.arg("indices").tensor_list(), c.grad(), true})};
}

// index_put(self, indices, values, accumulate): inputs self, each index (None too), values.
TensorList index_put(BackwardContext& c) {
  const TensorList& indices = c.arg("indices").tensor_list();
  const size_t values = indices.size() + 1;
  TensorList out(values + 1);
  if (c.needs_grad("self")) {
    Tensor overwritten = zeros(c.input_sizes("values"), c.grad().dtype());
    out[0] = c.arg("accumulate").to_bool() ? c.grad() : call(TZ_OP("index_put"), {c.grad(), indices, overwritten, false});
  }
  // In the indexing result's shape: the engine sums it down to a broadcast value's shape.
  if (c.needs_grad("values")) out[values] = call(TZ_OP("index.Tensor"), {c.grad(), indices});
  return out;
}

}  // namespace grad
}  // namespace tz
