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

// The gradient of a reduction over `dims` (all dims when empty/none) back at the input's
// shape: reduced dims are re-inserted (unless keepdim) and the gradient is expanded.
Tensor expand_reduced(const Tensor& grad, const Shape& input_sizes, const std::optional<IntList>& dims,
                      bool keepdim);

}  // namespace tz::F
