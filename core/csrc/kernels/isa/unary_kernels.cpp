// Unary kernels that vectorise: sign/abs/rounding/sqrt-style ops for every real type, the
// float32 exp/log/tanh/sigmoid/erf of kernels/vec_math.h (sigmoid for float64 too), predicates, and clamp with number
// bounds. Everything else (libm transcendentals, complex64) is unary_libm_kernel's.
#include <cmath>
#include <limits>
#include <type_traits>

#include "kernels/elementwise_loops.h"
#include "kernels/unary.h"
#include "kernels/vec_math.h"

namespace tz {
namespace TZ_CPU_CAPABILITY {
namespace {

// NaN-propagating max/min (PyTorch's maximum/minimum); ties keep `a`.
template <typename T> inline T max_nan(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (a != a) return a;
    if (b != b) return b;
  }
  return a < b ? b : a;
}
template <typename T> inline T min_nan(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (a != a) return a;
    if (b != b) return b;
  }
  return b < a ? b : a;
}

// Ops shared by float32 and float64. Returns false for ops left to the libm kernel.
template <typename T>
bool floating(const TensorIter& iter, UnaryOp op, const UnaryArgs& args) {
  switch (op) {
    case UnaryOp::Neg: run_unary<T, T>(iter, [](T a) { return -a; }); return true;
    case UnaryOp::Abs: run_unary<T, T>(iter, [](T a) { return std::fabs(a); }); return true;
    case UnaryOp::Sign:
    case UnaryOp::Sgn:  // NaN -> 0, like PyTorch
      run_unary<T, T>(iter, [](T a) { return T(T(0) < a) - T(a < T(0)); });
      return true;
    case UnaryOp::Sqrt: run_unary<T, T>(iter, [](T a) { return std::sqrt(a); }); return true;
    case UnaryOp::Rsqrt: run_unary<T, T>(iter, [](T a) { return T(1) / std::sqrt(a); }); return true;
    case UnaryOp::Reciprocal: run_unary<T, T>(iter, [](T a) { return T(1) / a; }); return true;
    case UnaryOp::Floor: run_unary<T, T>(iter, [](T a) { return std::floor(a); }); return true;
    case UnaryOp::Ceil: run_unary<T, T>(iter, [](T a) { return std::ceil(a); }); return true;
    case UnaryOp::Trunc: run_unary<T, T>(iter, [](T a) { return std::trunc(a); }); return true;
    case UnaryOp::Round:  // half to even (the default rounding mode)
      run_unary<T, T>(iter, [](T a) { return std::nearbyint(a); });
      return true;
    case UnaryOp::Frac: run_unary<T, T>(iter, [](T a) { return a - std::trunc(a); }); return true;
    case UnaryOp::RoundDecimals: {
      const T scale = static_cast<T>(args.p0);
      if (args.p1 != 0)  // negative decimals: round to a multiple of 10^-decimals
        run_unary<T, T>(iter, [scale](T a) { return std::nearbyint(a / scale) * scale; });
      else
        run_unary<T, T>(iter, [scale](T a) { return std::nearbyint(a * scale) / scale; });
      return true;
    }
    case UnaryOp::NanToNum: {
      const T nan = static_cast<T>(args.p0), pinf = static_cast<T>(args.p1),
              ninf = static_cast<T>(args.p2);
      const T inf = std::numeric_limits<T>::infinity();
      run_unary<T, T>(iter, [=](T a) { return a != a ? nan : a == inf ? pinf : a == -inf ? ninf : a; });
      return true;
    }
    case UnaryOp::IsNan: run_unary<bool, T>(iter, [](T a) { return a != a; }); return true;
    case UnaryOp::IsInf:
      run_unary<bool, T>(iter, [](T a) { return std::fabs(a) == std::numeric_limits<T>::infinity(); });
      return true;
    case UnaryOp::IsPosInf:
      run_unary<bool, T>(iter, [](T a) { return a == std::numeric_limits<T>::infinity(); });
      return true;
    case UnaryOp::IsNegInf:
      run_unary<bool, T>(iter, [](T a) { return a == -std::numeric_limits<T>::infinity(); });
      return true;
    case UnaryOp::IsFinite:
      run_unary<bool, T>(iter, [](T a) { return std::fabs(a) < std::numeric_limits<T>::infinity(); });
      return true;
    case UnaryOp::Signbit: run_unary<bool, T>(iter, [](T a) { return std::signbit(a); }); return true;
    case UnaryOp::Sigmoid: run_unary<T, T>(iter, [](T a) { return vm::sigmoid(a); }); return true;
    default: return false;
  }
}

bool float32_transcendental(const TensorIter& iter, UnaryOp op) {
  switch (op) {
    case UnaryOp::Exp: run_unary<float, float>(iter, [](float a) { return vm::exp(a); }); return true;
    case UnaryOp::Log: run_unary<float, float>(iter, [](float a) { return vm::log(a); }); return true;
    case UnaryOp::Tanh: run_unary<float, float>(iter, [](float a) { return vm::tanh(a); }); return true;
    case UnaryOp::Sigmoid:
      run_unary<float, float>(iter, [](float a) { return vm::sigmoid(a); });
      return true;
    case UnaryOp::Erf: run_unary<float, float>(iter, [](float a) { return vm::erf(a); }); return true;
    default: return false;
  }
}

template <typename T>
void integral(const TensorIter& iter, UnaryOp op) {
  using U = std::make_unsigned_t<T>;  // negation wraps like PyTorch (abs(-128) stays -128)
  switch (op) {
    case UnaryOp::Neg: return run_unary<T, T>(iter, [](T a) { return T(U(0) - U(a)); });
    case UnaryOp::Abs: return run_unary<T, T>(iter, [](T a) { return a < T(0) ? T(U(0) - U(a)) : a; });
    case UnaryOp::Sign:
    case UnaryOp::Sgn: return run_unary<T, T>(iter, [](T a) { return T((T(0) < a) - (a < T(0))); });
    case UnaryOp::BitwiseNot: return run_unary<T, T>(iter, [](T a) { return T(~a); });
    default: fail(ErrorKind::Runtime, "unary kernel: op not implemented for integer dtypes");
  }
}

void unary_kernel(const TensorIter& iter, DType dtype, UnaryOp op, const UnaryArgs& args) {
  switch (dtype) {
    case DType::Float32:
      if (float32_transcendental(iter, op) || floating<float>(iter, op, args)) return;
      break;
    case DType::Float64:
      if (floating<double>(iter, op, args)) return;
      break;
    case DType::Bool:
      if (op == UnaryOp::BitwiseNot) return run_unary<bool, bool>(iter, [](bool a) { return !a; });
      if (op == UnaryOp::Sign || op == UnaryOp::Sgn) return run_unary<bool, bool>(iter, [](bool a) { return a; });
      break;
    case DType::UInt8: return integral<uint8_t>(iter, op);
    case DType::Int8: return integral<int8_t>(iter, op);
    case DType::Int16: return integral<int16_t>(iter, op);
    case DType::Int32: return integral<int32_t>(iter, op);
    case DType::Int64: return integral<int64_t>(iter, op);
    default: break;
  }
  unary_libm_kernel(iter, dtype, op, args);
}

template <typename T>
void clamp_typed(const TensorIter& iter, Scalar lo_s, Scalar hi_s, bool has_lo, bool has_hi) {
  const T lo = lo_s.to<T>(), hi = hi_s.to<T>();
  if (has_lo && has_hi)
    run_unary<T, T>(iter, [=](T a) { return min_nan(max_nan(a, lo), hi); });
  else if (has_lo)
    run_unary<T, T>(iter, [=](T a) { return max_nan(a, lo); });
  else
    run_unary<T, T>(iter, [=](T a) { return min_nan(a, hi); });
}

void clamp_kernel(const TensorIter& iter, DType dtype, Scalar lo, Scalar hi, bool has_lo, bool has_hi) {
  switch (dtype) {
    case DType::UInt8: return clamp_typed<uint8_t>(iter, lo, hi, has_lo, has_hi);
    case DType::Int8: return clamp_typed<int8_t>(iter, lo, hi, has_lo, has_hi);
    case DType::Int16: return clamp_typed<int16_t>(iter, lo, hi, has_lo, has_hi);
    case DType::Int32: return clamp_typed<int32_t>(iter, lo, hi, has_lo, has_hi);
    case DType::Int64: return clamp_typed<int64_t>(iter, lo, hi, has_lo, has_hi);
    case DType::Float32: return clamp_typed<float>(iter, lo, hi, has_lo, has_hi);
    case DType::Float64: return clamp_typed<double>(iter, lo, hi, has_lo, has_hi);
    default: fail(ErrorKind::NotImplemented, "clamp(): not implemented for dtype ", dtype_name(dtype));
  }
}

}  // namespace
TZ_REGISTER_KERNEL(unary_stub, &unary_kernel);
TZ_REGISTER_KERNEL(clamp_stub, &clamp_kernel);
}  // namespace TZ_CPU_CAPABILITY
}  // namespace tz
