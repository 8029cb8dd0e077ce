#include "ops/loss.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "iter/thread_pool.h"
#include "ops/conversion.h"
#include "ops/creation.h"
#include "ops/reduce_engine.h"

namespace tz {

LossReduction loss_reduction(int64_t code, const char* op) {
  TZ_CHECK(code >= 0 && code <= 2, Value, op, "(): ", code, " is not a valid value for reduction");
  return static_cast<LossReduction>(code);
}

namespace {

// ---------------------------------------------------------------- nll_loss

// self seen as (batch, classes, inner); target as (batch, inner).
struct NllShape {
  int64_t batch = 1, classes = 0, inner = 1;
  Shape out;  // the unreduced loss's shape: target's
};

NllShape nll_shape(const Shape& sizes, const Tensor& target, const std::optional<Tensor>& weight) {
  const char* op = "nll_loss";
  const int64_t dim = static_cast<int64_t>(sizes.size());
  TZ_CHECK(dim >= 1, Value, op, "(): Expected 1 or more dimensions (got ", dim, ")");
  TZ_CHECK(target.dtype() == DType::Int64, Runtime, op, "(): expected scalar type Long but found ",
           scalar_type_name(target.dtype()));
  NllShape g;
  if (dim == 1) {
    TZ_CHECK(target.dim() == 0, Runtime, op, "(): 0D target tensor expected for 1D input, got ", target.dim(),
             "D target");
    g.classes = sizes[0];
  } else {
    TZ_CHECK(target.dim() >= 1 && target.sizes()[0] == sizes[0], Value, op, "(): Expected input batch_size (",
             sizes[0], ") to match target batch_size (", target.dim() ? target.sizes()[0] : 0, ").");
    Shape expect{sizes[0]};
    for (int64_t d = 2; d < dim; ++d) expect.push_back(sizes[d]);
    TZ_CHECK(dim != 2 || target.dim() == 1, Runtime, op,
             "(): 0D or 1D target tensor expected, multi-target not supported");
    TZ_CHECK(target.sizes() == expect, Runtime, op, "(): Expected target size ", shape_str(expect), ", got ",
             shape_str(target.sizes()));
    g.batch = sizes[0];
    g.classes = sizes[1];
    g.inner = numel_of(expect) / std::max<int64_t>(g.batch, 1);
    if (g.batch == 0) g.inner = 0;
  }
  g.out = target.sizes();
  if (weight) {
    TZ_CHECK(weight->numel() == g.classes, Runtime, op, "(): weight tensor should be defined either for all ",
             g.classes, " classes or no classes but got weight tensor of shape: ", shape_str(weight->sizes()));
  }
  return g;
}

[[noreturn]] void target_out_of_bounds(int64_t t) {
  fail(ErrorKind::Index, "nll_loss(): Target ", t, " is out of bounds.");
}

// Per-element losses (or their sums): chunks of this many targets run in parallel, and
// their partial sums are added in chunk order (deterministic for a given size).
constexpr int64_t kNllChunk = 16384;

template <typename T>
void nll_forward_kernel(const T* x, const int64_t* target, const T* w, const NllShape& g, int64_t ignore,
                        T* per_element, double* loss_sum, double* weight_sum) {
  const int64_t m = g.batch * g.inner, chunks = (m + kNllChunk - 1) / kNllChunk;
  std::vector<double> losses(chunks, 0.0), weights(chunks, 0.0);
  std::vector<int64_t> bad(chunks, -1);  // a chunk's first out-of-range target's position
  auto run = [&](int64_t cb, int64_t ce) {
    for (int64_t k = cb; k < ce; ++k) {
      double ls = 0.0, ws = 0.0;
      for (int64_t i = k * kNllChunk, e = std::min(m, i + kNllChunk); i < e; ++i) {
        const int64_t t = target[i];
        if (t == ignore) {
          if (per_element) per_element[i] = T(0);
          continue;
        }
        if (t < 0 || t >= g.classes) {
          bad[k] = i;
          break;
        }
        const int64_t n = i / g.inner, s = i - n * g.inner;
        const T wt = w ? w[t] : T(1);
        const T v = -wt * x[(n * g.classes + t) * g.inner + s];
        if (per_element) per_element[i] = v;
        ls += v;
        ws += wt;
      }
      losses[k] = ls;
      weights[k] = ws;
    }
  };
  if (chunks > 1 && !in_parallel_region()) parallel_for(0, chunks, 1, run); else run(0, chunks);
  for (int64_t k = 0; k < chunks; ++k) {
    if (bad[k] >= 0) target_out_of_bounds(target[bad[k]]);
    *loss_sum += losses[k];
    *weight_sum += weights[k];
  }
}

template <typename T>
void nll_backward_kernel(const T* grad, bool per_element_grad, T scale, const int64_t* target, const T* w,
                         const NllShape& g, int64_t ignore, T* out) {
  const int64_t m = g.batch * g.inner;
  auto run = [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      const int64_t t = target[i];
      if (t == ignore) continue;
      if (t < 0 || t >= g.classes) continue;  // the forward already rejected these
      const int64_t n = i / g.inner, s = i - n * g.inner;
      const T gi = per_element_grad ? grad[i] : T(1);
      out[(n * g.classes + t) * g.inner + s] = -(w ? w[t] : T(1)) * gi * scale;
    }
  };
  if (m > kNllChunk && !in_parallel_region()) parallel_for(0, m, kNllChunk, run); else run(0, m);
}

}  // namespace

