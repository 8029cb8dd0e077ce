#include "ops/normalization_grad.h"

#include "autograd/autograd_meta.h"
#include "autograd/grad_mode.h"
#include "autograd/grad_util.h"
#include "ops/normalization.h"

namespace tz::grad {

namespace {

Tensor mean_dims(const Tensor& x, const IntList& dims, double count) {
  return F::mul(sum_dims(x, dims, true), Scalar(1.0 / count));
}

// The input gradient of y = xhat * scale with xhat = (x - mean) * rstd over `dims`, given
// dy = grad * scale; statistics recomputed differentiably from x.
Tensor normalized_input_grad(const Tensor& dy, const Tensor& x, const IntList& dims, double eps, Tensor* xhat) {
  double count = 1;
  for (int64_t d : dims) count *= static_cast<double>(x.size(d));
  Tensor xc = F::sub(x, mean_dims(x, dims, count));
  Tensor rstd = F::rsqrt(F::add(mean_dims(F::square(xc), dims, count), Scalar(eps)));
  *xhat = F::mul(xc, rstd);
  Tensor inner = F::sub(F::sub(dy, mean_dims(dy, dims, count)), F::mul(*xhat, mean_dims(F::mul(dy, *xhat), dims, count)));
  return F::mul(rstd, inner);
}

IntList range(int64_t begin, int64_t end) {
  IntList r;
  for (int64_t d = begin; d < end; ++d) r.push_back(d);
  return r;
}

Tensor channel_view(const Tensor& t, int64_t ndim) {  // (C,) -> (1, C, 1, ...)
  Shape s(ndim, 1);
  s[1] = t.numel();
  return F::reshape(t, s);
}

}  // namespace

// Arguments: input, weight, bias, running_mean, running_var, training, momentum, eps.
TensorList native_batch_norm(BackwardContext& c) {
  const Tensor& g = c.grad(0);
  const Tensor& x = c.input("input");
  const Tensor w = c.arg("weight").opt_tensor();
  const bool training = c.arg("training").to_bool();
  const double eps = c.arg("eps").to_double();
  if (!GradMode::is_enabled()) {  // nothing is recorded: the fused kernel
    auto [gi, gw, gb] = tz::native_batch_norm_backward(g, x, w, Tensor(), Tensor(), c.result(1), c.result(2),
                                                       training, eps);
    return {gi, gw, gb};
  }
  IntList dims{0};
  for (int64_t d = 2; d < x.dim(); ++d) dims.push_back(d);
  const int64_t nd = x.dim();
  Tensor wb = w.defined() ? channel_view(w, nd) : Tensor();
  Tensor dy = wb.defined() ? F::mul(g, wb) : g;
  Tensor gi, xhat;
  if (training) {
    gi = normalized_input_grad(dy, x, dims, eps, &xhat);
  } else {
    Tensor rstd = channel_view(autograd::detach(c.result(2)), nd);
    xhat = F::mul(F::sub(x, channel_view(autograd::detach(c.result(1)), nd)), rstd);
    gi = F::mul(dy, rstd);
  }
  Tensor gw = c.needs_grad("weight") ? sum_all_but(F::mul(g, xhat), 1) : Tensor();
  Tensor gb = c.needs_grad("bias") ? sum_all_but(g, 1) : Tensor();
  return {gi, gw, gb};
}

// Arguments: input, normalized_shape, weight, bias, eps.
TensorList native_layer_norm(BackwardContext& c) {
  const Tensor& g = c.grad(0);
  const Tensor& x = c.input("input");
  const IntList& shape = c.arg("normalized_shape").int_list();
  const Tensor w = c.arg("weight").opt_tensor();
  if (!GradMode::is_enabled()) {
    auto [gi, gw, gb] = tz::native_layer_norm_backward(g, x, shape, c.result(1), c.result(2), w);
    return {gi, gw, gb};
  }
  const int64_t axis = x.dim() - static_cast<int64_t>(shape.size());
  Tensor dy = w.defined() ? F::mul(g, w) : g;
  Tensor xhat;
  Tensor gi = normalized_input_grad(dy, x, range(axis, x.dim()), c.arg("eps").to_double(), &xhat);
  const IntList outer = range(0, axis);
  Tensor gw = c.needs_grad("weight") ? (outer.empty() ? F::mul(g, xhat) : sum_dims(F::mul(g, xhat), outer)) : Tensor();
  Tensor gb = c.needs_grad("bias") ? (outer.empty() ? g : sum_dims(g, outer)) : Tensor();
  return {gi, gw, gb};
}

// Arguments: input, weight, bias, N, C, HxW, group, eps.
TensorList native_group_norm(BackwardContext& c) {
  const Tensor& g = c.grad(0);
  const Tensor& x = c.input("input");
  const Tensor w = c.arg("weight").opt_tensor();
  const int64_t N = c.arg("N").to_int(), C = c.arg("C").to_int(), HxW = c.arg("HxW").to_int(), G = c.arg("group").to_int();
  if (!GradMode::is_enabled()) {
    auto [gi, gw, gb] = tz::native_group_norm_backward(g, x, c.result(1), c.result(2), w, N, C, HxW, G);
    return {gi, gw, gb};
  }
  Tensor x3 = F::reshape(x, {N, C, HxW});
  Tensor g3 = F::reshape(g, {N, C, HxW});
  Tensor dy = w.defined() ? F::mul(g3, F::reshape(w, {1, C, 1})) : g3;
  Tensor xhat;
  Tensor gi = normalized_input_grad(F::reshape(dy, {N, G, -1}), F::reshape(x3, {N, G, -1}), {2},
                                    c.arg("eps").to_double(), &xhat);
  xhat = F::reshape(xhat, {N, C, HxW});
  Tensor gw = c.needs_grad("weight") ? sum_all_but(F::mul(g3, xhat), 1) : Tensor();
  Tensor gb = c.needs_grad("bias") ? sum_all_but(g3, 1) : Tensor();
  return {F::reshape(gi, x.sizes()), gw, gb};
}

}  // namespace tz::grad
