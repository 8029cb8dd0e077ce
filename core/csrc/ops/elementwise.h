// Elementwise ops: broadcasting binary arithmetic (this header), unary math (ops/unary.h)
// and comparisons / logical ops / predicates (ops/compare.h). PyTorch 1.8 type promotion
// (ops/promotion.h); Python numbers arrive as wrapped 0-dim tensors and don't widen tensors.
#pragma once
#include "kernels/binary.h"
#include "ops/compare.h"
#include "ops/unary.h"
#include "tensor/tensor.h"

namespace tz {

// The shared front-end of binary ops: promotion and dtype checks, broadcasting, output
// allocation, then the kernel. Half types are computed in float32.
Tensor binary_op(BinaryOp op, const Tensor& a, const Tensor& b, const char* name,
                 Scalar alpha = Scalar(int64_t(1)));
// In-place form: self <- op(self, other) (op(other, self) when swapped); the result dtype
// must cast to self's dtype and the broadcast shape must be self's. Bumps self's version once.
const Tensor& binary_op_(BinaryOp op, const Tensor& self, const Tensor& other, const char* name,
                         Scalar alpha = Scalar(int64_t(1)), bool swapped = false);

Tensor add(const Tensor& a, const Tensor& b, Scalar alpha = Scalar(int64_t(1)));
Tensor sub(const Tensor& a, const Tensor& b, Scalar alpha = Scalar(int64_t(1)));
Tensor mul(const Tensor& a, const Tensor& b);
// rounding_mode: nullptr (true division), "trunc" or "floor".
Tensor div(const Tensor& a, const Tensor& b, const char* rounding_mode = nullptr);
const Tensor& div_(const Tensor& self, const Tensor& other, const char* rounding_mode = nullptr);
Tensor floor_divide(const Tensor& a, const Tensor& b);
Tensor remainder(const Tensor& a, const Tensor& b);  // sign of b (Python's %)
Tensor fmod(const Tensor& a, const Tensor& b);       // sign of a (C's fmod)
// Integer bases with a negative Python-number exponent raise like PyTorch.
Tensor pow(const Tensor& base, const Tensor& exponent);
const Tensor& pow_(const Tensor& self, const Tensor& exponent);
Tensor float_power(const Tensor& base, const Tensor& exponent);  // in float64 (or complex128)
const Tensor& float_power_(const Tensor& self, const Tensor& exponent);
Tensor square(const Tensor& t);
const Tensor& square_(const Tensor& t);
Tensor atan2(const Tensor& a, const Tensor& b);
Tensor hypot(const Tensor& a, const Tensor& b);
Tensor copysign(const Tensor& a, const Tensor& b);
Tensor xlogy(const Tensor& a, const Tensor& b);
Tensor maximum(const Tensor& a, const Tensor& b);  // NaN-propagating
Tensor minimum(const Tensor& a, const Tensor& b);
Tensor fmax(const Tensor& a, const Tensor& b);  // NaN-ignoring
Tensor fmin(const Tensor& a, const Tensor& b);
Tensor bitwise_and(const Tensor& a, const Tensor& b);
Tensor bitwise_or(const Tensor& a, const Tensor& b);
Tensor bitwise_xor(const Tensor& a, const Tensor& b);
Tensor bitwise_left_shift(const Tensor& a, const Tensor& b);
Tensor bitwise_right_shift(const Tensor& a, const Tensor& b);

// lerp(a, b, w) = a + w * (b - a); a and b share a floating or complex dtype; w is a number
// or a tensor of that dtype (0-dim tensors of other dtypes are converted).
Tensor lerp(const Tensor& a, const Tensor& b, const Tensor& weight);
const Tensor& lerp_(const Tensor& self, const Tensor& end, const Tensor& weight);

// clamp with optional bounds (undefined = none; at least one is required); numbers and
// 0-dim bounds take a one-pass kernel, tensor bounds go through maximum/minimum.
Tensor clamp(const Tensor& t, const Tensor& min, const Tensor& max);
const Tensor& clamp_(const Tensor& t, const Tensor& min, const Tensor& max);

}  // namespace tz
