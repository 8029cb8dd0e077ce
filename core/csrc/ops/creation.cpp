#include "ops/creation.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>

#include "ops/conversion.h"

namespace tz {

Tensor empty(const Shape& size, std::optional<DType> dtype, MemoryFormat format) {
  return empty_with_format(size, dtype.value_or(default_float_dtype()), format);
}

const Tensor& fill_(const Tensor& t, const Scalar& value) {
  copy_(t, scalar_to_tensor(value, t.dtype()));
  return t;
}

namespace {

// A new tensor filled with value; filling a fresh tensor is not a user-visible write.
Tensor filled(Tensor t, const Scalar& value) {
  fill_(t, value);
  t.impl()->version->version = 0;
  return t;
}

// PyTorch's is_non_overlapping_and_dense: some order of the dims walks memory densely.
bool non_overlapping_and_dense(const Tensor& t) {
  std::vector<int64_t> dims(t.dim());
  std::iota(dims.begin(), dims.end(), 0);
  std::stable_sort(dims.begin(), dims.end(), [&](int64_t a, int64_t b) { return t.strides()[a] < t.strides()[b]; });
  int64_t expected = 1;
  for (int64_t d : dims) {
    if (t.sizes()[d] == 1) continue;
    if (t.strides()[d] != expected) return false;
    expected *= t.sizes()[d];
  }
  return true;
}

}  // namespace

Tensor full(const Shape& size, const Scalar& value, std::optional<DType> dtype) {
  return filled(Tensor::empty(size, dtype.value_or(value.natural_dtype())), value);
}

Tensor zeros(const Shape& size, std::optional<DType> dtype) { return full(size, Scalar(int64_t(0)), dtype.value_or(default_float_dtype())); }
Tensor ones(const Shape& size, std::optional<DType> dtype) { return full(size, Scalar(int64_t(1)), dtype.value_or(default_float_dtype())); }

Tensor eye(int64_t n, std::optional<int64_t> m, std::optional<DType> dtype) {
  TZ_CHECK(n >= 0, Runtime, "eye(): n must be greater or equal to 0, got ", n);
  int64_t cols = m.value_or(n);
  TZ_CHECK(cols >= 0, Runtime, "eye(): m must be greater or equal to 0, got ", cols);
  Tensor t = zeros({n, cols}, dtype);
  TZ_DISPATCH_ALL(t.dtype(), "eye", [&] {
    scalar_t* p = t.data<scalar_t>();
    for (int64_t i = 0; i < std::min(n, cols); ++i) p[i * cols + i] = static_cast<scalar_t>(1);
  });
  return t;
}

Tensor linspace(const Scalar& start, const Scalar& end, int64_t steps, std::optional<DType> dtype) {
  TZ_CHECK(steps >= 0, Runtime, "linspace(): number of steps must be non-negative");
  Tensor t = Tensor::empty({steps}, dtype.value_or(default_float_dtype()));
  TZ_DISPATCH_REAL(t.dtype(), "linspace", [&] {
    // Integers step in double; half types compute in float.
    using step_t = std::conditional_t<std::is_integral_v<scalar_t> || std::is_same_v<scalar_t, double>, double, float>;
    const step_t lo = static_cast<step_t>(start.to<scalar_t>()), hi = static_cast<step_t>(end.to<scalar_t>());
    const step_t step = steps > 1 ? (hi - lo) / static_cast<step_t>(steps - 1) : step_t(0);
    const int64_t halfway = steps / 2;
    scalar_t* p = t.data<scalar_t>();
    // Fused multiply-adds, rounded once: PyTorch's kernel is compiled with FMA contraction.
    for (int64_t i = 0; i < steps; ++i)
      p[i] = static_cast<scalar_t>(i < halfway ? std::fma(step, static_cast<step_t>(i), lo)
                                               : std::fma(-step, static_cast<step_t>(steps - i - 1), hi));
    if (steps == 1) p[0] = start.to<scalar_t>();
  });
  return t;
}

Tensor logspace(const Scalar& start, const Scalar& end, int64_t steps, double base, std::optional<DType> dtype) {
  TZ_CHECK(steps >= 0, Runtime, "logspace(): number of steps must be non-negative");
  Tensor t = Tensor::empty({steps}, dtype.value_or(default_float_dtype()));
  TZ_DISPATCH_REAL(t.dtype(), "logspace", [&] {
    const double lo = static_cast<double>(start.to<scalar_t>()), hi = static_cast<double>(end.to<scalar_t>());
    const double step = steps > 1 ? (hi - lo) / static_cast<double>(steps - 1) : 0.0;
    const int64_t halfway = steps / 2;
    scalar_t* p = t.data<scalar_t>();
    for (int64_t i = 0; i < steps; ++i)
      p[i] = static_cast<scalar_t>(std::pow(base, i < halfway ? lo + step * static_cast<double>(i)
                                                              : hi - step * static_cast<double>(steps - i - 1)));
    if (steps == 1) p[0] = static_cast<scalar_t>(std::pow(base, start.to_double()));
  });
  return t;
}

Tensor empty_like(const Tensor& t, std::optional<DType> dtype, MemoryFormat format) {
  const DType dt = dtype.value_or(t.dtype());
  if (format != MemoryFormat::Preserve) return empty_with_format(t.sizes(), dt, format, "empty_like");
  if (t.is_contiguous() || !non_overlapping_and_dense(t)) return Tensor::empty(t.sizes(), dt);
  size_t nbytes = static_cast<size_t>(t.numel() * itemsize(dt));
  return Tensor(std::make_shared<TensorImpl>(Storage::allocate(nbytes), t.sizes(), t.strides(), 0, dt,
                                             std::make_shared<VersionCounter>()));
}

Tensor full_like(const Tensor& t, const Scalar& value, std::optional<DType> dtype, MemoryFormat format) {
  return filled(empty_like(t, dtype, format), value);
}
Tensor zeros_like(const Tensor& t, std::optional<DType> dtype, MemoryFormat format) {
  return full_like(t, Scalar(int64_t(0)), dtype, format);
}
Tensor ones_like(const Tensor& t, std::optional<DType> dtype, MemoryFormat format) {
  return full_like(t, Scalar(int64_t(1)), dtype, format);
}

Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step, std::optional<DType> dtype) {
  bool all_int = start.is_integral() && end.is_integral() && step.is_integral();
  DType dt = dtype.value_or(all_int ? DType::Int64 : default_float_dtype());
  double s = start.to_double(), e = end.to_double(), st = step.to_double();
  TZ_CHECK(st != 0, Runtime, "arange(): step must be nonzero");
  TZ_CHECK(std::isfinite(s) && std::isfinite(e), Runtime, "arange(): unsupported range: ", s, " -> ", e);
  TZ_CHECK((st > 0 && e >= s) || (st < 0 && e <= s), Runtime,
           "arange(): upper bound and larger bound inconsistent with step sign");
  // The length in 128-bit integers or in doubles, so a huge range is reported, not wrapped.
  int64_t n;
  if (all_int) {
    using Wide = __int128;
    const Wide si = start.to_int(), ei = end.to_int(), sti = step.to_int();
    const Wide len = (ei - si + sti - (sti > 0 ? 1 : -1)) / sti;
    TZ_CHECK(len <= Wide(INT64_MAX), Runtime, "arange(): invalid size, possible overflow?");
    n = static_cast<int64_t>(len);
  } else {
    const double len = std::ceil((e - s) / st);
    TZ_CHECK(len < 9223372036854775808.0, Runtime, "arange(): invalid size, possible overflow?");
    n = static_cast<int64_t>(len);
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