std::pair<Tensor, Tensor> nll_loss_forward(const Tensor& self, const Tensor& target,
                                           const std::optional<Tensor>& weight, int64_t reduction,
                                           int64_t ignore_index) {
  const LossReduction red = loss_reduction(reduction, "nll_loss");
  const NllShape g = nll_shape(self.sizes(), target, weight);
  TZ_CHECK(!weight || weight->dtype() == self.dtype(), Runtime, "nll_loss(): expected scalar type ",
           scalar_type_name(self.dtype()), " but found ", scalar_type_name(weight->dtype()));
  const DType out_dtype = self.dtype(), ct = compute_dtype(out_dtype);
  Tensor x = contiguous(to_dtype(self, ct)), t = contiguous(target);
  Tensor w = weight ? contiguous(to_dtype(*weight, ct)) : Tensor();
  Tensor per = red == LossReduction::None ? Tensor::empty(g.out, ct) : Tensor();
  double loss_sum = 0.0, weight_sum = 0.0;
  TZ_DISPATCH_FLOATING(ct, "nll_loss", [&] {
    nll_forward_kernel<scalar_t>(x.data<scalar_t>(), t.data<int64_t>(), weight ? w.data<scalar_t>() : nullptr, g,
                                 ignore_index, per.defined() ? per.data<scalar_t>() : nullptr, &loss_sum,
                                 &weight_sum);
  });
  Tensor total = full({}, Scalar(weight_sum), ct);
  Tensor out;
  if (red == LossReduction::None) {
    out = per;
  } else {
    // mean over all-ignored targets is 0/0 = nan, like PyTorch.
    const double v = red == LossReduction::Mean ? loss_sum / weight_sum : loss_sum;
    out = full({}, Scalar(v), ct);
  }
  return {to_dtype(out, out_dtype), to_dtype(total, out_dtype)};
}

Tensor nll_loss_backward(const Tensor& grad, const Tensor& target, const std::optional<Tensor>& weight,
                         int64_t reduction, int64_t ignore_index, const Tensor& total_weight,
                         const Shape& self_sizes) {
  const LossReduction red = loss_reduction(reduction, "nll_loss_backward");
  const DType out_dtype = grad.dtype(), ct = compute_dtype(out_dtype);
  const NllShape g = nll_shape(self_sizes, target, weight);
  // memset rather than zeros(): core's fill kernel is several times slower than a memset
  Tensor out = Tensor::empty(self_sizes, ct);
  std::memset(out.raw_data(), 0, static_cast<size_t>(out.numel() * itemsize(ct)));
  Tensor gr = contiguous(to_dtype(grad, ct)), t = contiguous(target);
  Tensor w = weight ? contiguous(to_dtype(*weight, ct)) : Tensor();
  const bool per_element = red == LossReduction::None;
  TZ_CHECK(!per_element || gr.numel() == g.batch * g.inner, Runtime,
           "nll_loss_backward(): expected a gradient of shape ", shape_str(g.out), ", got ", shape_str(grad.sizes()));
  TZ_DISPATCH_FLOATING(ct, "nll_loss_backward", [&] {
    scalar_t scale = per_element ? scalar_t(1) : gr.data<scalar_t>()[0];
    if (red == LossReduction::Mean) scale /= to_dtype(total_weight, ct).data<scalar_t>()[0];
    nll_backward_kernel<scalar_t>(gr.data<scalar_t>(), per_element, scale, t.data<int64_t>(),
                                  weight ? w.data<scalar_t>() : nullptr, g, ignore_index, out.data<scalar_t>());
  });
  return to_dtype(out, out_dtype);
}

