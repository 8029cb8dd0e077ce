// Linear algebra: matrix products (mm, bmm, mv, dot, matmul, the add*mm family), outer,
// tensordot and einsum. Products do not promote: operands must share a dtype (PyTorch).
#pragma once
#include <string>

#include "ops/value.h"

namespace tz {

Tensor mm(const Tensor& self, const Tensor& mat2);
Tensor bmm(const Tensor& self, const Tensor& mat2);
Tensor mv(const Tensor& self, const Tensor& vec);
Tensor dot(const Tensor& self, const Tensor& other);
Tensor vdot(const Tensor& self, const Tensor& other);  // conjugates self
Tensor matmul(const Tensor& self, const Tensor& other);
Tensor outer(const Tensor& self, const Tensor& vec2);

// beta * self + alpha * (product); self broadcasts to the product's shape.
Tensor addmm(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
             const Scalar& alpha);
Tensor addmv(const Tensor& self, const Tensor& mat, const Tensor& vec, const Scalar& beta,
             const Scalar& alpha);
Tensor baddbmm(const Tensor& self, const Tensor& batch1, const Tensor& batch2, const Scalar& beta,
               const Scalar& alpha);
Tensor addbmm(const Tensor& self, const Tensor& batch1, const Tensor& batch2, const Scalar& beta,
              const Scalar& alpha);
// In-place forms: self must already have the result's shape.
const Tensor& addmm_(const Tensor& self, const Tensor& mat1, const Tensor& mat2,
                     const Scalar& beta, const Scalar& alpha);
const Tensor& addmv_(const Tensor& self, const Tensor& mat, const Tensor& vec, const Scalar& beta,
                     const Scalar& alpha);
const Tensor& baddbmm_(const Tensor& self, const Tensor& batch1, const Tensor& batch2,
                       const Scalar& beta, const Scalar& alpha);
const Tensor& addbmm_(const Tensor& self, const Tensor& batch1, const Tensor& batch2,
                      const Scalar& beta, const Scalar& alpha);

// Contracts dims_self of self with dims_other of other (paired in order).
Tensor tensordot(const Tensor& self, const Tensor& other, const IntList& dims_self,
                 const IntList& dims_other);
// Einstein summation ("ij,jk->ik", "...ij,...jk", "ii->i"), contracted pairwise via GEMMs.
Tensor einsum(const std::string& equation, const TensorList& operands);

// The shared core of every product above: beta * input + alpha * (a @ b) where a is
// [*batch, m, k] and b is [*batch, k, n] with equal batch sizes (zero strides allowed);
// `input` may be undefined or broadcast to [*batch, m, n]. dtype checks are the caller's.
Tensor gemm_op(const Tensor& input, const Tensor& a, const Tensor& b, const Scalar& alpha,
               const Scalar& beta, const char* op);
// PyTorch's batched-product dtype check: "expected scalar type Float but found Double".
void check_scalar_type(const Tensor& expected, const Tensor& found);

}  // namespace tz
