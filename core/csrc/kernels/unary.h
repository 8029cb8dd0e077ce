// Elementwise unary kernels: out (operand 0) <- f(in) (operand 1). `dtype` is the compute
// dtype of the input (bool, an integer type, float32, float64 or complex64; half types are
// converted to float32 by the front-end). The output has the input's dtype, except for the
// predicates (bool) and abs/angle of complex64 (float32).
#pragma once
#include "iter/tensor_iter.h"
#include "kernels/dispatch.h"

namespace tz {

enum class UnaryOp : uint8_t {
  // same dtype in and out
  Neg, Abs, Sign, Sgn, BitwiseNot,
  Floor, Ceil, Round, Trunc, Frac,
  // floating point (and mostly complex)
  Sqrt, Rsqrt, Reciprocal, Exp, Exp2, Expm1, Log, Log2, Log10, Log1p,
  Sin, Cos, Tan, Asin, Acos, Atan, Sinh, Cosh, Tanh, Asinh, Acosh, Atanh,
  Sigmoid, Erf, Erfc, Erfinv, Angle, Conj,
  // parameterised: RoundDecimals(p0 = 10^|decimals|, p1 = decimals < 0),
  // Logit(p0 = eps, negative for none), NanToNum(p0 = nan, p1 = posinf, p2 = neginf)
  RoundDecimals, Logit, NanToNum,
  // predicates: write bool
  IsNan, IsInf, IsPosInf, IsNegInf, IsFinite, Signbit,
  NumOps  // the number of ops: keep last (ops/unary.cpp classifies each one)
};

struct UnaryArgs {
  double p0 = 0, p1 = 0, p2 = 0;
};

using UnaryKernel = void (*)(const TensorIter& iter, DType dtype, UnaryOp op, const UnaryArgs& args);
extern DispatchStub<UnaryKernel> unary_stub;

// The part of every build that calls libm (transcendentals of float64 and complex64, and the
// float32 ones without a vectorised version): compiled once, called by every ISA build.
void unary_libm_kernel(const TensorIter& iter, DType dtype, UnaryOp op, const UnaryArgs& args);

// clamp(x, lo, hi) with number bounds; a missing bound is passed as has_lo/has_hi = false.
using ClampKernel = void (*)(const TensorIter& iter, DType dtype, Scalar lo, Scalar hi,
                             bool has_lo, bool has_hi);
extern DispatchStub<ClampKernel> clamp_stub;

}  // namespace tz
