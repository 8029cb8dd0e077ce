// THE op table. One entry per op (overload): signature with defaults, variants (function
// and/or Tensor method), named-tensor rule, boxed kernel, and the sample kind the generated
// tests in tests/core/test_op_matrix.py draw inputs from. Bindings are derived from it.
#include "autograd/functions.h"
#include "autograd/op_node.h"
#include "ops/indexing_grad.h"
#include "ops/ops.h"
#include "ops/registry.h"

namespace tz {
namespace {

using N = NameRule;
#define OP [](Stack & a) -> Value
// A derivative formula: `c` is the BackwardContext (c.grad(), c.tensor(arg), c.result()...).
#define GRAD [](BackwardContext & c) -> TensorList

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
     OP { return view(a[0].tensor(), a[1].int_list()); }, "reshape",
     "", GRAD { return {F::reshape(c.grad(), c.input_sizes(0))}; }},
    {"reshape(Tensor self, int[] shape) -> Tensor", kBoth, N::Custom,
     OP { return reshape(a[0].tensor(), a[1].int_list()); }, "reshape",
     "", GRAD { return {F::reshape(c.grad(), c.input_sizes(0))}; }},
    {"permute(Tensor self, int[] dims) -> Tensor", kBoth, N::Permute,
     OP { return permute(a[0].tensor(), a[1].int_list()); }, "permute",
     "", GRAD {
       const IntList& dims = c.args[1].int_list();
       IntList inverse(dims.size());
       for (size_t i = 0; i < dims.size(); ++i) inverse[wrap_dim(dims[i], dims.size(), "permute")] = i;
       return {F::permute(c.grad(), inverse)};
     }},
    {"transpose(Tensor self, int dim0, int dim1) -> Tensor", kBoth, N::Permute,
     OP { return transpose(a[0].tensor(), a[1].to_int(), a[2].to_int()); }, "transpose",
     "", GRAD { return {F::transpose(c.grad(), c.args[1].to_int(), c.args[2].to_int())}; }},
    {"expand(Tensor self, int[] size) -> Tensor", kMethod, N::Custom,
     OP { return expand(a[0].tensor(), a[1].int_list()); }, "expand",
     "", GRAD { return {c.grad()}; }},  // the engine sums the gradient back to the input's shape
    // Overlapping inputs (expanded tensors) have no derivative (NotImplementedError in backward).
    {"as_strided(Tensor self, int[] size, int[] stride, int? storage_offset=None) -> Tensor", kBoth, N::Unsupported,
     OP { return as_strided(a[0].tensor(), a[1].int_list(), a[2].int_list(), a[3].opt_int()); }, "",
     "geometry", &grad::as_strided},
    {"contiguous(Tensor self) -> Tensor", kMethod, N::Keep,
     OP { return contiguous(a[0].tensor()); }, "unary_any",
     "", GRAD { return {c.grad()}; }},
    {"view_as(Tensor self, Tensor other) -> Tensor", kMethod, N::Custom,
     OP { return view_as(a[0].tensor(), a[1].tensor()); }, "view_as",
     "", GRAD { return {F::reshape(c.grad(), c.input_sizes(0))}; }},
    {"reshape_as(Tensor self, Tensor other) -> Tensor", kMethod, N::Custom,
     OP { return reshape_as(a[0].tensor(), a[1].tensor()); }, "view_as",
     "", GRAD { return {F::reshape(c.grad(), c.input_sizes(0))}; }},
    {"expand_as(Tensor self, Tensor other) -> Tensor", kMethod, N::Custom,
     OP { return expand_as(a[0].tensor(), a[1].tensor()); }, "expand_as",
     "", GRAD { return {c.grad()}; }},
    {"swapaxes(Tensor self, int axis0, int axis1) -> Tensor", kBoth, N::Permute,
     OP { return transpose(a[0].tensor(), a[1].to_int(), a[2].to_int()); }, "transpose",
     "", GRAD { return {F::transpose(c.grad(), c.args[1].to_int(), c.args[2].to_int())}; }},
    {"swapdims(Tensor self, int dim0, int dim1) -> Tensor", kBoth, N::Permute,
     OP { return transpose(a[0].tensor(), a[1].to_int(), a[2].to_int()); }, "transpose",
     "", GRAD { return {F::transpose(c.grad(), c.args[1].to_int(), c.args[2].to_int())}; }},
    {"t(Tensor self) -> Tensor", kBoth, N::Permute,
     OP { return matrix_t(a[0].tensor()); }, "matrix_t",
     "", GRAD { return {F::tensor_call(TZ_OP("t"), {c.grad()})}; }},
    {"squeeze(Tensor self) -> Tensor", kBoth, N::Custom,
     OP { return squeeze(a[0].tensor()); }, "squeeze",
     "", GRAD { return {F::reshape(c.grad(), c.input_sizes(0))}; }},
    {"squeeze.dim(Tensor self, int dim) -> Tensor", kBoth, N::Custom,
     OP { return squeeze(a[0].tensor(), a[1].to_int()); }, "squeeze_dim",
     "", GRAD { return {F::reshape(c.grad(), c.input_sizes(0))}; }},
    {"unsqueeze(Tensor self, int dim) -> Tensor", kBoth, N::Custom,
     OP { return unsqueeze(a[0].tensor(), a[1].to_int()); }, "unsqueeze",
     "", GRAD { return {F::reshape(c.grad(), c.input_sizes(0))}; }},
    {"flatten(Tensor self, int start_dim=0, int end_dim=-1) -> Tensor", kBoth, N::Custom,
     OP { return flatten(a[0].tensor(), a[1].to_int(), a[2].to_int()); }, "flatten",
     "", GRAD { return {F::reshape(c.grad(), c.input_sizes(0))}; }},
    {"unflatten(Tensor self, int dim, int[] sizes) -> Tensor", kMethod, N::Custom,
     OP { return unflatten(a[0].tensor(), a[1].to_int(), a[2].int_list()); }, "unflatten",
     "", GRAD { return {F::reshape(c.grad(), c.input_sizes(0))}; }},
    {"movedim(Tensor self, int[] source, int[] destination) -> Tensor", kBoth, N::Permute,
     OP { return movedim(a[0].tensor(), a[1].int_list(), a[2].int_list()); }, "movedim",
     "", GRAD { return {F::tensor_call(TZ_OP("movedim"), {c.grad(), c.args[2], c.args[1]})}; }},
    {"moveaxis(Tensor self, int[] source, int[] destination) -> Tensor", kBoth, N::Permute,
     OP { return movedim(a[0].tensor(), a[1].int_list(), a[2].int_list()); }, "movedim",
     "", GRAD { return {F::tensor_call(TZ_OP("movedim"), {c.grad(), c.args[2], c.args[1]})}; }},
    {"narrow(Tensor self, int dim, int start, int length) -> Tensor", kBoth, N::Keep,
     OP { return narrow(a[0].tensor(), a[1].to_int(), a[2].to_int(), a[3].to_int()); }, "narrow",
     "", &grad::strided_view},
    {"select(Tensor self, int dim, int index) -> Tensor", kBoth, N::Reduce,
     OP { return select(a[0].tensor(), a[1].to_int(), a[2].to_int()); }, "select",
     "", &grad::strided_view},
    {"unbind(Tensor self, int dim=0) -> Tensor[]", kBoth, N::Reduce,
     OP { return unbind(a[0].tensor(), a[1].to_int()); }, "unbind",
     "", GRAD { return grad::pieces(c, c.args[1].to_int(), false); }},
    {"split(Tensor self, int split_size, int dim=0) -> Tensor[]", kBoth, N::Keep,
     OP { return split(a[0].tensor(), a[1].to_int(), a[2].to_int()); }, "split",
     "", GRAD { return grad::pieces(c, c.args[2].to_int(), true); }},
    {"split_with_sizes(Tensor self, int[] split_sizes, int dim=0) -> Tensor[]", kBoth, N::Keep,
     OP { return split_with_sizes(a[0].tensor(), a[1].int_list(), a[2].to_int()); }, "split_with_sizes",
     "", GRAD { return grad::pieces(c, c.args[2].to_int(), true); }},
    {"chunk(Tensor self, int chunks, int dim=0) -> Tensor[]", kBoth, N::Keep,
     OP { return chunk(a[0].tensor(), a[1].to_int(), a[2].to_int()); }, "chunk",
     "", GRAD { return grad::pieces(c, c.args[2].to_int(), true); }},
    {"tensor_split(Tensor self, int sections, int dim=0) -> Tensor[]", kBoth, N::Keep,
     OP { return tensor_split(a[0].tensor(), a[1].to_int(), a[2].to_int()); }, "tensor_split",
     "", GRAD { return grad::pieces(c, c.args[2].to_int(), true); }},
    {"tensor_split.indices(Tensor self, int[] indices, int dim=0) -> Tensor[]", kBoth, N::Keep,
     OP { return tensor_split(a[0].tensor(), a[1].int_list(), a[2].to_int()); }, "tensor_split_indices",
     "", GRAD { return grad::pieces(c, c.args[2].to_int(), true); }},
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
    {"add(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", kBoth, N::Unify,
     OP { return add(a[0].tensor(), a[1].tensor(), a[2].scalar()); }, "binary_arith",
     "", GRAD { return {c.grad(), F::mul(c.grad(), c.args[2].scalar())}; }},
    {"add_(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", kMethod, N::Unify,
     OP { return binary_op_(BinaryOp::Add, a[0].tensor(), a[1].tensor(), "add_", a[2].scalar()); }, "binary_inplace",
     "", GRAD { return {c.grad(), F::mul(c.grad(), c.args[2].scalar())}; }},
    {"sub(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", kBoth, N::Unify,
     OP { return sub(a[0].tensor(), a[1].tensor(), a[2].scalar()); }, "binary_arith",
     "", GRAD { return {c.grad(), F::mul(c.grad(), Scalar(-c.args[2].scalar().to_double()))}; }},
    {"sub_(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", kMethod, N::Unify,
     OP { return binary_op_(BinaryOp::Sub, a[0].tensor(), a[1].tensor(), "sub_", a[2].scalar()); }, "binary_inplace",
     "", GRAD { return {c.grad(), F::mul(c.grad(), Scalar(-c.args[2].scalar().to_double()))}; }},
    {"mul(Tensor self, Tensor other) -> Tensor", kBoth, N::Unify,
     OP { return mul(a[0].tensor(), a[1].tensor()); }, "binary_arith",
     "self other", GRAD {
       return {c.needs_grad(0) ? F::mul(c.grad(), c.tensor(1)) : Tensor(),
               c.needs_grad(1) ? F::mul(c.grad(), c.tensor(0)) : Tensor()};
     }},
    {"mul_(Tensor self, Tensor other) -> Tensor", kMethod, N::Unify,
     OP { return binary_op_(BinaryOp::Mul, a[0].tensor(), a[1].tensor(), "mul_"); }, "binary_inplace",
     "self other", GRAD {
       return {c.needs_grad(0) ? F::mul(c.grad(), c.tensor(1)) : Tensor(),
               c.needs_grad(1) ? F::mul(c.grad(), c.tensor(0)) : Tensor()};
     }},
    {"div(Tensor self, Tensor other) -> Tensor", kBoth, N::Unify,
     OP { return div(a[0].tensor(), a[1].tensor()); }, "binary_arith",
     "self other", GRAD {
       Tensor g_self = F::div(c.grad(), c.tensor(1));
       return {g_self, c.needs_grad(1) ? F::neg(F::div(F::mul(g_self, c.tensor(0)), c.tensor(1))) : Tensor()};
     }},
    {"div_(Tensor self, Tensor other) -> Tensor", kMethod, N::Unify,
     OP { return binary_op_(BinaryOp::Div, a[0].tensor(), a[1].tensor(), "div_"); }, "binary_inplace",
     "self other", GRAD {
       Tensor g_self = F::div(c.grad(), c.tensor(1));
       return {g_self, c.needs_grad(1) ? F::neg(F::div(F::mul(g_self, c.tensor(0)), c.tensor(1))) : Tensor()};
     }},

