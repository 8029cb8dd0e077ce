// Activation kernels (kernels/activation.h). Every lambda is branchless (selects on bits,
// the float32 exp/log/tanh/sigmoid/erf of kernels/vec_math.h), so the contiguous loops of
// kernels/loops.h vectorise under each ISA build; float64 calls libm per element.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "kernels/activation.h"
#include "kernels/elementwise_loops.h"
#include "kernels/vec_math.h"

namespace tz {
namespace TZ_CPU_CAPABILITY {
namespace {

// log(1 + z) for z >= 0 (Goldberg's trick: log(u) * z / (u - 1) with u = 1 + z rounded).
inline float log1p_pos(float z) {
  float u = 1.0f + z, d = u - 1.0f;
  return vm::select(d == 0.0f, z, vm::log(u) * (z / vm::select(d == 0.0f, 1.0f, d)));
}
inline double log1p_pos(double z) { return std::log1p(z); }
// e^x - 1 with full relative precision near 0 (Kahan's trick); overflow gives inf, not nan.
inline float expm1_(float x) {
  float u = vm::exp(x), d = u - 1.0f, l = vm::log(u);
  float r = d * (x / vm::select(l == 0.0f, 1.0f, l));
  const float inf = std::numeric_limits<float>::infinity();
  return vm::select(u == 1.0f, x, vm::select(u == 0.0f, -1.0f, vm::select(u == inf, inf, r)));
}
inline double expm1_(double x) { return std::expm1(x); }
// log(1 + e^x) without overflow: max(x, 0) + log1p(e^-|x|).
template <typename T> inline T softplus_(T x) {
  return vm::max(x, T(0)) + log1p_pos(vm::exp(-vm::select(x < T(0), -x, x)));
}

constexpr double kSqrt1_2 = 0.70710678118654752440;
constexpr double kInvSqrt2Pi = 0.39894228040143267794;

// The standard normal Phi(x) (and its density phi(x) when asked): exact gelu is x * Phi(x).
inline float normal_cdf(float x, float* pdf = nullptr) { return vm::normal_cdf(x, pdf); }
inline double normal_cdf(double x, double* pdf = nullptr) {
  if (pdf) *pdf = std::exp(-0.5 * x * x) * kInvSqrt2Pi;
  return 0.5 * std::erfc(-x * kSqrt1_2);
}
constexpr double kGeluBeta = 0.79788456080286535588;  // sqrt(2 / pi)
constexpr double kGeluKappa = 0.044715;

template <typename T>
void forward(const TensorIter& iter, ActOp op, const ActArgs& a) {
  const T p0 = static_cast<T>(a.p0), p1 = static_cast<T>(a.p1), p2 = static_cast<T>(a.p2);
  switch (op) {
    case ActOp::Threshold:
      if (p0 == T(0) && p1 == T(0))  // relu
        return run_unary<T, T>(iter, [](T x) { return vm::select(x <= T(0), T(0), x); });
      return run_unary<T, T>(iter, [=](T x) { return vm::select(x <= p0, p1, x); });
    case ActOp::LeakyRelu:
      return run_unary<T, T>(iter, [=](T x) { return vm::select(x > T(0), x, x * p0); });
    case ActOp::Hardtanh:
      return run_unary<T, T>(iter, [=](T x) { return vm::min(vm::max(x, p0), p1); });
    case ActOp::Elu: {
      const T neg = p0 * p1;
      return run_unary<T, T>(iter, [=](T x) {
        // Only lanes with x <= 0 use the exponent (its sign follows input_scale, and celu's
        // 1/alpha may be negative); the others get 0 so they cannot overflow.
        const T z = vm::select(x <= T(0), x * p2, T(0));
        return vm::select(x <= T(0), expm1_(z) * neg, x * p1);
      });
    }
    case ActOp::Gelu:
      return run_unary<T, T>(iter, [](T x) { return x * normal_cdf(x); });
    case ActOp::GeluTanh:
      return run_unary<T, T>(iter, [](T x) {
        T inner = T(kGeluBeta) * (x + T(kGeluKappa) * x * x * x);
        return T(0.5) * x * (T(1) + vm::tanh(inner));
      });
    case ActOp::Silu: return run_unary<T, T>(iter, [](T x) { return x * vm::sigmoid(x); });
    case ActOp::Mish: return run_unary<T, T>(iter, [](T x) { return x * vm::tanh(softplus_(x)); });
    case ActOp::Hardswish:
      return run_unary<T, T>(iter, [](T x) { return x * vm::min(vm::max(x + T(3), T(0)), T(6)) / T(6); });
    case ActOp::Hardsigmoid:
      return run_unary<T, T>(iter, [](T x) { return vm::min(vm::max(x + T(3), T(0)), T(6)) / T(6); });
    case ActOp::Softplus:
      return run_unary<T, T>(iter, [=](T x) { T z = x * p0; return vm::select(z > p1, x, softplus_(z) / p0); });
    case ActOp::Hardshrink:
      return run_unary<T, T>(iter, [=](T x) { return vm::select((x >= -p0) & (x <= p0), T(0), x); });
    case ActOp::Softshrink:
      // The band test is false for nan, which then flows through x + p0.
      return run_unary<T, T>(iter, [=](T x) { return vm::select((x >= -p0) & (x <= p0), T(0), vm::select(x > p0, x - p0, x + p0)); });
    case ActOp::LogSigmoid:
      return run_unary<T, T>(iter, [](T x) { return vm::min(x, T(0)) - log1p_pos(vm::exp(-vm::select(x < T(0), -x, x))); });
  }
}

template <typename T>
void backward(const TensorIter& iter, ActOp op, const ActArgs& a) {
  const T p0 = static_cast<T>(a.p0), p1 = static_cast<T>(a.p1), p2 = static_cast<T>(a.p2);
  switch (op) {
    case ActOp::Threshold:
      return run_binary<T, T>(iter, [=](T g, T x) { return vm::select(x <= p0, T(0), g); });
    case ActOp::LeakyRelu:
      return run_binary<T, T>(iter, [=](T g, T x) { return vm::select(x > T(0), g, g * p0); });
    case ActOp::Hardtanh:
      return run_binary<T, T>(iter, [=](T g, T x) { return vm::select((x <= p0) | (x >= p1), T(0), g); });
    case ActOp::Elu: {
      const T neg = p2 * p0 * p1;
      return run_binary<T, T>(iter, [=](T g, T x) {
        return vm::select(x <= T(0), g * neg * vm::exp(vm::select(x <= T(0), x * p2, T(0))), g * p1);
      });
    }
    case ActOp::Gelu:
      return run_binary<T, T>(iter, [](T g, T x) {
        T pdf;
        const T cdf = normal_cdf(x, &pdf);
        return g * vm::fma(x, pdf, cdf);
      });
    case ActOp::GeluTanh:
      return run_binary<T, T>(iter, [](T g, T x) {
        T x2 = x * x;
        T t = vm::tanh(T(kGeluBeta) * (x + T(kGeluKappa) * x2 * x));
        T dinner = T(kGeluBeta) * (T(1) + T(3 * kGeluKappa) * x2);
        return g * (T(0.5) * (T(1) + t) + T(0.5) * x * (T(1) - t * t) * dinner);
      });
    case ActOp::Silu:
      return run_binary<T, T>(iter, [](T g, T x) {
        T s = vm::sigmoid(x);
        return g * s * vm::fma(x, T(1) - s, T(1));
      });
    case ActOp::Mish:
      return run_binary<T, T>(iter, [](T g, T x) {
        T t = vm::tanh(softplus_(x));
        return g * (t + x * vm::sigmoid(x) * (T(1) - t * t));
      });
    case ActOp::Hardswish:
      return run_binary<T, T>(iter, [](T g, T x) {
        return vm::select(x <= T(-3), T(0), vm::select(x < T(3), g * (x * T(1.0 / 3.0) + T(0.5)), g));  // no divide: hot
      });
    case ActOp::Hardsigmoid:
      return run_binary<T, T>(iter, [](T g, T x) { return vm::select((x > T(-3)) & (x < T(3)), g / T(6), T(0)); });
    case ActOp::Softplus:
      return run_binary<T, T>(iter, [=](T g, T x) { T z = x * p0; return vm::select(z > p1, g, g * vm::sigmoid(z)); });
    case ActOp::Hardshrink:
    case ActOp::Softshrink:
      return run_binary<T, T>(iter, [=](T g, T x) { return vm::select((x >= -p0) & (x <= p0), T(0), g); });
    case ActOp::LogSigmoid:
      return run_binary<T, T>(iter, [](T g, T x) { return g * vm::sigmoid(-x); });
  }
}

template <typename T>
void threshold_integral(const TensorIter& iter, ActOp op, const ActArgs& a, bool bwd) {
  TZ_CHECK(op == ActOp::Threshold, NotImplemented, "activation kernel: integer dtypes only for threshold");
  const T th = static_cast<T>(a.p0), val = static_cast<T>(a.p1);
  if (bwd) return run_binary<T, T>(iter, [=](T g, T x) { return x <= th ? T(0) : g; });
  run_unary<T, T>(iter, [=](T x) { return x <= th ? val : x; });
}

template <bool Bwd>
void act_kernel(const TensorIter& iter, DType dtype, ActOp op, const ActArgs& a) {
  switch (dtype) {
    case DType::Float32: return Bwd ? backward<float>(iter, op, a) : forward<float>(iter, op, a);
    case DType::Float64: return Bwd ? backward<double>(iter, op, a) : forward<double>(iter, op, a);
    case DType::UInt8: return threshold_integral<uint8_t>(iter, op, a, Bwd);
    case DType::Int8: return threshold_integral<int8_t>(iter, op, a, Bwd);
    case DType::Int16: return threshold_integral<int16_t>(iter, op, a, Bwd);
    case DType::Int32: return threshold_integral<int32_t>(iter, op, a, Bwd);
    case DType::Int64: return threshold_integral<int64_t>(iter, op, a, Bwd);
    default: fail(ErrorKind::NotImplemented, "activation kernel: dtype ", dtype_name(dtype));
  }
}

template <typename T> void prelu_typed(const TensorIter& iter) {
  run_binary<T, T>(iter, [](T x, T w) { return vm::select(x > T(0), x, w * x); });
}
void prelu_kernel(const TensorIter& iter, DType dtype) {
  if (dtype == DType::Float64) return prelu_typed<double>(iter);
  prelu_typed<float>(iter);
}

}  // namespace
TZ_REGISTER_KERNEL(act_forward_stub, &act_kernel<false>);
TZ_REGISTER_KERNEL(act_backward_stub, &act_kernel<true>);
TZ_REGISTER_KERNEL(prelu_stub, &prelu_kernel);
}  // namespace TZ_CPU_CAPABILITY
}  // namespace tz
