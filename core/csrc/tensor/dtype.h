// Element types, their properties and PyTorch's type-promotion lattice.
#pragma once
#include <complex>
#include <cstdint>
#include <string>

#include "tensor/errors.h"
#include "tensor/half.h"

namespace tz {

using complex64 = std::complex<float>;
using complex128 = std::complex<double>;

// Order matters: it indexes the promotion table in dtype.cpp.
enum class DType : int8_t {
  Bool, UInt8, Int8, Int16, Int32, Int64, Float16, BFloat16, Float32, Float64, Complex64, Complex128,
  QUInt8, QInt8, QInt32,  // quantized storage types (the quantizer field gives their meaning)
};
constexpr int kNumDTypes = 15;

int64_t itemsize(DType t);
const char* dtype_name(DType t);  // "float32", ...
const char* scalar_type_name(DType t);  // PyTorch's ScalarType names for messages: "Float", "Long", ...
inline bool is_floating(DType t) {
  return t == DType::Float16 || t == DType::BFloat16 || t == DType::Float32 || t == DType::Float64;
}
inline bool is_complex(DType t) { return t == DType::Complex64 || t == DType::Complex128; }
// complex64 <-> float32, complex128 <-> float64 (the type of the parts, and back).
inline DType complex_part_dtype(DType t) { return t == DType::Complex128 ? DType::Float64 : DType::Float32; }
inline DType complex_dtype_of(DType real) { return real == DType::Float64 ? DType::Complex128 : DType::Complex64; }
inline bool is_quantized(DType t) { return t >= DType::QUInt8; }
inline bool is_integral(DType t, bool include_bool) {
  return (t >= DType::UInt8 && t <= DType::Int64) || (include_bool && t == DType::Bool);
}
inline bool is_signed(DType t) { return t != DType::Bool && t != DType::UInt8 && t != DType::QUInt8; }

// The promoted type of two dtypes (torch.promote_types).
DType promote_types(DType a, DType b);

// Default floating dtype for integer inputs to float ops and for Python floats.
DType default_float_dtype();
void set_default_float_dtype(DType t);

// C++ element type for each dtype, and the reverse.
template <DType D> struct ctype_of;
template <> struct ctype_of<DType::Bool> { using type = bool; };
template <> struct ctype_of<DType::UInt8> { using type = uint8_t; };
template <> struct ctype_of<DType::Int8> { using type = int8_t; };
template <> struct ctype_of<DType::Int16> { using type = int16_t; };
template <> struct ctype_of<DType::Int32> { using type = int32_t; };
template <> struct ctype_of<DType::Int64> { using type = int64_t; };
template <> struct ctype_of<DType::Float16> { using type = Half; };
template <> struct ctype_of<DType::BFloat16> { using type = BFloat16; };
template <> struct ctype_of<DType::Float32> { using type = float; };
template <> struct ctype_of<DType::Float64> { using type = double; };
template <> struct ctype_of<DType::Complex64> { using type = complex64; };
template <> struct ctype_of<DType::Complex128> { using type = complex128; };
template <> struct ctype_of<DType::QUInt8> { using type = uint8_t; };
template <> struct ctype_of<DType::QInt8> { using type = int8_t; };
template <> struct ctype_of<DType::QInt32> { using type = int32_t; };

template <typename T> constexpr bool is_complex_v = false;
template <> inline constexpr bool is_complex_v<complex64> = true;
template <> inline constexpr bool is_complex_v<complex128> = true;

}  // namespace tz

// Dispatch on a runtime dtype: inside the body, `scalar_t` is the element type.
#define TZ_DTYPE_CASE(D, ...)                                   \
  case ::tz::DType::D: {                                        \
    using scalar_t = typename ::tz::ctype_of<::tz::DType::D>::type; \
    __VA_ARGS__();                                              \
    break;                                                      \
  }

#define TZ_DISPATCH_FAIL(dtype, opname) \
  default: ::tz::fail(::tz::ErrorKind::Type, opname, "(): not implemented for dtype ", ::tz::dtype_name(dtype))

// Every real numeric type (no bool, no complex).
#define TZ_DISPATCH_REAL(dtype, opname, ...)                                  \
  [&] { switch (dtype) {                                                      \
    TZ_DTYPE_CASE(UInt8, __VA_ARGS__) TZ_DTYPE_CASE(Int8, __VA_ARGS__)        \
    TZ_DTYPE_CASE(Int16, __VA_ARGS__) TZ_DTYPE_CASE(Int32, __VA_ARGS__)       \
    TZ_DTYPE_CASE(Int64, __VA_ARGS__) TZ_DTYPE_CASE(Float16, __VA_ARGS__)     \
    TZ_DTYPE_CASE(BFloat16, __VA_ARGS__) TZ_DTYPE_CASE(Float32, __VA_ARGS__)  \
    TZ_DTYPE_CASE(Float64, __VA_ARGS__)                                       \
    TZ_DISPATCH_FAIL(dtype, opname); } }()

#define TZ_DISPATCH_REAL_AND_BOOL(dtype, opname, ...)                         \
  [&] { switch (dtype) {                                                      \
    TZ_DTYPE_CASE(Bool, __VA_ARGS__)                                          \
    TZ_DTYPE_CASE(UInt8, __VA_ARGS__) TZ_DTYPE_CASE(Int8, __VA_ARGS__)        \
    TZ_DTYPE_CASE(Int16, __VA_ARGS__) TZ_DTYPE_CASE(Int32, __VA_ARGS__)       \
    TZ_DTYPE_CASE(Int64, __VA_ARGS__) TZ_DTYPE_CASE(Float16, __VA_ARGS__)     \
    TZ_DTYPE_CASE(BFloat16, __VA_ARGS__) TZ_DTYPE_CASE(Float32, __VA_ARGS__)  \
    TZ_DTYPE_CASE(Float64, __VA_ARGS__)                                       \
    TZ_DISPATCH_FAIL(dtype, opname); } }()

#define TZ_DISPATCH_ALL(dtype, opname, ...)                                   \
  [&] { switch (dtype) {                                                      \
    TZ_DTYPE_CASE(Bool, __VA_ARGS__)                                          \
    TZ_DTYPE_CASE(UInt8, __VA_ARGS__) TZ_DTYPE_CASE(Int8, __VA_ARGS__)        \
    TZ_DTYPE_CASE(Int16, __VA_ARGS__) TZ_DTYPE_CASE(Int32, __VA_ARGS__)       \
    TZ_DTYPE_CASE(Int64, __VA_ARGS__) TZ_DTYPE_CASE(Float16, __VA_ARGS__)     \
    TZ_DTYPE_CASE(BFloat16, __VA_ARGS__) TZ_DTYPE_CASE(Float32, __VA_ARGS__)  \
    TZ_DTYPE_CASE(Float64, __VA_ARGS__) TZ_DTYPE_CASE(Complex64, __VA_ARGS__) \
    TZ_DTYPE_CASE(Complex128, __VA_ARGS__)                                    \
    TZ_DISPATCH_FAIL(dtype, opname); } }()

// Types that kernels compute in natively (half types are converted to float first).
#define TZ_DISPATCH_FLOATING(dtype, opname, ...)                              \
  [&] { switch (dtype) {                                                      \
    TZ_DTYPE_CASE(Float32, __VA_ARGS__) TZ_DTYPE_CASE(Float64, __VA_ARGS__)   \
    TZ_DISPATCH_FAIL(dtype, opname); } }()