    // ---------------------------------------------------------------- random

    // ---------------------------------------------------------------- indexing
    {"index_select(Tensor self, int dim, Tensor index) -> Tensor", kBoth, N::Keep,
     OP { return index_select(a[0].tensor(), a[1].to_int(), a[2].tensor()); }, "index_select",
     "index", GRAD {
       Tensor z = zeros(c.input_sizes(0), c.grad().dtype());  // repeated indices accumulate
       return {F::tensor_call(TZ_OP("index_add"), {z, c.args[1], c.tensor(2), c.grad()})};
     }},
    {"gather(Tensor self, int dim, Tensor index, *, bool sparse_grad=False) -> Tensor", kBoth, N::Unsupported,
     OP { return gather(a[0].tensor(), a[1].to_int(), a[2].tensor()); }, "gather",
     "index", GRAD {
       Tensor z = zeros(c.input_sizes(0), c.grad().dtype());
       return {F::tensor_call(TZ_OP("scatter_add"), {z, c.args[1], c.tensor(2), c.grad()})};
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
       const Tensor& cond = c.tensor(0);
       Tensor zero = scalar_to_tensor(Scalar(0.0));
       return {Tensor(), c.needs_grad(1) ? F::tensor_call(TZ_OP("where.self"), {cond, c.grad(), zero}) : Tensor(),
               c.needs_grad(2) ? F::tensor_call(TZ_OP("where.self"), {cond, zero, c.grad()}) : Tensor()};
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
     OP { return cat(a[0].tensor_list(), a[1].to_int()); }, "cat"},
    {"concat(Tensor[] tensors, int dim=0) -> Tensor", kFunction, N::Custom,
     OP { return cat(a[0].tensor_list(), a[1].to_int()); }, "cat"},
    {"stack(Tensor[] tensors, int dim=0) -> Tensor", kFunction, N::Unsupported,
     OP { return stack(a[0].tensor_list(), a[1].to_int()); }, "stack"},
    {"hstack(Tensor[] tensors) -> Tensor", kFunction, N::Unsupported,
     OP { return hstack(a[0].tensor_list()); }, "stack_np"},
    {"vstack(Tensor[] tensors) -> Tensor", kFunction, N::Unsupported,
     OP { return vstack(a[0].tensor_list()); }, "stack_np"},
    {"dstack(Tensor[] tensors) -> Tensor", kFunction, N::Unsupported,
     OP { return dstack(a[0].tensor_list()); }, "stack_np"},
    {"column_stack(Tensor[] tensors) -> Tensor", kFunction, N::Unsupported,
     OP { return column_stack(a[0].tensor_list()); }, "stack_np"},
    {"atleast_1d(Tensor self) -> Tensor", kFunction, N::Unsupported,
     OP { return atleast_1d(a[0].tensor()); }, "unary_any"},
    {"atleast_1d.Sequence(Tensor[] tensors) -> Tensor[]", kFunction, N::Unsupported,
     OP { return atleast_1d(a[0].tensor_list()); }, ""},
    {"atleast_2d(Tensor self) -> Tensor", kFunction, N::Unsupported,
     OP { return atleast_2d(a[0].tensor()); }, "unary_any"},
    {"atleast_2d.Sequence(Tensor[] tensors) -> Tensor[]", kFunction, N::Unsupported,
     OP { return atleast_2d(a[0].tensor_list()); }, ""},
    {"atleast_3d(Tensor self) -> Tensor", kFunction, N::Unsupported,
     OP { return atleast_3d(a[0].tensor()); }, "unary_any"},
    {"atleast_3d.Sequence(Tensor[] tensors) -> Tensor[]", kFunction, N::Unsupported,
     OP { return atleast_3d(a[0].tensor_list()); }, ""},
    {"flip(Tensor self, int[] dims) -> Tensor", kBoth, N::Keep,
     OP { return flip(a[0].tensor(), a[1].int_list()); }, "flip"},
    {"fliplr(Tensor self) -> Tensor", kBoth, N::Keep,
     OP { return fliplr(a[0].tensor()); }, "matrix_any"},
    {"flipud(Tensor self) -> Tensor", kBoth, N::Keep,
     OP { return flipud(a[0].tensor()); }, "matrix_any"},
    // `int[1]? dims` (None = flatten) rather than `int[1] dims=[]`: a defaulted param after
    // `shifts` would make `x.roll(1, 0)` parse as varargs shifts=(1, 0).
    {"roll(Tensor self, int[1] shifts, int[1]? dims) -> Tensor", kBoth, N::Unsupported,
     OP { return roll(a[0].tensor(), a[1].int_list(), a[2].opt_int_list().value_or(IntList{})); }, "roll"},
    {"rot90(Tensor self, int k=1, int[] dims=[0,1]) -> Tensor", kBoth, N::Unsupported,
     OP { return rot90(a[0].tensor(), a[1].to_int(), a[2].int_list()); }, "rot90"},
    {"repeat(Tensor self, int[] repeats) -> Tensor", kMethod, N::Unsupported,
     OP { return repeat(a[0].tensor(), a[1].int_list()); }, "repeat"},
    {"tile(Tensor self, int[] dims) -> Tensor", kBoth, N::Unsupported,
     OP { return tile(a[0].tensor(), a[1].int_list()); }, "tile"},
    // int before Tensor: a Python int would otherwise become a 0-dim repeats tensor.
    {"repeat_interleave.self_int(Tensor self, int repeats, int? dim=None) -> Tensor", kBoth, N::Unsupported,
     OP { return repeat_interleave(a[0].tensor(), a[1].to_int(), a[2].opt_int()); }, "repeat_interleave"},
    {"repeat_interleave.self_Tensor(Tensor self, Tensor repeats, int? dim=None) -> Tensor", kBoth, N::Unsupported,
     OP { return repeat_interleave(a[0].tensor(), a[1].tensor(), a[2].opt_int()); }, "repeat_interleave_tensor"},
    {"repeat_interleave.Tensor(Tensor repeats) -> Tensor", kFunction, N::Unsupported,
     OP { return repeat_interleave(a[0].tensor()); }, "repeat_interleave_index"},
    {"tril(Tensor self, int diagonal=0) -> Tensor", kBoth, N::Unsupported,
     OP { return tril(a[0].tensor(), a[1].to_int()); }, "triangular"},
    {"triu(Tensor self, int diagonal=0) -> Tensor", kBoth, N::Unsupported,
     OP { return triu(a[0].tensor(), a[1].to_int()); }, "triangular"},
    {"tril_(Tensor self, int diagonal=0) -> Tensor", kMethod, N::Unsupported,
     OP { return tril_(a[0].tensor(), a[1].to_int()); }, "triangular"},
    {"triu_(Tensor self, int diagonal=0) -> Tensor", kMethod, N::Unsupported,
     OP { return triu_(a[0].tensor(), a[1].to_int()); }, "triangular"},
    {"diag(Tensor self, int diagonal=0) -> Tensor", kBoth, N::Unsupported,
     OP { return diag(a[0].tensor(), a[1].to_int()); }, "diag"},
    {"diag_embed(Tensor self, int offset=0, int dim1=-2, int dim2=-1) -> Tensor", kBoth, N::Unsupported,
     OP { return diag_embed(a[0].tensor(), a[1].to_int(), a[2].to_int(), a[3].to_int()); }, "diag_embed"},
    {"diagonal(Tensor self, int offset=0, int dim1=0, int dim2=1) -> Tensor", kBoth, N::Unsupported,
     OP { return diagonal(a[0].tensor(), a[1].to_int(), a[2].to_int(), a[3].to_int()); }, "diagonal"},
    {"trace(Tensor self) -> Tensor", kBoth, N::Unsupported,
     OP { return trace(a[0].tensor()); }, "trace"},
    {"meshgrid(Tensor[] tensors, *, str indexing='ij') -> Tensor[]", kFunction, N::Unsupported,
     OP { return meshgrid(a[0].tensor_list(), a[1].str()); }, "meshgrid"},
    {"cartesian_prod(Tensor[] tensors) -> Tensor", kFunction, N::Unsupported,
     OP { return cartesian_prod(a[0].tensor_list()); }, "cartesian_prod"},
    {"broadcast_tensors(Tensor[] tensors) -> Tensor[]", kFunction, N::Unsupported,
     OP { return broadcast_tensors(a[0].tensor_list()); }, "broadcast_tensors"},
    {"broadcast_to(Tensor self, int[] size) -> Tensor", kBoth, N::Unsupported,
     OP { return broadcast_to(a[0].tensor(), a[1].int_list()); }, "expand"},
    {"pad(Tensor self, int[] pad, str mode='constant', float? value=None) -> Tensor", kFunction, N::Unsupported,
     OP { return pad(a[0].tensor(), a[1].int_list(), a[2].str(), a[3].opt_double()); }, "pad"},

    // ---------------------------------------------------------------- reduction

    // ---------------------------------------------------------------- sorting

    // ---------------------------------------------------------------- linalg
    {"matmul(Tensor self, Tensor other) -> Tensor", kBoth, N::Contract,
     OP { return matmul(a[0].tensor(), a[1].tensor()); }, "matmul"},
    {"mm(Tensor self, Tensor mat2) -> Tensor", kBoth, N::Contract,
     OP { return mm(a[0].tensor(), a[1].tensor()); }, "mm"},
    {"bmm(Tensor self, Tensor mat2) -> Tensor", kBoth, N::Contract,
     OP { return bmm(a[0].tensor(), a[1].tensor()); }, "bmm"},
    {"mv(Tensor self, Tensor vec) -> Tensor", kBoth, N::Contract,
     OP { return mv(a[0].tensor(), a[1].tensor()); }, "mv"},
    {"dot(Tensor self, Tensor tensor) -> Tensor", kBoth, N::Contract,
     OP { return dot(a[0].tensor(), a[1].tensor()); }, "dot"},
    {"vdot(Tensor self, Tensor other) -> Tensor", kBoth, N::Contract,
     OP { return vdot(a[0].tensor(), a[1].tensor()); }, "dot"},
    {"outer(Tensor self, Tensor vec2) -> Tensor", kBoth, N::Custom,
     OP { return outer(a[0].tensor(), a[1].tensor()); }, "outer"},
    {"ger(Tensor self, Tensor vec2) -> Tensor", kBoth, N::Custom,
     OP { return outer(a[0].tensor(), a[1].tensor()); }, "outer"},
    {"addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor", kBoth, N::Contract,
     OP { return addmm(a[0].tensor(), a[1].tensor(), a[2].tensor(), a[3].scalar(), a[4].scalar()); }, "addmm"},
    {"addmm_(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor", kMethod, N::Contract,
     OP { return addmm_(a[0].tensor(), a[1].tensor(), a[2].tensor(), a[3].scalar(), a[4].scalar()); }, "addmm_inplace"},
    {"addmv(Tensor self, Tensor mat, Tensor vec, *, Scalar beta=1, Scalar alpha=1) -> Tensor", kBoth, N::Contract,
     OP { return addmv(a[0].tensor(), a[1].tensor(), a[2].tensor(), a[3].scalar(), a[4].scalar()); }, "addmv"},
    {"addmv_(Tensor self, Tensor mat, Tensor vec, *, Scalar beta=1, Scalar alpha=1) -> Tensor", kMethod, N::Contract,
     OP { return addmv_(a[0].tensor(), a[1].tensor(), a[2].tensor(), a[3].scalar(), a[4].scalar()); }, "addmv_inplace"},
    {"baddbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor", kBoth, N::Contract,
     OP { return baddbmm(a[0].tensor(), a[1].tensor(), a[2].tensor(), a[3].scalar(), a[4].scalar()); }, "baddbmm"},
    {"baddbmm_(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor", kMethod, N::Contract,
     OP { return baddbmm_(a[0].tensor(), a[1].tensor(), a[2].tensor(), a[3].scalar(), a[4].scalar()); }, "baddbmm_inplace"},
    {"addbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor", kBoth, N::Contract,
     OP { return addbmm(a[0].tensor(), a[1].tensor(), a[2].tensor(), a[3].scalar(), a[4].scalar()); }, "addbmm"},
    {"addbmm_(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor", kMethod, N::Contract,
     OP { return addbmm_(a[0].tensor(), a[1].tensor(), a[2].tensor(), a[3].scalar(), a[4].scalar()); }, "addbmm_inplace"},
    {"tensordot(Tensor self, Tensor other, int[] dims_self, int[] dims_other) -> Tensor", kFunction, N::Unsupported,
     OP { return tensordot(a[0].tensor(), a[1].tensor(), a[2].int_list(), a[3].int_list()); }, "tensordot"},
    {"einsum(str equation, Tensor[] tensors) -> Tensor", kFunction, N::Unsupported,
     OP { return einsum(a[0].str(), a[1].tensor_list()); }, "einsum"},

    // ---------------------------------------------------------------- conversion
    {"clone(Tensor self) -> Tensor", kBoth, N::Keep,
     OP { return clone(a[0].tensor()); }, "unary_any",
     "", GRAD { return {c.grad()}; }},
    {"copy_(Tensor self, Tensor src, bool non_blocking=False) -> Tensor", kMethod, N::Keep,
     OP { return copy_(a[0].tensor(), a[1].tensor()); }, "copy",
     "", GRAD {  // self's old value is overwritten; the engine sums and casts src's gradient
       return {c.needs_grad(0) ? zeros(c.input_sizes(0), c.grad().dtype()) : Tensor(), c.grad()};
     }},
    // Tensor.to: core/_tensor.py normalises device objects, then these overloads decide.
    {"to.dtype(Tensor self, ScalarType dtype, bool non_blocking=False, bool copy=False) -> Tensor", kMethod, N::Keep,
     OP { return to_dtype(a[0].tensor(), a[1].dtype(), a[3].to_bool()); }, "to_dtype",
     "", GRAD { return {c.grad()}; }},  // the engine casts the gradient back to the input dtype
    {"to.other(Tensor self, Tensor other, bool non_blocking=False, bool copy=False) -> Tensor", kMethod, N::Keep,
     OP { return to_dtype(a[0].tensor(), a[1].tensor().dtype(), a[3].to_bool()); }, "type_as"},
    {"to.device(Tensor self, str? device=None, ScalarType? dtype=None, bool non_blocking=False, bool copy=False) -> Tensor", kMethod, N::Keep,
     OP { return to_device(a[0].tensor(), a[1].is_none() ? std::nullopt : std::optional<std::string>(a[1].str()),
                           a[2].opt_dtype(), a[4].to_bool()); }, ""},
    {"cpu(Tensor self) -> Tensor", kMethod, N::Keep,
     OP { return a[0].tensor(); }, "unary_any"},
    {"type(Tensor self) -> str", kMethod, N::None,
     OP { return tensor_type_name(a[0].tensor().dtype()); }, ""},
    {"type.dtype(Tensor self, ScalarType dtype, bool non_blocking=False) -> Tensor", kMethod, N::Keep,
     OP { return to_dtype(a[0].tensor(), a[1].dtype()); }, ""},
    {"type.str(Tensor self, str dtype, bool non_blocking=False) -> Tensor", kMethod, N::Keep,
     OP { return to_dtype(a[0].tensor(), dtype_from_type_name(a[1].str())); }, ""},
    {"type_as(Tensor self, Tensor other) -> Tensor", kMethod, N::Keep,
     OP { return to_dtype(a[0].tensor(), a[1].tensor().dtype()); }, "type_as"},
    {"float(Tensor self) -> Tensor", kMethod, N::Keep,
     OP { return to_dtype(a[0].tensor(), DType::Float32); }, "unary_any"},
    {"double(Tensor self) -> Tensor", kMethod, N::Keep,
     OP { return to_dtype(a[0].tensor(), DType::Float64); }, "unary_any"},
    {"half(Tensor self) -> Tensor", kMethod, N::Keep,
     OP { return to_dtype(a[0].tensor(), DType::Float16); }, "unary_any"},
    {"bfloat16(Tensor self) -> Tensor", kMethod, N::Keep,
     OP { return to_dtype(a[0].tensor(), DType::BFloat16); }, "unary_any"},
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
     OP { return to_dtype(a[0].tensor(), DType::Complex64); }, "unary_any"},
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

#undef OP
#undef GRAD
const OpTableRegistrar registrar(kOpTable);

}  // namespace
}  // namespace tz
