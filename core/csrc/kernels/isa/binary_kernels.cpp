// Binary kernels with vectorisable loops: arithmetic, comparisons, maximum/minimum and the
// bitwise ops. The rest (integer division, libm calls) is binary_scalar_kernel's.
#include <type_traits>

#include "kernels/binary.h"
#include "kernels/elementwise_loops.h"

namespace tz {
namespace TZ_CPU_CAPABILITY {
namespace {

// Integer arithmetic wraps (through the unsigned type) instead of overflowing into UB.
template <typename T> struct Wrap { using type = T; };
template <> struct Wrap<int32_t> { using type = uint32_t; };
template <> struct Wrap<int64_t> { using type = uint64_t; };

template <typename T>
void arithmetic(const TensorIter& iter, BinaryOp op, Scalar alpha_scalar) {
  using W = typename Wrap<T>::type;
  W alpha = static_cast<W>(alpha_scalar.to<T>());
  switch (op) {
    case BinaryOp::Sub:
      if (alpha == W(1)) return run_binary<T, T>(iter, [](T a, T b) { return T(W(a) - W(b)); });
      alpha = W(W(0) - alpha);  // a - alpha * b is a + (-alpha) * b exactly (floats and wrapping ints)
      [[fallthrough]];
    case BinaryOp::Add:
      if (alpha == W(1)) return run_binary<T, T>(iter, [](T a, T b) { return T(W(a) + W(b)); });
      return run_binary<T, T>(iter, [alpha](T a, T b) { return T(W(a) + alpha * W(b)); });
    case BinaryOp::Mul: return run_binary<T, T>(iter, [](T a, T b) { return T(W(a) * W(b)); });
    case BinaryOp::Div:
      if constexpr (std::is_integral_v<T>) fail(ErrorKind::Runtime, "div: integer true division reached the kernel");
      else return run_binary<T, T>(iter, [](T a, T b) { return T(a / b); });
    default: fail(ErrorKind::Runtime, "binary kernel: not an arithmetic op");
  }
}

template <typename T>
void compare(const TensorIter& iter, BinaryOp op) {
  switch (op) {
    case BinaryOp::Eq: return run_binary<bool, T>(iter, [](T a, T b) { return a == b; });
    case BinaryOp::Ne: return run_binary<bool, T>(iter, [](T a, T b) { return a != b; });
    case BinaryOp::Lt:
      if constexpr (!is_complex_v<T>) return run_binary<bool, T>(iter, [](T a, T b) { return a < b; });
      break;
    case BinaryOp::Le:
      if constexpr (!is_complex_v<T>) return run_binary<bool, T>(iter, [](T a, T b) { return a <= b; });
      break;
    default: break;
  }
  fail(ErrorKind::Runtime, "binary kernel: not a comparison for this dtype");
}

// maximum/minimum propagate NaN; fmax/fmin ignore it. Ties keep `a` (as PyTorch does).
template <typename T>
void minmax(const TensorIter& iter, BinaryOp op) {
  constexpr bool fp = std::is_floating_point_v<T>;
  switch (op) {
    case BinaryOp::Maximum:
      if constexpr (fp) return run_binary<T, T>(iter, [](T a, T b) { return a != a ? a : b != b ? b : a < b ? b : a; });
      [[fallthrough]];
    case BinaryOp::Fmax:
      if constexpr (fp) return run_binary<T, T>(iter, [](T a, T b) { return a != a ? b : b != b ? a : a < b ? b : a; });
      return run_binary<T, T>(iter, [](T a, T b) { return a < b ? b : a; });
    case BinaryOp::Minimum:
      if constexpr (fp) return run_binary<T, T>(iter, [](T a, T b) { return a != a ? a : b != b ? b : b < a ? b : a; });
      [[fallthrough]];
    case BinaryOp::Fmin:
      if constexpr (fp) return run_binary<T, T>(iter, [](T a, T b) { return a != a ? b : b != b ? a : b < a ? b : a; });
      return run_binary<T, T>(iter, [](T a, T b) { return b < a ? b : a; });
    default: fail(ErrorKind::Runtime, "binary kernel: not a min/max op");
  }
}

// Shifts follow PyTorch: shifting by the bit width or more (or by a negative amount) gives 0
// to the left, and the sign fill (0 for unsigned) to the right.
template <typename T>
void bitwise(const TensorIter& iter, BinaryOp op) {
  switch (op) {
    case BinaryOp::BitAnd: return run_binary<T, T>(iter, [](T a, T b) { return T(a & b); });
    case BinaryOp::BitOr: return run_binary<T, T>(iter, [](T a, T b) { return T(a | b); });
    case BinaryOp::BitXor: return run_binary<T, T>(iter, [](T a, T b) { return T(a ^ b); });
    default: break;
  }
  if constexpr (!std::is_same_v<T, bool>) {
    using U = std::make_unsigned_t<T>;
    constexpr T bits = static_cast<T>(sizeof(T) * 8);
    if (op == BinaryOp::Lshift)
      return run_binary<T, T>(iter, [](T a, T b) { return b < T(0) || b >= bits ? T(0) : T(U(a) << b); });
    if (op == BinaryOp::Rshift) {
      if constexpr (std::is_signed_v<T>)
        return run_binary<T, T>(iter, [](T a, T b) { return T(b < T(0) || b >= bits ? a >> (bits - 1) : a >> b); });
      else
        return run_binary<T, T>(iter, [](T a, T b) { return T(b >= bits ? T(0) : a >> b); });
    }
  }
  fail(ErrorKind::Runtime, "binary kernel: not a bitwise op for this dtype");
}

template <typename T>
void typed(const TensorIter& iter, DType dtype, BinaryOp op, Scalar alpha) {
  switch (op) {
    case BinaryOp::Add: case BinaryOp::Sub: case BinaryOp::Mul: case BinaryOp::Div:
      return arithmetic<T>(iter, op, alpha);
    case BinaryOp::Eq: case BinaryOp::Ne: case BinaryOp::Lt: case BinaryOp::Le:
      return compare<T>(iter, op);
    case BinaryOp::Maximum: case BinaryOp::Minimum: case BinaryOp::Fmax: case BinaryOp::Fmin:
      if constexpr (!is_complex_v<T>) return minmax<T>(iter, op);
      break;
    case BinaryOp::BitAnd: case BinaryOp::BitOr: case BinaryOp::BitXor:
    case BinaryOp::Lshift: case BinaryOp::Rshift:
      if constexpr (std::is_integral_v<T>) return bitwise<T>(iter, op);
      break;
    default: return binary_scalar_kernel(iter, dtype, op);
  }
  fail(ErrorKind::NotImplemented, "not implemented for dtype ", dtype_name(dtype));
}

void binary_kernel(const TensorIter& iter, DType dtype, BinaryOp op, Scalar alpha) {
  switch (dtype) {
    case DType::Bool:
      // bool add/mul are logical or/and, like PyTorch.
      if (op == BinaryOp::Add) return run_binary<bool, bool>(iter, [](bool a, bool b) { return a || b; });
      if (op == BinaryOp::Mul) return run_binary<bool, bool>(iter, [](bool a, bool b) { return a && b; });
      if (op == BinaryOp::BitAnd || op == BinaryOp::BitOr || op == BinaryOp::BitXor)
        return bitwise<bool>(iter, op);
      if (op == BinaryOp::Eq || op == BinaryOp::Ne || op == BinaryOp::Lt || op == BinaryOp::Le)
        return compare<bool>(iter, op);
      if (op == BinaryOp::Maximum || op == BinaryOp::Fmax)
        return run_binary<bool, bool>(iter, [](bool a, bool b) { return a || b; });
      if (op == BinaryOp::Minimum || op == BinaryOp::Fmin)
        return run_binary<bool, bool>(iter, [](bool a, bool b) { return a && b; });
      fail(ErrorKind::NotImplemented, "not implemented for dtype bool");
    case DType::UInt8: return typed<uint8_t>(iter, dtype, op, alpha);
    case DType::Int8: return typed<int8_t>(iter, dtype, op, alpha);
    case DType::Int16: return typed<int16_t>(iter, dtype, op, alpha);
    case DType::Int32: return typed<int32_t>(iter, dtype, op, alpha);
    case DType::Int64: return typed<int64_t>(iter, dtype, op, alpha);
    case DType::Float32: return typed<float>(iter, dtype, op, alpha);
    case DType::Float64: return typed<double>(iter, dtype, op, alpha);
    case DType::Complex64: return typed<complex64>(iter, dtype, op, alpha);
    case DType::Complex128: return typed<complex128>(iter, dtype, op, alpha);
    default: fail(ErrorKind::NotImplemented, "not implemented for dtype ", dtype_name(dtype));
  }
}

}  // namespace
TZ_REGISTER_KERNEL(binary_stub, &binary_kernel);
}  // namespace TZ_CPU_CAPABILITY
}  // namespace tz
