// THE op table (tensor ops; the nn families add theirs in ops/op_table_<family>.cpp).
// One entry per op (overload): signature with defaults, variants (function and/or Tensor
// method), named-tensor rule, boxed kernel, and the sample kind the generated tests in
// tests/core/test_op_matrix.py draw inputs from. Bindings are derived from it.
#include <cmath>

#include "autograd/joining_grad.h"
#include "autograd/linalg_grad.h"
#include "ops/elementwise_grad.h"
#include "ops/indexing_grad.h"
#include "ops/ops.h"
#include "ops/reduction_grad.h"
#include "ops/op_table_util.h"

namespace tz {
namespace {

using namespace op_table;

const OpDef kOpTable[] = {
    // ---------------------------------------------------------------- creation
    {"empty(int[] size, *, ScalarType? dtype=None, MemoryFormat? memory_format=None) -> Tensor", kFunction, N::Factory,
     OP { return empty(a[0].int_list(), a[1].opt_dtype(), a[2].opt_memory_format().value_or(MemoryFormat::Contiguous)); }, ""},
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
     OP { return fill_(a[0].tensor(), a[1].scalar()); }, "unary_inplace",
     "", &zero_for_self},
    {"zero_(Tensor self) -> Tensor", kBoth, N::Keep,
     OP { return fill_(a[0].tensor(), Scalar(int64_t(0))); }, "unary_any",
     "", &zero_for_self},
    {"eye(int n, int? m=None, *, ScalarType? dtype=None) -> Tensor", kFunction, N::Factory,
     OP { return eye(a[0].to_int(), a[1].opt_int(), a[2].opt_dtype()); }, "eye"},
    {"linspace(Scalar start, Scalar end, int steps, *, ScalarType? dtype=None) -> Tensor", kFunction, N::Factory,
     OP { return linspace(a[0].scalar(), a[1].scalar(), a[2].to_int(), a[3].opt_dtype()); }, "linspace"},
    {"logspace(Scalar start, Scalar end, int steps, float base=10.0, *, ScalarType? dtype=None) -> Tensor", kFunction, N::Factory,
     OP { return logspace(a[0].scalar(), a[1].scalar(), a[2].to_int(), a[3].to_double(), a[4].opt_dtype()); }, "logspace"},
    {"empty_like(Tensor self, *, ScalarType? dtype=None, MemoryFormat? memory_format=None) -> Tensor", kFunction, N::Keep,
     OP { return empty_like(a[0].tensor(), a[1].opt_dtype(), a[2].opt_memory_format().value_or(MemoryFormat::Preserve)); }, "like", "", not_differentiable},
    {"zeros_like(Tensor self, *, ScalarType? dtype=None, MemoryFormat? memory_format=None) -> Tensor", kFunction, N::Keep,
     OP { return zeros_like(a[0].tensor(), a[1].opt_dtype(), a[2].opt_memory_format().value_or(MemoryFormat::Preserve)); }, "like", "", not_differentiable},
    {"ones_like(Tensor self, *, ScalarType? dtype=None, MemoryFormat? memory_format=None) -> Tensor", kFunction, N::Keep,
     OP { return ones_like(a[0].tensor(), a[1].opt_dtype(), a[2].opt_memory_format().value_or(MemoryFormat::Preserve)); }, "like", "", not_differentiable},
    {"full_like(Tensor self, Scalar fill_value, *, ScalarType? dtype=None, MemoryFormat? memory_format=None) -> Tensor", kFunction, N::Keep,
     OP { return full_like(a[0].tensor(), a[1].scalar(), a[2].opt_dtype(), a[3].opt_memory_format().value_or(MemoryFormat::Preserve)); }, "full_like", "", not_differentiable},

