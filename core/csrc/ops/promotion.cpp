#include "ops/promotion.h"

#include <optional>

namespace tz {

namespace {

using Opt = std::optional<DType>;

Opt promote(Opt a, DType b) { return a ? promote_types(*a, b) : b; }

DType combine_categories(Opt higher, Opt lower) {
  if (!higher) return *lower;
  if (!lower) return *higher;
  if (is_complex(*higher)) return *higher;
  // A lower-priority complex takes the precision of a higher-priority float (float64 and a
  // complex64 scalar give complex128; float32 and a complex128 scalar give complex64).
  if (is_complex(*lower)) return is_floating(*higher) ? complex_dtype_of(*higher) : *lower;
  if (is_floating(*higher)) return *higher;
  if (*higher == DType::Bool || is_floating(*lower)) return promote_types(*higher, *lower);
  return *higher;
}

}  // namespace

DType result_type(const std::vector<Tensor>& tensors) {
  Opt dim_result, zero_result, wrapped_result;
  for (const Tensor& t : tensors) {
    if (!t.defined()) continue;
    DType d = t.dtype();
    if (t.impl()->wrapped_number) {
      // Python floats count as the default dtype, whatever precision they are stored in.
      if (is_floating(d)) d = default_float_dtype();
      wrapped_result = promote(wrapped_result, d);
    } else if (t.dim() == 0) {
      zero_result = promote(zero_result, d);
    } else {
      dim_result = promote(dim_result, d);
    }
  }
  TZ_CHECK(dim_result || zero_result || wrapped_result, Runtime, "result_type(): no tensors given");
  Opt tensors_result = dim_result || zero_result ? Opt(combine_categories(dim_result, zero_result))
                                                 : std::nullopt;
  return combine_categories(tensors_result, wrapped_result);
}

DType result_type(const Tensor& a, const Tensor& b) { return result_type(std::vector<Tensor>{a, b}); }

DType to_floating(DType t) { return is_floating(t) || is_complex(t) ? t : default_float_dtype(); }

bool can_cast(DType from, DType to) {
  auto rank = [](DType t) { return is_complex(t) ? 3 : is_floating(t) ? 2 : t == DType::Bool ? 0 : 1; };
  return rank(from) <= rank(to);
}

}  // namespace tz
