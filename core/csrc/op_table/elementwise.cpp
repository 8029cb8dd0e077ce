// Op-table entries of elementwise math: unary ops, broadcasting binary ops, comparisons,
// logical and bitwise ops, clamp, lerp and friends, each with its in-place method.
// See ops/registry.h for what an entry holds; op_table/register.cpp registers this family.
#include <cmath>

#include "derivatives/elementwise.h"
#include "op_table/util.h"
#include "ops/ops.h"

namespace tz::op_table {
namespace {

// An elementwise unary op and its in-place method, sharing one derivative formula (the
// trailing argument); `saves` as in OpDef.
#define TZ_UNARY_ENTRIES(name, Op, kind, saves, ...)                                         \
  {#name "(Tensor self) -> Tensor", kBoth, N::Keep,                                          \
   OP { return unary_op(UnaryOp::Op, a[0].tensor(), #name); }, kind, saves, __VA_ARGS__},    \
  {#name "_(Tensor self) -> Tensor", kMethod, N::Keep,                                       \
   OP { return unary_op_(UnaryOp::Op, a[0].tensor(), #name "_"); }, "ew_unary_inplace", saves, __VA_ARGS__},
// The common shape of a unary formula: grad * conj(derivative expression in c) (the conj
// is PyTorch's convention for complex inputs; a no-op on real ones).
#define TZ_DERIV(expr) GRAD { return {F::mul(c.grad(), F::conj(expr))}; }
// A broadcasting binary op and its in-place method.
#define TZ_BINARY_ENTRIES(name, Op, kind)                                                    \
  {#name "(Tensor self, Tensor other) -> Tensor", kBoth, N::Unify,                           \
   OP { return binary_op(BinaryOp::Op, a[0].tensor(), a[1].tensor(), #name); }, kind},      \
  {#name "_(Tensor self, Tensor other) -> Tensor", kMethod, N::Unify,                        \
   OP { return binary_op_(BinaryOp::Op, a[0].tensor(), a[1].tensor(), #name "_"); }, kind "_inplace"},
// A comparison and its in-place method (which writes 1/0 into self: zero gradients).
#define TZ_COMPARE_ENTRIES(name, kind)                                                       \
  {#name "(Tensor self, Tensor other) -> Tensor", kBoth, N::Unify,                           \
   OP { return name(a[0].tensor(), a[1].tensor()); }, kind},                                 \
  {#name "_(Tensor self, Tensor other) -> Tensor", kMethod, N::Unify,                        \
   OP { return compare_(#name "_", a[0].tensor(), a[1].tensor()); }, "ew_compare_inplace", "", &grad::zeros},

const OpDef kOps[] = {

    // Arithmetic. A Tensor parameter also takes a Python number (a wrapped 0-dim tensor).
    {"add(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", kBoth, N::Unify,
     OP { return add(a[0].tensor(), a[1].tensor(), a[2].scalar()); }, "ew_alpha",
     "", GRAD { return {c.grad(), F::mul(c.grad(), grad::alpha_factor(c.arg("alpha").scalar(), false))}; }},
    {"add_(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", kMethod, N::Unify,
     OP { return binary_op_(BinaryOp::Add, a[0].tensor(), a[1].tensor(), "add_", a[2].scalar()); }, "ew_inplace",
     "", GRAD { return {c.grad(), F::mul(c.grad(), grad::alpha_factor(c.arg("alpha").scalar(), false))}; }},
    {"sub(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", kBoth, N::Unify,
     OP { return sub(a[0].tensor(), a[1].tensor(), a[2].scalar()); }, "ew_sub",
     "", GRAD { return {c.grad(), F::mul(c.grad(), grad::alpha_factor(c.arg("alpha").scalar(), true))}; }},
    {"sub_(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", kMethod, N::Unify,
     OP { return binary_op_(BinaryOp::Sub, a[0].tensor(), a[1].tensor(), "sub_", a[2].scalar()); }, "ew_inplace_sub",
     "", GRAD { return {c.grad(), F::mul(c.grad(), grad::alpha_factor(c.arg("alpha").scalar(), true))}; }},
    {"subtract(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", kBoth, N::Unify,
     OP { return binary_op(BinaryOp::Sub, a[0].tensor(), a[1].tensor(), "subtract", a[2].scalar()); }, "ew_sub",
     "", GRAD { return {c.grad(), F::mul(c.grad(), grad::alpha_factor(c.arg("alpha").scalar(), true))}; }},
    {"rsub(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", kBoth, N::Unify,
     OP { return binary_op(BinaryOp::Sub, a[1].tensor(), a[0].tensor(), "rsub", a[2].scalar()); }, "ew_sub",
     "", GRAD { return {F::mul(c.grad(), grad::alpha_factor(c.arg("alpha").scalar(), true)), c.grad()}; }},
    {"mul(Tensor self, Tensor other) -> Tensor", kBoth, N::Unify,
     OP { return mul(a[0].tensor(), a[1].tensor()); }, "ew_binary",
     "self other", GRAD {
       return {c.needs_grad("self") ? F::mul(c.grad(), F::conj(c.input("other"))) : Tensor(),
               c.needs_grad("other") ? F::mul(c.grad(), F::conj(c.input("self"))) : Tensor()};
     }},
    {"mul_(Tensor self, Tensor other) -> Tensor", kMethod, N::Unify,
     OP { return binary_op_(BinaryOp::Mul, a[0].tensor(), a[1].tensor(), "mul_"); }, "ew_inplace",
     "self other", GRAD {
       return {c.needs_grad("self") ? F::mul(c.grad(), F::conj(c.input("other"))) : Tensor(),
               c.needs_grad("other") ? F::mul(c.grad(), F::conj(c.input("self"))) : Tensor()};
     }},
    {"multiply(Tensor self, Tensor other) -> Tensor", kBoth, N::Unify,
     OP { return binary_op(BinaryOp::Mul, a[0].tensor(), a[1].tensor(), "multiply"); }, "ew_binary",
     "self other", GRAD {
       return {c.needs_grad("self") ? F::mul(c.grad(), F::conj(c.input("other"))) : Tensor(),
               c.needs_grad("other") ? F::mul(c.grad(), F::conj(c.input("self"))) : Tensor()};
     }},
    {"div(Tensor self, Tensor other, *, str? rounding_mode=None) -> Tensor", kBoth, N::Unify,
     OP { return div(a[0].tensor(), a[1].tensor(), a[2].is_none() ? nullptr : a[2].str().c_str()); }, "ew_div",
     "self other", &grad::div},
    {"div_(Tensor self, Tensor other, *, str? rounding_mode=None) -> Tensor", kMethod, N::Unify,
     OP { return div_(a[0].tensor(), a[1].tensor(), a[2].is_none() ? nullptr : a[2].str().c_str()); }, "ew_inplace_div",
     "self other", &grad::div},
    {"divide(Tensor self, Tensor other, *, str? rounding_mode=None) -> Tensor", kBoth, N::Unify,
     OP { return div(a[0].tensor(), a[1].tensor(), a[2].is_none() ? nullptr : a[2].str().c_str()); }, "ew_div",
     "self other", &grad::div},
    {"true_divide(Tensor self, Tensor other) -> Tensor", kBoth, N::Unify,
     OP { return binary_op(BinaryOp::Div, a[0].tensor(), a[1].tensor(), "true_divide"); }, "ew_binary",
     "self other", &grad::div},
    {"true_divide_(Tensor self, Tensor other) -> Tensor", kMethod, N::Unify,
     OP { return binary_op_(BinaryOp::Div, a[0].tensor(), a[1].tensor(), "true_divide_"); }, "ew_inplace_float",
     "self other", &grad::div},
    // floor_divide floors (Python's //); PyTorch 1.8 truncated and warned it would change.
    {"floor_divide(Tensor self, Tensor other) -> Tensor", kBoth, N::Unify,
     OP { return floor_divide(a[0].tensor(), a[1].tensor()); }, "ew_binary_nonzero",
     "", &grad::zeros},
    {"floor_divide_(Tensor self, Tensor other) -> Tensor", kMethod, N::Unify,
     OP { return binary_op_(BinaryOp::DivFloor, a[0].tensor(), a[1].tensor(), "floor_divide_"); }, "ew_inplace",
     "", &grad::zeros},
    {"remainder(Tensor self, Tensor other) -> Tensor", kBoth, N::Unify,
     OP { return remainder(a[0].tensor(), a[1].tensor()); }, "ew_binary_nonzero",
     "self other", GRAD {  // self - floor(self / other) * other
       return {c.grad(), c.needs_grad("other") ? F::neg(F::mul(c.grad(), F::div_rounding(c.input("self"), c.input("other"), "floor"))) : Tensor()};
     }},
    {"remainder_(Tensor self, Tensor other) -> Tensor", kMethod, N::Unify,
     OP { return binary_op_(BinaryOp::Remainder, a[0].tensor(), a[1].tensor(), "remainder_"); }, "ew_inplace",
     "self other", GRAD {  // self - floor(self / other) * other
       return {c.grad(), c.needs_grad("other") ? F::neg(F::mul(c.grad(), F::div_rounding(c.input("self"), c.input("other"), "floor"))) : Tensor()};
     }},
    {"fmod(Tensor self, Tensor other) -> Tensor", kBoth, N::Unify,
     OP { return fmod(a[0].tensor(), a[1].tensor()); }, "ew_binary_nonzero",
     "self other", GRAD {  // self - trunc(self / other) * other
       return {c.grad(), c.needs_grad("other") ? F::neg(F::mul(c.grad(), F::div_rounding(c.input("self"), c.input("other"), "trunc"))) : Tensor()};
     }},
    {"fmod_(Tensor self, Tensor other) -> Tensor", kMethod, N::Unify,
     OP { return binary_op_(BinaryOp::Fmod, a[0].tensor(), a[1].tensor(), "fmod_"); }, "ew_inplace",
     "self other", GRAD {  // self - trunc(self / other) * other
       return {c.grad(), c.needs_grad("other") ? F::neg(F::mul(c.grad(), F::div_rounding(c.input("self"), c.input("other"), "trunc"))) : Tensor()};
     }},
    {"pow(Tensor self, Tensor exponent) -> Tensor", kBoth, N::Unify,
     OP { return pow(a[0].tensor(), a[1].tensor()); }, "ew_pow",
     "self exponent", &grad::pow},
    {"pow_(Tensor self, Tensor exponent) -> Tensor", kMethod, N::Unify,
     OP { return pow_(a[0].tensor(), a[1].tensor()); }, "ew_inplace_pow",
     "self exponent", &grad::pow},
    {"float_power(Tensor self, Tensor exponent) -> Tensor", kBoth, N::Unify,
     OP { return float_power(a[0].tensor(), a[1].tensor()); }, "ew_pow",
     "self exponent", &grad::pow},
    {"float_power_(Tensor self, Tensor exponent) -> Tensor", kMethod, N::Unify,
     OP { return float_power_(a[0].tensor(), a[1].tensor()); }, "ew_inplace_f64",
     "self exponent", &grad::pow},
    {"square(Tensor self) -> Tensor", kBoth, N::Keep,
     OP { return square(a[0].tensor()); }, "ew_unary",
     "self", GRAD { return {F::mul(c.grad(), F::conj(F::mul(c.input("self"), Scalar(2.0))))}; }},
    {"square_(Tensor self) -> Tensor", kMethod, N::Keep,
     OP { return square_(a[0].tensor()); }, "ew_unary_inplace",
     "self", GRAD { return {F::mul(c.grad(), F::conj(F::mul(c.input("self"), Scalar(2.0))))}; }},
    {"atan2(Tensor self, Tensor other) -> Tensor", kBoth, N::Unify,
     OP { return atan2(a[0].tensor(), a[1].tensor()); }, "ew_binary_real",
     "self other", &grad::atan2},
    {"atan2_(Tensor self, Tensor other) -> Tensor", kMethod, N::Unify,
     OP { return binary_op_(BinaryOp::Atan2, a[0].tensor(), a[1].tensor(), "atan2_"); }, "ew_inplace_float",
     "self other", &grad::atan2},
    {"arctan2(Tensor self, Tensor other) -> Tensor", kBoth, N::Unify,
     OP { return binary_op(BinaryOp::Atan2, a[0].tensor(), a[1].tensor(), "arctan2"); }, "ew_binary_real",
     "self other", &grad::atan2},
    {"hypot(Tensor self, Tensor other) -> Tensor", kBoth, N::Unify,
     OP { return hypot(a[0].tensor(), a[1].tensor()); }, "ew_binary_float",
     "self other result", &grad::hypot},
    {"hypot_(Tensor self, Tensor other) -> Tensor", kMethod, N::Unify,
     OP { return binary_op_(BinaryOp::Hypot, a[0].tensor(), a[1].tensor(), "hypot_"); }, "ew_inplace_float",
     "self other result", &grad::hypot},
    {"copysign(Tensor self, Tensor other) -> Tensor", kBoth, N::Unify,
     OP { return copysign(a[0].tensor(), a[1].tensor()); }, "ew_binary_real",
     "self result", GRAD {  // sign(self) * sign(result): +-1, and 0 where self == 0
       return {F::mul(c.grad(), F::mul(F::sign(c.input("self")), F::sign(c.result()))), F::zeros_like(c.grad())};
     }},
    {"copysign_(Tensor self, Tensor other) -> Tensor", kMethod, N::Unify,
     OP { return binary_op_(BinaryOp::Copysign, a[0].tensor(), a[1].tensor(), "copysign_"); }, "ew_inplace_float",
     "self result", GRAD {  // sign(self) * sign(result): +-1, and 0 where self == 0
       return {F::mul(c.grad(), F::mul(F::sign(c.input("self")), F::sign(c.result()))), F::zeros_like(c.grad())};
     }},
    {"xlogy(Tensor self, Tensor other) -> Tensor", kBoth, N::Unify,
     OP { return xlogy(a[0].tensor(), a[1].tensor()); }, "ew_xlogy",
     "self other", &grad::xlogy},
    {"xlogy_(Tensor self, Tensor other) -> Tensor", kMethod, N::Unify,
     OP { return binary_op_(BinaryOp::Xlogy, a[0].tensor(), a[1].tensor(), "xlogy_"); }, "ew_xlogy_inplace",
     "self other", &grad::xlogy},
    {"maximum(Tensor self, Tensor other) -> Tensor", kBoth, N::Unify,
     OP { return maximum(a[0].tensor(), a[1].tensor()); }, "ew_binary_real",
     "self other", &grad::maximum},
    {"minimum(Tensor self, Tensor other) -> Tensor", kBoth, N::Unify,
     OP { return minimum(a[0].tensor(), a[1].tensor()); }, "ew_binary_real",
     "self other", &grad::minimum},
    {"fmax(Tensor self, Tensor other) -> Tensor", kBoth, N::Unify,
     OP { return fmax(a[0].tensor(), a[1].tensor()); }, "ew_binary_real",
     "self other", &grad::fmax},
    {"fmin(Tensor self, Tensor other) -> Tensor", kBoth, N::Unify,
     OP { return fmin(a[0].tensor(), a[1].tensor()); }, "ew_binary_real",
     "self other", &grad::fmin},
    {"lerp(Tensor self, Tensor end, Tensor weight) -> Tensor", kBoth, N::Unify,
     OP { return lerp(a[0].tensor(), a[1].tensor(), a[2].tensor()); }, "ew_lerp",
     "self end weight", &grad::lerp},
    {"lerp_(Tensor self, Tensor end, Tensor weight) -> Tensor", kMethod, N::Unify,
     OP { return lerp_(a[0].tensor(), a[1].tensor(), a[2].tensor()); }, "ew_lerp_inplace",
     "self end weight", &grad::lerp},
    {"clamp(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor", kBoth, N::Keep,
     OP { return clamp(a[0].tensor(), a[1].opt_tensor(), a[2].opt_tensor()); }, "ew_clamp",
     "self min max", &grad::clamp},
    {"clamp_(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor", kMethod, N::Keep,
     OP { return clamp_(a[0].tensor(), a[1].opt_tensor(), a[2].opt_tensor()); }, "ew_clamp_inplace",
     "self min max", &grad::clamp},
    {"clip(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor", kBoth, N::Keep,
     OP { return clamp(a[0].tensor(), a[1].opt_tensor(), a[2].opt_tensor()); }, "ew_clamp",
     "self min max", &grad::clamp},
    {"clip_(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor", kMethod, N::Keep,
     OP { return clamp_(a[0].tensor(), a[1].opt_tensor(), a[2].opt_tensor()); }, "ew_clamp_inplace",
     "self min max", &grad::clamp},
    {"clamp_min(Tensor self, Tensor min) -> Tensor", kBoth, N::Keep,
     OP { return clamp(a[0].tensor(), a[1].tensor(), Tensor()); }, "ew_clamp_bound",
     "self min", &grad::clamp_min},
    {"clamp_min_(Tensor self, Tensor min) -> Tensor", kMethod, N::Keep,
     OP { return clamp_(a[0].tensor(), a[1].tensor(), Tensor()); }, "ew_clamp_bound_inplace",
     "self min", &grad::clamp_min},
    {"clamp_max(Tensor self, Tensor max) -> Tensor", kBoth, N::Keep,
     OP { return clamp(a[0].tensor(), Tensor(), a[1].tensor()); }, "ew_clamp_bound",
     "self max", &grad::clamp_max},
    {"clamp_max_(Tensor self, Tensor max) -> Tensor", kMethod, N::Keep,
     OP { return clamp_(a[0].tensor(), Tensor(), a[1].tensor()); }, "ew_clamp_bound_inplace",
     "self max", &grad::clamp_max},

    // Unary math (each with its in-place method).
    TZ_UNARY_ENTRIES(neg, Neg, "ew_unary", "", GRAD { return {F::neg(c.grad())}; })
    TZ_UNARY_ENTRIES(negative, Neg, "ew_unary", "", GRAD { return {F::neg(c.grad())}; })
    TZ_UNARY_ENTRIES(abs, Abs, "ew_unary", "self", GRAD { return {F::mul(c.grad(), F::sgn(c.input("self")))}; })
    TZ_UNARY_ENTRIES(absolute, Abs, "ew_unary", "self", GRAD { return {F::mul(c.grad(), F::sgn(c.input("self")))}; })
    TZ_UNARY_ENTRIES(sign, Sign, "ew_unary", "", &grad::zeros)
    TZ_UNARY_ENTRIES(sgn, Sgn, "ew_unary", "", &grad::zeros)
    TZ_UNARY_ENTRIES(sqrt, Sqrt, "ew_unary_pos", "result", GRAD { return {F::div(c.grad(), F::conj(F::mul(c.result(), Scalar(2.0))))}; })
    TZ_UNARY_ENTRIES(rsqrt, Rsqrt, "ew_unary_pos", "result", TZ_DERIV(F::mul(F::mul(F::square(c.result()), c.result()), Scalar(-0.5))))
    TZ_UNARY_ENTRIES(reciprocal, Reciprocal, "ew_unary", "result", TZ_DERIV(F::neg(F::square(c.result()))))
    TZ_UNARY_ENTRIES(exp, Exp, "ew_unary", "result", TZ_DERIV(c.result()))
    TZ_UNARY_ENTRIES(exp2, Exp2, "ew_unary", "result", TZ_DERIV(F::mul(c.result(), Scalar(M_LN2))))
    TZ_UNARY_ENTRIES(expm1, Expm1, "ew_unary", "result", TZ_DERIV(F::add(c.result(), Scalar(1.0))))
    TZ_UNARY_ENTRIES(log, Log, "ew_unary_pos", "self", GRAD { return {F::div(c.grad(), F::conj(c.input("self")))}; })
    TZ_UNARY_ENTRIES(log2, Log2, "ew_unary_pos", "self", GRAD { return {F::div(c.grad(), F::conj(F::mul(c.input("self"), Scalar(M_LN2))))}; })
    TZ_UNARY_ENTRIES(log10, Log10, "ew_unary_pos", "self", GRAD { return {F::div(c.grad(), F::conj(F::mul(c.input("self"), Scalar(M_LN10))))}; })
    TZ_UNARY_ENTRIES(log1p, Log1p, "ew_unary_pos", "self", GRAD { return {F::div(c.grad(), F::conj(F::add(c.input("self"), Scalar(1.0))))}; })
    TZ_UNARY_ENTRIES(sin, Sin, "ew_unary", "self", TZ_DERIV(F::cos(c.input("self"))))
    TZ_UNARY_ENTRIES(cos, Cos, "ew_unary", "self", TZ_DERIV(F::neg(F::sin(c.input("self")))))
    TZ_UNARY_ENTRIES(tan, Tan, "ew_unary", "result", TZ_DERIV(F::add(F::square(c.result()), Scalar(1.0))))
    TZ_UNARY_ENTRIES(asin, Asin, "ew_unary_unit", "self", TZ_DERIV(F::rsqrt(F::add(F::neg(F::square(c.input("self"))), Scalar(1.0)))))
    TZ_UNARY_ENTRIES(acos, Acos, "ew_unary_unit", "self", TZ_DERIV(F::neg(F::rsqrt(F::add(F::neg(F::square(c.input("self"))), Scalar(1.0))))))
    TZ_UNARY_ENTRIES(atan, Atan, "ew_unary", "self", GRAD { return {F::div(c.grad(), F::conj(F::add(F::square(c.input("self")), Scalar(1.0))))}; })
    TZ_UNARY_ENTRIES(sinh, Sinh, "ew_unary", "self", TZ_DERIV(F::cosh(c.input("self"))))
    TZ_UNARY_ENTRIES(cosh, Cosh, "ew_unary", "self", TZ_DERIV(F::sinh(c.input("self"))))
    TZ_UNARY_ENTRIES(tanh, Tanh, "ew_unary", "result", TZ_DERIV(F::add(F::neg(F::square(c.result())), Scalar(1.0))))
    TZ_UNARY_ENTRIES(asinh, Asinh, "ew_unary", "self", TZ_DERIV(F::rsqrt(F::add(F::square(c.input("self")), Scalar(1.0)))))
    // acosh: own kinds, its domain starts at 1
    {"acosh(Tensor self) -> Tensor", kBoth, N::Keep,
     OP { return unary_op(UnaryOp::Acosh, a[0].tensor(), "acosh"); }, "ew_unary_ge1",
     "self", TZ_DERIV(F::rsqrt(F::add(F::square(c.input("self")), Scalar(-1.0))))},
    {"acosh_(Tensor self) -> Tensor", kMethod, N::Keep,
     OP { return unary_op_(UnaryOp::Acosh, a[0].tensor(), "acosh_"); }, "ew_unary_ge1_inplace",
     "self", TZ_DERIV(F::rsqrt(F::add(F::square(c.input("self")), Scalar(-1.0))))},
    TZ_UNARY_ENTRIES(atanh, Atanh, "ew_unary_unit", "self", GRAD { return {F::div(c.grad(), F::conj(F::add(F::neg(F::square(c.input("self"))), Scalar(1.0))))}; })
    TZ_UNARY_ENTRIES(sigmoid, Sigmoid, "ew_unary", "result", TZ_DERIV(F::mul(c.result(), F::add(F::neg(c.result()), Scalar(1.0)))))
    TZ_UNARY_ENTRIES(erf, Erf, "ew_unary", "self", TZ_DERIV(F::mul(F::exp(F::neg(F::square(c.input("self")))), Scalar(M_2_SQRTPI))))
    TZ_UNARY_ENTRIES(erfc, Erfc, "ew_unary", "self", TZ_DERIV(F::mul(F::exp(F::neg(F::square(c.input("self")))), Scalar(-M_2_SQRTPI))))
    TZ_UNARY_ENTRIES(erfinv, Erfinv, "ew_unary_unit", "result", TZ_DERIV(F::mul(F::exp(F::square(c.result())), Scalar(0.5 * std::sqrt(M_PI)))))
    TZ_UNARY_ENTRIES(floor, Floor, "ew_unary", "", &grad::zeros)
    TZ_UNARY_ENTRIES(ceil, Ceil, "ew_unary", "", &grad::zeros)
    TZ_UNARY_ENTRIES(trunc, Trunc, "ew_unary", "", &grad::zeros)
    TZ_UNARY_ENTRIES(fix, Trunc, "ew_unary", "", &grad::zeros)
    TZ_UNARY_ENTRIES(frac, Frac, "ew_unary", "", GRAD { return {c.grad()}; })
    TZ_UNARY_ENTRIES(bitwise_not, BitwiseNot, "ew_unary_integral", "", nullptr)
    {"round(Tensor self, *, int decimals=0) -> Tensor", kBoth, N::Keep,
     OP { return round(a[0].tensor(), a[1].to_int()); }, "ew_round",
     "", &grad::zeros},
    {"round_(Tensor self, *, int decimals=0) -> Tensor", kMethod, N::Keep,
     OP { return round_(a[0].tensor(), a[1].to_int()); }, "ew_round_inplace",
     "", &grad::zeros},
    {"logit(Tensor self, float? eps=None) -> Tensor", kBoth, N::Keep,
     OP { return logit(a[0].tensor(), a[1].opt_double()); }, "ew_logit",
     "self", &grad::logit},
    {"logit_(Tensor self, float? eps=None) -> Tensor", kMethod, N::Keep,
     OP { return logit_(a[0].tensor(), a[1].opt_double()); }, "ew_logit_inplace",
     "self", &grad::logit},
    {"nan_to_num(Tensor self, float? nan=0.0, float? posinf=None, float? neginf=None) -> Tensor", kBoth, N::Keep,
     OP { return nan_to_num(a[0].tensor(), a[1].opt_double(), a[2].opt_double(), a[3].opt_double()); }, "ew_nan_to_num",
     "self", GRAD { return {F::where(F::isfinite(c.input("self")), c.grad(), Scalar(0.0))}; }},
    {"nan_to_num_(Tensor self, float? nan=0.0, float? posinf=None, float? neginf=None) -> Tensor", kMethod, N::Keep,
     OP { return nan_to_num_(a[0].tensor(), a[1].opt_double(), a[2].opt_double(), a[3].opt_double()); }, "ew_nan_to_num_inplace",
     "self", GRAD { return {F::where(F::isfinite(c.input("self")), c.grad(), Scalar(0.0))}; }},
    {"positive(Tensor self) -> Tensor", kBoth, N::Keep,
     OP { return positive(a[0].tensor()); }, "ew_unary",
     "", GRAD { return {c.grad()}; }},
    {"angle(Tensor self) -> Tensor", kBoth, N::Keep,
     OP { return angle(a[0].tensor()); }, "ew_unary",
     "self", &grad::angle},
    {"real(Tensor self) -> Tensor", kFunction, N::Keep,
     OP { return real(a[0].tensor()); }, "ew_unary",
     "", GRAD { return {c.grad()}; }},
    {"imag(Tensor self) -> Tensor", kFunction, N::Keep,
     OP { return imag(a[0].tensor()); }, "ew_unary_complex",
     "", GRAD { return {F::mul(c.grad(), Scalar(complex64(0.0f, 1.0f)))}; }},  // the gradient is i * grad
    {"conj(Tensor self) -> Tensor", kBoth, N::Keep,
     OP { return conj(a[0].tensor()); }, "ew_unary",
     "", GRAD { return {F::conj(c.grad())}; }},

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
     OP { return logical_("logical_and_", a[0].tensor(), a[1].tensor()); }, "ew_logical_inplace",
     "", &zero_for_self},
    {"logical_or(Tensor self, Tensor other) -> Tensor", kBoth, N::Unify,
     OP { return logical_or(a[0].tensor(), a[1].tensor()); }, "ew_logical"},
    {"logical_or_(Tensor self, Tensor other) -> Tensor", kMethod, N::Unify,
     OP { return logical_("logical_or_", a[0].tensor(), a[1].tensor()); }, "ew_logical_inplace",
     "", &zero_for_self},
    {"logical_xor(Tensor self, Tensor other) -> Tensor", kBoth, N::Unify,
     OP { return logical_xor(a[0].tensor(), a[1].tensor()); }, "ew_logical"},
    {"logical_xor_(Tensor self, Tensor other) -> Tensor", kMethod, N::Unify,
     OP { return logical_("logical_xor_", a[0].tensor(), a[1].tensor()); }, "ew_logical_inplace",
     "", &zero_for_self},
    {"logical_not(Tensor self) -> Tensor", kBoth, N::Keep,
     OP { return logical_not(a[0].tensor()); }, "ew_unary"},
    {"logical_not_(Tensor self) -> Tensor", kMethod, N::Keep,
     OP { return logical_("logical_not_", a[0].tensor(), a[0].tensor()); }, "ew_unary_inplace",
     "", &zero_for_self},
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
};

}  // namespace

OpTableRef elementwise_ops() { return kOps; }

}  // namespace tz::op_table
