// Elementwise unary ops. Float ops take integer and bool inputs to the default float dtype;
// half types are computed in float32; complex64 is supported where numpy has the function.
#pragma once
#include <optional>

#include "kernels/unary.h"
#include "tensor/tensor.h"

namespace tz {

// The shared front-end: dtype rules and checks per op, output allocation, kernel.
Tensor unary_op(UnaryOp op, const Tensor& t, const char* name, const UnaryArgs& args = {});
// In-place form: the result dtype must cast to t's dtype. Bumps t's version once.
const Tensor& unary_op_(UnaryOp op, const Tensor& t, const char* name, const UnaryArgs& args = {});

#define TZ_UNARY(fn, Op) \
  inline Tensor fn(const Tensor& t) { return unary_op(UnaryOp::Op, t, #fn); }
TZ_UNARY(neg, Neg)
TZ_UNARY(abs, Abs)
TZ_UNARY(sign, Sign)
TZ_UNARY(sgn, Sgn)
TZ_UNARY(bitwise_not, BitwiseNot)
TZ_UNARY(floor, Floor)
TZ_UNARY(ceil, Ceil)
TZ_UNARY(trunc, Trunc)
TZ_UNARY(frac, Frac)
TZ_UNARY(sqrt, Sqrt)
TZ_UNARY(rsqrt, Rsqrt)
TZ_UNARY(reciprocal, Reciprocal)
TZ_UNARY(exp, Exp)
TZ_UNARY(exp2, Exp2)
TZ_UNARY(expm1, Expm1)
TZ_UNARY(log, Log)
TZ_UNARY(log2, Log2)
TZ_UNARY(log10, Log10)
TZ_UNARY(log1p, Log1p)
TZ_UNARY(sin, Sin)
TZ_UNARY(cos, Cos)
TZ_UNARY(tan, Tan)
TZ_UNARY(asin, Asin)
TZ_UNARY(acos, Acos)
TZ_UNARY(atan, Atan)
TZ_UNARY(sinh, Sinh)
TZ_UNARY(cosh, Cosh)
TZ_UNARY(tanh, Tanh)
TZ_UNARY(asinh, Asinh)
TZ_UNARY(acosh, Acosh)
TZ_UNARY(atanh, Atanh)
TZ_UNARY(sigmoid, Sigmoid)
TZ_UNARY(erf, Erf)
TZ_UNARY(erfc, Erfc)
TZ_UNARY(erfinv, Erfinv)
TZ_UNARY(angle, Angle)
#undef TZ_UNARY

Tensor positive(const Tensor& t);  // t itself; raises for bool like PyTorch's unary +
Tensor round(const Tensor& t, int64_t decimals = 0);  // half to even
const Tensor& round_(const Tensor& t, int64_t decimals = 0);
Tensor logit(const Tensor& t, std::optional<double> eps = std::nullopt);
const Tensor& logit_(const Tensor& t, std::optional<double> eps = std::nullopt);
// NaN -> nan, +inf -> posinf, -inf -> neginf; infinities default to the dtype's extremes.
Tensor nan_to_num(const Tensor& t, std::optional<double> nan, std::optional<double> posinf,
                  std::optional<double> neginf);
const Tensor& nan_to_num_(const Tensor& t, std::optional<double> nan,
                          std::optional<double> posinf, std::optional<double> neginf);

// Complex parts: real/imag of complex64 are float32 views sharing storage; conj copies.
Tensor real(const Tensor& t);
Tensor imag(const Tensor& t);
Tensor conj(const Tensor& t);

}  // namespace tz
