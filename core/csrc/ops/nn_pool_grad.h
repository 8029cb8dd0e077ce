// Derivative formulas of the nn-pool family's op-table entries (op_table_nn_pool.cpp).
#pragma once
#include "autograd/op_node.h"

namespace tz::grad {

// max pooling (2-d entries; `lifted` 1-d entries run on an unsqueezed (..., 1, L) view).
TensorList max_pool_indices_backward(BackwardContext& c, bool lifted);
TensorList max_pool_recompute_backward(BackwardContext& c, bool lifted);
TensorList max_pool_backward_backward(BackwardContext& c);
TensorList max_unpool2d_backward(BackwardContext& c);
TensorList avg_pool2d_backward(BackwardContext& c, bool lifted);
TensorList avg_pool2d_backward_backward(BackwardContext& c);
TensorList adaptive_avg_pool2d_backward(BackwardContext& c, bool lifted);
TensorList adaptive_avg_pool2d_backward_backward(BackwardContext& c);
// upsample_*: the entry's mode and where its align_corners / scales arguments sit (-1: none).
// Argument names of the entry (nullptr: it has no such argument).
TensorList upsample_backward(BackwardContext& c, const char* mode, const char* align, const char* scale_h,
                             const char* scale_w);
TensorList upsample_backward_backward(BackwardContext& c);
TensorList grid_sampler_backward(BackwardContext& c);
TensorList affine_grid_backward(BackwardContext& c);
TensorList embedding_backward(BackwardContext& c);
TensorList embedding_dense_backward_backward(BackwardContext& c);
TensorList embedding_bag_backward(BackwardContext& c);

}  // namespace tz::grad