    // ---------------------------------------------------------------- views
    {"view(Tensor self, int[] size) -> Tensor", kMethod, N::Custom,
     OP { return view(a[0].tensor(), a[1].int_list()); }, "reshape",
     "", GRAD { return {F::reshape(c.grad(), c.input_sizes("self"))}; }},
    {"reshape(Tensor self, int[] shape) -> Tensor", kBoth, N::Custom,
     OP { return reshape(a[0].tensor(), a[1].int_list()); }, "reshape",
     "", GRAD { return {F::reshape(c.grad(), c.input_sizes("self"))}; }},
    {"permute(Tensor self, int[] dims) -> Tensor", kBoth, N::Permute,
     OP { return permute(a[0].tensor(), a[1].int_list()); }, "permute",
     "", GRAD {
       const IntList& dims = c.arg("dims").int_list();
       IntList inverse(dims.size());
       for (size_t i = 0; i < dims.size(); ++i) inverse[wrap_dim(dims[i], dims.size(), "permute")] = i;
       return {F::permute(c.grad(), inverse)};
     }},
    {"transpose(Tensor self, int dim0, int dim1) -> Tensor", kBoth, N::Permute,
     OP { return transpose(a[0].tensor(), a[1].to_int(), a[2].to_int()); }, "transpose",
     "", GRAD { return {F::transpose(c.grad(), c.arg("dim0").to_int(), c.arg("dim1").to_int())}; }},
    {"expand(Tensor self, int[] size) -> Tensor", kMethod, N::Custom,
     OP { return expand(a[0].tensor(), a[1].int_list()); }, "expand",
     "", GRAD { return {c.grad()}; }},  // the engine sums the gradient back to the input's shape
    // Overlapping inputs (expanded tensors) have no derivative (NotImplementedError in backward).
    {"as_strided(Tensor self, int[] size, int[] stride, int? storage_offset=None) -> Tensor", kBoth, N::Unsupported,
     OP { return as_strided(a[0].tensor(), a[1].int_list(), a[2].int_list(), a[3].opt_int()); }, "",
     "geometry", &grad::as_strided},
    {"contiguous(Tensor self, *, MemoryFormat memory_format=contiguous_format) -> Tensor", kMethod, N::Keep,
     OP { return contiguous(a[0].tensor(), a[1].memory_format()); }, "unary_any",
     "", GRAD { return {c.grad()}; }},
    {"is_contiguous(Tensor self, *, MemoryFormat memory_format=contiguous_format) -> bool", kMethod, N::None,
     OP { return is_contiguous_as(a[0].tensor(), a[1].memory_format()); }, ""},  // tests/core/test_memory_format.py
    {"view_as(Tensor self, Tensor other) -> Tensor", kMethod, N::Custom,
     OP { return view_as(a[0].tensor(), a[1].tensor()); }, "view_as",
     "", GRAD { return {F::reshape(c.grad(), c.input_sizes("self"))}; }},
    {"reshape_as(Tensor self, Tensor other) -> Tensor", kMethod, N::Custom,
     OP { return reshape_as(a[0].tensor(), a[1].tensor()); }, "view_as",
     "", GRAD { return {F::reshape(c.grad(), c.input_sizes("self"))}; }},
    {"expand_as(Tensor self, Tensor other) -> Tensor", kMethod, N::Custom,
     OP { return expand_as(a[0].tensor(), a[1].tensor()); }, "expand_as",
     "", GRAD { return {c.grad()}; }},
    {"swapaxes(Tensor self, int axis0, int axis1) -> Tensor", kBoth, N::Permute,
     OP { return transpose(a[0].tensor(), a[1].to_int(), a[2].to_int()); }, "transpose",
     "", GRAD { return {F::transpose(c.grad(), c.arg("axis0").to_int(), c.arg("axis1").to_int())}; }},
    {"swapdims(Tensor self, int dim0, int dim1) -> Tensor", kBoth, N::Permute,
     OP { return transpose(a[0].tensor(), a[1].to_int(), a[2].to_int()); }, "transpose",
     "", GRAD { return {F::transpose(c.grad(), c.arg("dim0").to_int(), c.arg("dim1").to_int())}; }},
    {"t(Tensor self) -> Tensor", kBoth, N::Permute,
     OP { return matrix_t(a[0].tensor()); }, "matrix_t",
     "", GRAD { return {F::tensor_call(TZ_OP("t"), {c.grad()})}; }},
    {"squeeze(Tensor self) -> Tensor", kBoth, N::Custom,
     OP { return squeeze(a[0].tensor()); }, "squeeze",
     "", GRAD { return {F::reshape(c.grad(), c.input_sizes("self"))}; }},
    {"squeeze.dim(Tensor self, int dim) -> Tensor", kBoth, N::Custom,
     OP { return squeeze(a[0].tensor(), a[1].to_int()); }, "squeeze_dim",
     "", GRAD { return {F::reshape(c.grad(), c.input_sizes("self"))}; }},
    {"unsqueeze(Tensor self, int dim) -> Tensor", kBoth, N::Custom,
     OP { return unsqueeze(a[0].tensor(), a[1].to_int()); }, "unsqueeze",
     "", GRAD { return {F::reshape(c.grad(), c.input_sizes("self"))}; }},
    {"flatten(Tensor self, int start_dim=0, int end_dim=-1) -> Tensor", kBoth, N::Custom,
     OP { return flatten(a[0].tensor(), a[1].to_int(), a[2].to_int()); }, "flatten",
     "", GRAD { return {F::reshape(c.grad(), c.input_sizes("self"))}; }},
    {"unflatten(Tensor self, int dim, int[] sizes) -> Tensor", kMethod, N::Custom,
     OP { return unflatten(a[0].tensor(), a[1].to_int(), a[2].int_list()); }, "unflatten",
     "", GRAD { return {F::reshape(c.grad(), c.input_sizes("self"))}; }},
    {"movedim(Tensor self, int[] source, int[] destination) -> Tensor", kBoth, N::Permute,
     OP { return movedim(a[0].tensor(), a[1].int_list(), a[2].int_list()); }, "movedim",
     "", GRAD { return {F::tensor_call(TZ_OP("movedim"), {c.grad(), c.arg("destination"), c.arg("source")})}; }},
    {"moveaxis(Tensor self, int[] source, int[] destination) -> Tensor", kBoth, N::Permute,
     OP { return movedim(a[0].tensor(), a[1].int_list(), a[2].int_list()); }, "movedim",
     "", GRAD { return {F::tensor_call(TZ_OP("movedim"), {c.grad(), c.arg("destination"), c.arg("source")})}; }},
    {"narrow(Tensor self, int dim, int start, int length) -> Tensor", kBoth, N::Keep,
     OP { return narrow(a[0].tensor(), a[1].to_int(), a[2].to_int(), a[3].to_int()); }, "narrow",
     "", &grad::strided_view},
    {"select(Tensor self, int dim, int index) -> Tensor", kBoth, N::Reduce,
     OP { return select(a[0].tensor(), a[1].to_int(), a[2].to_int()); }, "select",
     "", &grad::strided_view},
    {"unbind(Tensor self, int dim=0) -> Tensor[]", kBoth, N::Reduce,
     OP { return unbind(a[0].tensor(), a[1].to_int()); }, "unbind",
     "", GRAD { return grad::pieces(c, c.arg("dim").to_int(), false); }},
    {"split(Tensor self, int split_size, int dim=0) -> Tensor[]", kBoth, N::Keep,
     OP { return split(a[0].tensor(), a[1].to_int(), a[2].to_int()); }, "split",
     "", GRAD { return grad::pieces(c, c.arg("dim").to_int(), true); }},
    {"split_with_sizes(Tensor self, int[] split_sizes, int dim=0) -> Tensor[]", kBoth, N::Keep,
     OP { return split_with_sizes(a[0].tensor(), a[1].int_list(), a[2].to_int()); }, "split_with_sizes",
     "", GRAD { return grad::pieces(c, c.arg("dim").to_int(), true); }},
    {"chunk(Tensor self, int chunks, int dim=0) -> Tensor[]", kBoth, N::Keep,
     OP { return chunk(a[0].tensor(), a[1].to_int(), a[2].to_int()); }, "chunk",
     "", GRAD { return grad::pieces(c, c.arg("dim").to_int(), true); }},
    {"tensor_split(Tensor self, int sections, int dim=0) -> Tensor[]", kBoth, N::Keep,
     OP { return tensor_split(a[0].tensor(), a[1].to_int(), a[2].to_int()); }, "tensor_split",
     "", GRAD { return grad::pieces(c, c.arg("dim").to_int(), true); }},
    {"tensor_split.indices(Tensor self, int[] indices, int dim=0) -> Tensor[]", kBoth, N::Keep,
     OP { return tensor_split(a[0].tensor(), a[1].int_list(), a[2].to_int()); }, "tensor_split_indices",
     "", GRAD { return grad::pieces(c, c.arg("dim").to_int(), true); }},
    {"unfold(Tensor self, int dimension, int size, int step) -> Tensor", kMethod, N::Unsupported,
     OP { return unfold(a[0].tensor(), a[1].to_int(), a[2].to_int(), a[3].to_int()); }, "unfold",
     "", &grad::strided_view},
    {"view_as_real(Tensor self) -> Tensor", kFunction, N::Custom,
     OP { return view_as_real(a[0].tensor()); }, "view_as_real",
     "", GRAD {  // view_as_complex needs the pairs of the gradient adjacent in memory
       return {F::tensor_call(TZ_OP("view_as_complex"), {F::tensor_call(TZ_OP("contiguous"), {c.grad()})})};
     }},
    {"view_as_complex(Tensor self) -> Tensor", kFunction, N::Custom,
     OP { return view_as_complex(a[0].tensor()); }, "view_as_complex",
     "", GRAD { return {F::tensor_call(TZ_OP("view_as_real"), {c.grad()})}; }},
    // ---- internal (not exported): the pieces of Tensor.__getitem__, and backward helpers
    {"slice(Tensor self, int dim, int start, int end, int step) -> Tensor", kInternal, N::Keep,
     OP { return slice(a[0].tensor(), a[1].to_int(), a[2].to_int(), a[3].to_int(), a[4].to_int()); }, "",
     "", &grad::strided_view},
    {"alias(Tensor self) -> Tensor", kInternal, N::Keep,
     OP { return alias(a[0].tensor()); }, "",
     "", GRAD { return {c.grad()}; }},
    {"_view_scatter_add(Tensor grad, int[] base_sizes, int[] size, int[] stride, int offset) -> Tensor", kInternal, N::Unsupported,
     OP { return view_scatter_add(a[0].tensor(), a[1].int_list(), a[2].int_list(), a[3].int_list(), a[4].to_int()); }, "",
     "", &grad::view_scatter_add},
    {"_split_backward(Tensor[] grads, int[] sizes, int dim, int[] starts, bool keepdim) -> Tensor", kInternal, N::Unsupported,
     OP { return split_backward(a[0].tensor_list(), a[1].int_list(), a[2].to_int(), a[3].int_list(), a[4].to_bool()); }, "",
     "", &grad::split_backward},

    // ---------------------------------------------------------------- elementwise
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
#undef TZ_UNARY_ENTRIES
#undef TZ_DERIV
#undef TZ_BINARY_ENTRIES
#undef TZ_COMPARE_ENTRIES

