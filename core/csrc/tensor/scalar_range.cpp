#include "tensor/scalar_range.h"

#include <cmath>
#include <cstdint>
#include <limits>

#include "tensor/errors.h"

namespace tz {

namespace {

// The C++ type names PyTorch's message uses.
const char* cpp_type_name(DType t) {
  switch (t) {
    case DType::Bool: return "bool";
    case DType::UInt8: case DType::QUInt8: return "uint8_t";
    case DType::Int8: case DType::QInt8: return "int8_t";
    case DType::Int16: return "int16_t";
    case DType::Int32: case DType::QInt32: return "int";
    case DType::Int64: return "int64_t";
    case DType::Float16: return "at::Half";
    case DType::BFloat16: return "at::BFloat16";
    case DType::Float32: return "float";
    case DType::Float64: return "double";
    case DType::Complex64: return "c10::complex<float>";
    case DType::Complex128: return "c10::complex<double>";
  }
  return "?";
}

struct Range {
  double lowest, max;
};

Range integral_range(DType t) {
  switch (t) {
    case DType::UInt8: case DType::QUInt8: return {0, 255};
    case DType::Int8: case DType::QInt8: return {-128, 127};
    case DType::Int16: return {-32768, 32767};
    case DType::Int32: case DType::QInt32: return {-2147483648.0, 2147483647.0};
    default: return {-9223372036854775808.0, 9223372036854775807.0};
  }
}

double float_max(DType t) {
  switch (t) {
    case DType::Float16: return 65504.0;
    case DType::BFloat16: return 3.3895313892515355e38;
    case DType::Float32: case DType::Complex64: return std::numeric_limits<float>::max();
    default: return std::numeric_limits<double>::max();
  }
}

bool integer_fits(int64_t v, DType t) {
  if (t == DType::Int64) return true;
  const Range r = integral_range(t);
  const double d = static_cast<double>(v);
  if (!is_signed(t)) return d <= r.max && (v >= 0 || -d <= r.max);  // -1 as uint8 is 255
  return d >= r.lowest && d <= r.max;
}

bool real_fits(double v, DType t) {
  if (is_floating(t) || is_complex(t)) return !std::isfinite(v) || std::fabs(v) <= float_max(t);
  if (!std::isfinite(v)) return false;  // no integer holds inf or nan
  const Range r = integral_range(t);
  if (!is_signed(t)) return v <= r.max && v >= -r.max;
  // int64's max is not a double: 2^63 itself must fail, so compare against the open bound.
  return t == DType::Int64 ? v >= r.lowest && v < 9223372036854775808.0 : v >= r.lowest && v <= r.max;
}

}  // namespace

bool scalar_fits(const Scalar& s, DType dtype) {
  if (dtype == DType::Bool) return true;  // any number converts to bool (nonzero is true)
  if (s.is_complex()) {
    const complex128 c = s.to_complex128();
    if (!is_complex(dtype) && c.imag() != 0) return false;
    return real_fits(c.real(), dtype) && real_fits(c.imag(), is_complex(dtype) ? dtype : DType::Float64);
  }
  if (s.is_integral()) return is_integral(dtype, false) || is_quantized(dtype) ? integer_fits(s.to_int(), dtype) : true;
  return real_fits(s.to_double(), dtype);
}

void check_scalar_fits(const Scalar& s, DType dtype) {
  TZ_CHECK(scalar_fits(s, dtype), Runtime, "value cannot be converted to type ", cpp_type_name(dtype),
           " without overflow");
}

}  // namespace tz
