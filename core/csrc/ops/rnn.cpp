// The fused recurrent layer: checks, the per-step loop (one GEMM into the gates, then the cell's
// pointwise part) and its reverse. Packed sequences need no reordering: step t updates the first
// batch_sizes[t] rows of the state buffers in place, so rows of sequences that ended (or, running
// backwards, have not started) keep their state, and the buffers end as the final states.
#include "ops/rnn.h"

#include <algorithm>
#include <cstring>
#include <type_traits>
#include <vector>

#include "iter/thread_pool.h"
#include "kernels/gemm.h"
#include "ops/conversion.h"
#include "ops/creation.h"

namespace tz {
namespace {

constexpr int64_t kGrainElements = 16384;  // gate elements per pointwise task, at least (each costs tens of cycles)

// A layer's sizes and workspace layout (kernels/rnn.h), and its steps: rows per step and the
// first row of each (in time order).
struct Layout : RnnLayout {
  int64_t batch = 0;
  std::vector<int64_t> steps, offsets;
};

const char* mode_name(RnnMode m) {
  switch (m) {
    case RnnMode::Tanh: return "RNN_TANH";
    case RnnMode::Relu: return "RNN_RELU";
    case RnnMode::Lstm: return "LSTM";
    default: return "GRU";
  }
}

// The layer's sizes from its arguments, checked; `sequence` is the 2-D sequence the call takes
// (gates_in, or the forward's output), named `what`: its rows and dtype are the layer's.
Layout layout_of(const char* op, const Tensor& sequence, const char* what, const Tensor& hx,
                 const std::optional<Tensor>& cx, const Tensor& w_hh, const std::optional<Tensor>& b_hh,
                 const std::optional<Tensor>& w_hr, const IntList& batch_sizes, int64_t mode) {
  TZ_CHECK(mode >= 0 && mode <= 3, Value, op, "(): unknown mode ", mode);
  TZ_CHECK(sequence.dim() == 2, Value, op, "(): expected a 2-D ", what, ", got ", sequence.dim(), "-D");
  const int64_t rows_in = sequence.sizes()[0];
  const DType dt = sequence.dtype();
  Layout l;
  l.mode = static_cast<RnnMode>(mode);
  TZ_CHECK(dt == DType::Float32 || dt == DType::Float64, Type, op, "(): expected float32 or float64 input, got ",
           dtype_name(dt));
  auto same_dtype = [&](const Tensor& t, const char* name) {
    TZ_CHECK(t.dtype() == dt, Type, op, "(): expected ", name, " to have dtype ", dtype_name(dt), ", got ",
             dtype_name(t.dtype()));
  };
  TZ_CHECK(hx.dim() == 2 && w_hh.dim() == 2, Value, op, "(): expected 2-D hx and w_hh, got ", hx.dim(), "-D and ",
           w_hh.dim(), "-D");
  same_dtype(hx, "hx");
  same_dtype(w_hh, "w_hh");
  const int64_t num_gates = l.mode == RnnMode::Lstm ? 4 : l.mode == RnnMode::Gru ? 3 : 1;
  l.batch = hx.sizes()[0];
  l.state = hx.sizes()[1];
  l.gates = w_hh.sizes()[0];
  TZ_CHECK(l.gates % num_gates == 0, Value, op, "(): w_hh has ", l.gates, " rows, not a multiple of the ",
           num_gates, " gates of ", mode_name(l.mode));
  l.hidden = l.gates / num_gates;
  TZ_CHECK(w_hh.sizes()[1] == l.state, Value, op, "(): w_hh has ", w_hh.sizes()[1], " columns but hx has ", l.state);
  l.projected = w_hr.has_value();
  TZ_CHECK(!l.projected || l.mode == RnnMode::Lstm, Value, op, "(): a projection w_hr is only supported for LSTM");
  if (l.projected) {
    same_dtype(*w_hr, "w_hr");
    TZ_CHECK(w_hr->dim() == 2 && w_hr->sizes()[0] == l.state && w_hr->sizes()[1] == l.hidden, Value, op,
             "(): expected w_hr of shape (", l.state, ", ", l.hidden, ")");
  } else {
    TZ_CHECK(l.state == l.hidden, Value, op, "(): hx has ", l.state, " columns, expected the hidden size ", l.hidden);
  }
  TZ_CHECK(cx.has_value() == (l.mode == RnnMode::Lstm), Value, op, "(): cx is required for LSTM and only for LSTM");
  if (cx) {
    same_dtype(*cx, "cx");
    TZ_CHECK(cx->dim() == 2 && cx->sizes()[0] == l.batch && cx->sizes()[1] == l.hidden, Value, op,
             "(): expected cx of shape (", l.batch, ", ", l.hidden, ")");
  }
  if (b_hh) {
    same_dtype(*b_hh, "b_hh");
    TZ_CHECK(b_hh->dim() == 1 && b_hh->sizes()[0] == l.gates, Value, op, "(): expected b_hh of ", l.gates,
             " elements");
  }
  int64_t rows = 0, previous = l.batch;
  for (int64_t b : batch_sizes) {
    TZ_CHECK(b >= 1 && b <= previous, Value, op, "(): batch_sizes must be positive and non-increasing, starting at "
             "the batch size ", l.batch);
    l.offsets.push_back(rows);
    l.steps.push_back(b);
    rows += b;
    previous = b;
  }
  TZ_CHECK(batch_sizes.empty() || batch_sizes[0] == l.batch, Value, op, "(): batch_sizes[0] is ", batch_sizes[0],
           " but hx has a batch of ", l.batch);
  TZ_CHECK(rows_in == rows, Value, op, "(): the sequence has ", rows_in, " rows but batch_sizes sum to ", rows);
  const int64_t h = l.hidden;
  switch (l.mode) {
    case RnnMode::Lstm:
      l.c_prev = 4 * h, l.tanh_c = 5 * h, l.h_prev = 6 * h, l.unprojected = 6 * h + l.state;
      l.width = l.unprojected + (l.projected ? h : 0);
      break;
    case RnnMode::Gru:
      l.gh_n = 3 * h, l.h_prev = 4 * h, l.width = 4 * h + l.state;
      break;
    default:
      l.h_prev = 0, l.width = l.state;
  }
  return l;
}

template <typename T> void copy_rows(int64_t rows, int64_t cols, const T* src, int64_t src_rs, T* dst, int64_t dst_rs) {
  for (int64_t r = 0; r < rows; ++r) std::memcpy(dst + r * dst_rs, src + r * src_rs, cols * sizeof(T));
}

// Runs a cell kernel over `rows` rows on the thread pool.
template <typename Fn> void for_rows(const Layout& l, int64_t rows, const Fn& fn) {
  parallel_for(0, rows, std::max<int64_t>(1, kGrainElements / std::max<int64_t>(1, l.gates)), fn);
}

// ---------------------------------------------------------------- forward

template <typename T> struct Forward {
  const Layout& l;
  const T *w_hh, *b_hh, *w_hr;
  T *pre, *out, *h, *c, *ws;  // pre-activations (N, G), output (N, P), states, workspace (N, W)
  std::vector<T> gh;          // GRU: the hidden part of the gates of one step (B, G)

  void step(int64_t t) {
    const int64_t rows = l.steps[t], first = l.offsets[t], H = l.hidden, P = l.state, G = l.gates, W = l.width;
    T* w = ws + first * W;
    copy_rows(rows, P, h, P, w + l.h_prev, W);
    T* g = pre + first * G;
    if (l.mode == RnnMode::Gru) {
      if (b_hh)
        for (int64_t r = 0; r < rows; ++r) std::memcpy(gh.data() + r * G, b_hh, G * sizeof(T));
      mm<T>(rows, G, P, h, P, 1, w_hh, 1, P, gh.data(), G, 1, b_hh != nullptr);
    } else {
      if (b_hh)
        for (int64_t r = 0; r < rows; ++r)
          for (int64_t j = 0; j < G; ++j) g[r * G + j] += b_hh[j];
      mm<T>(rows, G, P, h, P, 1, w_hh, 1, P, g, G, 1, true);  // g += h @ w_hh^T
    }
    T* o = out + first * P;
    const RnnStepForward s{g, gh.data(), o, c, w};
    const RnnCellForwardFn kernel = rnn_cell_forward_stub.get();
    const DType dt = std::is_same_v<T, double> ? DType::Float64 : DType::Float32;
    for_rows(l, rows, [&](int64_t begin, int64_t end) { kernel(dt, l, s, begin, end); });
    if (l.projected) mm<T>(rows, P, H, w + l.unprojected, W, 1, w_hr, 1, H, o, P, 1, false);
    copy_rows(rows, P, o, P, h, P);
  }
};

// ---------------------------------------------------------------- backward

template <typename T> struct Backward {
  const Layout& l;
  const T *w_hh, *w_hr, *grad_out, *out, *ws;
  T *d_pre, *d_pre_h, *dh, *dc, *dh_total;  // d_pre_h: GRU's hidden gates; dh_total: (N, P) incoming dh per row
  std::vector<T> d_unprojected;             // LSTM with projection: dh before the projection (B, H)

  // dh and dc hold the gradients of the state after step t on entry, before it on return.
  void step(int64_t t) {
    const int64_t rows = l.steps[t], first = l.offsets[t], H = l.hidden, P = l.state, G = l.gates, W = l.width;
    T* dht = dh_total + first * P;
    const T* go = grad_out + first * P;
    for (int64_t k = 0; k < rows * P; ++k) dht[k] = dh[k] + go[k];
    const T* dcell = dht;  // the gradient at the cell's h output
    if (l.projected) {
      mm<T>(rows, H, P, dht, P, 1, w_hr, H, 1, d_unprojected.data(), H, 1, false);  // dh @ w_hr
      dcell = d_unprojected.data();
    }
    T* dgh = (l.mode == RnnMode::Gru ? d_pre_h : d_pre) + first * G;
    const RnnStepBackward s{dcell, l.projected ? H : P, out + first * P, ws + first * W, d_pre + first * G, dgh, dh,
                            dc};
    const RnnCellBackwardFn kernel = rnn_cell_backward_stub.get();
    const DType dt = std::is_same_v<T, double> ? DType::Float64 : DType::Float32;
    for_rows(l, rows, [&](int64_t begin, int64_t end) { kernel(dt, l, s, begin, end); });
    // dh_prev = (GRU: z * dh +) d gates_h @ w_hh
    mm<T>(rows, P, G, dgh, G, 1, w_hh, P, 1, dh, P, 1, l.mode == RnnMode::Gru);
  }
};

Tensor contiguous_or_empty(const std::optional<Tensor>& t) { return t ? contiguous(*t) : Tensor(); }

template <typename T> T* ptr(const Tensor& t) { return t.defined() ? t.data<T>() : nullptr; }

}  // namespace

std::tuple<Tensor, Tensor, Tensor, Tensor> rnn_layer(const Tensor& gates_in, const Tensor& hx,
                                                     const std::optional<Tensor>& cx, const Tensor& w_hh,
                                                     const std::optional<Tensor>& b_hh,
                                                     const std::optional<Tensor>& w_hr, const IntList& batch_sizes,
                                                     int64_t mode, bool reverse) {
  const char* op = "_rnn_layer";
  const Layout l = layout_of(op, gates_in, "gates_in", hx, cx, w_hh, b_hh, w_hr, batch_sizes, mode);
  const DType dt = gates_in.dtype();
  const int64_t n = gates_in.sizes()[0];
  TZ_CHECK(gates_in.sizes()[1] == l.gates, Value, op, "(): gates_in has ", gates_in.sizes()[1], " columns, expected ",
           l.gates);
  // The steps add their recurrent part in place (GRU keeps it apart, for the reset gate).
  Tensor pre = l.mode == RnnMode::Gru ? contiguous(gates_in) : clone(gates_in, MemoryFormat::Contiguous);
  Tensor output = Tensor::empty({n, l.state}, dt), workspace = Tensor::empty({n, l.width}, dt);
  Tensor hy = clone(hx, MemoryFormat::Contiguous);
  Tensor cy = cx ? clone(*cx, MemoryFormat::Contiguous) : Tensor::empty({0}, dt);
  Tensor w = contiguous(w_hh), b = contiguous_or_empty(b_hh), wr = contiguous_or_empty(w_hr);
  TZ_DISPATCH_FLOATING(dt, "_rnn_layer", [&] {
    Forward<scalar_t> f{l, w.data<scalar_t>(), ptr<scalar_t>(b), ptr<scalar_t>(wr), pre.data<scalar_t>(),
                        output.data<scalar_t>(), hy.data<scalar_t>(), ptr<scalar_t>(cy), workspace.data<scalar_t>(),
                        {}};
    if (l.mode == RnnMode::Gru) f.gh.resize(l.batch * l.gates);
    const int64_t steps = static_cast<int64_t>(l.steps.size());
    for (int64_t k = 0; k < steps; ++k) f.step(reverse ? steps - 1 - k : k);
  });
  return {output, hy, cy, workspace};
}

std::tuple<Tensor, Tensor, Tensor, Tensor, Tensor, Tensor> rnn_layer_backward(
    const Tensor& grad_output, const Tensor& grad_hy, const Tensor& grad_cy, const Tensor& hx,
    const std::optional<Tensor>& cx, const Tensor& w_hh, const std::optional<Tensor>& b_hh,
    const std::optional<Tensor>& w_hr, const Tensor& output, const Tensor& workspace, const IntList& batch_sizes,
    int64_t mode, bool reverse) {
  const char* op = "_rnn_layer_backward";
  const Layout l = layout_of(op, output, "output", hx, cx, w_hh, b_hh, w_hr, batch_sizes, mode);
  const DType dt = output.dtype();
  const int64_t n = output.sizes()[0];
  auto expect = [&](const Tensor& t, const char* name, const Shape& sizes) {
    TZ_CHECK(t.sizes() == sizes && t.dtype() == dt, Value, op, "(): ", name, " does not match the forward's shape "
             "and dtype");
  };
  expect(grad_output, "grad_output", {n, l.state});
  expect(grad_hy, "grad_hy", {l.batch, l.state});
  expect(workspace, "workspace", {n, l.width});
  if (l.mode == RnnMode::Lstm) expect(grad_cy, "grad_cy", {l.batch, l.hidden});
  Tensor d_pre = Tensor::empty({n, l.gates}, dt);
  Tensor d_pre_h = l.mode == RnnMode::Gru ? Tensor::empty({n, l.gates}, dt) : d_pre;
  Tensor dh = clone(grad_hy, MemoryFormat::Contiguous);
  Tensor dc = l.mode == RnnMode::Lstm ? clone(grad_cy, MemoryFormat::Contiguous) : Tensor::empty({0}, dt);
  Tensor dh_total = Tensor::empty({n, l.state}, dt);
  Tensor d_w_hh = zeros(w_hh.sizes(), dt);  // zeros: an empty sequence leaves them so
  Tensor d_b_hh = b_hh ? zeros({l.gates}, dt) : Tensor::empty({0}, dt);
  Tensor d_w_hr = w_hr ? zeros(w_hr->sizes(), dt) : Tensor::empty({0}, dt);
  Tensor go = contiguous(grad_output), out = contiguous(output), ws = contiguous(workspace);
  Tensor w = contiguous(w_hh), wr = contiguous_or_empty(w_hr);
  TZ_DISPATCH_FLOATING(dt, "_rnn_layer_backward", [&] {
    Backward<scalar_t> bw{l, w.data<scalar_t>(), ptr<scalar_t>(wr), go.data<scalar_t>(), out.data<scalar_t>(),
                          ws.data<scalar_t>(), d_pre.data<scalar_t>(), d_pre_h.data<scalar_t>(), dh.data<scalar_t>(),
                          ptr<scalar_t>(dc), dh_total.data<scalar_t>(), {}};
    if (l.projected) bw.d_unprojected.resize(l.batch * l.hidden);
    const int64_t steps = static_cast<int64_t>(l.steps.size());
    for (int64_t k = 0; k < steps; ++k) bw.step(reverse ? k : steps - 1 - k);
    // The weight gradients, each one GEMM over the rows of all steps.
    const scalar_t* wsp = ws.data<scalar_t>();
    if (n == 0) return;
    mm<scalar_t>(l.gates, l.state, n, d_pre_h.data<scalar_t>(), 1, l.gates, wsp + l.h_prev, l.width, 1,
                 d_w_hh.data<scalar_t>(), l.state, 1, false);
    if (l.projected)
      mm<scalar_t>(l.state, l.hidden, n, dh_total.data<scalar_t>(), 1, l.state, wsp + l.unprojected, l.width, 1,
                   d_w_hr.data<scalar_t>(), l.hidden, 1, false);
    if (b_hh) {
      scalar_t* db = d_b_hh.data<scalar_t>();
      const scalar_t* dgh = d_pre_h.data<scalar_t>();
      for (int64_t r = 0; r < n; ++r)
        for (int64_t j = 0; j < l.gates; ++j) db[j] += dgh[r * l.gates + j];
    }
  });
  return {d_pre, dh, dc, d_w_hh, d_b_hh, d_w_hr};
}

}  // namespace tz
