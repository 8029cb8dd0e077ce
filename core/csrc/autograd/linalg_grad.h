// Derivative formulas of the linalg family (products, tensordot, einsum), written with
// differentiable calls (see grad_util.h). Complex operands enter conjugated, as in PyTorch:
// the gradient of a @ b with respect to a is grad @ b^H.
#pragma once
#include "autograd/op_node.h"

namespace tz::grad {

// matmul in every rank combination; batch dims broadcast back through the engine.
TensorList matmul_backward(const BackwardContext& c);
// grad @ b^H and a^H @ grad for (batched) matrices, scaled by alpha.
Tensor mm_grad_a(const Tensor& grad, const Tensor& b, const Scalar& alpha = Scalar(int64_t(1)));
Tensor mm_grad_b(const Tensor& grad, const Tensor& a, const Scalar& alpha = Scalar(int64_t(1)));
TensorList mv_backward(const BackwardContext& c);
// dot (conj_self false) and vdot (conj(self) . other).
TensorList dot_backward(const BackwardContext& c, bool conj_self);
// Formulas of the add*mm family: input 0 is self (scaled by beta), 1 and 2 the factors.
TensorList addmm_backward(const BackwardContext& c, const char* a, const char* b);  // self + a @ b
TensorList addmv_backward(const BackwardContext& c);
TensorList baddbmm_backward(const BackwardContext& c);
TensorList addbmm_backward(const BackwardContext& c);
TensorList outer_backward(const BackwardContext& c);
TensorList tensordot_backward(const BackwardContext& c);
TensorList einsum_backward(const BackwardContext& c);

}  // namespace tz::grad