    // ---------------------------------------------------------------- random
    {"rand(int[] size, *, Generator? generator=None, ScalarType? dtype=None) -> Tensor", kFunction, N::Factory,
     OP { return rand(a[0].int_list(), a[1].opt_generator(), a[2].opt_dtype()); }, ""},
    {"randn(int[] size, *, Generator? generator=None, ScalarType? dtype=None) -> Tensor", kFunction, N::Factory,
     OP { return randn(a[0].int_list(), a[1].opt_generator(), a[2].opt_dtype()); }, ""},
    {"randint(int high, int[] size, *, Generator? generator=None, ScalarType? dtype=None) -> Tensor", kFunction, N::Factory,
     OP { return randint(0, a[0].to_int(), a[1].int_list(), a[2].opt_generator(), a[3].opt_dtype()); }, ""},
    {"randint.low(int low, int high, int[] size, *, Generator? generator=None, ScalarType? dtype=None) -> Tensor", kFunction, N::Factory,
     OP { return randint(a[0].to_int(), a[1].to_int(), a[2].int_list(), a[3].opt_generator(), a[4].opt_dtype()); }, ""},
    {"randperm(int n, *, Generator? generator=None, ScalarType? dtype=None) -> Tensor", kFunction, N::Factory,
     OP { return randperm(a[0].to_int(), a[1].opt_generator(), a[2].opt_dtype()); }, ""},
    {"rand_like(Tensor self, *, Generator? generator=None, ScalarType? dtype=None) -> Tensor", kFunction, N::Keep,
     OP { return rand_like(a[0].tensor(), a[1].opt_generator(), a[2].opt_dtype()); }, "", "", not_differentiable},
    {"randn_like(Tensor self, *, Generator? generator=None, ScalarType? dtype=None) -> Tensor", kFunction, N::Keep,
     OP { return randn_like(a[0].tensor(), a[1].opt_generator(), a[2].opt_dtype()); }, "", "", not_differentiable},
    {"randint_like(Tensor self, int high, *, Generator? generator=None, ScalarType? dtype=None) -> Tensor", kFunction, N::Keep,
     OP { return randint_like(a[0].tensor(), 0, a[1].to_int(), a[2].opt_generator(), a[3].opt_dtype()); }, "", "", not_differentiable},
    {"randint_like.low_dtype(Tensor self, int low, int high, *, Generator? generator=None, ScalarType? dtype=None) -> Tensor", kFunction, N::Keep,
     OP { return randint_like(a[0].tensor(), a[1].to_int(), a[2].to_int(), a[3].opt_generator(), a[4].opt_dtype()); }, "", "", not_differentiable},
    // A Python float also fits a Tensor parameter, so the float forms come first.
    {"normal.float_float(float mean, float std, int[] size, *, Generator? generator=None, ScalarType? dtype=None) -> Tensor", kFunction, N::Factory,
     OP { return normal(a[0].to_double(), a[1].to_double(), a[2].int_list(), a[3].opt_generator(), a[4].opt_dtype()); }, ""},
    {"normal.float_Tensor(float mean, Tensor std, *, Generator? generator=None) -> Tensor", kFunction, N::Unsupported,
     OP { return normal(a[0].to_double(), a[1].tensor(), a[2].opt_generator()); }, "", "", &zero_grads},
    {"normal.Tensor_float(Tensor mean, float std=1, *, Generator? generator=None) -> Tensor", kFunction, N::Unsupported,
     OP { return normal(a[0].tensor(), a[1].to_double(), a[2].opt_generator()); }, "", "", &zero_grads},
    {"normal.Tensor_Tensor(Tensor mean, Tensor std, *, Generator? generator=None) -> Tensor", kFunction, N::Unsupported,
     OP { return normal(a[0].tensor(), a[1].tensor(), a[2].opt_generator()); }, "", "", &zero_grads},
    {"bernoulli(Tensor self, *, Generator? generator=None) -> Tensor", kBoth, N::Keep,
     OP { return bernoulli(a[0].tensor(), a[1].opt_generator()); }, "", "", &zero_grads},
    {"bernoulli.p(Tensor self, float p, *, Generator? generator=None) -> Tensor", kBoth, N::Keep,
     OP { return bernoulli(a[0].tensor(), a[1].to_double(), a[2].opt_generator()); }, "", "", &zero_grads},
    {"multinomial(Tensor self, int num_samples, bool replacement=False, *, Generator? generator=None) -> Tensor", kBoth, N::Unsupported,
     OP { return multinomial(a[0].tensor(), a[1].to_int(), a[2].to_bool(), a[3].opt_generator()); }, ""},
    {"uniform_(Tensor self, float from=0, float to=1, *, Generator? generator=None) -> Tensor", kMethod, N::Keep,
     OP { return uniform_(a[0].tensor(), a[1].to_double(), a[2].to_double(), a[3].opt_generator()); }, "", "", &zero_grads},
    {"normal_(Tensor self, float mean=0, float std=1, *, Generator? generator=None) -> Tensor", kMethod, N::Keep,
     OP { return normal_(a[0].tensor(), a[1].to_double(), a[2].to_double(), a[3].opt_generator()); }, "", "", &zero_grads},
    // random_(), random_(to), random_(from, to): the one-int form must win over from-only.
    {"random_(Tensor self, *, Generator? generator=None) -> Tensor", kMethod, N::Keep,
     OP { return random_(a[0].tensor(), a[1].opt_generator()); }, "", "", &zero_grads},
    {"random_.to(Tensor self, int to, *, Generator? generator=None) -> Tensor", kMethod, N::Keep,
     OP { return random_(a[0].tensor(), a[1].to_int(), a[2].opt_generator()); }, "", "", &zero_grads},
    {"random_.from(Tensor self, int from, int? to, *, Generator? generator=None) -> Tensor", kMethod, N::Keep,
     OP { return random_(a[0].tensor(), a[1].to_int(), a[2].opt_int(), a[3].opt_generator()); }, "", "", &zero_grads},
    {"bernoulli_.float(Tensor self, float p=0.5, *, Generator? generator=None) -> Tensor", kMethod, N::Keep,
     OP { return bernoulli_(a[0].tensor(), a[1].to_double(), a[2].opt_generator()); }, "", "", &zero_grads},
    {"bernoulli_.Tensor(Tensor self, Tensor p, *, Generator? generator=None) -> Tensor", kMethod, N::Keep,
     OP { return bernoulli_(a[0].tensor(), a[1].tensor(), a[2].opt_generator()); }, "", "", &zero_grads},
    {"exponential_(Tensor self, float lambd=1, *, Generator? generator=None) -> Tensor", kMethod, N::Keep,
     OP { return exponential_(a[0].tensor(), a[1].to_double(), a[2].opt_generator()); }, "", "", &zero_grads},
    {"cauchy_(Tensor self, float median=0, float sigma=1, *, Generator? generator=None) -> Tensor", kMethod, N::Keep,
     OP { return cauchy_(a[0].tensor(), a[1].to_double(), a[2].to_double(), a[3].opt_generator()); }, "", "", &zero_grads},
    {"log_normal_(Tensor self, float mean=1, float std=2, *, Generator? generator=None) -> Tensor", kMethod, N::Keep,
     OP { return log_normal_(a[0].tensor(), a[1].to_double(), a[2].to_double(), a[3].opt_generator()); }, "", "", &zero_grads},
    {"geometric_(Tensor self, float p, *, Generator? generator=None) -> Tensor", kMethod, N::Keep,
     OP { return geometric_(a[0].tensor(), a[1].to_double(), a[2].opt_generator()); }, "", "", &zero_grads},

