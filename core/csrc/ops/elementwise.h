// Broadcasting elementwise ops.
#pragma once
#include "kernels/binary.h"
#include "tensor/tensor.h"

namespace tz {

// The shared front-end of binary ops: promotion, broadcasting, output allocation.
// `out_dtype` overrides the result dtype (comparisons write bool).
Tensor binary_op(BinaryOp op, const Tensor& a, const Tensor& b, const char* name,
                 Scalar alpha = Scalar(int64_t(1)));
// In-place form: self <- op(self, other); the result dtype must cast to self's dtype.
const Tensor& binary_op_(BinaryOp op, const Tensor& self, const Tensor& other, const char* name,
                         Scalar alpha = Scalar(int64_t(1)));

Tensor add(const Tensor& a, const Tensor& b, Scalar alpha = Scalar(int64_t(1)));
Tensor sub(const Tensor& a, const Tensor& b, Scalar alpha = Scalar(int64_t(1)));
Tensor mul(const Tensor& a, const Tensor& b);
Tensor div(const Tensor& a, const Tensor& b);

}  // namespace tz
