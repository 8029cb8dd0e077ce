// Unary kernels that call libm (compiled once; they gain nothing from ISA builds): the
// transcendentals of float64 (and of float32 where kernels/vec_math.h has no version),
// erfinv, logit, angle, and every complex op (computed in complex<double>; complex64 then rounded).
#include <cmath>
#include <complex>
#include <limits>
#include <type_traits>

#include "kernels/elementwise_loops.h"
#include "kernels/unary.h"

namespace tz {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kLn2 = 0.69314718055994530942;
constexpr double kLn10 = 2.30258509299404568402;

// Inverse error function in double: Winitzki's closed form (relative error ~2e-3) refined by
// Newton steps on erf, or on erfc in the tails where erf(x) is too close to 1 to resolve x.
double erfinv(double y) {
  const double ay = std::fabs(y);
  if (!(ay < 1)) return ay == 1 ? std::copysign(std::numeric_limits<double>::infinity(), y)
                                : std::numeric_limits<double>::quiet_NaN();
  const double a = 0.147;
  const double ln = std::log1p(-ay * ay);
  const double t = 2 / (kPi * a) + ln / 2;
  double x = std::sqrt(std::sqrt(t * t - ln / a) - t);
  const double two_over_sqrt_pi = 1.12837916709551257390;
  for (int i = 0; i < 6; ++i) {
    double f = ay <= 0.5 ? std::erf(x) - ay : (1 - ay) - std::erfc(x);
    double step = f / (two_over_sqrt_pi * std::exp(-x * x));
    x -= step;
    if (std::fabs(step) <= 1e-17 * x) break;
  }
  return std::copysign(x, y);
}

template <typename T>
void real_math(const TensorIter& iter, UnaryOp op, const UnaryArgs& args) {
  switch (op) {
    case UnaryOp::Exp: return run_unary<T, T>(iter, [](T a) { return std::exp(a); });
    case UnaryOp::Exp2: return run_unary<T, T>(iter, [](T a) { return std::exp2(a); });
    case UnaryOp::Expm1: return run_unary<T, T>(iter, [](T a) { return std::expm1(a); });
    case UnaryOp::Log: return run_unary<T, T>(iter, [](T a) { return std::log(a); });
    case UnaryOp::Log2: return run_unary<T, T>(iter, [](T a) { return std::log2(a); });
    case UnaryOp::Log10: return run_unary<T, T>(iter, [](T a) { return std::log10(a); });
    case UnaryOp::Log1p: return run_unary<T, T>(iter, [](T a) { return std::log1p(a); });
    case UnaryOp::Sin: return run_unary<T, T>(iter, [](T a) { return std::sin(a); });
    case UnaryOp::Cos: return run_unary<T, T>(iter, [](T a) { return std::cos(a); });
    case UnaryOp::Tan: return run_unary<T, T>(iter, [](T a) { return std::tan(a); });
    case UnaryOp::Asin: return run_unary<T, T>(iter, [](T a) { return std::asin(a); });
    case UnaryOp::Acos: return run_unary<T, T>(iter, [](T a) { return std::acos(a); });
    case UnaryOp::Atan: return run_unary<T, T>(iter, [](T a) { return std::atan(a); });
    case UnaryOp::Sinh: return run_unary<T, T>(iter, [](T a) { return std::sinh(a); });
    case UnaryOp::Cosh: return run_unary<T, T>(iter, [](T a) { return std::cosh(a); });
    case UnaryOp::Tanh: return run_unary<T, T>(iter, [](T a) { return std::tanh(a); });
    case UnaryOp::Asinh: return run_unary<T, T>(iter, [](T a) { return std::asinh(a); });
    case UnaryOp::Acosh: return run_unary<T, T>(iter, [](T a) { return std::acosh(a); });
    case UnaryOp::Atanh: return run_unary<T, T>(iter, [](T a) { return std::atanh(a); });
    case UnaryOp::Erf: return run_unary<T, T>(iter, [](T a) { return std::erf(a); });
    case UnaryOp::Erfc: return run_unary<T, T>(iter, [](T a) { return std::erfc(a); });
    case UnaryOp::Erfinv: return run_unary<T, T>(iter, [](T a) { return T(erfinv(double(a))); });
    case UnaryOp::Angle:
      return run_unary<T, T>(iter, [](T a) { return a != a ? a : a < T(0) ? T(kPi) : T(0); });
    case UnaryOp::Logit: {
      const T eps = static_cast<T>(args.p0);
      if (args.p0 < 0) return run_unary<T, T>(iter, [](T a) { return std::log(a / (T(1) - a)); });
      return run_unary<T, T>(iter, [eps](T a) {
        T z = a < eps ? eps : a > T(1) - eps ? T(1) - eps : a;
        return std::log(z / (T(1) - z));
      });
    }
    default: fail(ErrorKind::Runtime, "unary kernel: op not implemented for floating dtypes");
  }
}

using C = std::complex<double>;

// e^z - 1 without cancellation for small z: Re = expm1(x) cos(y) - 2 sin^2(y/2), Im = e^x sin(y).
C expm1(C z) {
  double s = std::sin(z.imag() / 2);
  return C(std::expm1(z.real()) * std::cos(z.imag()) - 2 * s * s, std::exp(z.real()) * std::sin(z.imag()));
}
// log(1 + z) without cancellation for small z: Re = log1p(2x + x^2 + y^2) / 2, Im = atan2(y, 1+x).
C log1p(C z) {
  double x = z.real(), y = z.imag();
  return C(std::log1p(x * (2 + x) + y * y) / 2, std::atan2(y, 1 + x));
}

// complex64 computes in complex<double> and rounds; complex128 computes in place.
template <typename Z, typename F>
void complex_map(const TensorIter& iter, F f) {
  using P = typename Z::value_type;
  run_unary<Z, Z>(iter, [f](Z a) {
    C r = f(C(a.real(), a.imag()));
    return Z(P(r.real()), P(r.imag()));
  });
}

template <typename Z>
void complex_math(const TensorIter& iter, UnaryOp op, const UnaryArgs& args) {
  using P = typename Z::value_type;  // the parts' type
  switch (op) {
    case UnaryOp::Neg: return run_unary<Z, Z>(iter, [](Z a) { return -a; });
    case UnaryOp::Conj: return run_unary<Z, Z>(iter, [](Z a) { return std::conj(a); });
    case UnaryOp::Abs:
      if constexpr (std::is_same_v<P, float>) {  // float parts square exactly in double: no hypot needed
        return run_unary<P, Z>(iter, [](Z a) {
          const double re = a.real(), im = a.imag();
          return std::isinf(re) || std::isinf(im) ? std::numeric_limits<P>::infinity() : P(std::sqrt(re * re + im * im));
        });
      }
      return run_unary<P, Z>(iter, [](Z a) { return P(std::abs(C(a.real(), a.imag()))); });
    case UnaryOp::Angle: return run_unary<P, Z>(iter, [](Z a) { return P(std::atan2(double(a.imag()), double(a.real()))); });
    case UnaryOp::Sgn:
      return complex_map<Z>(iter, [](C z) { return z == C(0) ? C(0) : z / std::abs(z); });
    case UnaryOp::Sqrt: return complex_map<Z>(iter, [](C z) { return std::sqrt(z); });
    case UnaryOp::Rsqrt: return complex_map<Z>(iter, [](C z) { return 1.0 / std::sqrt(z); });
    case UnaryOp::Reciprocal: return complex_map<Z>(iter, [](C z) { return 1.0 / z; });
    case UnaryOp::Exp: return complex_map<Z>(iter, [](C z) { return std::exp(z); });
    case UnaryOp::Exp2: return complex_map<Z>(iter, [](C z) { return std::exp(z * kLn2); });
    case UnaryOp::Expm1: return complex_map<Z>(iter, [](C z) { return expm1(z); });
    case UnaryOp::Log: return complex_map<Z>(iter, [](C z) { return std::log(z); });
    case UnaryOp::Log2: return complex_map<Z>(iter, [](C z) { return std::log(z) / kLn2; });
    case UnaryOp::Log10: return complex_map<Z>(iter, [](C z) { return std::log(z) / kLn10; });
    case UnaryOp::Log1p: return complex_map<Z>(iter, [](C z) { return log1p(z); });
    case UnaryOp::Sin: return complex_map<Z>(iter, [](C z) { return std::sin(z); });
    case UnaryOp::Cos: return complex_map<Z>(iter, [](C z) { return std::cos(z); });
    case UnaryOp::Tan: return complex_map<Z>(iter, [](C z) { return std::tan(z); });
    case UnaryOp::Asin: return complex_map<Z>(iter, [](C z) { return std::asin(z); });
    case UnaryOp::Acos: return complex_map<Z>(iter, [](C z) { return std::acos(z); });
    case UnaryOp::Atan: return complex_map<Z>(iter, [](C z) { return std::atan(z); });
    case UnaryOp::Sinh: return complex_map<Z>(iter, [](C z) { return std::sinh(z); });
    case UnaryOp::Cosh: return complex_map<Z>(iter, [](C z) { return std::cosh(z); });
    case UnaryOp::Tanh: return complex_map<Z>(iter, [](C z) { return std::tanh(z); });
    case UnaryOp::Asinh: return complex_map<Z>(iter, [](C z) { return std::asinh(z); });
    case UnaryOp::Acosh: return complex_map<Z>(iter, [](C z) { return std::acosh(z); });
    case UnaryOp::Atanh: return complex_map<Z>(iter, [](C z) { return std::atanh(z); });
    case UnaryOp::Sigmoid: return complex_map<Z>(iter, [](C z) { return 1.0 / (1.0 + std::exp(-z)); });
    case UnaryOp::IsNan:
      return run_unary<bool, Z>(iter, [](Z a) { return std::isnan(a.real()) || std::isnan(a.imag()); });
    case UnaryOp::IsInf:
      return run_unary<bool, Z>(iter, [](Z a) { return std::isinf(a.real()) || std::isinf(a.imag()); });
    case UnaryOp::IsFinite:
      return run_unary<bool, Z>(iter, [](Z a) { return std::isfinite(a.real()) && std::isfinite(a.imag()); });
    case UnaryOp::NanToNum: {
      const P inf = std::numeric_limits<P>::infinity();
      const P nan = P(args.p0), pinf = P(args.p1), ninf = P(args.p2);
      auto fix = [=](P v) { return v != v ? nan : v == inf ? pinf : v == -inf ? ninf : v; };
      return run_unary<Z, Z>(iter, [fix](Z a) { return Z(fix(a.real()), fix(a.imag())); });
    }
    default: fail(ErrorKind::NotImplemented, "not implemented for complex dtypes");
  }
}

}  // namespace

void unary_libm_kernel(const TensorIter& iter, DType dtype, UnaryOp op, const UnaryArgs& args) {
  switch (dtype) {
    case DType::Float32: return real_math<float>(iter, op, args);
    case DType::Float64: return real_math<double>(iter, op, args);
    case DType::Complex64: return complex_math<complex64>(iter, op, args);
    case DType::Complex128: return complex_math<complex128>(iter, op, args);
    default: fail(ErrorKind::NotImplemented, "not implemented for dtype ", dtype_name(dtype));
  }
}

}  // namespace tz
