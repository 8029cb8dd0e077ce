// Derivative formulas of the nn-pool family. Every backward kernel is itself an op of the
// table (max pool's scatter, avg pool's and upsample's adjoints...), and each of those has
// the forward op (or a gather) as its derivative, so double backward works like PyTorch's.
#include "ops/nn_pool_grad.h"

#include "autograd/grad_util.h"
#include "ops/conversion.h"
#include "ops/creation.h"
#include "ops/compare.h"
#include "ops/elementwise.h"
#include "ops/nn_pool.h"
#include "ops/views.h"

namespace tz::grad {

namespace {

Tensor unsq(const Tensor& t) { return t.defined() ? op(TZ_OP("unsqueeze"), {t, int64_t(-2)}) : t; }
Tensor sq(const Tensor& t) { return op(TZ_OP("squeeze.dim"), {t, int64_t(-2)}); }
// An input size with the 1-d ops' extra h dim.
IntList lift_size(const Shape& s) {
  IntList out(s.begin(), s.end());
  out.insert(out.end() - 1, 1);
  return out;
}
// A 1-d pooling argument as (1-or-0, v).
IntList lift_arg(const IntList& v, int64_t h) { return v.empty() ? IntList{} : IntList{h, v[0]}; }

// grad (..., H, W) gathered at the plane indices idx (..., h, w): shape of idx.
Tensor gather_planes(const Tensor& grad, const Tensor& idx) {
  Shape gs = grad.sizes(), is = idx.sizes();
  IntList g2(gs.begin(), gs.end() - 2), i2(is.begin(), is.end() - 2);
  g2.push_back(gs[gs.size() - 2] * gs.back());
  i2.push_back(is[is.size() - 2] * is.back());
  Tensor flat = op(TZ_OP("gather"), {F::reshape(grad, Shape(g2.begin(), g2.end())), int64_t(-1),
                                    reshape(idx, i2)});
  return F::reshape(flat, is);
}

}  // namespace

TensorList max_pool_indices_backward(BackwardContext& c, bool lifted) {
  if (!lifted) return {op(TZ_OP("_max_pool_backward"), {c.grad(0), c.result(1), to_list(c.input_sizes("self"))})};
  return {sq(op(TZ_OP("_max_pool_backward"), {unsq(c.grad(0)), tz::unsqueeze(c.result(1), -2), lift_size(c.input_sizes("self"))}))};
}

TensorList max_pool_recompute_backward(BackwardContext& c, bool lifted) {
  // The values-only entries recompute the indices (integers: nothing to record).
  const Tensor& self = c.input("self");
  const IntList &k = c.arg("kernel_size").int_list(), &s = c.arg("stride").int_list(), &p = c.arg("padding").int_list(),
                &d = c.arg("dilation").int_list();
  const bool ceil = c.arg("ceil_mode").to_bool();
  if (!lifted) {
    Tensor idx = std::get<1>(max_pool2d_with_indices(self, k, s, p, d, ceil));
    return {op(TZ_OP("_max_pool_backward"), {c.grad(0), idx, to_list(c.input_sizes("self"))})};
  }
  Tensor idx = std::get<1>(max_pool1d_with_indices(self, k, s, p, d, ceil));
  return {sq(op(TZ_OP("_max_pool_backward"), {unsq(c.grad(0)), tz::unsqueeze(idx, -2), lift_size(c.input_sizes("self"))}))};
}

TensorList max_pool_backward_backward(BackwardContext& c) {
  return {gather_planes(c.grad(), c.input("indices"))};
}

TensorList max_unpool2d_backward(BackwardContext& c) { return {gather_planes(c.grad(), c.input("indices"))}; }

TensorList avg_pool2d_backward(BackwardContext& c, bool lifted) {
  const IntList &k = c.arg("kernel_size").int_list(), &s = c.arg("stride").int_list(), &p = c.arg("padding").int_list();
  const Value ceil = c.arg("ceil_mode"), include = c.arg("count_include_pad");
  if (!lifted)
    return {op(TZ_OP("_avg_pool2d_backward"), {c.grad(), to_list(c.input_sizes("self")), k, s, p, ceil, include, c.arg("divisor_override")})};
  return {sq(op(TZ_OP("_avg_pool2d_backward"), {unsq(c.grad()), lift_size(c.input_sizes("self")), lift_arg(k, 1),
                                                lift_arg(s, 1), lift_arg(p, 0), ceil, include, Value()}))};
}

TensorList avg_pool2d_backward_backward(BackwardContext& c) {
  return {op(TZ_OP("avg_pool2d"), {c.grad(), c.arg("kernel_size"), c.arg("stride"), c.arg("padding"), c.arg("ceil_mode"), c.arg("count_include_pad"), c.arg("divisor_override")})};
}

TensorList adaptive_avg_pool2d_backward(BackwardContext& c, bool lifted) {
  if (!lifted) return {op(TZ_OP("_adaptive_avg_pool2d_backward"), {c.grad(), to_list(c.input_sizes("self"))})};
  return {sq(op(TZ_OP("_adaptive_avg_pool2d_backward"), {unsq(c.grad()), lift_size(c.input_sizes("self"))}))};
}

TensorList adaptive_avg_pool2d_backward_backward(BackwardContext& c) {
  const Shape& g = c.input_sizes("grad_output");
  return {op(TZ_OP("adaptive_avg_pool2d"), {c.grad(), IntList{g[g.size() - 2], g.back()}})};
}

TensorList upsample_backward(BackwardContext& c, const char* mode, const char* align, const char* scale_h,
                             const char* scale_w) {
  auto arg = [&](const char* name, Value absent) { return name ? c.arg(name) : absent; };
  return {op(TZ_OP("_upsample_backward"), {c.grad(), to_list(c.input_sizes("self")), std::string(mode),
                                            arg(align, Value(false)), arg(scale_h, Value()), arg(scale_w, Value())})};
}

TensorList upsample_backward_backward(BackwardContext& c) {
  const Shape& g = c.input_sizes("grad_output");
  IntList out(g.begin() + 2, g.end());
  return {op(TZ_OP("_upsample"), {c.grad(), out, c.arg("mode"), c.arg("align_corners"), c.arg("scales_h"), c.arg("scales_w")})};
}

TensorList grid_sampler_backward(BackwardContext& c) {
  Value r = F::call(TZ_OP("grid_sampler_2d_backward"),
                    {c.grad(), c.input("input"), c.input("grid"), c.arg("interpolation_mode"), c.arg("padding_mode"), c.arg("align_corners"), c.needs_grad("input"), c.needs_grad("grid")});
  return {r.tuple()[0].opt_tensor(), r.tuple()[1].opt_tensor()};
}

TensorList affine_grid_backward(BackwardContext& c) {
  const IntList& size = c.arg("size").int_list();
  const Tensor base = affine_grid_base(size, c.arg("align_corners").to_bool(), c.grad().dtype());
  const int64_t k = static_cast<int64_t>(size.size()) - 2, n = size[0];
  Tensor g = F::reshape(c.grad(), {n, base.sizes()[1], k});
  Tensor b = expand(base, {n, base.sizes()[1], k + 1});
  return {op(TZ_OP("bmm"), {F::transpose(g, 1, 2), b})};
}

TensorList embedding_backward(BackwardContext& c) {
  return {op(TZ_OP("embedding_dense_backward"), {c.grad(), c.input("indices"), c.input_sizes("weight")[0], c.arg("padding_idx"), c.arg("scale_grad_by_freq")})};
}

TensorList embedding_dense_backward_backward(BackwardContext& c) {
  // Row i of the result's derivative: gg[indices[i]] times the factor the backward gave it.
  const Tensor& indices = c.input("indices");
  const int64_t pad = c.arg("padding_idx").to_int();
  Tensor idx = contiguous(to_dtype(indices, DType::Int64));
  const bool by_freq = c.arg("scale_grad_by_freq").to_bool();
  Tensor scale = ones(idx.sizes(), DType::Float64);
  const int64_t n = idx.numel(), V = c.arg("num_weights").to_int();
  std::vector<int64_t> counts(by_freq ? V : 0, 0);
  for (int64_t i = 0; i < n && by_freq; ++i) counts[idx.data<int64_t>()[i]]++;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t r = idx.data<int64_t>()[i];
    double& s = scale.data<double>()[i];
    s = r == pad ? 0.0 : by_freq ? 1.0 / static_cast<double>(counts[r]) : 1.0;
  }
  Tensor rows = op(TZ_OP("embedding"), {c.grad(), indices});
  return {F::mul(rows, tz::unsqueeze(to_dtype(scale, c.grad().dtype()), -1))};
}