    // ---------------------------------------------------------------- indexing
    {"index_select(Tensor self, int dim, Tensor index) -> Tensor", kBoth, N::Keep,
     OP { return index_select(a[0].tensor(), a[1].to_int(), a[2].tensor()); }, "index_select",
     "index", GRAD {
       Tensor z = zeros(c.input_sizes("self"), c.grad().dtype());  // repeated indices accumulate
       return {F::tensor_call(TZ_OP("index_add"), {z, c.arg("dim"), c.input("index"), c.grad()})};
     }},
    {"gather(Tensor self, int dim, Tensor index, *, bool sparse_grad=False) -> Tensor", kBoth, N::Unsupported,
     OP { return gather(a[0].tensor(), a[1].to_int(), a[2].tensor()); }, "gather",
     "index", GRAD {
       Tensor z = zeros(c.input_sizes("self"), c.grad().dtype());
       return {F::tensor_call(TZ_OP("scatter_add"), {z, c.arg("dim"), c.input("index"), c.grad()})};
     }},
    // A Python number given as `src` is the value overload (Tensor params accept numbers).
    {"scatter.src(Tensor self, int dim, Tensor index, Tensor src, *, str? reduce=None) -> Tensor", kBoth, N::Unsupported,
     OP {
       auto reduce = a[4].is_none() ? std::optional<std::string>() : a[4].str();
       const Tensor& src = a[3].tensor();
       if (src.impl()->wrapped_number) return scatter(a[0].tensor(), a[1].to_int(), a[2].tensor(), item(src), reduce);
       return scatter(a[0].tensor(), a[1].to_int(), a[2].tensor(), src, reduce);
     }, "scatter",
     "index", &grad::scatter},
    {"scatter.value(Tensor self, int dim, Tensor index, Scalar value, *, str? reduce=None) -> Tensor", kBoth, N::Unsupported,
     OP {
       auto reduce = a[4].is_none() ? std::optional<std::string>() : a[4].str();
       return scatter(a[0].tensor(), a[1].to_int(), a[2].tensor(), a[3].scalar(), reduce);
     }, "scatter_value",
     "index", &grad::scatter},
    {"scatter_.src(Tensor self, int dim, Tensor index, Tensor src, *, str? reduce=None) -> Tensor", kMethod, N::Unsupported,
     OP {
       auto reduce = a[4].is_none() ? std::optional<std::string>() : a[4].str();
       const Tensor& src = a[3].tensor();
       if (src.impl()->wrapped_number) return scatter_(a[0].tensor(), a[1].to_int(), a[2].tensor(), item(src), reduce);
       return scatter_(a[0].tensor(), a[1].to_int(), a[2].tensor(), src, reduce);
     }, "scatter",
     "index", &grad::scatter},
    {"scatter_.value(Tensor self, int dim, Tensor index, Scalar value, *, str? reduce=None) -> Tensor", kMethod, N::Unsupported,
     OP {
       auto reduce = a[4].is_none() ? std::optional<std::string>() : a[4].str();
       return scatter_(a[0].tensor(), a[1].to_int(), a[2].tensor(), a[3].scalar(), reduce);
     }, "scatter_value",
     "index", &grad::scatter},
    {"scatter_add(Tensor self, int dim, Tensor index, Tensor src) -> Tensor", kBoth, N::Unsupported,
     OP { return scatter_add(a[0].tensor(), a[1].to_int(), a[2].tensor(), a[3].tensor()); }, "scatter",
     "index", &grad::scatter_add},
    {"scatter_add_(Tensor self, int dim, Tensor index, Tensor src) -> Tensor", kMethod, N::Unsupported,
     OP { return scatter_add_(a[0].tensor(), a[1].to_int(), a[2].tensor(), a[3].tensor()); }, "scatter",
     "index", &grad::scatter_add},
    {"index_add_(Tensor self, int dim, Tensor index, Tensor source, *, Scalar alpha=1) -> Tensor", kMethod, N::Unsupported,
     OP { return index_add_(a[0].tensor(), a[1].to_int(), a[2].tensor(), a[3].tensor(), a[4].scalar()); }, "index_add",
     "index", &grad::index_add},
    {"index_add(Tensor self, int dim, Tensor index, Tensor source, *, Scalar alpha=1) -> Tensor", kBoth, N::Unsupported,
     OP { return index_add(a[0].tensor(), a[1].to_int(), a[2].tensor(), a[3].tensor(), a[4].scalar()); }, "index_add",
     "index", &grad::index_add},
    {"index_copy_(Tensor self, int dim, Tensor index, Tensor source) -> Tensor", kMethod, N::Unsupported,
     OP { return index_copy_(a[0].tensor(), a[1].to_int(), a[2].tensor(), a[3].tensor()); }, "index_copy",
     "index", &grad::index_copy},
    {"index_copy(Tensor self, int dim, Tensor index, Tensor source) -> Tensor", kBoth, N::Unsupported,
     OP { return index_copy(a[0].tensor(), a[1].to_int(), a[2].tensor(), a[3].tensor()); }, "index_copy",
     "index", &grad::index_copy},
    // Fill values: a Python number or a 0-d tensor (the Tensor overloads come first to check that).
    {"index_fill_.int_Tensor(Tensor self, int dim, Tensor index, Tensor value) -> Tensor", kMethod, N::Keep,
     OP { return index_fill_(a[0].tensor(), a[1].to_int(), a[2].tensor(), zero_dim_value(a[3].tensor(), "index_fill_")); }, "index_fill",
     "index", &grad::index_fill},
    {"index_fill_.int_Scalar(Tensor self, int dim, Tensor index, Scalar value) -> Tensor", kMethod, N::Keep,
     OP { return index_fill_(a[0].tensor(), a[1].to_int(), a[2].tensor(), a[3].scalar()); }, "index_fill",
     "index", &grad::index_fill},
    {"index_fill.int_Tensor(Tensor self, int dim, Tensor index, Tensor value) -> Tensor", kBoth, N::Keep,
     OP { return index_fill(a[0].tensor(), a[1].to_int(), a[2].tensor(), zero_dim_value(a[3].tensor(), "index_fill")); }, "index_fill",
     "index", &grad::index_fill},
    {"index_fill.int_Scalar(Tensor self, int dim, Tensor index, Scalar value) -> Tensor", kBoth, N::Keep,
     OP { return index_fill(a[0].tensor(), a[1].to_int(), a[2].tensor(), a[3].scalar()); }, "index_fill",
     "index", &grad::index_fill},
    {"masked_fill_.Tensor(Tensor self, Tensor mask, Tensor value) -> Tensor", kMethod, N::Unify,
     OP { return masked_fill_(a[0].tensor(), a[1].tensor(), zero_dim_value(a[2].tensor(), "masked_fill_")); }, "masked_fill",
     "mask", &grad::masked_fill},
    {"masked_fill_.Scalar(Tensor self, Tensor mask, Scalar value) -> Tensor", kMethod, N::Unify,
     OP { return masked_fill_(a[0].tensor(), a[1].tensor(), a[2].scalar()); }, "masked_fill",
     "mask", &grad::masked_fill},
    {"masked_fill.Tensor(Tensor self, Tensor mask, Tensor value) -> Tensor", kBoth, N::Unify,
     OP { return masked_fill(a[0].tensor(), a[1].tensor(), zero_dim_value(a[2].tensor(), "masked_fill")); }, "masked_fill",
     "mask", &grad::masked_fill},
    {"masked_fill.Scalar(Tensor self, Tensor mask, Scalar value) -> Tensor", kBoth, N::Unify,
     OP { return masked_fill(a[0].tensor(), a[1].tensor(), a[2].scalar()); }, "masked_fill",
     "mask", &grad::masked_fill},
    {"masked_select(Tensor self, Tensor mask) -> Tensor", kBoth, N::Unsupported,
     OP { return masked_select(a[0].tensor(), a[1].tensor()); }, "masked_select",
     "mask", &grad::masked_select},
    {"masked_scatter_(Tensor self, Tensor mask, Tensor source) -> Tensor", kMethod, N::Unsupported,
     OP { return masked_scatter_(a[0].tensor(), a[1].tensor(), a[2].tensor()); }, "masked_scatter",
     "mask", &grad::masked_scatter},
    {"masked_scatter(Tensor self, Tensor mask, Tensor source) -> Tensor", kBoth, N::Unsupported,
     OP { return masked_scatter(a[0].tensor(), a[1].tensor(), a[2].tensor()); }, "masked_scatter",
     "mask", &grad::masked_scatter},
    // Tensor.where(condition, y) puts self second: core/_tensor.py defines that method.
    {"where.self(Tensor condition, Tensor self, Tensor other) -> Tensor", kFunction, N::Unify,
     OP { return where(a[0].tensor(), a[1].tensor(), a[2].tensor()); }, "where",
     "condition", GRAD {
       const Tensor& cond = c.input("condition");
       Tensor zero = scalar_to_tensor(Scalar(0.0));
       return {Tensor(), c.needs_grad("self") ? F::tensor_call(TZ_OP("where.self"), {cond, c.grad(), zero}) : Tensor(),
               c.needs_grad("other") ? F::tensor_call(TZ_OP("where.self"), {cond, zero, c.grad()}) : Tensor()};
     }},
    {"where(Tensor condition) -> Tensor[]", kFunction, N::Unsupported,
     OP { return nonzero_numpy(a[0].tensor()); }, "unary_any"},
    {"nonzero(Tensor self, *, bool as_tuple=False) -> Tensor", kBoth, N::Unsupported,
     OP {
       if (a[1].to_bool()) return nonzero_numpy(a[0].tensor());
       return nonzero(a[0].tensor());
     }, "unary_any"},
    {"argwhere(Tensor self) -> Tensor", kBoth, N::Unsupported,
     OP { return nonzero(a[0].tensor()); }, "unary_any"},
    {"take(Tensor self, Tensor index) -> Tensor", kBoth, N::Unsupported,
     OP { return take(a[0].tensor(), a[1].tensor()); }, "take",
     "index", &grad::take},
    {"put_(Tensor self, Tensor index, Tensor source, bool accumulate=False) -> Tensor", kMethod, N::Unsupported,
     OP { return put_(a[0].tensor(), a[1].tensor(), a[2].tensor(), a[3].to_bool()); }, "put",
     "index", &grad::put},
    {"put(Tensor self, Tensor index, Tensor source, bool accumulate=False) -> Tensor", kBoth, N::Unsupported,
     OP { return put(a[0].tensor(), a[1].tensor(), a[2].tensor(), a[3].to_bool()); }, "put",
     "index", &grad::put},
    // Tensor?[] arguments are not generated by the op matrix: tests/core/test_indexing.py covers these.
    {"index_put_(Tensor self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor", kMethod, N::Unsupported,
     OP { return index_put_(a[0].tensor(), a[1].tensor_list(), a[2].tensor(), a[3].to_bool()); }, "",
     "indices", &grad::index_put},
    {"index_put(Tensor self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor", kBoth, N::Unsupported,
     OP { return index_put(a[0].tensor(), a[1].tensor_list(), a[2].tensor(), a[3].to_bool()); }, "",
     "indices", &grad::index_put},

    // self[indices] of Tensor.__getitem__ (internal; the Python spelling is t[...]).
    {"index.Tensor(Tensor self, Tensor?[] indices) -> Tensor", kInternal, N::Unsupported,
     OP { return index(a[0].tensor(), a[1].tensor_list()); }, "",
     "indices", &grad::index},

