// Loss kernels: the negative log likelihood (the hot half of cross_entropy), the elementwise
// losses PyTorch records as one node, and the connectionist temporal classification loss.
#pragma once
#include <optional>
#include <utility>

#include "ops/value.h"
#include "tensor/tensor.h"

namespace tz {

// Reduction codes of torch's _Reduction enum.
enum class LossReduction : int64_t { None = 0, Mean = 1, Sum = 2 };
LossReduction loss_reduction(int64_t code, const char* op);

// self (N, C, d1, ...) or (C,), target (N, d1, ...) or (): class indices. Returns the loss
// (per element for None) and the total weight of the non-ignored targets.
std::pair<Tensor, Tensor> nll_loss_forward(const Tensor& self, const Tensor& target,
                                           const std::optional<Tensor>& weight, int64_t reduction,
                                           int64_t ignore_index);
// The gradient w.r.t. self (of shape `self_sizes`): -weight[t] * grad (/ total weight) at
// the target classes, zero elsewhere.
Tensor nll_loss_backward(const Tensor& grad, const Tensor& target, const std::optional<Tensor>& weight,
                         int64_t reduction, int64_t ignore_index, const Tensor& total_weight,
                         const Shape& self_sizes);

// The elementwise losses (ops/loss_pointwise.cpp): the loss of each element, then the reduction.
Tensor mse_loss(const Tensor& self, const Tensor& target, int64_t reduction);
Tensor smooth_l1_loss(const Tensor& self, const Tensor& target, int64_t reduction, double beta);
Tensor huber_loss(const Tensor& self, const Tensor& target, int64_t reduction, double delta);
Tensor soft_margin_loss(const Tensor& self, const Tensor& target, int64_t reduction);
Tensor binary_cross_entropy(const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight,
                            int64_t reduction);
Tensor binary_cross_entropy_with_logits(const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight,
                                        const std::optional<Tensor>& pos_weight, int64_t reduction);

// log_probs (T, N, C) (or (T, C)); targets padded (N, S) or concatenated 1-D. Returns the
// negative log likelihood per sample (N) and the forward variables log_alpha (N, T, 2S+1).
std::pair<Tensor, Tensor> ctc_loss_forward(const Tensor& log_probs, const Tensor& targets,
                                           const IntList& input_lengths, const IntList& target_lengths,
                                           int64_t blank, bool zero_infinity);
// Gradient w.r.t. log_probs, computed like PyTorch: exp(log_probs) - posterior / prob, which
// is the gradient w.r.t. the logits once it passes through log_softmax's backward.
Tensor ctc_loss_backward(const Tensor& grad, const Tensor& log_probs, const Tensor& targets,
                         const IntList& input_lengths, const IntList& target_lengths,
                         const Tensor& neg_log_likelihood, const Tensor& log_alpha, int64_t blank,
                         bool zero_infinity);

}  // namespace tz