// ---------------------------------------------------------------- ctc_loss

namespace {

struct CtcLayout {
  int64_t time, batch, classes, blank;
  std::vector<int64_t> target_offset;  // where sample b's targets start in the flat targets
  int64_t max_target = 0;
};

CtcLayout ctc_layout(const Tensor& log_probs, const Tensor& targets, const IntList& input_lengths,
                     const IntList& target_lengths, int64_t blank) {
  const char* op = "ctc_loss";
  TZ_CHECK(log_probs.dim() == 3, Runtime, op, "(): log_probs must be 3-D (input_length, batch_size, num_labels), got ",
           log_probs.dim(), "-D");
  TZ_CHECK(targets.dtype() == DType::Int64 || targets.dtype() == DType::Int32, Runtime, op,
           "(): targets must be int or long, got ", scalar_type_name(targets.dtype()));
  CtcLayout l{log_probs.sizes()[0], log_probs.sizes()[1], log_probs.sizes()[2], blank, {}, 0};
  TZ_CHECK(blank >= 0 && blank < l.classes, Runtime, op, "(): blank must be in label range");
  TZ_CHECK(static_cast<int64_t>(input_lengths.size()) == l.batch, Runtime, op,
           "(): input_lengths must be of size batch_size");
  TZ_CHECK(static_cast<int64_t>(target_lengths.size()) == l.batch, Runtime, op,
           "(): target_lengths must be of size batch_size");
  int64_t pos = 0;
  for (int64_t b = 0; b < l.batch; ++b) {
    const int64_t il = input_lengths[b], tl = target_lengths[b];
    TZ_CHECK(il >= 0 && il <= l.time, Runtime, op, "(): Expected input_lengths to have value at most ", l.time,
             ", but got value ", il);
    TZ_CHECK(tl >= 0, Runtime, op, "(): target_lengths must be non-negative, got ", tl);
    l.max_target = std::max(l.max_target, tl);
    if (targets.dim() == 1) {
      l.target_offset.push_back(pos);
      pos += tl;
    } else {
      l.target_offset.push_back(b * (targets.dim() == 2 ? targets.sizes()[1] : 0));
    }
  }
  if (targets.dim() == 1) {
    TZ_CHECK(targets.sizes()[0] >= pos, Runtime, op, "(): Expected tensor to have size at least ", pos,
             " at dimension 0, but got size ", targets.sizes()[0]);
  } else {
    TZ_CHECK(targets.dim() == 2 && targets.sizes()[0] == l.batch, Runtime, op,
             "(): targets must be 1-D (concatenated) or 2-D (batch_size, max_target_length), got shape ",
             shape_str(targets.sizes()));
    TZ_CHECK(targets.sizes()[1] >= l.max_target, Runtime, op, "(): Expected tensor to have size at least ",
             l.max_target, " at dimension 1, but got size ", targets.sizes()[1]);
  }
  return l;
}

// log(exp(a) + exp(b) + exp(c)) with -inf terms allowed (all -inf gives -inf).
template <typename T>
inline T log_add3(T a, T b, T c) {
  T m = std::max(a, std::max(b, c));
  if (m == -std::numeric_limits<T>::infinity()) return m;
  return std::log(std::exp(a - m) + std::exp(b - m) + std::exp(c - m)) + m;
}

// The targets of one sample, as the extended label sequence blank, l1, blank, l2, ..., blank.
struct Extended {
  const int64_t* labels;
  int64_t blank;
  int64_t operator[](int64_t s) const { return s % 2 == 0 ? blank : labels[s / 2]; }
};

template <typename T>
void ctc_alpha(const T* lp, const CtcLayout& l, int64_t b, int64_t il, int64_t tl, const Extended& ext,
               T* alpha /* (time, 2*max+1) */, T* nll) {
  const T ninf = -std::numeric_limits<T>::infinity();
  const int64_t width = 2 * l.max_target + 1, states = 2 * tl + 1;
  auto at = [&](int64_t t, int64_t c) { return lp[(t * l.batch + b) * l.classes + c]; };
  if (il == 0) {  // only the empty alignment exists, and it fits only the empty target
    *nll = tl == 0 ? T(0) : std::numeric_limits<T>::infinity();
    return;
  }
  alpha[0] = at(0, l.blank);
  if (tl > 0) alpha[1] = at(0, ext[1]);
  for (int64_t t = 1; t < il; ++t) {
    const T* prev = alpha + (t - 1) * width;
    T* cur = alpha + t * width;
    for (int64_t s = 0; s < states; ++s) {
      const int64_t c = ext[s];
      const T a2 = s > 0 ? prev[s - 1] : ninf;
      const T a3 = (s > 1 && ext[s - 2] != c) ? prev[s - 2] : ninf;
      cur[s] = log_add3(prev[s], a2, a3) + at(t, c);
    }
  }
  const T* last = alpha + (il - 1) * width;
  *nll = -log_add3(last[states - 1], tl > 0 ? last[states - 2] : ninf, ninf);
}

template <typename T>
void ctc_beta_and_grad(const T* lp, const CtcLayout& l, int64_t b, int64_t il, int64_t tl, const Extended& ext,
                       const T* alpha, T nll, T gr, T* beta /* (time, width) scratch */, T* grad /* (T,N,C) */) {
  const T ninf = -std::numeric_limits<T>::infinity();
  const int64_t width = 2 * l.max_target + 1, states = 2 * tl + 1;
  auto idx = [&](int64_t t, int64_t c) { return (t * l.batch + b) * l.classes + c; };
  for (int64_t t = 0; t < il; ++t)
    for (int64_t c = 0; c < l.classes; ++c) grad[idx(t, c)] = ninf;
  // log of the summed posterior of every state s carrying class c: alpha + beta (each with lp).
  auto accumulate = [&](int64_t t, int64_t s) {
    T& g = grad[idx(t, ext[s])];
    g = log_add3(g, alpha[t * width + s] + beta[t * width + s], ninf);
  };
  if (il > 0) {
    const int64_t t = il - 1;
    beta[t * width + states - 1] = lp[idx(t, l.blank)];
    accumulate(t, states - 1);
    if (tl > 0) {
      beta[t * width + states - 2] = lp[idx(t, ext[states - 2])];
      accumulate(t, states - 2);
    }
  }
  for (int64_t t = il - 2; t >= 0; --t) {
    const T* next = beta + (t + 1) * width;
    T* cur = beta + t * width;
    for (int64_t s = states - 1; s >= 0; --s) {
      const int64_t c = ext[s];
      const T b2 = s < states - 1 ? next[s + 1] : ninf;
      const T b3 = (s < states - 2 && ext[s + 2] != c) ? next[s + 2] : ninf;
      cur[s] = log_add3(next[s], b2, b3) + lp[idx(t, c)];
      accumulate(t, s);
    }
  }
  for (int64_t t = 0; t < il; ++t) {
    for (int64_t c = 0; c < l.classes; ++c) {
      T& g = grad[idx(t, c)];
      const T x = lp[idx(t, c)];
      g = (std::exp(x) - std::exp(g + nll - x)) * gr;
    }
  }
  for (int64_t t = il; t < l.time; ++t)
    for (int64_t c = 0; c < l.classes; ++c) grad[idx(t, c)] = T(0);
}

// Targets as int64, with every used label checked to be a class other than blank.
Tensor checked_targets(const Tensor& targets, const CtcLayout& l, const IntList& target_lengths) {
  Tensor t = contiguous(to_dtype(targets, DType::Int64));
  const int64_t* p = t.data<int64_t>();
  for (int64_t b = 0; b < l.batch; ++b)
    for (int64_t k = 0; k < target_lengths[b]; ++k) {
      const int64_t v = p[l.target_offset[b] + k];
      TZ_CHECK(v >= 0 && v < l.classes && v != l.blank, Index, "ctc_loss(): target ", v, " of sample ", b,
               " is out of the label range [0, ", l.classes, ") or equal to blank (", l.blank, ")");
    }
  return t;
}

}  // namespace

