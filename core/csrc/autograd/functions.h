// Differentiable calls for derivative formulas: each goes through the op table, so it is
// recorded when backward runs with create_graph=True (higher-order gradients).
#pragma once
#include <optional>

#include "ops/registry.h"

namespace tz::F {

// Calls the op `full_name` with leading arguments `args`; the rest take their defaults.
Value call(const Op& op, Stack args);

// The op table entry for a name, looked up once per call site.
#define TZ_OP(full_name) ([]() -> const ::tz::Op& { static const ::tz::Op& op = ::tz::find_op(full_name); return op; }())

inline Tensor tensor_call(const Op& op, Stack args) { return call(op, std::move(args)).tensor(); }

inline Tensor add(const Tensor& a, const Tensor& b) { return tensor_call(TZ_OP("add"), {a, b}); }
inline Tensor sub(const Tensor& a, const Tensor& b) { return tensor_call(TZ_OP("sub"), {a, b}); }
inline Tensor mul(const Tensor& a, const Tensor& b) { return tensor_call(TZ_OP("mul"), {a, b}); }
inline Tensor div(const Tensor& a, const Tensor& b) { return tensor_call(TZ_OP("div"), {a, b}); }
Tensor mul(const Tensor& a, const Scalar& b);
inline Tensor neg(const Tensor& a) { return mul(a, Scalar(-1.0)); }
Tensor add(const Tensor& a, const Scalar& b);
Tensor div(const Scalar& a, const Tensor& b);  // a / b
// Elementwise helpers of the elementwise family's formulas.
inline Tensor where(const Tensor& cond, const Tensor& a, const Tensor& b) { return tensor_call(TZ_OP("where.self"), {cond, a, b}); }
Tensor where(const Tensor& cond, const Scalar& a, const Tensor& b);  // a where cond, else b
Tensor where(const Tensor& cond, const Tensor& a, const Scalar& b);
inline Tensor zeros_like(const Tensor& a) { return tensor_call(TZ_OP("zeros_like"), {a}); }
inline Tensor pow(const Tensor& a, const Tensor& b) { return tensor_call(TZ_OP("pow"), {a, b}); }
inline Tensor square(const Tensor& a) { return tensor_call(TZ_OP("square"), {a}); }
inline Tensor sqrt(const Tensor& a) { return tensor_call(TZ_OP("sqrt"), {a}); }
inline Tensor rsqrt(const Tensor& a) { return tensor_call(TZ_OP("rsqrt"), {a}); }
inline Tensor exp(const Tensor& a) { return tensor_call(TZ_OP("exp"), {a}); }
inline Tensor log(const Tensor& a) { return tensor_call(TZ_OP("log"), {a}); }
inline Tensor sin(const Tensor& a) { return tensor_call(TZ_OP("sin"), {a}); }
inline Tensor cos(const Tensor& a) { return tensor_call(TZ_OP("cos"), {a}); }
inline Tensor sinh(const Tensor& a) { return tensor_call(TZ_OP("sinh"), {a}); }
inline Tensor cosh(const Tensor& a) { return tensor_call(TZ_OP("cosh"), {a}); }
inline Tensor sign(const Tensor& a) { return tensor_call(TZ_OP("sign"), {a}); }
inline Tensor sgn(const Tensor& a) { return tensor_call(TZ_OP("sgn"), {a}); }
inline Tensor conj(const Tensor& a) { return tensor_call(TZ_OP("conj"), {a}); }
inline Tensor xlogy(const Tensor& a, const Tensor& b) { return tensor_call(TZ_OP("xlogy"), {a, b}); }
inline Tensor div_rounding(const Tensor& a, const Tensor& b, const char* mode) {
  return tensor_call(TZ_OP("div"), {a, b, std::string(mode)});
}
inline Tensor eq(const Tensor& a, const Tensor& b) { return tensor_call(TZ_OP("eq"), {a, b}); }
inline Tensor lt(const Tensor& a, const Tensor& b) { return tensor_call(TZ_OP("lt"), {a, b}); }
inline Tensor le(const Tensor& a, const Tensor& b) { return tensor_call(TZ_OP("le"), {a, b}); }
inline Tensor gt(const Tensor& a, const Tensor& b) { return tensor_call(TZ_OP("gt"), {a, b}); }
inline Tensor ge(const Tensor& a, const Tensor& b) { return tensor_call(TZ_OP("ge"), {a, b}); }
inline Tensor logical_and(const Tensor& a, const Tensor& b) { return tensor_call(TZ_OP("logical_and"), {a, b}); }
inline Tensor logical_or(const Tensor& a, const Tensor& b) { return tensor_call(TZ_OP("logical_or"), {a, b}); }
inline Tensor logical_not(const Tensor& a) { return tensor_call(TZ_OP("logical_not"), {a}); }
inline Tensor isnan(const Tensor& a) { return tensor_call(TZ_OP("isnan"), {a}); }
inline Tensor isfinite(const Tensor& a) { return tensor_call(TZ_OP("isfinite"), {a}); }
inline Tensor reshape(const Tensor& a, const Shape& s) {
  return tensor_call(TZ_OP("reshape"), {a, IntList(s.begin(), s.end())});
}
inline Tensor permute(const Tensor& a, const IntList& dims) { return tensor_call(TZ_OP("permute"), {a, dims}); }
inline Tensor transpose(const Tensor& a, int64_t d0, int64_t d1) {
  return tensor_call(TZ_OP("transpose"), {a, d0, d1});
}
inline Tensor expand(const Tensor& a, const Shape& s) {
  return tensor_call(TZ_OP("expand"), {a, IntList(s.begin(), s.end())});
}

// A 0-d Python-number constant: in binary ops it takes the other operand's dtype.
Tensor number(double v);
// g where `mask` holds, zero elsewhere (and the reverse); `where`, not a product, so that
// infinities outside the kept region don't turn into nans.
Tensor keep_where(const Tensor& mask, const Tensor& g);
Tensor zero_where(const Tensor& mask, const Tensor& g);

// The gradient of a reduction over `dims` (all dims when empty/none) back at the input's
// shape: reduced dims are re-inserted (unless keepdim) and the gradient is expanded.
Tensor expand_reduced(const Tensor& grad, const Shape& input_sizes, const std::optional<IntList>& dims,
                      bool keepdim);

}  // namespace tz::F