    // ---------------------------------------------------------------- joining
    {"cat(Tensor[] tensors, int dim=0) -> Tensor", kFunction, N::Custom,
     OP { return cat(a[0].tensor_list(), a[1].to_int()); }, "cat",
     "", GRAD { return grad::cat_backward(c, c.arg("dim").to_int()); }},
    {"concat(Tensor[] tensors, int dim=0) -> Tensor", kFunction, N::Custom,
     OP { return cat(a[0].tensor_list(), a[1].to_int()); }, "cat",
     "", GRAD { return grad::cat_backward(c, c.arg("dim").to_int()); }},
    {"stack(Tensor[] tensors, int dim=0) -> Tensor", kFunction, N::Unsupported,
     OP { return stack(a[0].tensor_list(), a[1].to_int()); }, "stack",
     "", GRAD { return grad::stack_backward(c, c.arg("dim").to_int()); }},
    {"hstack(Tensor[] tensors) -> Tensor", kFunction, N::Unsupported,
     OP { return hstack(a[0].tensor_list()); }, "stack_np",
     "", GRAD { return grad::stack_np_backward(c, grad::StackKind::H); }},
    {"vstack(Tensor[] tensors) -> Tensor", kFunction, N::Unsupported,
     OP { return vstack(a[0].tensor_list()); }, "stack_np",
     "", GRAD { return grad::stack_np_backward(c, grad::StackKind::V); }},
    {"dstack(Tensor[] tensors) -> Tensor", kFunction, N::Unsupported,
     OP { return dstack(a[0].tensor_list()); }, "stack_np",
     "", GRAD { return grad::stack_np_backward(c, grad::StackKind::D); }},
    {"column_stack(Tensor[] tensors) -> Tensor", kFunction, N::Unsupported,
     OP { return column_stack(a[0].tensor_list()); }, "stack_np",
     "", GRAD { return grad::stack_np_backward(c, grad::StackKind::Column); }},
    {"atleast_1d(Tensor self) -> Tensor", kFunction, N::Unsupported,
     OP { return atleast_1d(a[0].tensor()); }, "unary_any",
     "", GRAD { return grad::reshape_each_backward(c); }},
    {"atleast_1d.Sequence(Tensor[] tensors) -> Tensor[]", kFunction, N::Unsupported,
     OP { return atleast_1d(a[0].tensor_list()); }, "",
     "", GRAD { return grad::reshape_each_backward(c); }},
    {"atleast_2d(Tensor self) -> Tensor", kFunction, N::Unsupported,
     OP { return atleast_2d(a[0].tensor()); }, "unary_any",
     "", GRAD { return grad::reshape_each_backward(c); }},
    {"atleast_2d.Sequence(Tensor[] tensors) -> Tensor[]", kFunction, N::Unsupported,
     OP { return atleast_2d(a[0].tensor_list()); }, "",
     "", GRAD { return grad::reshape_each_backward(c); }},
    {"atleast_3d(Tensor self) -> Tensor", kFunction, N::Unsupported,
     OP { return atleast_3d(a[0].tensor()); }, "unary_any",
     "", GRAD { return grad::reshape_each_backward(c); }},
    {"atleast_3d.Sequence(Tensor[] tensors) -> Tensor[]", kFunction, N::Unsupported,
     OP { return atleast_3d(a[0].tensor_list()); }, "",
     "", GRAD { return grad::reshape_each_backward(c); }},
    {"flip(Tensor self, int[] dims) -> Tensor", kBoth, N::Keep,
     OP { return flip(a[0].tensor(), a[1].int_list()); }, "flip",
     "", GRAD { return {grad::op(TZ_OP("flip"), {c.grad(), c.arg("dims")})}; }},
    {"fliplr(Tensor self) -> Tensor", kBoth, N::Keep,
     OP { return fliplr(a[0].tensor()); }, "matrix_any",
     "", GRAD { return {grad::op(TZ_OP("fliplr"), {c.grad()})}; }},
    {"flipud(Tensor self) -> Tensor", kBoth, N::Keep,
     OP { return flipud(a[0].tensor()); }, "matrix_any",
     "", GRAD { return {grad::op(TZ_OP("flipud"), {c.grad()})}; }},
    // `int[1]? dims` (None = flatten) rather than `int[1] dims=[]`: a defaulted param after
    // `shifts` would make `x.roll(1, 0)` parse as varargs shifts=(1, 0).
    {"roll(Tensor self, int[1] shifts, int[1]? dims) -> Tensor", kBoth, N::Unsupported,
     OP { return roll(a[0].tensor(), a[1].int_list(), a[2].opt_int_list().value_or(IntList{})); }, "roll",
     "", GRAD { return {grad::op(TZ_OP("roll"), {c.grad(), grad::negated(c.arg("shifts").int_list()), c.arg("dims")})}; }},
    {"rot90(Tensor self, int k=1, int[] dims=[0,1]) -> Tensor", kBoth, N::Unsupported,
     OP { return rot90(a[0].tensor(), a[1].to_int(), a[2].int_list()); }, "rot90",
     "", GRAD { return {grad::op(TZ_OP("rot90"), {c.grad(), -c.arg("k").to_int(), c.arg("dims")})}; }},
    {"repeat(Tensor self, int[] repeats) -> Tensor", kMethod, N::Unsupported,
     OP { return repeat(a[0].tensor(), a[1].int_list()); }, "repeat",
     "", GRAD { return {grad::repeat_backward(c.grad(), c.input_sizes("self"), c.arg("repeats").int_list())}; }},
    {"tile(Tensor self, int[] dims) -> Tensor", kBoth, N::Unsupported,
     OP { return tile(a[0].tensor(), a[1].int_list()); }, "tile",
     "", GRAD { return {grad::tile_backward(c.grad(), c.input_sizes("self"), c.arg("dims").int_list())}; }},
    // int before Tensor: a Python int would otherwise become a 0-dim repeats tensor.
    {"repeat_interleave.self_int(Tensor self, int repeats, int? dim=None) -> Tensor", kBoth, N::Unsupported,
     OP { return repeat_interleave(a[0].tensor(), a[1].to_int(), a[2].opt_int()); }, "repeat_interleave",
     "", GRAD {
       return {grad::repeat_interleave_backward(c.grad(), c.input_sizes("self"), c.arg("repeats").to_int(), c.arg("dim").opt_int())};
     }},
    {"repeat_interleave.self_Tensor(Tensor self, Tensor repeats, int? dim=None) -> Tensor", kBoth, N::Unsupported,
     OP { return repeat_interleave(a[0].tensor(), a[1].tensor(), a[2].opt_int()); }, "repeat_interleave_tensor",
     "repeats", GRAD {
       return {grad::repeat_interleave_backward(c.grad(), c.input_sizes("self"), c.input("repeats"), c.arg("dim").opt_int())};
     }},
    {"repeat_interleave.Tensor(Tensor repeats) -> Tensor", kFunction, N::Unsupported,
     OP { return repeat_interleave(a[0].tensor()); }, "repeat_interleave_index",
     "", &not_differentiable},  // integer in, integer out
    {"tril(Tensor self, int diagonal=0) -> Tensor", kBoth, N::Unsupported,
     OP { return tril(a[0].tensor(), a[1].to_int()); }, "triangular",
     "", GRAD { return {grad::op(TZ_OP("tril"), {c.grad(), c.arg("diagonal")})}; }},
    {"triu(Tensor self, int diagonal=0) -> Tensor", kBoth, N::Unsupported,
     OP { return triu(a[0].tensor(), a[1].to_int()); }, "triangular",
     "", GRAD { return {grad::op(TZ_OP("triu"), {c.grad(), c.arg("diagonal")})}; }},
    {"tril_(Tensor self, int diagonal=0) -> Tensor", kMethod, N::Unsupported,
     OP { return tril_(a[0].tensor(), a[1].to_int()); }, "triangular",
     "", GRAD { return {grad::op(TZ_OP("tril"), {c.grad(), c.arg("diagonal")})}; }},
    {"triu_(Tensor self, int diagonal=0) -> Tensor", kMethod, N::Unsupported,
     OP { return triu_(a[0].tensor(), a[1].to_int()); }, "triangular",
     "", GRAD { return {grad::op(TZ_OP("triu"), {c.grad(), c.arg("diagonal")})}; }},
    {"diag(Tensor self, int diagonal=0) -> Tensor", kBoth, N::Unsupported,
     OP { return diag(a[0].tensor(), a[1].to_int()); }, "diag",
     "", GRAD {
       const int64_t k = c.arg("diagonal").to_int();
       if (c.input_sizes("self").size() == 1) return {grad::op(TZ_OP("diagonal"), {c.grad(), k})};
       return {grad::diagonal_backward(c.grad(), c.input_sizes("self"), k, 0, 1)};
     }},
    {"diag_embed(Tensor self, int offset=0, int dim1=-2, int dim2=-1) -> Tensor", kBoth, N::Unsupported,
     OP { return diag_embed(a[0].tensor(), a[1].to_int(), a[2].to_int(), a[3].to_int()); }, "diag_embed",
     "", GRAD { return {grad::op(TZ_OP("diagonal"), {c.grad(), c.arg("offset"), c.arg("dim1"), c.arg("dim2")})}; }},
    {"diagonal(Tensor self, int offset=0, int dim1=0, int dim2=1) -> Tensor", kBoth, N::Unsupported,
     OP { return diagonal(a[0].tensor(), a[1].to_int(), a[2].to_int(), a[3].to_int()); }, "diagonal",
     "", GRAD {
       return {grad::diagonal_backward(c.grad(), c.input_sizes("self"), c.arg("offset").to_int(), c.arg("dim1").to_int(), c.arg("dim2").to_int())};
     }},
    {"trace(Tensor self) -> Tensor", kBoth, N::Unsupported,
     OP { return trace(a[0].tensor()); }, "trace",
     "", GRAD { return {grad::trace_backward(c.grad(), c.input_sizes("self"))}; }},
    {"meshgrid(Tensor[] tensors, *, str indexing='ij') -> Tensor[]", kFunction, N::Unsupported,
     OP { return meshgrid(a[0].tensor_list(), a[1].str()); }, "meshgrid",
     "", GRAD { return grad::meshgrid_backward(c, c.arg("indexing").str()); }},
    {"cartesian_prod(Tensor[] tensors) -> Tensor", kFunction, N::Unsupported,
     OP { return cartesian_prod(a[0].tensor_list()); }, "cartesian_prod",
     "", GRAD { return grad::cartesian_prod_backward(c); }},
    {"broadcast_tensors(Tensor[] tensors) -> Tensor[]", kFunction, N::Unsupported,
     OP { return broadcast_tensors(a[0].tensor_list()); }, "broadcast_tensors",
     "", GRAD { return c.grads; }},
    {"broadcast_to(Tensor self, int[] size) -> Tensor", kBoth, N::Unsupported,
     OP { return broadcast_to(a[0].tensor(), a[1].int_list()); }, "expand",
     "", GRAD { return {c.grad()}; }},
    {"pad(Tensor self, int[] pad, str mode='constant', float? value=None) -> Tensor", kFunction, N::Unsupported,
     OP { return pad(a[0].tensor(), a[1].int_list(), a[2].str(), a[3].opt_double()); }, "pad",
     "", GRAD { return {grad::pad_backward(c.grad(), c.input_sizes("self"), c.arg("pad").int_list(), c.arg("mode").str())}; }},