std::pair<Tensor, Tensor> ctc_loss_forward(const Tensor& log_probs, const Tensor& targets,
                                           const IntList& input_lengths, const IntList& target_lengths,
                                           int64_t blank, bool zero_infinity) {
  (void)zero_infinity;  // applied to the reduced result and in the backward
  const CtcLayout l = ctc_layout(log_probs, targets, input_lengths, target_lengths, blank);
  const DType out_dtype = log_probs.dtype(), ct = compute_dtype(out_dtype);
  Tensor lp = contiguous(to_dtype(log_probs, ct));
  Tensor tg = checked_targets(targets, l, target_lengths);
  const int64_t width = 2 * l.max_target + 1;
  Tensor alpha = full({l.batch, l.time, width}, Scalar(-std::numeric_limits<double>::infinity()), ct);
  Tensor nll = Tensor::empty({l.batch}, ct);
  TZ_DISPATCH_FLOATING(ct, "ctc_loss", [&] {
    const scalar_t* lpp = lp.data<scalar_t>();
    scalar_t* ap = alpha.data<scalar_t>();
    scalar_t* np = nll.data<scalar_t>();
    const int64_t* tp = tg.data<int64_t>();
    parallel_for(0, l.batch, 1, [&](int64_t bb, int64_t be) {
      for (int64_t b = bb; b < be; ++b) {
        Extended ext{tp + l.target_offset[b], l.blank};
        ctc_alpha<scalar_t>(lpp, l, b, input_lengths[b], target_lengths[b], ext, ap + b * l.time * width, np + b);
      }
    });
  });
  return {to_dtype(nll, out_dtype), to_dtype(alpha, out_dtype)};
}

