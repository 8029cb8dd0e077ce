// Comparisons (compute in the promoted dtype, write bool), logical ops (any dtype -> bool),
// closeness tests and elementwise predicates.
#pragma once
#include "tensor/tensor.h"

namespace tz {

Tensor eq(const Tensor& a, const Tensor& b);
Tensor ne(const Tensor& a, const Tensor& b);
Tensor lt(const Tensor& a, const Tensor& b);
Tensor le(const Tensor& a, const Tensor& b);
Tensor gt(const Tensor& a, const Tensor& b);
Tensor ge(const Tensor& a, const Tensor& b);
// In-place comparisons write 1/0 in self's dtype. `name` is eq_, ne_, lt_, le_, gt_ or ge_.
const Tensor& compare_(const char* name, const Tensor& self, const Tensor& other);

Tensor logical_and(const Tensor& a, const Tensor& b);
Tensor logical_or(const Tensor& a, const Tensor& b);
Tensor logical_xor(const Tensor& a, const Tensor& b);
Tensor logical_not(const Tensor& t);
// In-place logical ops write 1/0 in self's dtype. `name` is logical_and_, _or_, _xor_ or _not_.
const Tensor& logical_(const char* name, const Tensor& self, const Tensor& other);

// |a - b| <= atol + rtol * |b| (or both equal, or both NaN with equal_nan); a and b must
// share a dtype.
Tensor isclose(const Tensor& a, const Tensor& b, double rtol = 1e-5, double atol = 1e-8,
               bool equal_nan = false);
bool allclose(const Tensor& a, const Tensor& b, double rtol = 1e-5, double atol = 1e-8,
              bool equal_nan = false);
// Same shape and equal elements (after promotion); NaN is unequal to itself.
bool equal(const Tensor& a, const Tensor& b);

Tensor isnan(const Tensor& t);
Tensor isinf(const Tensor& t);
Tensor isposinf(const Tensor& t);
Tensor isneginf(const Tensor& t);
Tensor isfinite(const Tensor& t);
Tensor isreal(const Tensor& t);
Tensor signbit(const Tensor& t);

}  // namespace tz