    // ---------------------------------------------------------------- reduction
    {"sum(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", kBoth, N::Reduce,
     OP { return sum(a[0].tensor(), a[1].opt_int_list(), a[2].to_bool(), a[3].opt_dtype()); }, "reduce_sum",
     "", GRAD { return {F::expand_reduced(c.grad(), c.input_sizes("self"), c.arg("dim").opt_int_list(), c.arg("keepdim").to_bool())}; }},
    {"nansum(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", kBoth, N::Reduce,
     OP { return nansum(a[0].tensor(), a[1].opt_int_list(), a[2].to_bool(), a[3].opt_dtype()); }, "reduce_sum",
     "self", GRAD { return grad::nansum(c); }},
    {"mean(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", kBoth, N::Reduce,
     OP { return mean(a[0].tensor(), a[1].opt_int_list(), a[2].to_bool(), a[3].opt_dtype()); }, "reduce_float",
     "", GRAD { return grad::mean(c); }},
    {"prod(Tensor self, int? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", kBoth, N::Reduce,
     OP { return prod(a[0].tensor(), a[1].opt_int(), a[2].to_bool(), a[3].opt_dtype()); }, "reduce_one_dim",
     "self result", GRAD { return grad::prod(c); }},
    {"max(Tensor self) -> Tensor", kBoth, N::Reduce,
     OP { return max_all(a[0].tensor(), true); }, "reduce_all_nonempty",
     "self result", GRAD { return grad::evenly_distribute(c); }},
    {"max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)", kBoth, N::Reduce,
     OP { auto r = max_dim(a[0].tensor(), a[1].to_int(), a[2].to_bool(), true); return Value::Tuple{r.first, r.second}; }, "reduce_dim_nonempty",
     "result", GRAD { return grad::select_dim(c, 1, 2); }},
    {"min(Tensor self) -> Tensor", kBoth, N::Reduce,
     OP { return max_all(a[0].tensor(), false); }, "reduce_all_nonempty",
     "self result", GRAD { return grad::evenly_distribute(c); }},
    {"min.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)", kBoth, N::Reduce,
     OP { auto r = max_dim(a[0].tensor(), a[1].to_int(), a[2].to_bool(), false); return Value::Tuple{r.first, r.second}; }, "reduce_dim_nonempty",
     "result", GRAD { return grad::select_dim(c, 1, 2); }},
    {"amax(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor", kBoth, N::Reduce,
     OP { return amax(a[0].tensor(), a[1].int_list(), a[2].to_bool(), true); }, "reduce_dims_nonempty",
     "self result", GRAD { return grad::amax(c); }},
    {"amin(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor", kBoth, N::Reduce,
     OP { return amax(a[0].tensor(), a[1].int_list(), a[2].to_bool(), false); }, "reduce_dims_nonempty",
     "self result", GRAD { return grad::amax(c); }},
    {"argmax(Tensor self, int? dim=None, bool keepdim=False) -> Tensor", kBoth, N::Reduce,
     OP { return argmax(a[0].tensor(), a[1].opt_int(), a[2].to_bool(), true); }, "reduce_arg"},
    {"argmin(Tensor self, int? dim=None, bool keepdim=False) -> Tensor", kBoth, N::Reduce,
     OP { return argmax(a[0].tensor(), a[1].opt_int(), a[2].to_bool(), false); }, "reduce_arg"},
    // `x.var(True)` means unbiased (bools are not dims), so this overload comes first.
    {"var.unbiased(Tensor self, bool unbiased) -> Tensor", kBoth, N::Reduce,
     OP { return var(a[0].tensor(), std::nullopt, a[1].to_bool() ? 1.0 : 0.0, false, false); }, "reduce_unbiased",
     "self", GRAD { return grad::var(c, false, true); }},
    {"var(Tensor self, int[1]? dim=None, bool unbiased=True, bool keepdim=False, *, Scalar? correction=None) -> Tensor", kBoth, N::Reduce,
     OP { return var(a[0].tensor(), a[1].opt_int_list(), var_correction(a[2].to_bool(), a[4].is_none() ? std::nullopt : std::optional<Scalar>(a[4].scalar())), a[3].to_bool(), false); }, "reduce_var",
     "self", GRAD { return grad::var(c, false, false); }},
    {"std.unbiased(Tensor self, bool unbiased) -> Tensor", kBoth, N::Reduce,
     OP { return var(a[0].tensor(), std::nullopt, a[1].to_bool() ? 1.0 : 0.0, false, true); }, "reduce_unbiased",
     "self result", GRAD { return grad::var(c, true, true); }},
    {"std(Tensor self, int[1]? dim=None, bool unbiased=True, bool keepdim=False, *, Scalar? correction=None) -> Tensor", kBoth, N::Reduce,
     OP { return var(a[0].tensor(), a[1].opt_int_list(), var_correction(a[2].to_bool(), a[4].is_none() ? std::nullopt : std::optional<Scalar>(a[4].scalar())), a[3].to_bool(), true); }, "reduce_var",
     "self result", GRAD { return grad::var(c, true, false); }},
    {"var_mean.unbiased(Tensor self, bool unbiased) -> (Tensor, Tensor)", kFunction, N::Reduce,
     OP { auto r = var_mean(a[0].tensor(), std::nullopt, a[1].to_bool() ? 1.0 : 0.0, false, false); return Value::Tuple{r.first, r.second}; }, "reduce_unbiased",
     "self", GRAD { return grad::var_mean(c, false, true); }},
    {"var_mean(Tensor self, int[1]? dim=None, bool unbiased=True, bool keepdim=False, *, Scalar? correction=None) -> (Tensor, Tensor)", kFunction, N::Reduce,
     OP { auto r = var_mean(a[0].tensor(), a[1].opt_int_list(), var_correction(a[2].to_bool(), a[4].is_none() ? std::nullopt : std::optional<Scalar>(a[4].scalar())), a[3].to_bool(), false); return Value::Tuple{r.first, r.second}; }, "reduce_var",
     "self", GRAD { return grad::var_mean(c, false, false); }},
    {"std_mean.unbiased(Tensor self, bool unbiased) -> (Tensor, Tensor)", kFunction, N::Reduce,
     OP { auto r = var_mean(a[0].tensor(), std::nullopt, a[1].to_bool() ? 1.0 : 0.0, false, true); return Value::Tuple{r.first, r.second}; }, "reduce_unbiased",
     "self result", GRAD { return grad::var_mean(c, true, true); }},
    {"std_mean(Tensor self, int[1]? dim=None, bool unbiased=True, bool keepdim=False, *, Scalar? correction=None) -> (Tensor, Tensor)", kFunction, N::Reduce,
     OP { auto r = var_mean(a[0].tensor(), a[1].opt_int_list(), var_correction(a[2].to_bool(), a[4].is_none() ? std::nullopt : std::optional<Scalar>(a[4].scalar())), a[3].to_bool(), true); return Value::Tuple{r.first, r.second}; }, "reduce_var",
     "self result", GRAD { return grad::var_mean(c, true, false); }},
    {"norm(Tensor self, Scalar? p=2, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", kBoth, N::Reduce,
     OP { return norm(a[0].tensor(), a[1].is_none() ? 2.0 : a[1].scalar().to_double(), a[2].opt_int_list(), a[3].to_bool(), a[4].opt_dtype()); }, "reduce_norm",
     "self result", GRAD { return grad::norm(c, false); }},
    {"norm.str(Tensor self, str p, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", kBoth, N::Reduce,
     OP { return norm_str(a[0].tensor(), a[1].str(), a[2].opt_int_list(), a[3].to_bool(), a[4].opt_dtype()); }, "reduce_norm_str",
     "self result", GRAD { return grad::norm(c, true); }},
    {"logsumexp(Tensor self, int[1] dim, bool keepdim=False) -> Tensor", kBoth, N::Reduce,
     OP { return logsumexp(a[0].tensor(), a[1].int_list(), a[2].to_bool()); }, "reduce_logsumexp",
     "self", GRAD { return grad::logsumexp(c); }},
    {"all(Tensor self, int[1]? dim=None, bool keepdim=False) -> Tensor", kBoth, N::Reduce,
     OP { return all(a[0].tensor(), a[1].opt_int_list(), a[2].to_bool()); }, "reduce_logical"},
    {"any(Tensor self, int[1]? dim=None, bool keepdim=False) -> Tensor", kBoth, N::Reduce,
     OP { return any(a[0].tensor(), a[1].opt_int_list(), a[2].to_bool()); }, "reduce_logical"},
    {"count_nonzero(Tensor self, int[1]? dim=None) -> Tensor", kBoth, N::Reduce,
     OP { return count_nonzero(a[0].tensor(), a[1].opt_int_list()); }, "reduce_count"},
    {"cumsum(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor", kBoth, N::Keep,
     OP { return cumsum(a[0].tensor(), a[1].to_int(), a[2].opt_dtype()); }, "scan",
     "", GRAD { return grad::cumsum(c); }},
    {"cumprod(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor", kBoth, N::Keep,
     OP { return cumprod(a[0].tensor(), a[1].to_int(), a[2].opt_dtype()); }, "scan",
     "self result", GRAD { return grad::cumprod(c); }},
    {"softmax(Tensor self, int dim, ScalarType? dtype=None) -> Tensor", kBoth, N::Keep,
     OP { return softmax(a[0].tensor(), a[1].to_int(), a[2].opt_dtype(), false); }, "softmax",
     "result", GRAD { return grad::softmax(c); }},
    {"log_softmax(Tensor self, int dim, ScalarType? dtype=None) -> Tensor", kBoth, N::Keep,
     OP { return softmax(a[0].tensor(), a[1].to_int(), a[2].opt_dtype(), true); }, "softmax",
     "result", GRAD { return grad::log_softmax(c); }},
    // Fused gradients of the two, used by their formulas when no graph is being recorded.
    {"_softmax_backward_data(Tensor grad_output, Tensor output, int dim) -> Tensor", kInternal, N::Keep,
     OP { return softmax_backward_data(a[0].tensor(), a[1].tensor(), a[2].to_int(), false); }, ""},
    {"_log_softmax_backward_data(Tensor grad_output, Tensor output, int dim) -> Tensor", kInternal, N::Keep,
     OP { return softmax_backward_data(a[0].tensor(), a[1].tensor(), a[2].to_int(), true); }, ""},
    // The kernels' vectorised float32 exp, exposed for its accuracy tests.
    {"_vec_exp(Tensor self) -> Tensor", kInternal, N::Keep,
     OP { return vec_exp(a[0].tensor()); }, ""},

