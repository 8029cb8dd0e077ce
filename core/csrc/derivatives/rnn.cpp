#include "derivatives/rnn.h"

#include <optional>

#include "autograd/engine.h"
#include "autograd/functions.h"
#include "kernels/rnn.h"  // RnnMode

namespace tz::grad {

namespace {

Tensor call(const Op& o, Stack args) { return F::tensor_call(o, std::move(args)); }
Tensor sigmoid(const Tensor& x) { return call(TZ_OP("sigmoid"), {x}); }
Tensor tanh(const Tensor& x) { return call(TZ_OP("tanh"), {x}); }
// The `length` rows (dim 0) or columns (dim 1) of x from `start`: views, so replaying costs no copies.
Tensor rows(const Tensor& x, int64_t start, int64_t length) { return call(TZ_OP("narrow"), {x, int64_t(0), start, length}); }
Tensor cols(const Tensor& x, int64_t start, int64_t length) { return call(TZ_OP("narrow"), {x, int64_t(1), start, length}); }
// x @ w^T
Tensor times_transposed(const Tensor& x, const Tensor& w) { return call(TZ_OP("mm"), {x, call(TZ_OP("t"), {w})}); }

std::optional<Tensor> optional_input(BackwardContext& c, const char* name) {
  const Value& v = c.arg(name);
  return v.is_none() ? std::nullopt : std::optional<Tensor>(v.tensor());
}

// The state after a step that updated its first `updated.size(0)` rows: those, then the rest unchanged.
Tensor with_rows(const Tensor& updated, const Tensor& state) {
  const int64_t n = updated.size(0), total = state.size(0);
  return n == total ? updated : call(TZ_OP("cat"), {TensorList{updated, rows(state, n, total - n)}, int64_t(0)});
}

struct Replayed {
  Tensor output, hy, cy;
};

// _rnn_layer's forward (ops/rnn.h has its contract) written with differentiable table ops.
Replayed replay(const Tensor& gates_in, const Tensor& hx, const std::optional<Tensor>& cx, const Tensor& w_hh,
                const std::optional<Tensor>& b_hh, const std::optional<Tensor>& w_hr, const IntList& batch_sizes,
                RnnMode mode, bool reverse) {
  const int64_t num_gates = mode == RnnMode::Lstm ? 4 : mode == RnnMode::Gru ? 3 : 1;
  const int64_t H = w_hh.size(0) / num_gates, steps = static_cast<int64_t>(batch_sizes.size());
  std::vector<int64_t> first(steps, 0);
  for (int64_t t = 1; t < steps; ++t) first[t] = first[t - 1] + batch_sizes[t - 1];
  Tensor h = hx, c = cx ? *cx : Tensor();
  TensorList outputs(steps);
  for (int64_t k = 0; k < steps; ++k) {
    const int64_t t = reverse ? steps - 1 - k : k, n = batch_sizes[t];
    const Tensor h_prev = rows(h, 0, n), gi = rows(gates_in, first[t], n);
    Tensor gh = times_transposed(h_prev, w_hh);
    if (b_hh) gh = F::add(gh, *b_hh);
    Tensor h_new;
    switch (mode) {
      case RnnMode::Tanh: h_new = tanh(F::add(gi, gh)); break;
      case RnnMode::Relu: h_new = call(TZ_OP("relu"), {F::add(gi, gh)}); break;
      case RnnMode::Lstm: {
        const Tensor g = F::add(gi, gh);
        const Tensor i = sigmoid(cols(g, 0, H)), f = sigmoid(cols(g, H, H)), cand = tanh(cols(g, 2 * H, H)),
                     o = sigmoid(cols(g, 3 * H, H));
        const Tensor c_new = F::add(F::mul(f, rows(c, 0, n)), F::mul(i, cand));
        h_new = F::mul(o, tanh(c_new));
        if (w_hr) h_new = times_transposed(h_new, *w_hr);
        c = with_rows(c_new, c);
        break;
      }
      case RnnMode::Gru: {
        const Tensor r = sigmoid(F::add(cols(gi, 0, H), cols(gh, 0, H)));
        const Tensor z = sigmoid(F::add(cols(gi, H, H), cols(gh, H, H)));
        const Tensor cand = tanh(F::add(cols(gi, 2 * H, H), F::mul(r, cols(gh, 2 * H, H))));
        h_new = F::add(cand, F::mul(z, F::sub(h_prev, cand)));  // (1 - z) * cand + z * h_prev
        break;
      }
    }
    outputs[t] = h_new;
    h = with_rows(h_new, h);
  }
  Tensor output = steps ? call(TZ_OP("cat"), {outputs, int64_t(0)}) : rows(hx, 0, 0);
  return {output, h, c};
}

}  // namespace

TensorList rnn_layer_recorded(BackwardContext& c) {
  const auto cx = optional_input(c, "cx");
  const Replayed r = replay(c.input("gates_in"), c.input("hx"), cx, c.input("w_hh"), optional_input(c, "b_hh"),
                            optional_input(c, "w_hr"), c.arg("batch_sizes").int_list(),
                            static_cast<RnnMode>(c.arg("mode").to_int()), c.arg("reverse").to_bool());
  TensorList roots, root_grads;
  const Tensor replayed[] = {r.output, r.hy, r.cy};
  for (size_t k = 0; k < 3; ++k)
    if (c.grad(k).defined() && replayed[k].defined() && autograd::requires_grad(replayed[k])) {
      roots.push_back(replayed[k]);
      root_grads.push_back(c.grad(k));
    }
  const char* names[] = {"gates_in", "hx", "cx", "w_hh", "b_hh", "w_hr"};
  TensorList wanted;
  std::vector<size_t> slots;
  for (size_t k = 0; k < 6; ++k)
    if (c.needs_grad(names[k])) {
      wanted.push_back(c.input(names[k]));
      slots.push_back(k);
    }
  TensorList grads(6);
  if (roots.empty() || wanted.empty()) return grads;
  autograd::BackwardOptions options;
  options.keep_graph = true;  // the replay reaches into the outer graph, whose backward is still running
  options.create_graph = true;
  options.accumulate_grad = false;
  options.allow_unused = true;
  const TensorList found = autograd::run_backward(roots, root_grads, wanted, options);
  for (size_t k = 0; k < slots.size(); ++k) grads[slots[k]] = found[k];
  return grads;
}

}  // namespace tz::grad
