// Helpers shared by the elementwise front-ends (ops/binary.cpp, unary.cpp, compare.cpp, ...).
#pragma once
#include "ops/promotion.h"
#include "tensor/tensor.h"

namespace tz {

// result_type(a, b) with a shortcut for the common case of one dtype (two wrapped numbers
// still need the full rules: two Python floats give the default dtype, not float64).
inline DType binary_result_type(const Tensor& a, const Tensor& b) {
  if (a.dtype() == b.dtype() && !(a.impl()->wrapped_number && b.impl()->wrapped_number))
    return a.dtype();
  return result_type(a, b);
}

// t in dtype `compute` for a kernel: t itself when it has that dtype already; wrapped Python
// numbers are converted through their value (cheaper than a strided copy).
Tensor to_compute(const Tensor& t, DType compute);


// The in-place checks: the result dtype casts to self's, the broadcast shape is self's, and
// no two elements of self share memory (an expanded self).
void check_inplace(const Tensor& self, DType result, const Shape& shape, const char* name);

// An input of an in-place op that is a different view of self's memory is read from a copy,
// so that elements written first do not feed later ones (x.add_(x[0])).
Tensor unalias(const Tensor& input, const Tensor& self);

}  // namespace tz
