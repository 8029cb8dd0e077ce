// Op-table entries of the nn activations (ops/activation.h). PyTorch exports relu, threshold,
// hardshrink, prelu, selu and celu at top level; the rest live in torch._C._nn, here kInternal
// entries that core.nn.functional calls through core._C._internal. Backward ops are fused
// kernels; each forward's derivative goes through grad::activation (composite under
// create_graph, so double backward works).
#include <cmath>

#include "ops/activation.h"
#include "derivatives/activation.h"
#include "op_table/util.h"

namespace tz {
namespace {

using namespace op_table;

constexpr double kSeluAlpha = 1.6732632423543772848170429916717;
constexpr double kSeluScale = 1.0507009873554804934193349852946;

double d(const Value& v) { return v.scalar().to_double(); }
ActArgs celu_args(const Stack& a) {
  TZ_CHECK(d(a[1]) != 0, Runtime, "celu(): ZeroDivisionError: alpha cannot be 0 for CELU");
  return act_args(d(a[1]), 1.0, 1.0 / d(a[1]));
}
ActOp gelu_op(const std::string& approximate) {
  if (approximate == "none") return ActOp::Gelu;
  TZ_CHECK(approximate == "tanh", Runtime, "gelu(): approximate argument must be either none or tanh.");
  return ActOp::GeluTanh;
}

// The arguments of an entry as kernel parameters (c.args keeps non-tensor arguments).
#define TZ_ACT_GRAD(Op, x, args) GRAD { return {grad::activation(c.grad(), x, ActOp::Op, args)}; }
// An op and its in-place form; the in-place form's sample kind is the op's with "_inplace".
#define TZ_ACT_ENTRIES(name, params, var, var_, Op, args_of, sample)                              \
  {#name "(Tensor self" params ") -> Tensor", var, N::Keep,                                       \
   OP { return activation(ActOp::Op, a[0].tensor(), args_of(a), #name); }, sample,               \
   "self", TZ_ACT_GRAD(Op, c.input("self"), args_of(c.args))},                                        \
  {#name "_(Tensor self" params ") -> Tensor", var_, N::Keep,                                     \
   OP { return activation_(ActOp::Op, a[0].tensor(), args_of(a), #name "_"); },                  \
   !sample[0] ? "" : sample "_inplace", "self", TZ_ACT_GRAD(Op, c.input("self"), args_of(c.args))},

ActArgs no_args(const Stack&) { return ActArgs{}; }
ActArgs threshold_args(const Stack& a) { return act_args(d(a[1]), d(a[2])); }
ActArgs one_arg(const Stack& a) { return act_args(d(a[1])); }
ActArgs two_args(const Stack& a) { return act_args(d(a[1]), d(a[2])); }
ActArgs elu_args(const Stack& a) { return act_args(d(a[1]), d(a[2]), d(a[3])); }
ActArgs selu_args(const Stack&) { return act_args(kSeluAlpha, kSeluScale, 1.0); }

// A fused backward entry (kInternal): (grad_output, self, params...) -> grad_input.
#define TZ_ACT_BACKWARD(name, params, Op, args_of)                                                \
  {#name "_backward(Tensor grad_output, Tensor self" params ") -> Tensor", kInternal, N::Keep,   \
   OP {                                                                                           \
     Stack p(a.begin() + 1, a.end());                                                             \
     return activation_backward(ActOp::Op, a[0].tensor(), a[1].tensor(), args_of(p), #name "_backward"); \
   }, ""},

const OpDef kActivationOps[] = {
    // relu saves its result (like PyTorch), so relu_ after batch_norm needs no copy.
    {"relu(Tensor self) -> Tensor", kBoth, N::Keep,
     OP { return activation(ActOp::Threshold, a[0].tensor(), ActArgs{}, "relu"); }, "act_relu",
     "result", TZ_ACT_GRAD(Threshold, c.result(), ActArgs{})},
    {"relu_(Tensor self) -> Tensor", kBoth, N::Keep,
     OP { return activation_(ActOp::Threshold, a[0].tensor(), ActArgs{}, "relu_"); }, "act_relu_inplace",
     "result", TZ_ACT_GRAD(Threshold, c.result(), ActArgs{})},
    TZ_ACT_ENTRIES(threshold, ", Scalar threshold, Scalar value", kFunction, kFunction, Threshold, threshold_args, "act_threshold")
    TZ_ACT_ENTRIES(selu, "", kFunction, kFunction, Elu, selu_args, "act_float")
    TZ_ACT_ENTRIES(celu, ", Scalar alpha=1.0", kFunction, kFunction, Elu, celu_args, "act_celu")
    {"hardshrink(Tensor self, Scalar lambd=0.5) -> Tensor", kBoth, N::Keep,
     OP { return activation(ActOp::Hardshrink, a[0].tensor(), one_arg(a), "hardshrink"); }, "act_shrink",
     "self", TZ_ACT_GRAD(Hardshrink, c.input("self"), one_arg(c.args))},
    {"prelu(Tensor self, Tensor weight) -> Tensor", kBoth, N::Keep,
     OP { return prelu(a[0].tensor(), a[1].tensor()); }, "act_prelu",
     "self weight", &grad::prelu},

    // torch._C._nn's activations.
    TZ_ACT_ENTRIES(leaky_relu, ", Scalar negative_slope=0.01", kInternal, kInternal, LeakyRelu, one_arg, "act_leaky_relu")
    TZ_ACT_ENTRIES(elu, ", Scalar alpha=1, Scalar scale=1, Scalar input_scale=1", kInternal, kInternal, Elu, elu_args, "act_elu")
    TZ_ACT_ENTRIES(silu, "", kInternal, kInternal, Silu, no_args, "act_float")
    TZ_ACT_ENTRIES(mish, "", kInternal, kInternal, Mish, no_args, "act_float")
    TZ_ACT_ENTRIES(hardswish, "", kInternal, kInternal, Hardswish, no_args, "act_float")
    TZ_ACT_ENTRIES(hardsigmoid, "", kInternal, kInternal, Hardsigmoid, no_args, "act_float")
    // hardtanh saves its result: within (min, max) exactly where the input is.
    {"hardtanh(Tensor self, Scalar min_val=-1, Scalar max_val=1) -> Tensor", kInternal, N::Keep,
     OP { return activation(ActOp::Hardtanh, a[0].tensor(), two_args(a), "hardtanh"); }, "act_hardtanh",
     "result", TZ_ACT_GRAD(Hardtanh, c.result(), two_args(c.args))},
    {"hardtanh_(Tensor self, Scalar min_val=-1, Scalar max_val=1) -> Tensor", kInternal, N::Keep,
     OP { return activation_(ActOp::Hardtanh, a[0].tensor(), two_args(a), "hardtanh_"); }, "act_hardtanh_inplace",
     "result", TZ_ACT_GRAD(Hardtanh, c.result(), two_args(c.args))},
    {"gelu(Tensor self, *, str approximate='none') -> Tensor", kInternal, N::Keep,
     OP { return activation(gelu_op(a[1].str()), a[0].tensor(), ActArgs{}, "gelu"); }, "act_gelu",
     "self", GRAD { return {grad::activation(c.grad(), c.input("self"), gelu_op(c.arg("approximate").str()), ActArgs{})}; }},
    {"softplus(Tensor self, Scalar beta=1, Scalar threshold=20) -> Tensor", kInternal, N::Keep,
     OP { return activation(ActOp::Softplus, a[0].tensor(), two_args(a), "softplus"); }, "act_softplus",
     "self", TZ_ACT_GRAD(Softplus, c.input("self"), two_args(c.args))},
    {"softshrink(Tensor self, Scalar lambd=0.5) -> Tensor", kInternal, N::Keep,
     OP { return activation(ActOp::Softshrink, a[0].tensor(), one_arg(a), "softshrink"); }, "act_shrink",
     "self", TZ_ACT_GRAD(Softshrink, c.input("self"), one_arg(c.args))},
    {"log_sigmoid(Tensor self) -> Tensor", kInternal, N::Keep,
     OP { return activation(ActOp::LogSigmoid, a[0].tensor(), ActArgs{}, "log_sigmoid"); }, "act_float",
     "self", TZ_ACT_GRAD(LogSigmoid, c.input("self"), ActArgs{})},

    // Fused backward kernels (MobileNetV3 training runs relu/hardswish/hardsigmoid's).
    TZ_ACT_BACKWARD(threshold, ", Scalar threshold", Threshold, [](const Stack& p) { return act_args(d(p[1])); })
    TZ_ACT_BACKWARD(leaky_relu, ", Scalar negative_slope", LeakyRelu, [](const Stack& p) { return act_args(d(p[1])); })
    TZ_ACT_BACKWARD(hardtanh, ", Scalar min_val, Scalar max_val", Hardtanh, [](const Stack& p) { return act_args(d(p[1]), d(p[2])); })
    TZ_ACT_BACKWARD(elu, ", Scalar alpha, Scalar scale, Scalar input_scale", Elu, [](const Stack& p) { return act_args(d(p[1]), d(p[2]), d(p[3])); })
    TZ_ACT_BACKWARD(silu, "", Silu, no_args)
    TZ_ACT_BACKWARD(mish, "", Mish, no_args)
    TZ_ACT_BACKWARD(hardswish, "", Hardswish, no_args)
    TZ_ACT_BACKWARD(hardsigmoid, "", Hardsigmoid, no_args)
    TZ_ACT_BACKWARD(softplus, ", Scalar beta, Scalar threshold", Softplus, [](const Stack& p) { return act_args(d(p[1]), d(p[2])); })
    TZ_ACT_BACKWARD(hardshrink, ", Scalar lambd", Hardshrink, [](const Stack& p) { return act_args(d(p[1])); })
    TZ_ACT_BACKWARD(softshrink, ", Scalar lambd", Softshrink, [](const Stack& p) { return act_args(d(p[1])); })
    TZ_ACT_BACKWARD(log_sigmoid, "", LogSigmoid, no_args)
    {"gelu_backward(Tensor grad_output, Tensor self, *, str approximate='none') -> Tensor", kInternal, N::Keep,
     OP { return activation_backward(gelu_op(a[2].str()), a[0].tensor(), a[1].tensor(), ActArgs{}, "gelu_backward"); }, ""},
};

}  // namespace

OpTableRef op_table::activation_ops() { return kActivationOps; }

}  // namespace tz
