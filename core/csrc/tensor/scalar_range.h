// Whether a Python number fits a dtype, by PyTorch's rules for Scalar arguments (fill values,
// clamp bounds, alpha, threshold): integers must lie in the type's range (unsigned types also
// take negatives down to -max, which wrap as two's complement), finite floats in the float
// type's range (inf and nan pass), and complex numbers only into real types with imag == 0.
#pragma once
#include "tensor/scalar.h"

namespace tz {

bool scalar_fits(const Scalar& s, DType dtype);
// RuntimeError "value cannot be converted to type int8_t without overflow" (PyTorch's words).
void check_scalar_fits(const Scalar& s, DType dtype);

}  // namespace tz
