// The unary front-end: per-op dtype rules, then the unary kernel.
#include <cmath>
#include <iterator>
#include <limits>

#include "iter/tensor_iter.h"
#include "ops/conversion.h"
#include "ops/elementwise_util.h"
#include "ops/unary.h"

namespace tz {

namespace {

// How each op treats dtypes. One row per op, in the enum's order (checked below), so a new op
// cannot inherit its neighbours' rules by where it was inserted.
enum class UnaryClass : uint8_t {
  KeepsDtype,  // computes in the input's dtype (the op's own checks refuse what it can't take)
  Rounding,    // keeps the dtype and is the identity on integers
  ToFloat,     // integer and bool inputs compute in the default float dtype
  Predicate,   // writes bool
};
struct UnaryRow {
  UnaryOp op;
  UnaryClass cls;
};
using C = UnaryClass;
constexpr UnaryRow kUnaryRows[] = {
    {UnaryOp::Neg, C::KeepsDtype},       {UnaryOp::Abs, C::KeepsDtype},
    {UnaryOp::Sign, C::KeepsDtype},      {UnaryOp::Sgn, C::KeepsDtype},
    {UnaryOp::BitwiseNot, C::KeepsDtype},
    {UnaryOp::Floor, C::Rounding},       {UnaryOp::Ceil, C::Rounding},
    {UnaryOp::Round, C::Rounding},       {UnaryOp::Trunc, C::Rounding},
    {UnaryOp::Frac, C::KeepsDtype},
    {UnaryOp::Sqrt, C::ToFloat},         {UnaryOp::Rsqrt, C::ToFloat},
    {UnaryOp::Reciprocal, C::ToFloat},   {UnaryOp::Exp, C::ToFloat},
    {UnaryOp::Exp2, C::ToFloat},         {UnaryOp::Expm1, C::ToFloat},
    {UnaryOp::Log, C::ToFloat},          {UnaryOp::Log2, C::ToFloat},
    {UnaryOp::Log10, C::ToFloat},        {UnaryOp::Log1p, C::ToFloat},
    {UnaryOp::Sin, C::ToFloat},          {UnaryOp::Cos, C::ToFloat},
    {UnaryOp::Tan, C::ToFloat},          {UnaryOp::Asin, C::ToFloat},
    {UnaryOp::Acos, C::ToFloat},         {UnaryOp::Atan, C::ToFloat},
    {UnaryOp::Sinh, C::ToFloat},         {UnaryOp::Cosh, C::ToFloat},
    {UnaryOp::Tanh, C::ToFloat},         {UnaryOp::Asinh, C::ToFloat},
    {UnaryOp::Acosh, C::ToFloat},        {UnaryOp::Atanh, C::ToFloat},
    {UnaryOp::Sigmoid, C::ToFloat},      {UnaryOp::Erf, C::ToFloat},
    {UnaryOp::Erfc, C::ToFloat},         {UnaryOp::Erfinv, C::ToFloat},
    {UnaryOp::Angle, C::ToFloat},        {UnaryOp::Conj, C::ToFloat},
    {UnaryOp::RoundDecimals, C::ToFloat}, {UnaryOp::Logit, C::ToFloat},
    {UnaryOp::NanToNum, C::KeepsDtype},
    {UnaryOp::IsNan, C::Predicate},      {UnaryOp::IsInf, C::Predicate},
    {UnaryOp::IsPosInf, C::Predicate},   {UnaryOp::IsNegInf, C::Predicate},
    {UnaryOp::IsFinite, C::Predicate},   {UnaryOp::Signbit, C::Predicate},
};
constexpr bool rows_follow_the_enum() {
  for (size_t i = 0; i < std::size(kUnaryRows); ++i)
    if (kUnaryRows[i].op != static_cast<UnaryOp>(i)) return false;
  return std::size(kUnaryRows) == static_cast<size_t>(UnaryOp::NumOps);
}
static_assert(rows_follow_the_enum(), "kUnaryRows: one row per UnaryOp, in declaration order");
constexpr UnaryClass unary_class(UnaryOp op) { return kUnaryRows[static_cast<size_t>(op)].cls; }

bool is_floating_op(UnaryOp op) { return unary_class(op) == UnaryClass::ToFloat; }
bool is_predicate(UnaryOp op) { return unary_class(op) == UnaryClass::Predicate; }
bool is_rounding(UnaryOp op) { return unary_class(op) == UnaryClass::Rounding; }

[[noreturn]] void not_implemented(const char* name, DType t) {
  fail(ErrorKind::NotImplemented, name, "(): not implemented for dtype ", dtype_name(t));
}

// The result dtype of op on input dtype t, after PyTorch's checks.
DType unary_result_type(UnaryOp op, DType t, const char* name) {
  const bool cplx = is_complex(t), boolean = t == DType::Bool;
  switch (op) {
    case UnaryOp::Neg:
      TZ_CHECK(!boolean, Runtime, name, "(): Negation, the `-` operator, on a bool tensor is not "
               "supported. If you are trying to invert a mask, use the `~` or `logical_not()` "
               "operator instead.");
      return t;
    case UnaryOp::Abs:
      if (boolean) not_implemented(name, t);
      return cplx ? complex_part_dtype(t) : t;
    case UnaryOp::Sign:
      TZ_CHECK(!cplx, NotImplemented, name, "(): Unlike NumPy, torch.sign is not intended to "
               "support complex numbers. Please use torch.sgn instead.");
      return t;
    case UnaryOp::Sgn: case UnaryOp::NanToNum: case UnaryOp::Conj:
      return t;
    case UnaryOp::BitwiseNot:
      if (!is_integral(t, true)) not_implemented(name, t);
      return t;
    case UnaryOp::Floor: case UnaryOp::Ceil: case UnaryOp::Round: case UnaryOp::Trunc:
      TZ_CHECK(!cplx, NotImplemented, name, "(): not supported for complex inputs");
      if (boolean) not_implemented(name, t);
      return t;
    case UnaryOp::Frac: case UnaryOp::RoundDecimals:
      if (!is_floating(t)) not_implemented(name, t);
      return t;
    case UnaryOp::Erf: case UnaryOp::Erfc: case UnaryOp::Erfinv: case UnaryOp::Logit:
      if (cplx) not_implemented(name, t);
      return to_floating(t);
    case UnaryOp::Angle:
      return cplx ? complex_part_dtype(t) : to_floating(t);
    case UnaryOp::IsPosInf: case UnaryOp::IsNegInf: case UnaryOp::Signbit:
      TZ_CHECK(!cplx, Runtime, name, "(): does not support complex inputs.");
      return DType::Bool;
    case UnaryOp::IsNan: case UnaryOp::IsInf: case UnaryOp::IsFinite:
      return DType::Bool;
    default:  // the floating ops
      return to_floating(t);
  }
}

// Ops that are the identity on integers (rounding, nan_to_num) copy instead of computing.
bool is_identity_on(UnaryOp op, DType t) {
  return !is_floating(t) && !is_complex(t) && (is_rounding(op) || op == UnaryOp::NanToNum);
}

// out <- op(t), converting t to the compute dtype; predicates and complex abs/angle write a
// different dtype than they compute in.
void run_unary(UnaryOp op, const Tensor& out, const Tensor& t, const UnaryArgs& args) {
  const DType ct = compute_dtype(is_floating_op(op) ? to_floating(t.dtype()) : t.dtype());
  DType kernel_out = ct;
  if (is_predicate(op)) kernel_out = DType::Bool;
  else if (is_complex(ct) && (op == UnaryOp::Abs || op == UnaryOp::Angle)) kernel_out = complex_part_dtype(ct);
  Tensor o = out.dtype() == kernel_out ? out : Tensor::empty(out.sizes(), kernel_out);
  Tensor in = to_dtype(t, ct);  // alive while iterating
  TensorIter iter({o, in}, out.sizes());
  unary_stub(iter, ct, op, args);
  if (!o.is_same(out)) copy_(out, o);
}

}  // namespace

Tensor unary_op(UnaryOp op, const Tensor& t, const char* name, const UnaryArgs& args) {
  DType r = unary_result_type(op, t.dtype(), name);
  if (is_identity_on(op, t.dtype())) return clone(t);
  Tensor out = empty_in_layout_of(t.sizes(), r, t);
  run_unary(op, out, t, args);
  out.impl()->version->version = 0;
  return out;
}

const Tensor& unary_op_(UnaryOp op, const Tensor& t, const char* name, const UnaryArgs& args) {
  DType r = unary_result_type(op, t.dtype(), name);
  TZ_CHECK(!is_complex(t.dtype()) || is_complex(r), Runtime, name, "(): In-place ", name,
           " is not supported for complex tensors.");
  check_inplace(t, r, t.sizes(), name);
  if (is_identity_on(op, t.dtype())) {
    t.bump_version();
  } else if (r == t.dtype() && compute_dtype(r) == r) {
    run_unary(op, t, t, args);
    t.bump_version();
  } else {
    Tensor tmp = Tensor::empty(t.sizes(), r);
    run_unary(op, tmp, t, args);
    copy_(t, tmp);
  }
  return t;
}

Tensor positive(const Tensor& t) {
  TZ_CHECK(t.dtype() != DType::Bool, Runtime, "positive(): The `+` operator, on a bool tensor is not supported.");
  return t;
}

namespace {
UnaryArgs round_args(int64_t decimals) {
  UnaryArgs args;
  args.p0 = std::pow(10.0, static_cast<double>(decimals < 0 ? -decimals : decimals));
  args.p1 = decimals < 0;
  return args;
}
}  // namespace

Tensor round(const Tensor& t, int64_t decimals) {
  if (decimals == 0) return unary_op(UnaryOp::Round, t, "round");
  return unary_op(UnaryOp::RoundDecimals, t, "round", round_args(decimals));
}
const Tensor& round_(const Tensor& t, int64_t decimals) {
  if (decimals == 0) return unary_op_(UnaryOp::Round, t, "round_");
  return unary_op_(UnaryOp::RoundDecimals, t, "round_", round_args(decimals));
}

namespace {
UnaryArgs logit_args(std::optional<double> eps) {
  UnaryArgs args;
  args.p0 = eps.value_or(-1.0);
  return args;
}
}  // namespace

Tensor logit(const Tensor& t, std::optional<double> eps) {
  return unary_op(UnaryOp::Logit, t, "logit", logit_args(eps));
}
const Tensor& logit_(const Tensor& t, std::optional<double> eps) {
  return unary_op_(UnaryOp::Logit, t, "logit_", logit_args(eps));
}

namespace {
// The largest finite value of a floating dtype (of the real part for complex types).
double finite_max(DType t) {
  switch (t) {
    case DType::Float16: return 65504.0;
    case DType::BFloat16: return 3.38953138925153547590e38;
    case DType::Float64: case DType::Complex128: return std::numeric_limits<double>::max();
    default: return std::numeric_limits<float>::max();
  }
}
UnaryArgs nan_to_num_args(DType t, std::optional<double> nan, std::optional<double> posinf,
                          std::optional<double> neginf) {
  UnaryArgs args;
  args.p0 = nan.value_or(0.0);
  args.p1 = posinf.value_or(finite_max(t));
  args.p2 = neginf.value_or(-finite_max(t));
  return args;
}
}  // namespace

Tensor nan_to_num(const Tensor& t, std::optional<double> nan, std::optional<double> posinf,
                  std::optional<double> neginf) {
  return unary_op(UnaryOp::NanToNum, t, "nan_to_num", nan_to_num_args(t.dtype(), nan, posinf, neginf));
}
const Tensor& nan_to_num_(const Tensor& t, std::optional<double> nan, std::optional<double> posinf,
                          std::optional<double> neginf) {
  return unary_op_(UnaryOp::NanToNum, t, "nan_to_num_", nan_to_num_args(t.dtype(), nan, posinf, neginf));
}

namespace {
// A real view of the real (part = 0) or imaginary (part = 1) parts of a complex tensor.
Tensor complex_part(const Tensor& t, int part) {
  Shape strides = t.strides();
  for (int64_t& s : strides) s *= 2;
  return Tensor(std::make_shared<TensorImpl>(t.storage(), t.sizes(), std::move(strides),
                                             t.offset() * 2 + part, complex_part_dtype(t.dtype()),
                                             t.impl()->version));
}
}  // namespace

Tensor real(const Tensor& t) { return is_complex(t.dtype()) ? complex_part(t, 0) : t; }

Tensor imag(const Tensor& t) {
  TZ_CHECK(is_complex(t.dtype()), Runtime, "imag(): imag is not implemented for tensors with non-complex dtypes.");
  return complex_part(t, 1);
}

Tensor conj(const Tensor& t) { return is_complex(t.dtype()) ? unary_op(UnaryOp::Conj, t, "conj") : t; }

}  // namespace tz