    // ---------------------------------------------------------------- sorting
    {"sort(Tensor self, int dim=-1, bool descending=False, bool? stable=False) -> (Tensor values, Tensor indices)", kBoth, N::Keep,
     OP { auto r = sort(a[0].tensor(), a[1].to_int(), a[2].to_bool()); return Value::Tuple{r.first, r.second}; }, "sort",
     "result", GRAD { return grad::sort_values(c, 1); }},
    {"argsort(Tensor self, int dim=-1, bool descending=False, *, bool stable=False) -> Tensor", kBoth, N::Keep,
     OP { return sort(a[0].tensor(), a[1].to_int(), a[2].to_bool()).second; }, "sort"},
    {"msort(Tensor self) -> Tensor", kBoth, N::Keep,
     OP { return msort(a[0].tensor()); }, "sort_plain",
     "self", GRAD { return grad::msort(c); }},
    {"topk(Tensor self, int k, int dim=-1, bool largest=True, bool sorted=True) -> (Tensor values, Tensor indices)", kBoth, N::Keep,
     OP { auto r = topk(a[0].tensor(), a[1].to_int(), a[2].to_int(), a[3].to_bool(), a[4].to_bool()); return Value::Tuple{r.first, r.second}; }, "topk",
     "result", GRAD { return grad::sort_values(c, 2); }},
    {"kthvalue(Tensor self, int k, int dim=-1, bool keepdim=False) -> (Tensor values, Tensor indices)", kBoth, N::Reduce,
     OP { auto r = kthvalue(a[0].tensor(), a[1].to_int(), a[2].to_int(), a[3].to_bool()); return Value::Tuple{r.first, r.second}; }, "kthvalue",
     "result", GRAD { return grad::select_dim(c, 2, 3); }},
    {"median(Tensor self) -> Tensor", kBoth, N::Reduce,
     OP { return median_all(a[0].tensor(), false); }, "median_all",
     "self result", GRAD { return grad::evenly_distribute(c); }},
    {"median.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)", kBoth, N::Reduce,
     OP { auto r = median_dim(a[0].tensor(), a[1].to_int(), a[2].to_bool(), false); return Value::Tuple{r.first, r.second}; }, "median_dim",
     "result", GRAD { return grad::select_dim(c, 1, 2); }},
    {"nanmedian(Tensor self) -> Tensor", kBoth, N::Reduce,
     OP { return median_all(a[0].tensor(), true); }, "median_all",
     "self result", GRAD { return grad::evenly_distribute(c); }},
    {"nanmedian.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)", kBoth, N::Reduce,
     OP { auto r = median_dim(a[0].tensor(), a[1].to_int(), a[2].to_bool(), true); return Value::Tuple{r.first, r.second}; }, "median_dim",
     "result", GRAD { return grad::select_dim(c, 1, 2); }},
    {"mode(Tensor self, int dim=-1, bool keepdim=False) -> (Tensor values, Tensor indices)", kBoth, N::Reduce,
     OP { auto r = mode(a[0].tensor(), a[1].to_int(), a[2].to_bool()); return Value::Tuple{r.first, r.second}; }, "mode",
     "result", GRAD { return grad::select_dim(c, 1, 2); }},
    // Returns a Tensor, or a tuple when inverse indices or counts are asked for.
    {"unique(Tensor self, bool sorted=True, bool return_inverse=False, bool return_counts=False, int? dim=None) -> Tensor", kBoth, N::Unsupported,
     OP { return unique(a[0].tensor(), a[1].to_bool(), a[2].to_bool(), a[3].to_bool(), a[4].opt_int()); }, "unique",
     "", &not_differentiable},

    // ---------------------------------------------------------------- linalg
    {"matmul(Tensor self, Tensor other) -> Tensor", kBoth, N::Contract,
     OP { return matmul(a[0].tensor(), a[1].tensor()); }, "matmul",
     "self other", GRAD { return grad::matmul_backward(c); }},
    {"mm(Tensor self, Tensor mat2) -> Tensor", kBoth, N::Contract,
     OP { return mm(a[0].tensor(), a[1].tensor()); }, "mm",
     "self mat2", GRAD {
       return {c.needs_grad("self") ? grad::mm_grad_a(c.grad(), c.input("mat2")) : Tensor(),
               c.needs_grad("mat2") ? grad::mm_grad_b(c.grad(), c.input("self")) : Tensor()};
     }},
    {"bmm(Tensor self, Tensor mat2) -> Tensor", kBoth, N::Contract,
     OP { return bmm(a[0].tensor(), a[1].tensor()); }, "bmm",
     "self mat2", GRAD {
       return {c.needs_grad("self") ? grad::mm_grad_a(c.grad(), c.input("mat2")) : Tensor(),
               c.needs_grad("mat2") ? grad::mm_grad_b(c.grad(), c.input("self")) : Tensor()};
     }},
    {"mv(Tensor self, Tensor vec) -> Tensor", kBoth, N::Contract,
     OP { return mv(a[0].tensor(), a[1].tensor()); }, "mv",
     "self vec", GRAD { return grad::mv_backward(c); }},
    {"dot(Tensor self, Tensor tensor) -> Tensor", kBoth, N::Contract,
     OP { return dot(a[0].tensor(), a[1].tensor()); }, "dot",
     "self tensor", GRAD { return grad::dot_backward(c, false); }},
    {"vdot(Tensor self, Tensor other) -> Tensor", kBoth, N::Contract,
     OP { return vdot(a[0].tensor(), a[1].tensor()); }, "dot",
     "self other", GRAD { return grad::dot_backward(c, true); }},
    {"outer(Tensor self, Tensor vec2) -> Tensor", kBoth, N::Custom,
     OP { return outer(a[0].tensor(), a[1].tensor()); }, "outer",
     "self vec2", GRAD { return grad::outer_backward(c); }},
    {"ger(Tensor self, Tensor vec2) -> Tensor", kBoth, N::Custom,
     OP { return outer(a[0].tensor(), a[1].tensor()); }, "outer",
     "self vec2", GRAD { return grad::outer_backward(c); }},
    {"addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor", kBoth, N::Contract,
     OP { return addmm(a[0].tensor(), a[1].tensor(), a[2].tensor(), a[3].scalar(), a[4].scalar()); }, "addmm",
     "mat1 mat2", GRAD { return grad::addmm_backward(c, "mat1", "mat2"); }},
    {"addmm_(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor", kMethod, N::Contract,
     OP { return addmm_(a[0].tensor(), a[1].tensor(), a[2].tensor(), a[3].scalar(), a[4].scalar()); }, "addmm_inplace",
     "mat1 mat2", GRAD { return grad::addmm_backward(c, "mat1", "mat2"); }},
    {"addmv(Tensor self, Tensor mat, Tensor vec, *, Scalar beta=1, Scalar alpha=1) -> Tensor", kBoth, N::Contract,
     OP { return addmv(a[0].tensor(), a[1].tensor(), a[2].tensor(), a[3].scalar(), a[4].scalar()); }, "addmv",
     "mat vec", GRAD { return grad::addmv_backward(c); }},
    {"addmv_(Tensor self, Tensor mat, Tensor vec, *, Scalar beta=1, Scalar alpha=1) -> Tensor", kMethod, N::Contract,
     OP { return addmv_(a[0].tensor(), a[1].tensor(), a[2].tensor(), a[3].scalar(), a[4].scalar()); }, "addmv_inplace",
     "mat vec", GRAD { return grad::addmv_backward(c); }},
    {"baddbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor", kBoth, N::Contract,
     OP { return baddbmm(a[0].tensor(), a[1].tensor(), a[2].tensor(), a[3].scalar(), a[4].scalar()); }, "baddbmm",
     "batch1 batch2", GRAD { return grad::addmm_backward(c, "batch1", "batch2"); }},
    {"baddbmm_(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor", kMethod, N::Contract,
     OP { return baddbmm_(a[0].tensor(), a[1].tensor(), a[2].tensor(), a[3].scalar(), a[4].scalar()); }, "baddbmm_inplace",
     "batch1 batch2", GRAD { return grad::addmm_backward(c, "batch1", "batch2"); }},
    {"addbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor", kBoth, N::Contract,
     OP { return addbmm(a[0].tensor(), a[1].tensor(), a[2].tensor(), a[3].scalar(), a[4].scalar()); }, "addbmm",
     "batch1 batch2", GRAD { return grad::addmm_backward(c, "batch1", "batch2"); }},
    {"addbmm_(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor", kMethod, N::Contract,
     OP { return addbmm_(a[0].tensor(), a[1].tensor(), a[2].tensor(), a[3].scalar(), a[4].scalar()); }, "addbmm_inplace",
     "batch1 batch2", GRAD { return grad::addmm_backward(c, "batch1", "batch2"); }},
    {"tensordot(Tensor self, Tensor other, int[] dims_self, int[] dims_other) -> Tensor", kFunction, N::Unsupported,
     OP { return tensordot(a[0].tensor(), a[1].tensor(), a[2].int_list(), a[3].int_list()); }, "tensordot",
     "self other", GRAD { return grad::tensordot_backward(c); }},
    {"einsum(str equation, Tensor[] tensors) -> Tensor", kFunction, N::Unsupported,
     OP { return einsum(a[0].str(), a[1].tensor_list()); }, "einsum",
     "tensors", GRAD { return grad::einsum_backward(c); }},

