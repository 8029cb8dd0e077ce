// Fused optimizer updates (the multi-tensor step of core.optim): one kernel per optimizer
// updates a contiguous slice of a parameter and its state in place, in blocks that stay in
// L1, with the same operations in the same order as the optimizer's op-by-op formula.
#pragma once
#include <cstdint>

#include "kernels/dispatch.h"
#include "tensor/dtype.h"

namespace tz {

enum class OptimKind : int { SGD, RMSprop, Adam, Adagrad, Adadelta, Adamax };

// The hyper-parameters of one tensor's update. Per-tensor fields (from the tensor's step
// count) are filled in by the front-end: `step_size` (Adam: lr / bias_correction1; Adagrad,
// Adamax: the decayed or corrected lr) and `bias_correction2_sqrt` (Adam).
struct OptimHyper {
  double lr = 0, weight_decay = 0, momentum = 0, dampening = 0, eps = 0;
  double alpha = 0;          // RMSprop's smoothing constant; Adadelta's rho
  double beta1 = 0, beta2 = 0;
  bool nesterov = false, maximize = false, centered = false, amsgrad = false;
  bool decoupled = false;    // AdamW: p *= 1 - lr * weight_decay instead of L2 on the gradient
  bool first = false;        // SGD: the momentum buffer starts as the gradient
  double step_size = 0, bias_correction2_sqrt = 1;
};

// data: one pointer per operand of the optimizer (see ops/optim_fused.cpp for each order),
// all of `dtype` (Float32 or Float64), n elements each; unused operands are null.
using FusedOptimFn = void (*)(OptimKind kind, DType dtype, const OptimHyper& h, char* const* data,
                              int64_t n);
extern DispatchStub<FusedOptimFn> fused_optim_stub;

}  // namespace tz
