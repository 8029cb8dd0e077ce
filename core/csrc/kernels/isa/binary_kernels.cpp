// Binary arithmetic kernels.
#include "kernels/binary.h"
#include "kernels/loops.h"

namespace tz {
namespace TZ_CPU_CAPABILITY {
namespace {

template <typename T, typename F>
void run(const TensorIter& iter, F f) {
  iter.for_each([&](char** data, const int64_t* strides, int64_t n) {
    binary_loop<T, T, T>(data, strides, n, f);
  });
}

template <typename T>
void arithmetic(const TensorIter& iter, BinaryOp op, Scalar alpha_scalar) {
  const T alpha = alpha_scalar.to<T>();
  switch (op) {
    case BinaryOp::Add:
      if (alpha == T(1)) return run<T>(iter, [](T a, T b) { return T(a + b); });
      return run<T>(iter, [alpha](T a, T b) { return T(a + alpha * b); });
    case BinaryOp::Sub:
      if (alpha == T(1)) return run<T>(iter, [](T a, T b) { return T(a - b); });
      return run<T>(iter, [alpha](T a, T b) { return T(a - alpha * b); });
    case BinaryOp::Mul: return run<T>(iter, [](T a, T b) { return T(a * b); });
    case BinaryOp::Div: return run<T>(iter, [](T a, T b) { return T(a / b); });
  }
}

void binary_kernel(const TensorIter& iter, DType dtype, BinaryOp op, Scalar alpha) {
  switch (dtype) {
    case DType::Bool:
      // bool add/mul are logical or/and, like PyTorch.
      if (op == BinaryOp::Add) return run<bool>(iter, [](bool a, bool b) { return a || b; });
      if (op == BinaryOp::Mul) return run<bool>(iter, [](bool a, bool b) { return a && b; });
      fail(ErrorKind::Type, "this op is not supported for bool tensors");
    case DType::UInt8: return arithmetic<uint8_t>(iter, op, alpha);
    case DType::Int8: return arithmetic<int8_t>(iter, op, alpha);
    case DType::Int16: return arithmetic<int16_t>(iter, op, alpha);
    case DType::Int32: return arithmetic<int32_t>(iter, op, alpha);
    case DType::Int64: return arithmetic<int64_t>(iter, op, alpha);
    case DType::Float32: return arithmetic<float>(iter, op, alpha);
    case DType::Float64: return arithmetic<double>(iter, op, alpha);
    case DType::Complex64: return arithmetic<complex64>(iter, op, alpha);
    default: fail(ErrorKind::Type, "binary kernel: unsupported dtype ", dtype_name(dtype));
  }
}

}  // namespace
TZ_REGISTER_KERNEL(binary_stub, &binary_kernel);
}  // namespace TZ_CPU_CAPABILITY
}  // namespace tz
