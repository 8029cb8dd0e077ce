#include "autograd/linalg_grad.h"

#include <algorithm>

#include "autograd/grad_util.h"
#include "ops/joining_util.h"
#include "ops/linalg.h"

namespace tz::grad {

using joining::prod_range;

namespace {

Tensor dmatmul(const Tensor& a, const Tensor& b) { return op(TZ_OP("matmul"), {a, b}); }
Tensor dmv(const Tensor& a, const Tensor& b) { return op(TZ_OP("mv"), {a, b}); }
Tensor mT(const Tensor& x) { return F::transpose(x, -2, -1); }

// x of shape (batch..., r, c) as the matrix (r, batch * c): batch folded into columns.
Tensor rows_by_batch_cols(const Tensor& x) {
  const int64_t nd = x.dim();
  IntList perm{nd - 2};
  for (int64_t d = 0; d < nd - 2; ++d) perm.push_back(d);
  perm.push_back(nd - 1);
  return F::reshape(F::permute(x, perm), {x.size(-2), prod_range(x.sizes(), 0, nd - 2) * x.size(-1)});
}

// x of shape (..., c) as the matrix (rows, c).
Tensor as_rows(const Tensor& x) { return F::reshape(x, {prod_range(x.sizes(), 0, x.dim() - 1), x.size(-1)}); }

}  // namespace

Tensor mm_grad_a(const Tensor& grad, const Tensor& b, const Scalar& alpha) {
  return scale(dmatmul(grad, mT(conj(b))), conj(alpha));
}

Tensor mm_grad_b(const Tensor& grad, const Tensor& a, const Scalar& alpha) {
  return scale(dmatmul(mT(conj(a)), grad), conj(alpha));
}

TensorList matmul_backward(const BackwardContext& c) {
  const Tensor& g = c.grad();
  const Tensor& a = c.input("self");
  const Tensor& b = c.input("other");
  const int64_t da = a.dim(), db = b.dim();
  const bool need_a = c.needs_grad("self"), need_b = c.needs_grad("other");
  Tensor ga, gb;
  if (da == 1 && db == 1) {  // dot
    if (need_a) ga = F::mul(g, conj(b));
    if (need_b) gb = F::mul(g, conj(a));
  } else if (db == 1) {  // (..., m, k) @ (k,) -> (..., m)
    if (need_a) ga = F::mul(unsqueeze(g, -1), conj(b));
    if (need_b) gb = dmatmul(F::reshape(g, {g.numel()}), as_rows(conj(a)));
  } else if (da == 1) {  // (k,) @ (..., k, n) -> (..., n)
    if (need_a) ga = dmv(rows_by_batch_cols(conj(b)), F::reshape(g, {g.numel()}));
    if (need_b) gb = F::mul(unsqueeze(conj(a), -1), unsqueeze(g, -2));
  } else {
    // A matrix against a batch: fold the batch into the product instead of broadcasting.
    if (need_a)
      ga = da == 2 && db > 2 ? dmatmul(rows_by_batch_cols(g), mT(rows_by_batch_cols(conj(b)))) : mm_grad_a(g, b);
    if (need_b)
      gb = db == 2 && da > 2 ? dmatmul(mT(as_rows(conj(a))), as_rows(g)) : mm_grad_b(g, a);
  }
  return {ga, gb};
}

TensorList mv_backward(const BackwardContext& c) {
  const Tensor& g = c.grad();
  return {c.needs_grad("self") ? op(TZ_OP("outer"), {g, conj(c.input("vec"))}) : Tensor(),
          c.needs_grad("vec") ? dmv(mT(conj(c.input("self"))), g) : Tensor()};
}

TensorList dot_backward(const BackwardContext& c, bool conj_self) {
  const Tensor& g = c.grad();
  if (conj_self)  // vdot: d/d(self) of conj(self) . other pairs with conj(grad)
    return {c.needs_grad("self") ? F::mul(conj(g), c.input("other")) : Tensor(),
            c.needs_grad("other") ? F::mul(g, c.input("self")) : Tensor()};
  return {c.needs_grad("self") ? F::mul(g, conj(c.input("tensor"))) : Tensor(),
          c.needs_grad("tensor") ? F::mul(g, conj(c.input("self"))) : Tensor()};
}

TensorList addmm_backward(const BackwardContext& c, const char* a, const char* b) {
  const Tensor& g = c.grad();
  const Scalar& beta = c.arg("beta").scalar();
  const Scalar& alpha = c.arg("alpha").scalar();
  return {c.needs_grad("self") ? F::mul(g, conj(beta)) : Tensor(),
          c.needs_grad(a) ? mm_grad_a(g, c.input(b), alpha) : Tensor(),
          c.needs_grad(b) ? mm_grad_b(g, c.input(a), alpha) : Tensor()};
}

TensorList addmv_backward(const BackwardContext& c) {
  const Tensor& g = c.grad();
  const Scalar& beta = c.arg("beta").scalar();
  const Scalar& alpha = c.arg("alpha").scalar();
  return {c.needs_grad("self") ? F::mul(g, conj(beta)) : Tensor(),
          c.needs_grad("mat") ? scale(op(TZ_OP("outer"), {g, conj(c.input("vec"))}), conj(alpha)) : Tensor(),
          c.needs_grad("vec") ? scale(dmv(mT(conj(c.input("mat"))), g), conj(alpha)) : Tensor()};
}

TensorList outer_backward(const BackwardContext& c) {
  const Tensor& g = c.grad();
  return {c.needs_grad("self") ? dmv(g, cast(conj(c.input("vec2")), g.dtype())) : Tensor(),
          c.needs_grad("vec2") ? dmv(mT(g), cast(conj(c.input("self")), g.dtype())) : Tensor()};
}

TensorList tensordot_backward(const BackwardContext& c) {
  const Tensor& g = c.grad();
  const Tensor& a = c.input("self");
  const Tensor& b = c.input("other");
  IntList ca = c.arg("dims_self").int_list(), cb = c.arg("dims_other").int_list();
  for (int64_t& d : ca) d = wrap_dim(d, a.dim(), "tensordot");
  for (int64_t& d : cb) d = wrap_dim(d, b.dim(), "tensordot");
  IntList free_a, free_b;
  for (int64_t d = 0; d < a.dim(); ++d)
    if (std::find(ca.begin(), ca.end(), d) == ca.end()) free_a.push_back(d);
  for (int64_t d = 0; d < b.dim(); ++d)
    if (std::find(cb.begin(), cb.end(), d) == cb.end()) free_b.push_back(d);
  const int64_t fa = static_cast<int64_t>(free_a.size()), fb = static_cast<int64_t>(free_b.size());
  // Where contracted dim j of one side lands among the other side's leftover dims (ascending).
  auto rank_of = [](const IntList& dims, int64_t d) {
    return static_cast<int64_t>(std::count_if(dims.begin(), dims.end(), [&](int64_t e) { return e < d; }));
  };
  Tensor ga, gb;
  if (c.needs_grad("self")) {
    // grad . b over b's free dims -> (free_a..., b's contracted dims ascending).
    IntList g_dims;
    for (int64_t j = 0; j < fb; ++j) g_dims.push_back(fa + j);
    Tensor t = op(TZ_OP("tensordot"), {g, conj(b), g_dims, free_b});
    IntList perm(a.dim());
    for (int64_t j = 0; j < fa; ++j) perm[free_a[j]] = j;
    for (size_t j = 0; j < ca.size(); ++j) perm[ca[j]] = fa + rank_of(cb, cb[j]);
    ga = F::permute(t, perm);
  }
  if (c.needs_grad("other")) {
    // a . grad over a's free dims -> (a's contracted dims ascending, free_b...).
    IntList g_dims;
    for (int64_t j = 0; j < fa; ++j) g_dims.push_back(j);
    Tensor t = op(TZ_OP("tensordot"), {conj(a), g, free_a, g_dims});
    IntList perm(b.dim());
    const int64_t nc = static_cast<int64_t>(ca.size());
    for (int64_t j = 0; j < fb; ++j) perm[free_b[j]] = nc + j;
    for (size_t j = 0; j < cb.size(); ++j) perm[cb[j]] = rank_of(ca, ca[j]);
    gb = F::permute(t, perm);
  }
  return {ga, gb};
}

namespace {

// A dim of the gradient under construction: which label, and which occurrence of it in the
// operand's term (repeated labels, "ii", are diagonals).
struct Axis {
  int label, occurrence;
  bool operator==(const Axis& o) const { return label == o.label && occurrence == o.occurrence; }
};

int64_t axis_index(const std::vector<Axis>& axes, Axis a) {
  return static_cast<int64_t>(std::find(axes.begin(), axes.end(), a) - axes.begin());
}

}  // namespace

TensorList einsum_backward(const BackwardContext& c) {
  const std::string& eq = c.arg("equation").str();
  const TensorList& operands = c.arg("tensors").tensor_list();
  const size_t n = operands.size();
  std::vector<int64_t> dims;
  for (const Tensor& t : operands) dims.push_back(t.dim());
  const EinsumLabels spec = einsum_labels(eq, dims);

  // Letters for the backward equations: the equation's own, then unused ones for "..." dims.
  std::vector<bool> used(kEinsumLetters, false);
  for (const auto& labels : spec.operands)
    for (int lab : labels)
      if (lab < kEinsumLetters) used[lab] = true;
  std::vector<char> letter(spec.num_labels);
  int next_free = 0;
  for (int lab = 0; lab < spec.num_labels; ++lab) {
    if (lab < kEinsumLetters) {
      letter[lab] = einsum_label_char(lab);
      continue;
    }
    while (next_free < kEinsumLetters && used[next_free]) ++next_free;
    TZ_CHECK(next_free < kEinsumLetters, NotImplemented, "einsum(): the derivative of '", eq,
             "' is not implemented: it needs a free subscript letter for every ellipsis dim");
    letter[lab] = einsum_label_char(next_free++);
  }
  auto term = [&](const std::vector<int>& labels) {
    std::string s;
    for (int lab : labels) s += letter[lab];
    return s;
  };

  TensorList out(n);
  for (size_t i = 0; i < n; ++i) {
    if (!c.needs_grad_at(i)) continue;
    const std::vector<int>& labels = spec.operands[i];
    const Shape& sizes = c.input_sizes_at(i);
    // Labels the gradient can be computed over: those of the output or another operand.
    std::vector<bool> elsewhere(spec.num_labels, false);
    for (int lab : spec.output) elsewhere[lab] = true;
    for (size_t j = 0; j < n; ++j)
      if (j != i)
        for (int lab : spec.operands[j]) elsewhere[lab] = true;
    std::vector<int> have, missing;
    for (int lab : labels) {
      if (std::find(have.begin(), have.end(), lab) != have.end() ||
          std::find(missing.begin(), missing.end(), lab) != missing.end())
        continue;
      (elsewhere[lab] ? have : missing).push_back(lab);
    }
    // grad_i = einsum(out, others... -> labels of i), with conjugated co-factors.
    std::string backward_eq = term(spec.output);
    TensorList args{c.grad()};
    for (size_t j = 0; j < n; ++j) {
      if (j == i) continue;
      backward_eq += "," + term(spec.operands[j]);
      args.push_back(conj(operands[j]));
    }
    backward_eq += "->" + term(have);
    Tensor t = op(TZ_OP("einsum"), {backward_eq, args});
    // Labels only operand i has were summed away, and size-1 labels of the others broadcast
    // along operand i: the gradient is constant along those dims.
    std::vector<Axis> axes;
    Shape unit = t.sizes(), full;
    unit.resize(have.size() + missing.size(), 1);
    for (int lab : have) axes.push_back({lab, 0});
    for (int lab : missing) axes.push_back({lab, 0});
    for (size_t d = 0; d < axes.size(); ++d) {
      const int64_t own = sizes[std::find(labels.begin(), labels.end(), axes[d].label) - labels.begin()];
      full.push_back(unit[d] == 1 ? own : unit[d]);  // (own == 1 < unit[d]: the engine sums)
    }
    if (full != t.sizes()) t = F::expand(F::reshape(t, unit), full);
    // Each repeat of a label: move its first axis last, then spread it over a diagonal.
    std::vector<Axis> final_axes;
    for (int lab : labels) {
      const int occurrence = static_cast<int>(
          std::count_if(final_axes.begin(), final_axes.end(), [&](const Axis& a) { return a.label == lab; }));
      final_axes.push_back({lab, occurrence});
      if (occurrence == 0) continue;
      const int64_t at = axis_index(axes, {lab, 0});
      IntList perm;
      std::vector<Axis> moved;
      for (int64_t d = 0; d < static_cast<int64_t>(axes.size()); ++d)
        if (d != at) perm.push_back(d), moved.push_back(axes[d]);
      perm.push_back(at);
      moved.push_back({lab, 0});
      moved.push_back({lab, occurrence});
      t = op(TZ_OP("diag_embed"), {F::permute(t, perm), int64_t(0), int64_t(-2), int64_t(-1)});
      axes = moved;
    }
    IntList perm;
    for (const Axis& a : final_axes) perm.push_back(axis_index(axes, a));
    out[i] = F::permute(t, perm);
  }
  return out;
}

}  // namespace tz::grad