    // ---------------------------------------------------------------- conversion
    {"clone(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor", kBoth, N::Keep,
     OP { return clone(a[0].tensor(), a[1].opt_memory_format().value_or(MemoryFormat::Preserve)); }, "unary_any",
     "", GRAD { return {c.grad()}; }},
    {"copy_(Tensor self, Tensor src, bool non_blocking=False) -> Tensor", kMethod, N::Keep,
     OP { return copy_(a[0].tensor(), a[1].tensor()); }, "copy",
     "", GRAD {  // self's old value is overwritten; the engine sums and casts src's gradient
       return {c.needs_grad("self") ? zeros(c.input_sizes("self"), c.grad().dtype()) : Tensor(), c.grad()};
     }},
    // Tensor.to: core/_tensor.py normalises device objects, then these overloads decide.
    {"to.dtype(Tensor self, ScalarType dtype, bool non_blocking=False, bool copy=False) -> Tensor", kMethod, N::Keep,
     OP { return to_dtype(a[0].tensor(), a[1].dtype(), a[3].to_bool()); }, "to_dtype",
     "", GRAD { return {c.grad()}; }},  // the engine casts the gradient back to the input dtype
    {"to.other(Tensor self, Tensor other, bool non_blocking=False, bool copy=False) -> Tensor", kMethod, N::Keep,
     OP { return to_dtype(a[0].tensor(), a[1].tensor().dtype(), a[3].to_bool()); }, "type_as",
     "", &pass_through},
    {"to.device(Tensor self, str? device=None, ScalarType? dtype=None, bool non_blocking=False, bool copy=False) -> Tensor", kMethod, N::Keep,
     OP { return to_device(a[0].tensor(), a[1].is_none() ? std::nullopt : std::optional<std::string>(a[1].str()),
                           a[2].opt_dtype(), a[4].to_bool()); }, "",
     "", &pass_through},
    {"cpu(Tensor self) -> Tensor", kMethod, N::Keep,
     OP { return a[0].tensor(); }, "unary_any",
     "", &pass_through},
    {"type(Tensor self) -> str", kMethod, N::None,
     OP { return tensor_type_name(a[0].tensor().dtype()); }, ""},
    {"type.dtype(Tensor self, ScalarType dtype, bool non_blocking=False) -> Tensor", kMethod, N::Keep,
     OP { return to_dtype(a[0].tensor(), a[1].dtype()); }, "",
     "", &pass_through},
    {"type.str(Tensor self, str dtype, bool non_blocking=False) -> Tensor", kMethod, N::Keep,
     OP { return to_dtype(a[0].tensor(), dtype_from_type_name(a[1].str())); }, "",
     "", &pass_through},
    {"type_as(Tensor self, Tensor other) -> Tensor", kMethod, N::Keep,
     OP { return to_dtype(a[0].tensor(), a[1].tensor().dtype()); }, "type_as",
     "", &pass_through},
    {"float(Tensor self) -> Tensor", kMethod, N::Keep,
     OP { return to_dtype(a[0].tensor(), DType::Float32); }, "unary_any",
     "", &pass_through},
    {"double(Tensor self) -> Tensor", kMethod, N::Keep,
     OP { return to_dtype(a[0].tensor(), DType::Float64); }, "unary_any",
     "", &pass_through},
    {"half(Tensor self) -> Tensor", kMethod, N::Keep,
     OP { return to_dtype(a[0].tensor(), DType::Float16); }, "unary_any",
     "", &pass_through},
    {"bfloat16(Tensor self) -> Tensor", kMethod, N::Keep,
     OP { return to_dtype(a[0].tensor(), DType::BFloat16); }, "unary_any",
     "", &pass_through},
    {"int(Tensor self) -> Tensor", kMethod, N::Keep,
     OP { return to_dtype(a[0].tensor(), DType::Int32); }, "unary_any"},
    {"long(Tensor self) -> Tensor", kMethod, N::Keep,
     OP { return to_dtype(a[0].tensor(), DType::Int64); }, "unary_any"},
    {"short(Tensor self) -> Tensor", kMethod, N::Keep,
     OP { return to_dtype(a[0].tensor(), DType::Int16); }, "unary_any"},
    {"char(Tensor self) -> Tensor", kMethod, N::Keep,
     OP { return to_dtype(a[0].tensor(), DType::Int8); }, "unary_any"},
    {"byte(Tensor self) -> Tensor", kMethod, N::Keep,
     OP { return to_dtype(a[0].tensor(), DType::UInt8); }, "unary_nonneg"},
    {"bool(Tensor self) -> Tensor", kMethod, N::Keep,
     OP { return to_dtype(a[0].tensor(), DType::Bool); }, "unary_any"},
    {"cfloat(Tensor self) -> Tensor", kMethod, N::Keep,
     OP { return to_dtype(a[0].tensor(), DType::Complex64); }, "unary_any",
     "", &pass_through},
    {"item(Tensor self) -> Scalar", kMethod, N::None,
     OP { return item(a[0].tensor()); }, "one_element"},
    // Type helpers (ScalarType in and out).
    {"promote_types(ScalarType type1, ScalarType type2) -> ScalarType", kFunction, N::None,
     OP { return promote_types(a[0].dtype(), a[1].dtype()); }, ""},
    {"result_type(Tensor tensor, Tensor other) -> ScalarType", kFunction, N::None,
     OP { return result_type(a[0].tensor(), a[1].tensor()); }, ""},
    {"can_cast(ScalarType from, ScalarType to) -> bool", kFunction, N::None,
     OP { return can_cast(a[0].dtype(), a[1].dtype()); }, ""},
    {"is_floating_point(Tensor self) -> bool", kFunction, N::None,
     OP { return is_floating(a[0].tensor().dtype()); }, "unary_any"},
    {"is_complex(Tensor self) -> bool", kFunction, N::None,
     OP { return is_complex(a[0].tensor().dtype()); }, "unary_any"},
    {"numel(Tensor self) -> int", kFunction, N::None,
     OP { return a[0].tensor().numel(); }, "unary_any"},
};

const OpTableRegistrar registrar(kOpTable);

}  // namespace
}  // namespace tz
