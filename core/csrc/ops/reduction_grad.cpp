#include "ops/reduction_grad.h"

#include <cmath>
#include <optional>
#include <utility>

#include "autograd/functions.h"
#include "autograd/grad_mode.h"
#include "ops/compare.h"
#include "ops/cumulative.h"
#include "ops/ops.h"
#include "ops/softmax.h"
#include "ops/sorting.h"
#include "ops/unary.h"

namespace tz {

namespace {

using OptDims = std::optional<IntList>;

Tensor call(const Op& op, Stack args) { return F::tensor_call(op, std::move(args)); }
using F::keep_where;
using F::number;
using F::zero_where;
Value dims_value(const OptDims& dims) { return dims && !dims->empty() ? Value(*dims) : Value(); }

// Masks, counts and indices below are constants of the formula (no gradient flows through
// them), so they are computed with plain (unrecorded) calls.
bool has_zero(const Tensor& x) { return item(any(eq(x, number(0.0)), std::nullopt, false)).to_bool(); }

// How many input elements each output element of a reduction over `dims` combines.
int64_t reduced_count(const Shape& sizes, const OptDims& dims) {
  const int64_t nd = static_cast<int64_t>(sizes.size());
  if (!dims || dims->empty() || nd == 0) return numel_of(sizes);
  std::vector<bool> seen(nd, false);
  int64_t n = 1;
  for (int64_t d : *dims) {
    const int64_t w = wrap_dim(d, nd, "reduction");
    if (!seen[w]) n *= sizes[w];
    seen[w] = true;
  }
  return n;
}

// 0, 1, ..., n-1 laid along dim `d` of an `ndim`-d int64 tensor (sizes 1 elsewhere).
Tensor line(int64_t n, int64_t d, int64_t ndim) {
  Shape s(ndim, 1);
  s[d] = n;
  Tensor t = Tensor::empty(s, DType::Int64);
  int64_t* p = t.data<int64_t>();
  for (int64_t i = 0; i < n; ++i) p[i] = i;
  return t;
}

Tensor index_vector(const std::vector<int64_t>& v) {
  Tensor t = Tensor::empty({static_cast<int64_t>(v.size())}, DType::Int64);
  std::copy(v.begin(), v.end(), t.data<int64_t>());
  return t;
}

Tensor reversed(const Tensor& t, int64_t d) {
  const int64_t n = t.sizes()[d];
  std::vector<int64_t> rev(n);
  for (int64_t i = 0; i < n; ++i) rev[i] = n - 1 - i;
  return call(TZ_OP("index_select"), {t, d, index_vector(rev)});
}

// sum_{j >= i} t_j along d.
Tensor reverse_cumsum(const Tensor& t, int64_t d) {
  if (t.numel() == 0) return t;
  return reversed(call(TZ_OP("cumsum"), {reversed(t, d), d}), d);
}

// The product of the elements before each position along d (after it when `reverse`): the
// cumprod of x shifted by one with a 1 in front. No division, so zeros are exact.
Tensor exclusive_cumprod(const Tensor& x, int64_t d, bool reverse) {
  const int64_t n = x.sizes()[d];
  Tensor t = reverse ? reversed(x, d) : x;
  std::vector<int64_t> shift(n);
  for (int64_t i = 0; i < n; ++i) shift[i] = i == 0 ? 0 : i - 1;
  Tensor shifted = call(TZ_OP("index_select"), {t, d, index_vector(shift)});
  Tensor first = eq(line(n, d, x.dim()), scalar_to_tensor(Scalar(int64_t(0))));
  Tensor out = call(TZ_OP("cumprod"), {call(TZ_OP("where.self"), {first, number(1.0), shifted}), d});
  return reverse ? reversed(out, d) : out;
}

// `g` (the shape of `idx`) put at `idx` along d of a zero tensor of `sizes`.
Tensor scatter_into(const Tensor& g, const Shape& sizes, int64_t d, const Tensor& idx) {
  return call(TZ_OP("scatter.src"), {zeros(sizes, g.dtype()), d, idx, g});
}

// The softmax of x over several dims (moved last and flattened into one).
Tensor softmax_over(const Tensor& x, const IntList& dims) {
  const int64_t nd = x.dim();
  if (nd == 0) return call(TZ_OP("softmax"), {x, int64_t(0)});
  std::vector<bool> reduced(nd, dims.empty());
  for (int64_t d : dims) reduced[wrap_dim(d, nd, "logsumexp")] = true;
  IntList perm;
  for (int64_t i = 0; i < nd; ++i)
    if (!reduced[i]) perm.push_back(i);
  Shape flat;
  int64_t inner = 1;
  for (int64_t i : perm) flat.push_back(x.sizes()[i]);
  for (int64_t i = 0; i < nd; ++i)
    if (reduced[i]) perm.push_back(i), inner *= x.sizes()[i];
  flat.push_back(inner);
  Tensor t = F::permute(x, perm);
  Tensor s = F::reshape(call(TZ_OP("softmax"), {F::reshape(t, flat), int64_t(-1)}), t.sizes());
  IntList inverse(nd);
  for (int64_t i = 0; i < nd; ++i) inverse[perm[i]] = i;
  return F::permute(s, inverse);
}

struct VarArgs {
  OptDims dims;
  double correction;
  bool keepdim;
};

VarArgs var_args(const BackwardContext& c, bool unbiased_overload) {
  if (unbiased_overload) return {std::nullopt, c.arg("unbiased").to_bool() ? 1.0 : 0.0, false};
  std::optional<Scalar> corr;
  if (!c.arg("correction").is_none()) corr = c.arg("correction").scalar();
  return {c.arg("dim").opt_int_list(), var_correction(c.arg("unbiased").to_bool(), corr), c.arg("keepdim").to_bool()};
}

// d var / d x: 2 / (N - correction) * g * (x - mean(x)).
Tensor var_backward(const Tensor& g, const Tensor& x, const Shape& sizes, const VarArgs& a) {
  const double n = static_cast<double>(reduced_count(sizes, a.dims));
  Tensor ge = F::expand_reduced(g, sizes, a.dims, a.keepdim);
  Tensor centered = F::sub(x, call(TZ_OP("mean"), {x, dims_value(a.dims), true}));
  return F::mul(F::mul(ge, Scalar(2.0 / (n - a.correction))), centered);
}

// `t` with 1 where it is 0: a denominator whose masked-out quotients stay finite, so that
// double backward through the where() does not meet 0 * inf.
Tensor safe_denominator(const Tensor& zero_mask, const Tensor& t) {
  return call(TZ_OP("where.self"), {zero_mask, number(1.0), t});
}

// The var gradient of a std result: g / (2 std), 0 where std is 0 (like PyTorch).
Tensor std_to_var_grad(const Tensor& g, const Tensor& std) {
  Tensor zero = eq(std, number(0.0));
  return zero_where(zero, F::div(g, F::mul(safe_denominator(zero, std), Scalar(2.0))));
}

}  // namespace

namespace grad {

TensorList nansum(BackwardContext& c) {
  Tensor g = F::expand_reduced(c.grad(), c.input_sizes("self"), c.arg("dim").opt_int_list(), c.arg("keepdim").to_bool());
  return {zero_where(isnan(c.input("self")), g)};
}

TensorList mean(BackwardContext& c) {
  const OptDims dims = c.arg("dim").opt_int_list();
  Tensor g = F::expand_reduced(c.grad(), c.input_sizes("self"), dims, c.arg("keepdim").to_bool());
  return {F::div(g, number(static_cast<double>(reduced_count(c.input_sizes("self"), dims))))};
}

// PyTorch's prod_backward: grad * prod / x without zeros; with zeros, the product of the
// others as (product before) * (product after), exact and still differentiable.
TensorList prod(BackwardContext& c) {
  const Tensor& x = c.input("self");
  const Shape& sizes = c.input_sizes("self");
  const std::optional<int64_t> dim = c.arg("dim").opt_int();
  const OptDims dims = dim ? OptDims(IntList{*dim}) : std::nullopt;
  const bool keepdim = c.arg("keepdim").to_bool();
  Tensor g = F::expand_reduced(c.grad(), sizes, dims, keepdim);
  if (!has_zero(x)) return {F::div(F::mul(g, F::expand_reduced(c.result(), sizes, dims, keepdim)), x)};
  if (x.dim() == 0) return {g};
  const int64_t d = dim ? wrap_dim(*dim, x.dim(), "prod") : 0;
  Tensor flat_x = dim ? x : F::reshape(x, {-1});
  Tensor flat_g = dim ? g : F::reshape(g, {-1});
  Tensor others = F::mul(exclusive_cumprod(flat_x, d, false), exclusive_cumprod(flat_x, d, true));
  Tensor out = F::mul(flat_g, others);
  return {dim ? out : F::reshape(out, sizes)};
}

TensorList evenly_distribute(BackwardContext& c) {
  const Tensor& x = c.input("self");
  const Tensor& r = c.result();
  Tensor mask = item(isnan(r)).to_bool() ? isnan(x) : eq(x, r);
  const int64_t count = item(count_nonzero(mask, std::nullopt)).to_int();
  return {keep_where(mask, F::div(c.grad(), number(static_cast<double>(count))))};
}

// PyTorch's scale_grad_by_count: (grad / ties) * (x == result) per reduced slice.
TensorList amax(BackwardContext& c) {
  const Shape& sizes = c.input_sizes("self");
  const IntList dl = c.arg("dim").int_list();
  const OptDims dims = dl.empty() ? std::nullopt : OptDims(dl);
  const bool keepdim = c.arg("keepdim").to_bool();
  Tensor g = F::expand_reduced(c.grad(), sizes, dims, keepdim);
  Tensor mask, ties;
  {
    AutoGradMode constants(false);
    mask = to_dtype(eq(c.input("self"), F::expand_reduced(c.result(), sizes, dims, keepdim)), g.dtype());
    ties = F::expand_reduced(sum(mask, dims, keepdim, std::nullopt), sizes, dims, keepdim);
  }
  return {F::mul(F::div(g, ties), mask)};
}

TensorList select_dim(BackwardContext& c, int dim_arg, int keepdim_arg) {
  const Shape& sizes = c.input_sizes("self");
  Tensor g = c.grad();
  if (sizes.empty()) return {g};  // a 0-d input is its own value
  Tensor idx = c.result(1);
  const int64_t d = wrap_dim(c.arg("dim").to_int(), static_cast<int64_t>(sizes.size()), c.op->schema.name.c_str());
  if (!c.arg("keepdim").to_bool()) {
    g = call(TZ_OP("unsqueeze"), {g, d});
    idx = unsqueeze(idx, d);
  }
  return {scatter_into(g, sizes, d, idx)};
}

TensorList sort_values(BackwardContext& c, int dim_arg) {
  const Shape& sizes = c.input_sizes("self");
  if (sizes.empty()) return {c.grad()};
  const int64_t d = wrap_dim(c.arg("dim").to_int(), static_cast<int64_t>(sizes.size()), c.op->schema.name.c_str());
  return {scatter_into(c.grad(), sizes, d, c.result(1))};
}

// msort returns no indices: the same sort (constant) gives them again.
TensorList msort(BackwardContext& c) {
  const Tensor& x = c.input("self");
  if (x.dim() == 0) return {c.grad()};
  return {scatter_into(c.grad(), x.sizes(), 0, sort(x, 0, false).second)};
}

TensorList var(BackwardContext& c, bool is_std, bool unbiased_overload) {
  const VarArgs a = var_args(c, unbiased_overload);
  Tensor g = is_std ? std_to_var_grad(c.grad(), c.result()) : c.grad();
  return {var_backward(g, c.input("self"), c.input_sizes("self"), a)};
}

TensorList var_mean(BackwardContext& c, bool is_std, bool unbiased_overload) {
  const VarArgs a = var_args(c, unbiased_overload);
  const Shape& sizes = c.input_sizes("self");
  Tensor g = is_std ? std_to_var_grad(c.grad(0), c.result(0)) : c.grad(0);
  Tensor gm = F::expand_reduced(c.grad(1), sizes, a.dims, a.keepdim);
  gm = F::div(gm, number(static_cast<double>(reduced_count(sizes, a.dims))));
  return {F::add(var_backward(g, c.input("self"), sizes, a), gm)};
}

// PyTorch's norm_backward, case by case in p.
TensorList norm(BackwardContext& c, bool str_p) {
  const double p = str_p || c.arg("p").is_none() ? 2.0 : c.arg("p").scalar().to_double();
  const OptDims dims = c.arg("dim").opt_int_list();
  const bool keepdim = c.arg("keepdim").to_bool();
  const Tensor& x = c.input("self");
  const Shape& sizes = c.input_sizes("self");
  Tensor g = F::expand_reduced(c.grad(), sizes, dims, keepdim);
  if (p == 0.0) return {F::mul(g, Scalar(0.0))};
  Tensor n = F::expand_reduced(c.result(), sizes, dims, keepdim);
  Tensor s = sign(x);  // constant: the derivative of |x| away from 0
  if (p == 1.0) return {F::mul(g, s)};
  Tensor n_zero = eq(n, number(0.0));
  Tensor safe_n = safe_denominator(n_zero, n);
  if (p == 2.0) return {F::mul(g, zero_where(n_zero, F::div(x, safe_n)))};
  if (std::isinf(p)) {
    Tensor ax = abs(x);
    Tensor mask = to_dtype(logical_or(eq(ax, n), isnan(ax)), g.dtype());
    Tensor ties = F::expand_reduced(sum(mask, dims, keepdim, std::nullopt), sizes, dims, keepdim);
    return {F::mul(F::mul(F::div(g, ties), mask), s)};
  }
  Tensor ax = F::mul(x, s);  // |x|, differentiable
  auto pow = [](const Tensor& t, double e) { return call(TZ_OP("pow"), {t, number(e)}); };
  if (p < 1.0) {
    Tensor scaled = F::mul(s, zero_where(eq(x, number(0.0)), pow(ax, p - 1)));
    return {F::mul(F::mul(scaled, g), pow(n, 1 - p))};
  }
  Tensor scale = zero_where(n_zero, F::div(g, pow(safe_n, p - 1)));
  Tensor scaled = p < 2.0 ? F::mul(s, pow(ax, p - 1)) : F::mul(x, pow(ax, p - 2));
  return {F::mul(scaled, scale)};
}

// grad * exp(x - logsumexp(x)), the exp written as the softmax over the reduced dims.
TensorList logsumexp(BackwardContext& c) {
  const IntList dims = c.arg("dim").int_list();
  Tensor g = F::expand_reduced(c.grad(), c.input_sizes("self"), dims, c.arg("keepdim").to_bool());
  return {F::mul(g, softmax_over(c.input("self"), dims))};
}

TensorList cumsum(BackwardContext& c) {
  const Tensor& g = c.grad();
  if (g.dim() == 0) return {g};
  return {reverse_cumsum(g, wrap_dim(c.arg("dim").to_int(), g.dim(), "cumsum"))};
}

// PyTorch's cumprod_backward. Without zeros: reverse_cumsum(grad * result) / x. With zeros,
// the definition itself: grad_k = sum_{j >= k} grad_j * prod_{i <= j, i != k} x_i, from the
// cumprods of n copies of x, each with one element set to 1 (O(n^2) along the dim).
TensorList cumprod(BackwardContext& c) {
  const Tensor& x = c.input("self");
  const Tensor& g = c.grad();
  if (x.dim() == 0 || x.numel() == 0) return {g};
  const int64_t d = wrap_dim(c.arg("dim").to_int(), x.dim(), "cumprod");
  if (!has_zero(x)) return {F::div(reverse_cumsum(F::mul(g, c.result()), d), x)};
  const int64_t n = x.sizes()[d], nd = x.dim() + 1;
  Shape copies = x.sizes();
  copies.insert(copies.begin() + d, n);  // dim d: which element is 1 (k); d + 1: position (j)
  Tensor xs = F::expand(call(TZ_OP("unsqueeze"), {x, d}), copies);
  Tensor k = line(n, d, nd), j = line(n, d + 1, nd);
  Tensor partial = call(TZ_OP("cumprod"), {call(TZ_OP("where.self"), {eq(k, j), number(1.0), xs}), d + 1, c.arg("dtype")});
  Tensor terms = keep_where(ge(j, k), F::mul(call(TZ_OP("unsqueeze"), {g, d}), partial));
  return {call(TZ_OP("sum"), {terms, IntList{d + 1}})};
}

TensorList softmax(BackwardContext& c) {
  const Tensor& y = c.result();
  const int64_t d = c.arg("dim").to_int();
  if (!GradMode::is_enabled()) return {softmax_backward_data(c.grad(), y, d, false)};  // nothing recorded
  Tensor dot = call(TZ_OP("sum"), {F::mul(c.grad(), y), IntList{d}, true});
  return {F::mul(y, F::sub(c.grad(), dot))};
}

// grad - softmax * sum(grad); softmax(x) == softmax(log_softmax(x)), so the saved result
// gives it differentiably.
TensorList log_softmax(BackwardContext& c) {
  const Tensor& y = c.result();
  const int64_t d = c.arg("dim").to_int();
  if (!GradMode::is_enabled()) return {softmax_backward_data(c.grad(), y, d, true)};  // nothing recorded
  Tensor total = call(TZ_OP("sum"), {c.grad(), IntList{d}, true});
  return {F::sub(c.grad(), F::mul(call(TZ_OP("softmax"), {y, d}), total))};
}

}  // namespace grad
}  // namespace tz
