// Front-ends of the fused optimizer steps: argument checks, contiguous working copies where
// needed, then one flat work list of every tensor's elements split over the thread pool (so
// 170 small tensors keep every thread busy), and version bumps of everything written.
#include "ops/optim_fused.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "iter/thread_pool.h"
#include "kernels/optim.h"
#include "ops/conversion.h"

namespace tz {
namespace {

constexpr int kSlots = 5;               // params, grads, up to three state lists
constexpr int64_t kGrain = 1 << 15;     // elements per task, at least


// Elements fill one block of memory without gaps (contiguous or any permutation of it, such
// as channels-last): an elementwise update may then run over that block directly.
bool dense(const Tensor& t) {
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < t.dim(); ++d)
    if (t.sizes()[d] != 1) dims.push_back(d);
  std::sort(dims.begin(), dims.end(), [&](int64_t a, int64_t b) { return t.strides()[a] > t.strides()[b]; });
  int64_t expected = 1;
  for (auto it = dims.rbegin(); it != dims.rend(); ++it) {
    if (t.strides()[*it] != expected) return false;
    expected *= t.sizes()[*it];
  }
  return true;
}

// lists[k]: the operands of slot k (empty: unused); names[k] their argument names.
void run_fused(const char* op, OptimKind kind, const std::vector<const TensorList*>& lists,
               const std::vector<const char*>& names, const std::vector<OptimHyper>& hyper) {
  const TensorList& params = *lists[0];
  const size_t count = params.size();
  for (size_t k = 0; k < lists.size(); ++k)
    TZ_CHECK(lists[k]->empty() || lists[k]->size() == count, Value, op, "(): expected ", names[k], " to have ",
             count, " tensors like params, got ", lists[k]->size());
  TZ_CHECK(!lists[1]->empty() || count == 0, Value, op, "(): expected ", count, " grads");

  // Working operands; those that differ from the caller's get copied back.
  std::vector<std::vector<Tensor>> work(lists.size(), std::vector<Tensor>(count));
  std::vector<int64_t> offsets(count + 1, 0);
  for (size_t i = 0; i < count; ++i) {
    const Tensor& p = params[i];
    TZ_CHECK(p.dtype() == DType::Float32 || p.dtype() == DType::Float64, Type, op,
             "(): expected float32 or float64 params, got ", dtype_name(p.dtype()), " for params[", i, "]");
    // When every operand shares a dense param's layout (contiguous, channels-last...) all are
    // used in place; otherwise all are made contiguous (written operands are copied back).
    bool shared_layout = p.is_contiguous() || dense(p);
    for (size_t k = 0; k < lists.size(); ++k) {
      if (lists[k]->empty()) continue;
      const Tensor& t = (*lists[k])[i];
      TZ_CHECK(t.defined(), Value, op, "(): ", names[k], "[", i, "] is None");
      TZ_CHECK(t.dtype() == p.dtype(), Type, op, "(): expected ", names[k], "[", i, "] to have dtype ",
               dtype_name(p.dtype()), " like params[", i, "], got ", dtype_name(t.dtype()));
      TZ_CHECK(t.sizes() == p.sizes(), Runtime, op, "(): expected ", names[k], "[", i, "] to have shape ",
               shape_str(p.sizes()), " like params[", i, "], got ", shape_str(t.sizes()));
      shared_layout = shared_layout && (t.strides() == p.strides() || (t.is_contiguous() && p.is_contiguous()));
    }
    for (size_t k = 0; k < lists.size(); ++k)
      if (!lists[k]->empty()) work[k][i] = shared_layout ? (*lists[k])[i] : contiguous((*lists[k])[i]);
    offsets[i + 1] = offsets[i] + p.numel();
  }

  const FusedOptimFn kernel = fused_optim_stub.get();
  parallel_for(0, offsets[count], kGrain, [&](int64_t begin, int64_t end) {
    // The first tensor overlapping [begin, end), then every piece of the range in turn.
    size_t i = std::upper_bound(offsets.begin(), offsets.end(), begin) - offsets.begin() - 1;
    for (int64_t pos = begin; pos < end; ++i) {
      const int64_t stop = std::min(end, offsets[i + 1]);
      if (stop <= pos) continue;  // empty tensors
      const int64_t local = pos - offsets[i];
      char* data[kSlots] = {};
      for (size_t k = 0; k < lists.size(); ++k)
        if (!lists[k]->empty())
          data[k] = static_cast<char*>(work[k][i].raw_data()) + local * work[k][i].itemsize();
      kernel(kind, work[0][i].dtype(), hyper[i], data, stop - pos);
      pos = stop;
    }
  });

  for (size_t k = 0; k < lists.size(); ++k) {
    if (k == 1 || lists[k]->empty()) continue;  // grads are only read
    for (size_t i = 0; i < count; ++i) {
      const Tensor& t = (*lists[k])[i];
      if (!work[k][i].is_same(t)) copy_(t, work[k][i]);  // copy_ bumps the version itself
      else t.bump_version();
    }
  }
}

void check_option(bool ok, const char* op, const char* what) {
  TZ_CHECK(ok, Value, op, "(): ", what);
}

}  // namespace

