// THE op table. One entry per op (overload): signature with defaults, variants (function
// and/or Tensor method), named-tensor rule, boxed kernel, and the sample kind the generated
// tests in tests/core/test_op_matrix.py draw inputs from. Bindings are derived from it.
#include "ops/ops.h"
#include "ops/registry.h"

namespace tz {
namespace {

using N = NameRule;
#define OP [](Stack & a) -> Value

const OpDef kOpTable[] = {
    // ---------------------------------------------------------------- creation
    {"empty(int[] size, *, ScalarType? dtype=None) -> Tensor", kFunction, N::Factory,
     OP { return empty(a[0].int_list(), a[1].opt_dtype()); }, ""},
    {"zeros(int[] size, *, ScalarType? dtype=None) -> Tensor", kFunction, N::Factory,
     OP { return zeros(a[0].int_list(), a[1].opt_dtype()); }, "factory"},
    {"ones(int[] size, *, ScalarType? dtype=None) -> Tensor", kFunction, N::Factory,
     OP { return ones(a[0].int_list(), a[1].opt_dtype()); }, "factory"},
    {"full(int[] size, Scalar fill_value, *, ScalarType? dtype=None) -> Tensor", kFunction, N::Factory,
     OP { return full(a[0].int_list(), a[1].scalar(), a[2].opt_dtype()); }, "factory_fill"},
    {"arange(Scalar end, *, ScalarType? dtype=None) -> Tensor", kFunction, N::Factory,
     OP { return arange(Scalar(int64_t(0)), a[0].scalar(), Scalar(int64_t(1)), a[1].opt_dtype()); }, "arange"},
    {"arange.start(Scalar start, Scalar end, Scalar step=1, *, ScalarType? dtype=None) -> Tensor", kFunction, N::Factory,
     OP { return arange(a[0].scalar(), a[1].scalar(), a[2].scalar(), a[3].opt_dtype()); }, "arange"},
    {"fill_(Tensor self, Scalar value) -> Tensor", kBoth, N::Keep,
     OP { return fill_(a[0].tensor(), a[1].scalar()); }, "unary_inplace"},

    // ---------------------------------------------------------------- views
    {"view(Tensor self, int[] size) -> Tensor", kMethod, N::Custom,
     OP { return view(a[0].tensor(), a[1].int_list()); }, "reshape"},
    {"reshape(Tensor self, int[] shape) -> Tensor", kBoth, N::Custom,
     OP { return reshape(a[0].tensor(), a[1].int_list()); }, "reshape"},
    {"permute(Tensor self, int[] dims) -> Tensor", kBoth, N::Permute,
     OP { return permute(a[0].tensor(), a[1].int_list()); }, "permute"},
    {"transpose(Tensor self, int dim0, int dim1) -> Tensor", kBoth, N::Permute,
     OP { return transpose(a[0].tensor(), a[1].to_int(), a[2].to_int()); }, "transpose"},
    {"expand(Tensor self, int[] size) -> Tensor", kMethod, N::Custom,
     OP { return expand(a[0].tensor(), a[1].int_list()); }, "expand"},
    {"as_strided(Tensor self, int[] size, int[] stride, int? storage_offset=None) -> Tensor", kBoth, N::Unsupported,
     OP { return as_strided(a[0].tensor(), a[1].int_list(), a[2].int_list(), a[3].opt_int()); }, ""},
    {"contiguous(Tensor self) -> Tensor", kMethod, N::Keep,
     OP { return contiguous(a[0].tensor()); }, "unary_any"},

    // ---------------------------------------------------------------- elementwise
// An elementwise unary op and its in-place method.
#define TZ_UNARY_ENTRIES(name, Op, kind)                                                     \
  {#name "(Tensor self) -> Tensor", kBoth, N::Keep,                                          \
   OP { return unary_op(UnaryOp::Op, a[0].tensor(), #name); }, kind},                        \
  {#name "_(Tensor self) -> Tensor", kMethod, N::Keep,                                       \
   OP { return unary_op_(UnaryOp::Op, a[0].tensor(), #name "_"); }, "ew_unary_inplace"},
// A broadcasting binary op and its in-place method.
#define TZ_BINARY_ENTRIES(name, Op, kind)                                                    \
  {#name "(Tensor self, Tensor other) -> Tensor", kBoth, N::Unify,                           \
   OP { return binary_op(BinaryOp::Op, a[0].tensor(), a[1].tensor(), #name); }, kind},      \
  {#name "_(Tensor self, Tensor other) -> Tensor", kMethod, N::Unify,                        \
   OP { return binary_op_(BinaryOp::Op, a[0].tensor(), a[1].tensor(), #name "_"); }, kind "_inplace"},
// A comparison and its in-place method.
#define TZ_COMPARE_ENTRIES(name, kind)                                                       \
  {#name "(Tensor self, Tensor other) -> Tensor", kBoth, N::Unify,                           \
   OP { return name(a[0].tensor(), a[1].tensor()); }, kind},                                 \
  {#name "_(Tensor self, Tensor other) -> Tensor", kMethod, N::Unify,                        \
   OP { return compare_(#name "_", a[0].tensor(), a[1].tensor()); }, "ew_compare_inplace"},

    // Arithmetic. A Tensor parameter also takes a Python number (a wrapped 0-dim tensor).
    {"add(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", kBoth, N::Unify,
     OP { return add(a[0].tensor(), a[1].tensor(), a[2].scalar()); }, "ew_alpha"},
    {"add_(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", kMethod, N::Unify,
     OP { return binary_op_(BinaryOp::Add, a[0].tensor(), a[1].tensor(), "add_", a[2].scalar()); }, "ew_inplace"},
    {"sub(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", kBoth, N::Unify,
     OP { return sub(a[0].tensor(), a[1].tensor(), a[2].scalar()); }, "ew_sub"},
    {"sub_(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", kMethod, N::Unify,
     OP { return binary_op_(BinaryOp::Sub, a[0].tensor(), a[1].tensor(), "sub_", a[2].scalar()); }, "ew_inplace_sub"},
    {"subtract(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", kBoth, N::Unify,
     OP { return binary_op(BinaryOp::Sub, a[0].tensor(), a[1].tensor(), "subtract", a[2].scalar()); }, "ew_sub"},
    {"rsub(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", kBoth, N::Unify,
     OP { return binary_op(BinaryOp::Sub, a[1].tensor(), a[0].tensor(), "rsub", a[2].scalar()); }, "ew_sub"},
    {"mul(Tensor self, Tensor other) -> Tensor", kBoth, N::Unify,
     OP { return mul(a[0].tensor(), a[1].tensor()); }, "ew_binary"},
    {"mul_(Tensor self, Tensor other) -> Tensor", kMethod, N::Unify,
     OP { return binary_op_(BinaryOp::Mul, a[0].tensor(), a[1].tensor(), "mul_"); }, "ew_inplace"},
    {"multiply(Tensor self, Tensor other) -> Tensor", kBoth, N::Unify,
     OP { return binary_op(BinaryOp::Mul, a[0].tensor(), a[1].tensor(), "multiply"); }, "ew_binary"},
    {"div(Tensor self, Tensor other, *, str? rounding_mode=None) -> Tensor", kBoth, N::Unify,
     OP { return div(a[0].tensor(), a[1].tensor(), a[2].is_none() ? nullptr : a[2].str().c_str()); }, "ew_div"},
    {"div_(Tensor self, Tensor other, *, str? rounding_mode=None) -> Tensor", kMethod, N::Unify,
     OP { return div_(a[0].tensor(), a[1].tensor(), a[2].is_none() ? nullptr : a[2].str().c_str()); }, "ew_inplace_div"},
    {"divide(Tensor self, Tensor other, *, str? rounding_mode=None) -> Tensor", kBoth, N::Unify,
     OP { return div(a[0].tensor(), a[1].tensor(), a[2].is_none() ? nullptr : a[2].str().c_str()); }, "ew_div"},
    {"true_divide(Tensor self, Tensor other) -> Tensor", kBoth, N::Unify,
     OP { return binary_op(BinaryOp::Div, a[0].tensor(), a[1].tensor(), "true_divide"); }, "ew_binary"},
    {"true_divide_(Tensor self, Tensor other) -> Tensor", kMethod, N::Unify,
     OP { return binary_op_(BinaryOp::Div, a[0].tensor(), a[1].tensor(), "true_divide_"); }, "ew_inplace_float"},
    // floor_divide floors (Python's //); PyTorch 1.8 truncated and warned it would change.
    {"floor_divide(Tensor self, Tensor other) -> Tensor", kBoth, N::Unify,
     OP { return floor_divide(a[0].tensor(), a[1].tensor()); }, "ew_binary_nonzero"},
    {"floor_divide_(Tensor self, Tensor other) -> Tensor", kMethod, N::Unify,
     OP { return binary_op_(BinaryOp::DivFloor, a[0].tensor(), a[1].tensor(), "floor_divide_"); }, "ew_inplace"},
    {"remainder(Tensor self, Tensor other) -> Tensor", kBoth, N::Unify,
     OP { return remainder(a[0].tensor(), a[1].tensor()); }, "ew_binary_nonzero"},
    {"remainder_(Tensor self, Tensor other) -> Tensor", kMethod, N::Unify,
     OP { return binary_op_(BinaryOp::Remainder, a[0].tensor(), a[1].tensor(), "remainder_"); }, "ew_inplace"},
    {"fmod(Tensor self, Tensor other) -> Tensor", kBoth, N::Unify,
     OP { return fmod(a[0].tensor(), a[1].tensor()); }, "ew_binary_nonzero"},
    {"fmod_(Tensor self, Tensor other) -> Tensor", kMethod, N::Unify,
     OP { return binary_op_(BinaryOp::Fmod, a[0].tensor(), a[1].tensor(), "fmod_"); }, "ew_inplace"},
    {"pow(Tensor self, Tensor exponent) -> Tensor", kBoth, N::Unify,
     OP { return pow(a[0].tensor(), a[1].tensor()); }, "ew_pow"},
    {"pow_(Tensor self, Tensor exponent) -> Tensor", kMethod, N::Unify,
     OP { return pow_(a[0].tensor(), a[1].tensor()); }, "ew_inplace_pow"},
    {"float_power(Tensor self, Tensor exponent) -> Tensor", kBoth, N::Unify,
     OP { return float_power(a[0].tensor(), a[1].tensor()); }, "ew_pow"},
    {"float_power_(Tensor self, Tensor exponent) -> Tensor", kMethod, N::Unify,
     OP { return float_power_(a[0].tensor(), a[1].tensor()); }, "ew_inplace_f64"},
    {"square(Tensor self) -> Tensor", kBoth, N::Keep,
     OP { return square(a[0].tensor()); }, "ew_unary"},
    {"square_(Tensor self) -> Tensor", kMethod, N::Keep,
     OP { return square_(a[0].tensor()); }, "ew_unary_inplace"},
    {"atan2(Tensor self, Tensor other) -> Tensor", kBoth, N::Unify,
     OP { return atan2(a[0].tensor(), a[1].tensor()); }, "ew_binary_real"},
    {"atan2_(Tensor self, Tensor other) -> Tensor", kMethod, N::Unify,
     OP { return binary_op_(BinaryOp::Atan2, a[0].tensor(), a[1].tensor(), "atan2_"); }, "ew_inplace_float"},
    {"arctan2(Tensor self, Tensor other) -> Tensor", kBoth, N::Unify,
     OP { return binary_op(BinaryOp::Atan2, a[0].tensor(), a[1].tensor(), "arctan2"); }, "ew_binary_real"},
    {"hypot(Tensor self, Tensor other) -> Tensor", kBoth, N::Unify,
     OP { return hypot(a[0].tensor(), a[1].tensor()); }, "ew_binary_float"},
    {"hypot_(Tensor self, Tensor other) -> Tensor", kMethod, N::Unify,
     OP { return binary_op_(BinaryOp::Hypot, a[0].tensor(), a[1].tensor(), "hypot_"); }, "ew_inplace_float"},
    {"copysign(Tensor self, Tensor other) -> Tensor", kBoth, N::Unify,
     OP { return copysign(a[0].tensor(), a[1].tensor()); }, "ew_binary_real"},
    {"copysign_(Tensor self, Tensor other) -> Tensor", kMethod, N::Unify,
     OP { return binary_op_(BinaryOp::Copysign, a[0].tensor(), a[1].tensor(), "copysign_"); }, "ew_inplace_float"},
    {"xlogy(Tensor self, Tensor other) -> Tensor", kBoth, N::Unify,
     OP { return xlogy(a[0].tensor(), a[1].tensor()); }, "ew_binary_real"},
    {"xlogy_(Tensor self, Tensor other) -> Tensor", kMethod, N::Unify,
     OP { return binary_op_(BinaryOp::Xlogy, a[0].tensor(), a[1].tensor(), "xlogy_"); }, "ew_inplace_float"},
    {"maximum(Tensor self, Tensor other) -> Tensor", kBoth, N::Unify,
     OP { return maximum(a[0].tensor(), a[1].tensor()); }, "ew_binary_real"},
    {"minimum(Tensor self, Tensor other) -> Tensor", kBoth, N::Unify,
     OP { return minimum(a[0].tensor(), a[1].tensor()); }, "ew_binary_real"},
    {"fmax(Tensor self, Tensor other) -> Tensor", kBoth, N::Unify,
     OP { return fmax(a[0].tensor(), a[1].tensor()); }, "ew_binary_real"},
    {"fmin(Tensor self, Tensor other) -> Tensor", kBoth, N::Unify,
     OP { return fmin(a[0].tensor(), a[1].tensor()); }, "ew_binary_real"},
    {"lerp(Tensor self, Tensor end, Tensor weight) -> Tensor", kBoth, N::Unify,
     OP { return lerp(a[0].tensor(), a[1].tensor(), a[2].tensor()); }, "ew_lerp"},
    {"lerp_(Tensor self, Tensor end, Tensor weight) -> Tensor", kMethod, N::Unify,
     OP { return lerp_(a[0].tensor(), a[1].tensor(), a[2].tensor()); }, "ew_lerp_inplace"},
    {"clamp(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor", kBoth, N::Keep,
     OP { return clamp(a[0].tensor(), a[1].opt_tensor(), a[2].opt_tensor()); }, "ew_clamp"},
    {"clamp_(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor", kMethod, N::Keep,
     OP { return clamp_(a[0].tensor(), a[1].opt_tensor(), a[2].opt_tensor()); }, "ew_clamp_inplace"},
    {"clip(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor", kBoth, N::Keep,
     OP { return clamp(a[0].tensor(), a[1].opt_tensor(), a[2].opt_tensor()); }, "ew_clamp"},
    {"clip_(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor", kMethod, N::Keep,
     OP { return clamp_(a[0].tensor(), a[1].opt_tensor(), a[2].opt_tensor()); }, "ew_clamp_inplace"},
    {"clamp_min(Tensor self, Tensor min) -> Tensor", kBoth, N::Keep,
     OP { return clamp(a[0].tensor(), a[1].tensor(), Tensor()); }, "ew_clamp_bound"},
    {"clamp_min_(Tensor self, Tensor min) -> Tensor", kMethod, N::Keep,
     OP { return clamp_(a[0].tensor(), a[1].tensor(), Tensor()); }, "ew_clamp_bound_inplace"},
    {"clamp_max(Tensor self, Tensor max) -> Tensor", kBoth, N::Keep,
     OP { return clamp(a[0].tensor(), Tensor(), a[1].tensor()); }, "ew_clamp_bound"},
    {"clamp_max_(Tensor self, Tensor max) -> Tensor", kMethod, N::Keep,
     OP { return clamp_(a[0].tensor(), Tensor(), a[1].tensor()); }, "ew_clamp_bound_inplace"},

    // Unary math (each with its in-place method).
    TZ_UNARY_ENTRIES(neg, Neg, "ew_unary")
    TZ_UNARY_ENTRIES(negative, Neg, "ew_unary")
    TZ_UNARY_ENTRIES(abs, Abs, "ew_unary")
    TZ_UNARY_ENTRIES(absolute, Abs, "ew_unary")
    TZ_UNARY_ENTRIES(sign, Sign, "ew_unary")
    TZ_UNARY_ENTRIES(sgn, Sgn, "ew_unary")
    TZ_UNARY_ENTRIES(sqrt, Sqrt, "ew_unary_pos")
    TZ_UNARY_ENTRIES(rsqrt, Rsqrt, "ew_unary_pos")
    TZ_UNARY_ENTRIES(reciprocal, Reciprocal, "ew_unary")
    TZ_UNARY_ENTRIES(exp, Exp, "ew_unary")
    TZ_UNARY_ENTRIES(exp2, Exp2, "ew_unary")
    TZ_UNARY_ENTRIES(expm1, Expm1, "ew_unary")
    TZ_UNARY_ENTRIES(log, Log, "ew_unary_pos")
    TZ_UNARY_ENTRIES(log2, Log2, "ew_unary_pos")
    TZ_UNARY_ENTRIES(log10, Log10, "ew_unary_pos")
    TZ_UNARY_ENTRIES(log1p, Log1p, "ew_unary_pos")
    TZ_UNARY_ENTRIES(sin, Sin, "ew_unary")
    TZ_UNARY_ENTRIES(cos, Cos, "ew_unary")
    TZ_UNARY_ENTRIES(tan, Tan, "ew_unary")
    TZ_UNARY_ENTRIES(asin, Asin, "ew_unary_unit")
    TZ_UNARY_ENTRIES(acos, Acos, "ew_unary_unit")
    TZ_UNARY_ENTRIES(atan, Atan, "ew_unary")
    TZ_UNARY_ENTRIES(sinh, Sinh, "ew_unary")
    TZ_UNARY_ENTRIES(cosh, Cosh, "ew_unary")
    TZ_UNARY_ENTRIES(tanh, Tanh, "ew_unary")
    TZ_UNARY_ENTRIES(asinh, Asinh, "ew_unary")
    TZ_UNARY_ENTRIES(acosh, Acosh, "ew_unary_pos")
    TZ_UNARY_ENTRIES(atanh, Atanh, "ew_unary_unit")
    TZ_UNARY_ENTRIES(sigmoid, Sigmoid, "ew_unary")
    TZ_UNARY_ENTRIES(erf, Erf, "ew_unary")
    TZ_UNARY_ENTRIES(erfc, Erfc, "ew_unary")
    TZ_UNARY_ENTRIES(erfinv, Erfinv, "ew_unary_unit")
    TZ_UNARY_ENTRIES(floor, Floor, "ew_unary")
    TZ_UNARY_ENTRIES(ceil, Ceil, "ew_unary")
    TZ_UNARY_ENTRIES(trunc, Trunc, "ew_unary")
    TZ_UNARY_ENTRIES(fix, Trunc, "ew_unary")
    TZ_UNARY_ENTRIES(frac, Frac, "ew_unary")
    TZ_UNARY_ENTRIES(bitwise_not, BitwiseNot, "ew_unary_integral")
    {"round(Tensor self, *, int decimals=0) -> Tensor", kBoth, N::Keep,
     OP { return round(a[0].tensor(), a[1].to_int()); }, "ew_round"},
    {"round_(Tensor self, *, int decimals=0) -> Tensor", kMethod, N::Keep,
     OP { return round_(a[0].tensor(), a[1].to_int()); }, "ew_round_inplace"},
    {"logit(Tensor self, float? eps=None) -> Tensor", kBoth, N::Keep,
     OP { return logit(a[0].tensor(), a[1].opt_double()); }, "ew_logit"},
    {"logit_(Tensor self, float? eps=None) -> Tensor", kMethod, N::Keep,
     OP { return logit_(a[0].tensor(), a[1].opt_double()); }, "ew_logit_inplace"},
    {"nan_to_num(Tensor self, float? nan=0.0, float? posinf=None, float? neginf=None) -> Tensor", kBoth, N::Keep,
     OP { return nan_to_num(a[0].tensor(), a[1].opt_double(), a[2].opt_double(), a[3].opt_double()); }, "ew_nan_to_num"},
    {"nan_to_num_(Tensor self, float? nan=0.0, float? posinf=None, float? neginf=None) -> Tensor", kMethod, N::Keep,
     OP { return nan_to_num_(a[0].tensor(), a[1].opt_double(), a[2].opt_double(), a[3].opt_double()); }, "ew_nan_to_num_inplace"},
    {"positive(Tensor self) -> Tensor", kBoth, N::Keep,
     OP { return positive(a[0].tensor()); }, "ew_unary"},
    {"angle(Tensor self) -> Tensor", kBoth, N::Keep,
     OP { return angle(a[0].tensor()); }, "ew_unary"},
    {"real(Tensor self) -> Tensor", kFunction, N::Keep,
     OP { return real(a[0].tensor()); }, "ew_unary"},
    {"imag(Tensor self) -> Tensor", kFunction, N::Keep,
     OP { return imag(a[0].tensor()); }, "ew_unary_complex"},
    {"conj(Tensor self) -> Tensor", kBoth, N::Keep,
     OP { return conj(a[0].tensor()); }, "ew_unary"},

    // Comparisons write bool (in place: 1/0 in self's dtype).
    TZ_COMPARE_ENTRIES(eq, "ew_binary")
    TZ_COMPARE_ENTRIES(ne, "ew_binary")
    TZ_COMPARE_ENTRIES(lt, "ew_binary_real")
    TZ_COMPARE_ENTRIES(le, "ew_binary_real")
    TZ_COMPARE_ENTRIES(gt, "ew_binary_real")
    TZ_COMPARE_ENTRIES(ge, "ew_binary_real")
    {"not_equal(Tensor self, Tensor other) -> Tensor", kBoth, N::Unify, OP { return ne(a[0].tensor(), a[1].tensor()); }, "ew_binary"},
    {"less(Tensor self, Tensor other) -> Tensor", kBoth, N::Unify, OP { return lt(a[0].tensor(), a[1].tensor()); }, "ew_binary_real"},
    {"less_equal(Tensor self, Tensor other) -> Tensor", kBoth, N::Unify, OP { return le(a[0].tensor(), a[1].tensor()); }, "ew_binary_real"},
    {"greater(Tensor self, Tensor other) -> Tensor", kBoth, N::Unify, OP { return gt(a[0].tensor(), a[1].tensor()); }, "ew_binary_real"},
    {"greater_equal(Tensor self, Tensor other) -> Tensor", kBoth, N::Unify, OP { return ge(a[0].tensor(), a[1].tensor()); }, "ew_binary_real"},
    {"isclose(Tensor self, Tensor other, float rtol=1e-05, float atol=1e-08, bool equal_nan=False) -> Tensor", kBoth, N::Unify,
     OP { return isclose(a[0].tensor(), a[1].tensor(), a[2].to_double(), a[3].to_double(), a[4].to_bool()); }, "ew_isclose"},
    {"allclose(Tensor self, Tensor other, float rtol=1e-05, float atol=1e-08, bool equal_nan=False) -> bool", kBoth, N::None,
     OP { return allclose(a[0].tensor(), a[1].tensor(), a[2].to_double(), a[3].to_double(), a[4].to_bool()); }, "ew_isclose"},
    {"equal(Tensor self, Tensor other) -> bool", kBoth, N::None,
     OP { return equal(a[0].tensor(), a[1].tensor()); }, "ew_equal"},

    // Logical and bitwise ops.
    {"logical_and(Tensor self, Tensor other) -> Tensor", kBoth, N::Unify,
     OP { return logical_and(a[0].tensor(), a[1].tensor()); }, "ew_logical"},
    {"logical_and_(Tensor self, Tensor other) -> Tensor", kMethod, N::Unify,
     OP { return logical_("logical_and_", a[0].tensor(), a[1].tensor()); }, "ew_logical_inplace"},
    {"logical_or(Tensor self, Tensor other) -> Tensor", kBoth, N::Unify,
     OP { return logical_or(a[0].tensor(), a[1].tensor()); }, "ew_logical"},
    {"logical_or_(Tensor self, Tensor other) -> Tensor", kMethod, N::Unify,
     OP { return logical_("logical_or_", a[0].tensor(), a[1].tensor()); }, "ew_logical_inplace"},
    {"logical_xor(Tensor self, Tensor other) -> Tensor", kBoth, N::Unify,
     OP { return logical_xor(a[0].tensor(), a[1].tensor()); }, "ew_logical"},
    {"logical_xor_(Tensor self, Tensor other) -> Tensor", kMethod, N::Unify,
     OP { return logical_("logical_xor_", a[0].tensor(), a[1].tensor()); }, "ew_logical_inplace"},
    {"logical_not(Tensor self) -> Tensor", kBoth, N::Keep,
     OP { return logical_not(a[0].tensor()); }, "ew_unary"},
    {"logical_not_(Tensor self) -> Tensor", kMethod, N::Keep,
     OP { return logical_("logical_not_", a[0].tensor(), a[0].tensor()); }, "ew_unary_inplace"},
    TZ_BINARY_ENTRIES(bitwise_and, BitAnd, "ew_bitwise")
    TZ_BINARY_ENTRIES(bitwise_or, BitOr, "ew_bitwise")
    TZ_BINARY_ENTRIES(bitwise_xor, BitXor, "ew_bitwise")
    TZ_BINARY_ENTRIES(bitwise_left_shift, Lshift, "ew_shift")
    TZ_BINARY_ENTRIES(bitwise_right_shift, Rshift, "ew_shift")

    // Predicates write bool.
    {"isnan(Tensor self) -> Tensor", kBoth, N::Keep, OP { return isnan(a[0].tensor()); }, "ew_unary_special"},
    {"isinf(Tensor self) -> Tensor", kBoth, N::Keep, OP { return isinf(a[0].tensor()); }, "ew_unary_special"},
    {"isposinf(Tensor self) -> Tensor", kBoth, N::Keep, OP { return isposinf(a[0].tensor()); }, "ew_unary_special"},
    {"isneginf(Tensor self) -> Tensor", kBoth, N::Keep, OP { return isneginf(a[0].tensor()); }, "ew_unary_special"},
    {"isfinite(Tensor self) -> Tensor", kBoth, N::Keep, OP { return isfinite(a[0].tensor()); }, "ew_unary_special"},
    {"isreal(Tensor self) -> Tensor", kBoth, N::Keep, OP { return isreal(a[0].tensor()); }, "ew_unary_special"},
    {"signbit(Tensor self) -> Tensor", kBoth, N::Keep, OP { return signbit(a[0].tensor()); }, "ew_unary_special"},
#undef TZ_UNARY_ENTRIES
#undef TZ_BINARY_ENTRIES
#undef TZ_COMPARE_ENTRIES

    // ---------------------------------------------------------------- random

    // ---------------------------------------------------------------- indexing

    // ---------------------------------------------------------------- joining

    // ---------------------------------------------------------------- reduction

    // ---------------------------------------------------------------- sorting

    // ---------------------------------------------------------------- linalg

    // ---------------------------------------------------------------- conversion
    {"clone(Tensor self) -> Tensor", kBoth, N::Keep,
     OP { return clone(a[0].tensor()); }, "unary_any"},
    {"copy_(Tensor self, Tensor src) -> Tensor", kMethod, N::Keep,
     OP { return copy_(a[0].tensor(), a[1].tensor()); }, ""},
    {"to.dtype(Tensor self, ScalarType dtype, bool non_blocking=False, bool copy=False) -> Tensor", kMethod, N::Keep,
     OP { return to_dtype(a[0].tensor(), a[1].dtype(), a[3].to_bool()); }, ""},
    {"item(Tensor self) -> Scalar", kMethod, N::None,
     OP { return item(a[0].tensor()); }, ""},
};

#undef OP
const OpTableRegistrar registrar(kOpTable);

}  // namespace
}  // namespace tz
