// Derivatives of the reduction and sorting families (the formulas op_table.cpp points at),
// written with F:: calls so that they are differentiable in turn (double backward).
#pragma once
#include "autograd/op_node.h"

namespace tz::grad {

TensorList nansum(BackwardContext& c);
TensorList mean(BackwardContext& c);
TensorList prod(BackwardContext& c);
// max(), min(), median(), nanmedian(): the gradient split evenly over the elements equal to
// the result (PyTorch's evenly_distribute_backward).
TensorList evenly_distribute(BackwardContext& c);
TensorList amax(BackwardContext& c);  // amax and amin: split evenly over ties per slice
// Value-selecting reductions with saved indices (max.dim, kthvalue, median.dim, mode, ...):
// the gradient goes to the index; `dim_arg`/`keepdim_arg` are argument positions.
TensorList select_dim(BackwardContext& c, int dim_arg, int keepdim_arg);
// sort and topk values: the gradient scattered back through the saved indices.
TensorList sort_values(BackwardContext& c, int dim_arg);
TensorList msort(BackwardContext& c);
// var/std (and their `.unbiased` overloads) and var_mean/std_mean.
TensorList var(BackwardContext& c, bool is_std, bool unbiased_overload);
TensorList var_mean(BackwardContext& c, bool is_std, bool unbiased_overload);
TensorList norm(BackwardContext& c, bool str_p);
TensorList logsumexp(BackwardContext& c);
TensorList cumsum(BackwardContext& c);
TensorList cumprod(BackwardContext& c);
TensorList softmax(BackwardContext& c);
TensorList log_softmax(BackwardContext& c);

}  // namespace tz::grad