TensorList embedding_bag_backward(BackwardContext& c) {
  const Tensor &weight = c.input("weight"), &indices = c.input("indices"), &offsets = c.input("offsets");
  const Tensor& psw = c.arg("per_sample_weights").opt_tensor();
  const int64_t mode = c.arg("mode").to_int();
  const int64_t pad = c.arg("padding_idx").is_none() ? -1 : c.arg("padding_idx").to_int();
  const bool last = c.arg("include_last_offset").to_bool();
  const Shape& ws = c.input_sizes("weight");
  const Tensor& g = c.grad(0);
  const Tensor idx = to_dtype(indices, DType::Int64);
  TensorList out(4);
  if (c.needs_grad("weight")) {
    const Tensor zero = zeros(ws, g.dtype());
    if (mode == 2) {
      const Tensor& mi = c.result(3);
      const Tensor mask = to_dtype(ge(mi, scalar_to_tensor(Scalar(int64_t(0)))), g.dtype());
      const Tensor safe = mul(mi, to_dtype(mask, DType::Int64));
      out[0] = op(TZ_OP("scatter_add"), {zero, int64_t(0), safe, F::mul(g, mask)});
    } else {
      Tensor scale = embedding_bag_position_scale(indices, offsets, last, mode, pad, c.arg("scale_grad_by_freq").to_bool(), ws[0], g.dtype());
      Tensor contrib = F::mul(op(TZ_OP("index_select"), {g, int64_t(0), c.result(1)}), tz::unsqueeze(scale, -1));
      if (psw.defined()) contrib = F::mul(contrib, F::reshape(psw, {psw.numel(), 1}));
      out[0] = op(TZ_OP("index_add"), {zero, int64_t(0), idx, contrib});
    }
  }
  if (psw.defined() && c.needs_grad("per_sample_weights")) {
    Tensor mask = embedding_bag_position_scale(indices, offsets, last, 0, pad, false, ws[0], g.dtype());
    Tensor prod = F::mul(op(TZ_OP("index_select"), {g, int64_t(0), c.result(1)}),
                         op(TZ_OP("index_select"), {weight, int64_t(0), idx}));
    out[3] = F::mul(op(TZ_OP("sum"), {prod, IntList{1}}), mask);
  }
  return out;
}

}  // namespace tz::grad
