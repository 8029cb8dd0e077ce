// The binary front-end and the binary arithmetic ops.
#include <cstring>

#include "iter/tensor_iter.h"
#include "tensor/scalar_range.h"
#include "ops/conversion.h"
#include "ops/elementwise.h"
#include "ops/elementwise_util.h"

namespace tz {

namespace {

bool is_comparison(BinaryOp op) {
  return op == BinaryOp::Eq || op == BinaryOp::Ne || op == BinaryOp::Lt || op == BinaryOp::Le;
}

// The dtype an op computes in (before half types widen to float32) and the dtype it
// returns, after PyTorch's checks of the input dtypes.
struct BinaryTypes {
  DType compute, out;
};

BinaryTypes binary_types(BinaryOp op, const Tensor& a, const Tensor& b, const char* name) {
  const DType t = binary_result_type(a, b);
  auto reject = [&](bool bad) {
    if (bad) fail(ErrorKind::NotImplemented, name, "(): not implemented for dtype ", dtype_name(t));
  };
  switch (op) {
    case BinaryOp::Add: case BinaryOp::Mul:
      return {t, t};
    case BinaryOp::Sub:
      TZ_CHECK(a.dtype() != DType::Bool || b.dtype() != DType::Bool, Runtime, name,
               "(): Subtraction, the `-` operator, with two bool tensors is not supported. "
               "Use the `^` or `logical_xor()` operator instead.");
      TZ_CHECK(a.dtype() != DType::Bool && b.dtype() != DType::Bool, Runtime, name,
               "(): Subtraction, the `-` operator, with a bool tensor is not supported. "
               "If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.");
      return {t, t};
    case BinaryOp::Div:
      return {to_floating(t), to_floating(t)};
    case BinaryOp::DivTrunc: case BinaryOp::DivFloor: case BinaryOp::Remainder: case BinaryOp::Fmod:
      reject(t == DType::Bool || is_complex(t));
      return {t, t};
    case BinaryOp::Pow:
      reject(t == DType::Bool);
      return {t, t};
    case BinaryOp::Atan2: case BinaryOp::Copysign: case BinaryOp::Xlogy:
      reject(is_complex(t));
      return {to_floating(t), to_floating(t)};
    case BinaryOp::Hypot:
      reject(!is_floating(t));
      return {t, t};
    case BinaryOp::Maximum: case BinaryOp::Minimum: case BinaryOp::Fmax: case BinaryOp::Fmin:
      TZ_CHECK(!is_complex(t), NotImplemented, name, "(): not implemented for complex tensors.");
      return {t, t};
    case BinaryOp::BitAnd: case BinaryOp::BitOr: case BinaryOp::BitXor:
      reject(!is_integral(t, /*include_bool=*/true));
      return {t, t};
    case BinaryOp::Lshift: case BinaryOp::Rshift:
      reject(!is_integral(t, /*include_bool=*/false));
      return {t, t};
    case BinaryOp::Eq: case BinaryOp::Ne:
      return {t, DType::Bool};
    case BinaryOp::Lt: case BinaryOp::Le:
      reject(is_complex(t));
      return {t, DType::Bool};
  }
  return {t, t};
}

// PyTorch's checks of add/sub's alpha against the result dtype.
void check_alpha(BinaryOp op, DType t, const Scalar& alpha, const char* name) {
  if (op != BinaryOp::Add && op != BinaryOp::Sub) return;
  TZ_CHECK(!alpha.is_bool() || t == DType::Bool, Runtime, name,
           "(): Boolean alpha only supported for Boolean results.");
  TZ_CHECK(is_floating(t) || is_complex(t) || alpha.is_integral(), Runtime, name,
           "(): For integral input tensors, argument alpha must not be a floating point number.");
  TZ_CHECK(is_complex(t) || !alpha.is_complex(), Runtime, name,
           "(): For non-complex input tensors, argument alpha must not be a complex number.");
  check_scalar_fits(alpha, t);
}

// out <- op(a, b) with the inputs converted to the compute dtype (half types: float32).
void run_binary(BinaryOp op, const Tensor& out, const Tensor& a, const Tensor& b, DType compute,
                const Scalar& alpha) {
  const DType ct = compute_dtype(compute);
  const DType kernel_out = is_comparison(op) ? DType::Bool : ct;
  Tensor o = out.dtype() == kernel_out ? out : Tensor::empty(out.sizes(), kernel_out);
  // The converted inputs must outlive the iterator, which holds raw pointers into them.
  Tensor ca = to_compute(a, ct), cb = to_compute(b, ct);
  TensorIter iter({o, ca, cb}, out.sizes());
  binary_stub(iter, ct, op, alpha);
  if (!o.is_same(out)) copy_(out, o);
}

// Python-number exponents: integer bases to negative powers are an error (PyTorch's rule
// for pow(Tensor, Scalar); tensor exponents give 0 instead).
void check_pow_exponent(DType result, const Tensor& exponent, const char* name) {
  if (!is_integral(result, false) || !exponent.impl()->wrapped_number) return;
  TZ_CHECK(exponent.dtype() != DType::Int64 || *exponent.data<int64_t>() >= 0, Runtime, name,
           "(): Integers to negative integer powers are not allowed.");
}

BinaryOp div_mode_op(const char* rounding_mode, const char* name) {
  if (rounding_mode == nullptr) return BinaryOp::Div;
  if (std::strcmp(rounding_mode, "trunc") == 0) return BinaryOp::DivTrunc;
  if (std::strcmp(rounding_mode, "floor") == 0) return BinaryOp::DivFloor;
  fail(ErrorKind::Runtime, name, "(): expected rounding_mode to be one of None, 'trunc', or 'floor' "
       "but found '", rounding_mode, "'");
}

DType float_power_dtype(const Tensor& a, const Tensor& b) {
  return is_complex(a.dtype()) || is_complex(b.dtype()) ? DType::Complex128 : DType::Float64;
}

}  // namespace

Tensor binary_op(BinaryOp op, const Tensor& a, const Tensor& b, const char* name, Scalar alpha) {
  BinaryTypes ty = binary_types(op, a, b, name);
  check_alpha(op, ty.out, alpha, name);
  Shape shape = broadcast_shapes(a.sizes(), b.sizes(), name);
  Tensor out = empty_in_layout_of(shape, ty.out, a.sizes() == shape ? a : b);
  run_binary(op, out, a, b, ty.compute, alpha);
  out.impl()->version->version = 0;  // a fresh result, even when it was filled by copy_
  return out;
}

const Tensor& binary_op_(BinaryOp op, const Tensor& self, const Tensor& other_in, const char* name,
                         Scalar alpha, bool swapped) {
  const Tensor other = unalias(other_in, self);
  const Tensor& a = swapped ? other : self;
  const Tensor& b = swapped ? self : other;
  BinaryTypes ty = binary_types(op, a, b, name);
  check_alpha(op, ty.out, alpha, name);
  check_inplace(self, ty.out, broadcast_shapes(a.sizes(), b.sizes(), name), name);
  const DType kernel_out = is_comparison(op) ? DType::Bool : compute_dtype(ty.compute);
  if (kernel_out == self.dtype()) {
    run_binary(op, self, a, b, ty.compute, alpha);
    self.bump_version();
  } else {
    Tensor tmp = Tensor::empty(self.sizes(), ty.out);
    run_binary(op, tmp, a, b, ty.compute, alpha);
    copy_(self, tmp);  // bumps the version
  }
  return self;
}

Tensor add(const Tensor& a, const Tensor& b, Scalar alpha) { return binary_op(BinaryOp::Add, a, b, "add", alpha); }
Tensor sub(const Tensor& a, const Tensor& b, Scalar alpha) { return binary_op(BinaryOp::Sub, a, b, "sub", alpha); }
Tensor mul(const Tensor& a, const Tensor& b) { return binary_op(BinaryOp::Mul, a, b, "mul"); }

Tensor div(const Tensor& a, const Tensor& b, const char* rounding_mode) {
  return binary_op(div_mode_op(rounding_mode, "div"), a, b, "div");
}
const Tensor& div_(const Tensor& self, const Tensor& other, const char* rounding_mode) {
  return binary_op_(div_mode_op(rounding_mode, "div_"), self, other, "div_");
}
Tensor floor_divide(const Tensor& a, const Tensor& b) { return binary_op(BinaryOp::DivFloor, a, b, "floor_divide"); }
Tensor remainder(const Tensor& a, const Tensor& b) { return binary_op(BinaryOp::Remainder, a, b, "remainder"); }
Tensor fmod(const Tensor& a, const Tensor& b) { return binary_op(BinaryOp::Fmod, a, b, "fmod"); }

namespace {
// x ** 2 with a Python-number 2 is x * x (the same correctly rounded result, without libm).
bool is_number_two(const Tensor& exponent, DType result) {
  return exponent.impl()->wrapped_number && !is_complex(result) && !is_complex(exponent.dtype()) &&
         item(exponent).to_double() == 2.0;
}
}  // namespace

Tensor pow(const Tensor& base, const Tensor& exponent) {
  const DType r = binary_result_type(base, exponent);
  check_pow_exponent(r, exponent, "pow");
  if (is_number_two(exponent, r) && r != DType::Bool) {
    Tensor x = to_dtype(base, r);
    return mul(x, x);
  }
  return binary_op(BinaryOp::Pow, base, exponent, "pow");
}
const Tensor& pow_(const Tensor& self, const Tensor& exponent) {
  const DType r = binary_result_type(self, exponent);
  check_pow_exponent(r, exponent, "pow_");
  if (is_number_two(exponent, r) && r == self.dtype()) return binary_op_(BinaryOp::Mul, self, self, "pow_");
  return binary_op_(BinaryOp::Pow, self, exponent, "pow_");
}

Tensor float_power(const Tensor& base, const Tensor& exponent) {
  DType t = float_power_dtype(base, exponent);
  return pow(to_dtype(base, t), to_dtype(exponent, t));
}
const Tensor& float_power_(const Tensor& self, const Tensor& exponent) {
  DType t = float_power_dtype(self, exponent);
  TZ_CHECK(self.dtype() == t, Runtime, "float_power_(): the base given to float_power_ has dtype ",
           scalar_type_name(self.dtype()), " but the operation's result requires dtype ", scalar_type_name(t));
  return binary_op_(BinaryOp::Pow, self, to_dtype(exponent, t), "float_power_");
}

// square is pow(t, 2): bool squares to int64 like PyTorch.
Tensor square(const Tensor& t) {
  Tensor x = t.dtype() == DType::Bool ? to_dtype(t, DType::Int64) : t;
  return mul(x, x);
}
const Tensor& square_(const Tensor& t) {
  if (t.dtype() == DType::Bool) check_inplace(t, DType::Int64, t.sizes(), "square_");
  return binary_op_(BinaryOp::Mul, t, t, "square_");
}

Tensor atan2(const Tensor& a, const Tensor& b) { return binary_op(BinaryOp::Atan2, a, b, "atan2"); }
Tensor hypot(const Tensor& a, const Tensor& b) { return binary_op(BinaryOp::Hypot, a, b, "hypot"); }
Tensor copysign(const Tensor& a, const Tensor& b) { return binary_op(BinaryOp::Copysign, a, b, "copysign"); }
Tensor xlogy(const Tensor& a, const Tensor& b) { return binary_op(BinaryOp::Xlogy, a, b, "xlogy"); }
Tensor maximum(const Tensor& a, const Tensor& b) { return binary_op(BinaryOp::Maximum, a, b, "maximum"); }
Tensor minimum(const Tensor& a, const Tensor& b) { return binary_op(BinaryOp::Minimum, a, b, "minimum"); }
Tensor fmax(const Tensor& a, const Tensor& b) { return binary_op(BinaryOp::Fmax, a, b, "fmax"); }
Tensor fmin(const Tensor& a, const Tensor& b) { return binary_op(BinaryOp::Fmin, a, b, "fmin"); }
Tensor bitwise_and(const Tensor& a, const Tensor& b) { return binary_op(BinaryOp::BitAnd, a, b, "bitwise_and"); }
Tensor bitwise_or(const Tensor& a, const Tensor& b) { return binary_op(BinaryOp::BitOr, a, b, "bitwise_or"); }
Tensor bitwise_xor(const Tensor& a, const Tensor& b) { return binary_op(BinaryOp::BitXor, a, b, "bitwise_xor"); }
Tensor bitwise_left_shift(const Tensor& a, const Tensor& b) {
  return binary_op(BinaryOp::Lshift, a, b, "bitwise_left_shift");
}
Tensor bitwise_right_shift(const Tensor& a, const Tensor& b) {
  return binary_op(BinaryOp::Rshift, a, b, "bitwise_right_shift");
}

}  // namespace tz
