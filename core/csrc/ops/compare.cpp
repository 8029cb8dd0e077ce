// Comparisons, logical ops, closeness tests and predicates.
#include <cstring>

#include "ops/conversion.h"
#include "ops/creation.h"
#include "ops/elementwise.h"
#include "ops/elementwise_util.h"

namespace tz {

Tensor eq(const Tensor& a, const Tensor& b) { return binary_op(BinaryOp::Eq, a, b, "eq"); }
Tensor ne(const Tensor& a, const Tensor& b) { return binary_op(BinaryOp::Ne, a, b, "ne"); }
Tensor lt(const Tensor& a, const Tensor& b) { return binary_op(BinaryOp::Lt, a, b, "lt"); }
Tensor le(const Tensor& a, const Tensor& b) { return binary_op(BinaryOp::Le, a, b, "le"); }
// a > b is b < a: the kernels only implement lt and le.
Tensor gt(const Tensor& a, const Tensor& b) { return binary_op(BinaryOp::Lt, b, a, "gt"); }
Tensor ge(const Tensor& a, const Tensor& b) { return binary_op(BinaryOp::Le, b, a, "ge"); }

const Tensor& compare_(const char* name, const Tensor& self, const Tensor& other) {
  struct Entry { const char* name; BinaryOp op; bool swapped; };
  static const Entry table[] = {{"eq_", BinaryOp::Eq, false}, {"ne_", BinaryOp::Ne, false},
                                {"lt_", BinaryOp::Lt, false}, {"le_", BinaryOp::Le, false},
                                {"gt_", BinaryOp::Lt, true},  {"ge_", BinaryOp::Le, true}};
  for (const Entry& e : table)
    if (std::strcmp(e.name, name) == 0) return binary_op_(e.op, self, other, name, Scalar(int64_t(1)), e.swapped);
  fail(ErrorKind::Runtime, "compare_(): unknown comparison ", name);
}

namespace {

// Truth values: nonzero (either part, for complex) is true.
Tensor truth(const Tensor& t) {
  if (is_complex(t.dtype())) return ne(t, scalar_to_tensor(Scalar(int64_t(0))));
  return to_dtype(t, DType::Bool);
}

BinaryOp logical_op(const char* name) {
  if (std::strncmp(name, "logical_and", 11) == 0) return BinaryOp::BitAnd;
  if (std::strncmp(name, "logical_or", 10) == 0) return BinaryOp::BitOr;
  return BinaryOp::BitXor;
}

}  // namespace

Tensor logical_and(const Tensor& a, const Tensor& b) { return binary_op(BinaryOp::BitAnd, truth(a), truth(b), "logical_and"); }
Tensor logical_or(const Tensor& a, const Tensor& b) { return binary_op(BinaryOp::BitOr, truth(a), truth(b), "logical_or"); }
Tensor logical_xor(const Tensor& a, const Tensor& b) { return binary_op(BinaryOp::BitXor, truth(a), truth(b), "logical_xor"); }
Tensor logical_not(const Tensor& t) { return unary_op(UnaryOp::BitwiseNot, truth(t), "logical_not"); }

const Tensor& logical_(const char* name, const Tensor& self, const Tensor& other) {
  Tensor r = std::strcmp(name, "logical_not_") == 0
                 ? logical_not(self)
                 : binary_op(logical_op(name), truth(self), truth(other), name);
  check_inplace(self, DType::Bool, r.sizes(), name);
  copy_(self, r);  // bumps the version
  return self;
}

Tensor isclose(const Tensor& a, const Tensor& b, double rtol, double atol, bool equal_nan) {
  TZ_CHECK(a.dtype() == b.dtype(), Runtime, "isclose(): ", scalar_type_name(a.dtype()), " did not match ",
           scalar_type_name(b.dtype()));
  TZ_CHECK(!(is_complex(a.dtype()) && equal_nan), Runtime,
           "isclose(): equal_nan=True is not supported for complex inputs");
  TZ_CHECK(rtol >= 0, Runtime, "isclose(): rtol must be greater than or equal to zero, but got ", rtol);
  TZ_CHECK(atol >= 0, Runtime, "isclose(): atol must be greater than or equal to zero, but got ", atol);
  Tensor close = eq(a, b);
  if (equal_nan && is_floating(a.dtype())) close = logical_or(close, logical_and(isnan(a), isnan(b)));
  if (rtol == 0 && atol == 0) return close;
  // PyTorch's formula, in the default float dtype for bool inputs: finite |a - b| within
  // atol + rtol * |b| (the finiteness test keeps inf - inf = NaN from counting).
  Tensor ca = a.dtype() == DType::Bool ? to_dtype(a, default_float_dtype()) : a;
  Tensor cb = b.dtype() == DType::Bool ? to_dtype(b, default_float_dtype()) : b;
  Tensor allowed = add(scalar_to_tensor(Scalar(atol)), abs(mul(scalar_to_tensor(Scalar(rtol)), cb)));
  Tensor actual = abs(sub(ca, cb));
  return logical_or(close, logical_and(isfinite(actual), le(actual, allowed)));
}

namespace {
bool all_true(const Tensor& mask) {
  Tensor m = contiguous(mask);
  const bool* p = m.data<bool>();
  for (int64_t i = 0, n = m.numel(); i < n; ++i)
    if (!p[i]) return false;
  return true;
}
}  // namespace

bool allclose(const Tensor& a, const Tensor& b, double rtol, double atol, bool equal_nan) {
  return all_true(isclose(a, b, rtol, atol, equal_nan));
}

bool equal(const Tensor& a, const Tensor& b) {
  return a.sizes() == b.sizes() && all_true(eq(a, b));
}

namespace {
Tensor constant_mask(const Tensor& t, bool value) { return full(t.sizes(), Scalar(value), DType::Bool); }
}  // namespace

// Integer and bool inputs are never NaN or infinite.
Tensor isnan(const Tensor& t) {
  return is_floating(t.dtype()) || is_complex(t.dtype()) ? unary_op(UnaryOp::IsNan, t, "isnan") : constant_mask(t, false);
}
Tensor isinf(const Tensor& t) {
  return is_floating(t.dtype()) || is_complex(t.dtype()) ? unary_op(UnaryOp::IsInf, t, "isinf") : constant_mask(t, false);
}
Tensor isposinf(const Tensor& t) {
  return is_integral(t.dtype(), true) ? constant_mask(t, false) : unary_op(UnaryOp::IsPosInf, t, "isposinf");
}
Tensor isneginf(const Tensor& t) {
  return is_integral(t.dtype(), true) ? constant_mask(t, false) : unary_op(UnaryOp::IsNegInf, t, "isneginf");
}
Tensor isfinite(const Tensor& t) {
  return is_floating(t.dtype()) || is_complex(t.dtype()) ? unary_op(UnaryOp::IsFinite, t, "isfinite") : constant_mask(t, true);
}
Tensor isreal(const Tensor& t) { return is_complex(t.dtype()) ? eq(imag(t), scalar_to_tensor(Scalar(int64_t(0)))) : constant_mask(t, true); }
Tensor signbit(const Tensor& t) {
  if (!is_integral(t.dtype(), true)) return unary_op(UnaryOp::Signbit, t, "signbit");
  if (!is_signed(t.dtype())) return constant_mask(t, false);
  return lt(t, scalar_to_tensor(Scalar(int64_t(0))));
}

}  // namespace tz
