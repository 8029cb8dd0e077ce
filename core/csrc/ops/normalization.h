// batch_norm, layer_norm and group_norm (PyTorch's native_* ops): forward returning the
// saved statistics, and fused backward ops returning (grad_input, grad_weight, grad_bias).
// Floating dtypes; half types are computed in float32 (statistics come back in float32).
#pragma once
#include <tuple>

#include "tensor/tensor.h"
#include "ops/value.h"

namespace tz {

using Tensor3 = std::tuple<Tensor, Tensor, Tensor>;

// Training: batch statistics (biased variance normalises; running_var gets the unbiased one,
// running stats are updated in place with `momentum`); returns (out, mean, invstd).
// Eval: running statistics, returned as (out, running_mean, 1 / sqrt(running_var + eps)).
Tensor3 native_batch_norm(const Tensor& input, const Tensor& weight, const Tensor& bias,
                          const Tensor& running_mean, const Tensor& running_var, bool training,
                          double momentum, double eps);
Tensor3 native_batch_norm_backward(const Tensor& grad_out, const Tensor& input, const Tensor& weight,
                                   const Tensor& running_mean, const Tensor& running_var,
                                   const Tensor& save_mean, const Tensor& save_invstd, bool training,
                                   double eps);

// Normalises over the last normalized_shape.size() dims; (out, mean, rstd), the statistics
// shaped input.shape[:axis] + [1] * len(normalized_shape).
Tensor3 native_layer_norm(const Tensor& input, const IntList& normalized_shape, const Tensor& weight,
                          const Tensor& bias, double eps);
Tensor3 native_layer_norm_backward(const Tensor& grad_out, const Tensor& input,
                                   const IntList& normalized_shape, const Tensor& mean,
                                   const Tensor& rstd, const Tensor& weight);

// input viewed as (N, C, HxW), channels split in `group` groups; (out, mean, rstd) with
// statistics of shape (N, group).
Tensor3 native_group_norm(const Tensor& input, const Tensor& weight, const Tensor& bias, int64_t N,
                          int64_t C, int64_t HxW, int64_t group, double eps);
Tensor3 native_group_norm_backward(const Tensor& grad_out, const Tensor& input, const Tensor& mean,
                                   const Tensor& rstd, const Tensor& weight, int64_t N, int64_t C,
                                   int64_t HxW, int64_t group);

}  // namespace tz