void fused_sgd_(const TensorList& params, const TensorList& grads, const TensorList& momentum_buffers,
                double lr, double momentum, double dampening, double weight_decay, bool nesterov,
                bool maximize, bool first_step) {
  const char* op = "_fused_sgd_step";
  check_option(momentum == 0 || !momentum_buffers.empty() || params.empty(), op,
               "momentum needs momentum_buffers");
  OptimHyper h;
  h.lr = lr, h.momentum = momentum, h.dampening = dampening, h.weight_decay = weight_decay;
  h.nesterov = nesterov, h.maximize = maximize, h.first = first_step;
  const TensorList none;
  run_fused(op, OptimKind::SGD, {&params, &grads, momentum != 0 ? &momentum_buffers : &none},
            {"params", "grads", "momentum_buffers"}, std::vector<OptimHyper>(params.size(), h));
}

void fused_rmsprop_(const TensorList& params, const TensorList& grads, const TensorList& square_avgs,
                    const TensorList& momentum_buffers, const TensorList& grad_avgs, double lr,
                    double alpha, double eps, double weight_decay, double momentum, bool centered,
                    bool maximize) {
  const char* op = "_fused_rmsprop_step";
  const bool empty = params.empty();
  check_option(!square_avgs.empty() || empty, op, "expected square_avgs");
  check_option(momentum <= 0 || !momentum_buffers.empty() || empty, op, "momentum needs momentum_buffers");
  check_option(!centered || !grad_avgs.empty() || empty, op, "centered needs grad_avgs");
  OptimHyper h;
  h.lr = lr, h.alpha = alpha, h.eps = eps, h.weight_decay = weight_decay, h.momentum = momentum;
  h.centered = centered, h.maximize = maximize;
  const TensorList none;
  run_fused(op, OptimKind::RMSprop,
            {&params, &grads, &square_avgs, momentum > 0 ? &momentum_buffers : &none, centered ? &grad_avgs : &none},
            {"params", "grads", "square_avgs", "momentum_buffers", "grad_avgs"},
            std::vector<OptimHyper>(params.size(), h));
}

namespace {
void check_steps(const TensorList& params, const std::vector<int64_t>& steps, const char* op) {
  TZ_CHECK(steps.size() == params.size(), Value, op, "(): expected ", params.size(), " steps, got ", steps.size());
  for (int64_t s : steps) TZ_CHECK(s >= 1, Value, op, "(): steps count from 1, got ", s);
}
}  // namespace

