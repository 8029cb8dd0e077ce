// Binary kernels without a vectorised loop (compiled once): integer division and remainder,
// which check for division by zero, and the ops calling libm.
#include <cmath>
#include <complex>
#include <type_traits>

#include "kernels/binary.h"
#include "kernels/elementwise_loops.h"

namespace tz {
namespace {

template <typename T> inline void check_divisor(T b) {
  if (b == T(0)) fail(ErrorKind::Runtime, "ZeroDivisionError");
}

// a / b and a % b for b == -1 would trap on INT_MIN; the wrapped results are -a and 0.
template <typename T> inline T div_trunc(T a, T b) {
  check_divisor(b);
  if constexpr (std::is_signed_v<T>)
    if (b == T(-1)) return T(std::make_unsigned_t<T>(0) - std::make_unsigned_t<T>(a));
  return T(a / b);
}
template <typename T> inline T fmod_int(T a, T b) {
  check_divisor(b);
  if constexpr (std::is_signed_v<T>)
    if (b == T(-1)) return T(0);
  return T(a % b);
}
template <typename T> inline T div_floor(T a, T b) {
  T q = div_trunc(a, b);
  if constexpr (std::is_signed_v<T>)
    if ((fmod_int(a, b) != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
template <typename T> inline T remainder_int(T a, T b) {
  T r = fmod_int(a, b);
  if constexpr (std::is_signed_v<T>)
    if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

// Python's float floor division (as numpy and PyTorch compute it): through fmod, so that
// a == b * q + remainder(a, b) holds as closely as floating point allows.
template <typename T> inline T div_floor_float(T a, T b) {
  if (b == T(0)) return a / b;
  T mod = std::fmod(a, b);
  T div = (a - mod) / b;
  if (mod != T(0) && ((b < T(0)) != (mod < T(0)))) div -= T(1);
  if (div == T(0)) return std::copysign(T(0), a / b);
  T floordiv = std::floor(div);
  if (div - floordiv > T(0.5)) floordiv += T(1);
  return floordiv;
}
template <typename T> inline T remainder_float(T a, T b) {
  T mod = std::fmod(a, b);
  if (mod != T(0) && ((b < T(0)) != (mod < T(0)))) mod += b;
  return mod;
}

// Integer powers by squaring; negative exponents give 0 except for bases 1 and -1.
template <typename T> inline T int_pow(T base, T exp) {
  if constexpr (std::is_signed_v<T>) {
    if (exp < 0) {
      if (base == 1) return 1;
      if (base == -1) return (exp & 1) ? T(-1) : T(1);
      return 0;
    }
  }
  using U = std::make_unsigned_t<T>;
  U result = 1, b = U(base);
  for (U e = U(exp); e; e >>= 1) {
    if (e & 1) result = U(result * b);
    b = U(b * b);
  }
  return T(result);
}

template <typename T>
void integral(const TensorIter& iter, BinaryOp op) {
  switch (op) {
    case BinaryOp::DivTrunc: return run_binary<T, T>(iter, [](T a, T b) { return div_trunc(a, b); });
    case BinaryOp::DivFloor: return run_binary<T, T>(iter, [](T a, T b) { return div_floor(a, b); });
    case BinaryOp::Remainder: return run_binary<T, T>(iter, [](T a, T b) { return remainder_int(a, b); });
    case BinaryOp::Fmod: return run_binary<T, T>(iter, [](T a, T b) { return fmod_int(a, b); });
    case BinaryOp::Pow: return run_binary<T, T>(iter, [](T a, T b) { return int_pow(a, b); });
    default: fail(ErrorKind::NotImplemented, "not implemented for integer dtypes");
  }
}

template <typename T>
void floating(const TensorIter& iter, BinaryOp op) {
  switch (op) {
    case BinaryOp::DivTrunc: return run_binary<T, T>(iter, [](T a, T b) { return std::trunc(a / b); });
    case BinaryOp::DivFloor: return run_binary<T, T>(iter, [](T a, T b) { return div_floor_float(a, b); });
    case BinaryOp::Remainder: return run_binary<T, T>(iter, [](T a, T b) { return remainder_float(a, b); });
    case BinaryOp::Fmod: return run_binary<T, T>(iter, [](T a, T b) { return std::fmod(a, b); });
    case BinaryOp::Pow: return run_binary<T, T>(iter, [](T a, T b) { return std::pow(a, b); });
    case BinaryOp::Atan2: return run_binary<T, T>(iter, [](T a, T b) { return std::atan2(a, b); });
    case BinaryOp::Hypot: return run_binary<T, T>(iter, [](T a, T b) { return std::hypot(a, b); });
    case BinaryOp::Copysign: return run_binary<T, T>(iter, [](T a, T b) { return std::copysign(a, b); });
    case BinaryOp::Xlogy:  // 0 * log(0) is 0; NaN in y still propagates
      return run_binary<T, T>(iter, [](T a, T b) { return b != b ? b : a == T(0) ? T(0) : a * std::log(b); });
    default: fail(ErrorKind::NotImplemented, "not implemented for floating dtypes");
  }
}

// z^w in complex<double>; 0^0 is 1 and 0^w is 0 for real w > 0 (std::pow gives NaN there).
template <typename Z> Z complex_pow(Z a, Z b) {
  using C = std::complex<double>;
  using P = typename Z::value_type;
  if (b == Z(0)) return Z(1);
  if (a == Z(0) && b.imag() == 0 && b.real() > 0) return Z(0);
  C r = std::pow(C(a.real(), a.imag()), C(b.real(), b.imag()));
  return Z(P(r.real()), P(r.imag()));
}

}  // namespace

void binary_scalar_kernel(const TensorIter& iter, DType dtype, BinaryOp op) {
  switch (dtype) {
    case DType::UInt8: return integral<uint8_t>(iter, op);
    case DType::Int8: return integral<int8_t>(iter, op);
    case DType::Int16: return integral<int16_t>(iter, op);
    case DType::Int32: return integral<int32_t>(iter, op);
    case DType::Int64: return integral<int64_t>(iter, op);
    case DType::Float32: return floating<float>(iter, op);
    case DType::Float64: return floating<double>(iter, op);
    case DType::Complex64:
      if (op == BinaryOp::Pow) return run_binary<complex64, complex64>(iter, complex_pow<complex64>);
      fail(ErrorKind::NotImplemented, "not implemented for dtype ", dtype_name(dtype));
    case DType::Complex128:
      if (op == BinaryOp::Pow) return run_binary<complex128, complex128>(iter, complex_pow<complex128>);
      [[fallthrough]];
    default: fail(ErrorKind::NotImplemented, "not implemented for dtype ", dtype_name(dtype));
  }
}

}  // namespace tz
