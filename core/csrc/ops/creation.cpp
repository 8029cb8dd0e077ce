#include "ops/creation.h"

#include <cmath>

#include "ops/conversion.h"

namespace tz {

Tensor empty(const Shape& size, std::optional<DType> dtype) {
  return Tensor::empty(size, dtype.value_or(default_float_dtype()));
}

const Tensor& fill_(const Tensor& t, const Scalar& value) {
  copy_(t, scalar_to_tensor(value, t.dtype()));
  return t;
}

Tensor full(const Shape& size, const Scalar& value, std::optional<DType> dtype) {
  Tensor t = Tensor::empty(size, dtype.value_or(value.natural_dtype()));
  fill_(t, value);
  t.impl()->version->version = 0;
  return t;
}

Tensor zeros(const Shape& size, std::optional<DType> dtype) { return full(size, Scalar(int64_t(0)), dtype.value_or(default_float_dtype())); }
Tensor ones(const Shape& size, std::optional<DType> dtype) { return full(size, Scalar(int64_t(1)), dtype.value_or(default_float_dtype())); }

Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step, std::optional<DType> dtype) {
  bool all_int = start.is_integral() && end.is_integral() && step.is_integral();
  DType dt = dtype.value_or(all_int ? DType::Int64 : default_float_dtype());
  double s = start.to_double(), e = end.to_double(), st = step.to_double();
  TZ_CHECK(st != 0, Runtime, "arange(): step must be nonzero");
  TZ_CHECK(std::isfinite(s) && std::isfinite(e), Runtime, "arange(): unsupported range: ", s, " -> ", e);
  TZ_CHECK((st > 0 && e >= s) || (st < 0 && e <= s), Runtime,
           "arange(): upper bound and larger bound inconsistent with step sign");
  int64_t n;
  if (all_int) {
    int64_t si = start.to_int(), ei = end.to_int(), sti = step.to_int();
    n = (ei - si + sti - (sti > 0 ? 1 : -1)) / sti;
  } else {
    n = static_cast<int64_t>(std::ceil((e - s) / st));
  }
  Tensor t = Tensor::empty({n}, dt);
  TZ_DISPATCH_ALL(dt, "arange", [&] {
    scalar_t* p = t.data<scalar_t>();
    if (all_int) {
      int64_t si = start.to_int(), sti = step.to_int();
      for (int64_t i = 0; i < n; ++i) p[i] = static_cast<scalar_t>(si + i * sti);
    } else {
      for (int64_t i = 0; i < n; ++i) p[i] = static_cast<scalar_t>(s + static_cast<double>(i) * st);
    }
  });
  return t;
}

}  // namespace tz