void fused_adam_(const TensorList& params, const TensorList& grads, const TensorList& exp_avgs,
                 const TensorList& exp_avg_sqs, const TensorList& max_exp_avg_sqs, const std::vector<int64_t>& steps,
                 double lr, double beta1, double beta2, double eps, double weight_decay, bool amsgrad,
                 bool decoupled_weight_decay, bool maximize) {
  const char* op = "_fused_adam_step";
  const bool empty = params.empty();
  check_steps(params, steps, op);
  check_option((!exp_avgs.empty() && !exp_avg_sqs.empty()) || empty, op, "expected exp_avgs and exp_avg_sqs");
  check_option(!amsgrad || !max_exp_avg_sqs.empty() || empty, op, "amsgrad needs max_exp_avg_sqs");
  OptimHyper h;
  h.lr = lr, h.beta1 = beta1, h.beta2 = beta2, h.eps = eps, h.weight_decay = weight_decay;
  h.amsgrad = amsgrad, h.decoupled = decoupled_weight_decay, h.maximize = maximize;
  std::vector<OptimHyper> hyper(params.size(), h);
  for (size_t i = 0; i < params.size(); ++i) {
    // As the Python formula: bias corrections in double, then lr / bc1 and sqrt(bc2).
    const double bc1 = 1 - std::pow(beta1, double(steps[i])), bc2 = 1 - std::pow(beta2, double(steps[i]));
    hyper[i].step_size = lr / bc1;
    hyper[i].bias_correction2_sqrt = std::sqrt(bc2);
  }
  const TensorList none;
  run_fused(op, OptimKind::Adam,
            {&params, &grads, &exp_avgs, &exp_avg_sqs, amsgrad ? &max_exp_avg_sqs : &none},
            {"params", "grads", "exp_avgs", "exp_avg_sqs", "max_exp_avg_sqs"}, hyper);
}

void fused_adagrad_(const TensorList& params, const TensorList& grads, const TensorList& state_sums,
                    const std::vector<int64_t>& steps, double lr, double lr_decay, double weight_decay, double eps,
                    bool maximize) {
  const char* op = "_fused_adagrad_step";
  check_steps(params, steps, op);
  check_option(!state_sums.empty() || params.empty(), op, "expected state_sums");
  OptimHyper h;
  h.lr = lr, h.weight_decay = weight_decay, h.eps = eps, h.maximize = maximize;
  std::vector<OptimHyper> hyper(params.size(), h);
  for (size_t i = 0; i < params.size(); ++i) hyper[i].step_size = lr / (1 + double(steps[i] - 1) * lr_decay);
  run_fused(op, OptimKind::Adagrad, {&params, &grads, &state_sums}, {"params", "grads", "state_sums"}, hyper);
}

void fused_adadelta_(const TensorList& params, const TensorList& grads, const TensorList& square_avgs,
                     const TensorList& acc_deltas, double lr, double rho, double eps, double weight_decay,
                     bool maximize) {
  const char* op = "_fused_adadelta_step";
  check_option((!square_avgs.empty() && !acc_deltas.empty()) || params.empty(), op,
               "expected square_avgs and acc_deltas");
  OptimHyper h;
  h.lr = lr, h.alpha = rho, h.eps = eps, h.weight_decay = weight_decay, h.maximize = maximize;
  run_fused(op, OptimKind::Adadelta, {&params, &grads, &square_avgs, &acc_deltas},
            {"params", "grads", "square_avgs", "acc_deltas"}, std::vector<OptimHyper>(params.size(), h));
}

void fused_adamax_(const TensorList& params, const TensorList& grads, const TensorList& exp_avgs,
                   const TensorList& exp_infs, const std::vector<int64_t>& steps, double lr, double beta1, double beta2,
                   double eps, double weight_decay, bool maximize) {
  const char* op = "_fused_adamax_step";
  check_steps(params, steps, op);
  check_option((!exp_avgs.empty() && !exp_infs.empty()) || params.empty(), op, "expected exp_avgs and exp_infs");
  OptimHyper h;
  h.lr = lr, h.beta1 = beta1, h.beta2 = beta2, h.eps = eps, h.weight_decay = weight_decay, h.maximize = maximize;
  std::vector<OptimHyper> hyper(params.size(), h);
  for (size_t i = 0; i < params.size(); ++i) hyper[i].step_size = lr / (1 - std::pow(beta1, double(steps[i])));
  run_fused(op, OptimKind::Adamax, {&params, &grads, &exp_avgs, &exp_infs},
            {"params", "grads", "exp_avgs", "exp_infs"}, hyper);
}

}  // namespace tz