Tensor ctc_loss_backward(const Tensor& grad, const Tensor& log_probs, const Tensor& targets,
                         const IntList& input_lengths, const IntList& target_lengths,
                         const Tensor& neg_log_likelihood, const Tensor& log_alpha, int64_t blank,
                         bool zero_infinity) {
  const CtcLayout l = ctc_layout(log_probs, targets, input_lengths, target_lengths, blank);
  const DType out_dtype = log_probs.dtype(), ct = compute_dtype(out_dtype);
  Tensor lp = contiguous(to_dtype(log_probs, ct));
  Tensor tg = checked_targets(targets, l, target_lengths);
  Tensor alpha = contiguous(to_dtype(log_alpha, ct)), nll = contiguous(to_dtype(neg_log_likelihood, ct));
  Tensor gr = contiguous(to_dtype(grad, ct));
  TZ_CHECK(gr.numel() == l.batch, Runtime, "ctc_loss_backward(): expected a gradient of ", l.batch, " elements");
  const int64_t width = 2 * l.max_target + 1;
  Tensor out = Tensor::empty(log_probs.sizes(), ct);
  TZ_DISPATCH_FLOATING(ct, "ctc_loss_backward", [&] {
    const scalar_t* lpp = lp.data<scalar_t>();
    const scalar_t* ap = alpha.data<scalar_t>();
    const scalar_t* np = nll.data<scalar_t>();
    const scalar_t* gp = gr.data<scalar_t>();
    const int64_t* tp = tg.data<int64_t>();
    scalar_t* op = out.data<scalar_t>();
    parallel_for(0, l.batch, 1, [&](int64_t bb, int64_t be) {
      std::vector<scalar_t> beta(l.time * width);
      for (int64_t b = bb; b < be; ++b) {
        const int64_t il = input_lengths[b];
        if (zero_infinity && np[b] == std::numeric_limits<scalar_t>::infinity()) {
          for (int64_t t = 0; t < l.time; ++t)
            std::fill(op + (t * l.batch + b) * l.classes, op + (t * l.batch + b + 1) * l.classes, scalar_t(0));
          continue;
        }
        std::fill(beta.begin(), beta.end(), -std::numeric_limits<scalar_t>::infinity());
        Extended ext{tp + l.target_offset[b], l.blank};
        ctc_beta_and_grad<scalar_t>(lpp, l, b, il, target_lengths[b], ext, ap + b * l.time * width, np[b], gp[b],
                                    beta.data(), op);
      }
    });
  });
  return to_dtype(out, out_dtype);
}

}  // namespace tz
