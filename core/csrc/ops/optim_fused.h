// Fused multi-tensor optimizer steps (kInternal ops behind core.optim): each updates every
// parameter of a list and its state tensors in place, in one pass over memory, the work of
// all tensors split over the thread pool. Float32 and float64; every list matches `params`
// in length, shape and dtype (optional state lists are empty when the option is off).
#pragma once
#include "tensor/tensor.h"

namespace tz {

void fused_sgd_(const TensorList& params, const TensorList& grads, const TensorList& momentum_buffers,
                double lr, double momentum, double dampening, double weight_decay, bool nesterov,
                bool maximize, bool first_step);
void fused_rmsprop_(const TensorList& params, const TensorList& grads, const TensorList& square_avgs,
                    const TensorList& momentum_buffers, const TensorList& grad_avgs, double lr,
                    double alpha, double eps, double weight_decay, double momentum, bool centered,
                    bool maximize);
void fused_adam_(const TensorList& params, const TensorList& grads, const TensorList& exp_avgs,
                 const TensorList& exp_avg_sqs, const TensorList& max_exp_avg_sqs, const std::vector<int64_t>& steps,
                 double lr, double beta1, double beta2, double eps, double weight_decay, bool amsgrad,
                 bool decoupled_weight_decay, bool maximize);
void fused_adagrad_(const TensorList& params, const TensorList& grads, const TensorList& state_sums,
                    const std::vector<int64_t>& steps, double lr, double lr_decay, double weight_decay, double eps,
                    bool maximize);
void fused_adadelta_(const TensorList& params, const TensorList& grads, const TensorList& square_avgs,
                     const TensorList& acc_deltas, double lr, double rho, double eps, double weight_decay,
                     bool maximize);
void fused_adamax_(const TensorList& params, const TensorList& grads, const TensorList& exp_avgs,
                   const TensorList& exp_infs, const std::vector<int64_t>& steps, double lr, double beta1, double beta2,
                   double eps, double weight_decay, bool maximize);

}  // namespace tz
