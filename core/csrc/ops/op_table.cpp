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
    {"view_as(Tensor self, Tensor other) -> Tensor", kMethod, N::Custom,
     OP { return view_as(a[0].tensor(), a[1].tensor()); }, "view_as"},
    {"reshape_as(Tensor self, Tensor other) -> Tensor", kMethod, N::Custom,
     OP { return reshape_as(a[0].tensor(), a[1].tensor()); }, "view_as"},
    {"expand_as(Tensor self, Tensor other) -> Tensor", kMethod, N::Custom,
     OP { return expand_as(a[0].tensor(), a[1].tensor()); }, "expand_as"},
    {"swapaxes(Tensor self, int axis0, int axis1) -> Tensor", kBoth, N::Permute,
     OP { return transpose(a[0].tensor(), a[1].to_int(), a[2].to_int()); }, "transpose"},
    {"swapdims(Tensor self, int dim0, int dim1) -> Tensor", kBoth, N::Permute,
     OP { return transpose(a[0].tensor(), a[1].to_int(), a[2].to_int()); }, "transpose"},
    {"t(Tensor self) -> Tensor", kBoth, N::Permute,
     OP { return matrix_t(a[0].tensor()); }, "matrix_t"},
    {"squeeze(Tensor self) -> Tensor", kBoth, N::Custom,
     OP { return squeeze(a[0].tensor()); }, "squeeze"},
    {"squeeze.dim(Tensor self, int dim) -> Tensor", kBoth, N::Custom,
     OP { return squeeze(a[0].tensor(), a[1].to_int()); }, "squeeze_dim"},
    {"unsqueeze(Tensor self, int dim) -> Tensor", kBoth, N::Custom,
     OP { return unsqueeze(a[0].tensor(), a[1].to_int()); }, "unsqueeze"},
    {"flatten(Tensor self, int start_dim=0, int end_dim=-1) -> Tensor", kBoth, N::Custom,
     OP { return flatten(a[0].tensor(), a[1].to_int(), a[2].to_int()); }, "flatten"},
    {"unflatten(Tensor self, int dim, int[] sizes) -> Tensor", kMethod, N::Custom,
     OP { return unflatten(a[0].tensor(), a[1].to_int(), a[2].int_list()); }, "unflatten"},
    {"movedim(Tensor self, int[] source, int[] destination) -> Tensor", kBoth, N::Permute,
     OP { return movedim(a[0].tensor(), a[1].int_list(), a[2].int_list()); }, "movedim"},
    {"moveaxis(Tensor self, int[] source, int[] destination) -> Tensor", kBoth, N::Permute,
     OP { return movedim(a[0].tensor(), a[1].int_list(), a[2].int_list()); }, "movedim"},
    {"narrow(Tensor self, int dim, int start, int length) -> Tensor", kBoth, N::Keep,
     OP { return narrow(a[0].tensor(), a[1].to_int(), a[2].to_int(), a[3].to_int()); }, "narrow"},
    {"select(Tensor self, int dim, int index) -> Tensor", kBoth, N::Reduce,
     OP { return select(a[0].tensor(), a[1].to_int(), a[2].to_int()); }, "select"},
    {"unbind(Tensor self, int dim=0) -> Tensor[]", kBoth, N::Reduce,
     OP { return unbind(a[0].tensor(), a[1].to_int()); }, "unbind"},
    {"split(Tensor self, int split_size, int dim=0) -> Tensor[]", kBoth, N::Keep,
     OP { return split(a[0].tensor(), a[1].to_int(), a[2].to_int()); }, "split"},
    {"split_with_sizes(Tensor self, int[] split_sizes, int dim=0) -> Tensor[]", kBoth, N::Keep,
     OP { return split_with_sizes(a[0].tensor(), a[1].int_list(), a[2].to_int()); }, "split_with_sizes"},
    {"chunk(Tensor self, int chunks, int dim=0) -> Tensor[]", kBoth, N::Keep,
     OP { return chunk(a[0].tensor(), a[1].to_int(), a[2].to_int()); }, "chunk"},
    {"tensor_split(Tensor self, int sections, int dim=0) -> Tensor[]", kBoth, N::Keep,
     OP { return tensor_split(a[0].tensor(), a[1].to_int(), a[2].to_int()); }, "tensor_split"},
    {"tensor_split.indices(Tensor self, int[] indices, int dim=0) -> Tensor[]", kBoth, N::Keep,
     OP { return tensor_split(a[0].tensor(), a[1].int_list(), a[2].to_int()); }, "tensor_split_indices"},
    {"unfold(Tensor self, int dimension, int size, int step) -> Tensor", kMethod, N::Unsupported,
     OP { return unfold(a[0].tensor(), a[1].to_int(), a[2].to_int(), a[3].to_int()); }, "unfold"},
    {"view_as_real(Tensor self) -> Tensor", kFunction, N::Custom,
     OP { return view_as_real(a[0].tensor()); }, "view_as_real"},
    {"view_as_complex(Tensor self) -> Tensor", kFunction, N::Custom,
     OP { return view_as_complex(a[0].tensor()); }, "view_as_complex"},

    // ---------------------------------------------------------------- elementwise
    {"add(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", kBoth, N::Unify,
     OP { return add(a[0].tensor(), a[1].tensor(), a[2].scalar()); }, "binary_arith"},
    {"add_(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", kMethod, N::Unify,
     OP { return binary_op_(BinaryOp::Add, a[0].tensor(), a[1].tensor(), "add_", a[2].scalar()); }, "binary_inplace"},
    {"sub(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", kBoth, N::Unify,
     OP { return sub(a[0].tensor(), a[1].tensor(), a[2].scalar()); }, "binary_arith"},
    {"sub_(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", kMethod, N::Unify,
     OP { return binary_op_(BinaryOp::Sub, a[0].tensor(), a[1].tensor(), "sub_", a[2].scalar()); }, "binary_inplace"},
    {"mul(Tensor self, Tensor other) -> Tensor", kBoth, N::Unify,
     OP { return mul(a[0].tensor(), a[1].tensor()); }, "binary_arith"},
    {"mul_(Tensor self, Tensor other) -> Tensor", kMethod, N::Unify,
     OP { return binary_op_(BinaryOp::Mul, a[0].tensor(), a[1].tensor(), "mul_"); }, "binary_inplace"},
    {"div(Tensor self, Tensor other) -> Tensor", kBoth, N::Unify,
     OP { return div(a[0].tensor(), a[1].tensor()); }, "binary_arith"},
    {"div_(Tensor self, Tensor other) -> Tensor", kMethod, N::Unify,
     OP { return binary_op_(BinaryOp::Div, a[0].tensor(), a[1].tensor(), "div_"); }, "binary_inplace"},

    // ---------------------------------------------------------------- random

    // ---------------------------------------------------------------- indexing
    {"index_select(Tensor self, int dim, Tensor index) -> Tensor", kBoth, N::Keep,
     OP { return index_select(a[0].tensor(), a[1].to_int(), a[2].tensor()); }, "index_select"},
    {"gather(Tensor self, int dim, Tensor index, *, bool sparse_grad=False) -> Tensor", kBoth, N::Unsupported,
     OP { return gather(a[0].tensor(), a[1].to_int(), a[2].tensor()); }, "gather"},
    // A Python number given as `src` is the value overload (Tensor params accept numbers).
    {"scatter.src(Tensor self, int dim, Tensor index, Tensor src, *, str? reduce=None) -> Tensor", kBoth, N::Unsupported,
     OP {
       auto reduce = a[4].is_none() ? std::optional<std::string>() : a[4].str();
       const Tensor& src = a[3].tensor();
       if (src.impl()->wrapped_number) return scatter(a[0].tensor(), a[1].to_int(), a[2].tensor(), item(src), reduce);
       return scatter(a[0].tensor(), a[1].to_int(), a[2].tensor(), src, reduce);
     }, "scatter"},
    {"scatter.value(Tensor self, int dim, Tensor index, Scalar value, *, str? reduce=None) -> Tensor", kBoth, N::Unsupported,
     OP {
       auto reduce = a[4].is_none() ? std::optional<std::string>() : a[4].str();
       return scatter(a[0].tensor(), a[1].to_int(), a[2].tensor(), a[3].scalar(), reduce);
     }, "scatter_value"},
    {"scatter_.src(Tensor self, int dim, Tensor index, Tensor src, *, str? reduce=None) -> Tensor", kMethod, N::Unsupported,
     OP {
       auto reduce = a[4].is_none() ? std::optional<std::string>() : a[4].str();
       const Tensor& src = a[3].tensor();
       if (src.impl()->wrapped_number) return scatter_(a[0].tensor(), a[1].to_int(), a[2].tensor(), item(src), reduce);
       return scatter_(a[0].tensor(), a[1].to_int(), a[2].tensor(), src, reduce);
     }, "scatter"},
    {"scatter_.value(Tensor self, int dim, Tensor index, Scalar value, *, str? reduce=None) -> Tensor", kMethod, N::Unsupported,
     OP {
       auto reduce = a[4].is_none() ? std::optional<std::string>() : a[4].str();
       return scatter_(a[0].tensor(), a[1].to_int(), a[2].tensor(), a[3].scalar(), reduce);
     }, "scatter_value"},
    {"scatter_add(Tensor self, int dim, Tensor index, Tensor src) -> Tensor", kBoth, N::Unsupported,
     OP { return scatter_add(a[0].tensor(), a[1].to_int(), a[2].tensor(), a[3].tensor()); }, "scatter"},
    {"scatter_add_(Tensor self, int dim, Tensor index, Tensor src) -> Tensor", kMethod, N::Unsupported,
     OP { return scatter_add_(a[0].tensor(), a[1].to_int(), a[2].tensor(), a[3].tensor()); }, "scatter"},
    {"index_add_(Tensor self, int dim, Tensor index, Tensor source, *, Scalar alpha=1) -> Tensor", kMethod, N::Unsupported,
     OP { return index_add_(a[0].tensor(), a[1].to_int(), a[2].tensor(), a[3].tensor(), a[4].scalar()); }, "index_add"},
    {"index_add(Tensor self, int dim, Tensor index, Tensor source, *, Scalar alpha=1) -> Tensor", kBoth, N::Unsupported,
     OP { return index_add(a[0].tensor(), a[1].to_int(), a[2].tensor(), a[3].tensor(), a[4].scalar()); }, "index_add"},
    {"index_copy_(Tensor self, int dim, Tensor index, Tensor source) -> Tensor", kMethod, N::Unsupported,
     OP { return index_copy_(a[0].tensor(), a[1].to_int(), a[2].tensor(), a[3].tensor()); }, "index_copy"},
    {"index_copy(Tensor self, int dim, Tensor index, Tensor source) -> Tensor", kBoth, N::Unsupported,
     OP { return index_copy(a[0].tensor(), a[1].to_int(), a[2].tensor(), a[3].tensor()); }, "index_copy"},
    // Fill values: a Python number or a 0-d tensor (the Tensor overloads come first to check that).
    {"index_fill_.int_Tensor(Tensor self, int dim, Tensor index, Tensor value) -> Tensor", kMethod, N::Keep,
     OP { return index_fill_(a[0].tensor(), a[1].to_int(), a[2].tensor(), zero_dim_value(a[3].tensor(), "index_fill_")); }, "index_fill"},
    {"index_fill_.int_Scalar(Tensor self, int dim, Tensor index, Scalar value) -> Tensor", kMethod, N::Keep,
     OP { return index_fill_(a[0].tensor(), a[1].to_int(), a[2].tensor(), a[3].scalar()); }, "index_fill"},
    {"index_fill.int_Tensor(Tensor self, int dim, Tensor index, Tensor value) -> Tensor", kBoth, N::Keep,
     OP { return index_fill(a[0].tensor(), a[1].to_int(), a[2].tensor(), zero_dim_value(a[3].tensor(), "index_fill")); }, "index_fill"},
    {"index_fill.int_Scalar(Tensor self, int dim, Tensor index, Scalar value) -> Tensor", kBoth, N::Keep,
     OP { return index_fill(a[0].tensor(), a[1].to_int(), a[2].tensor(), a[3].scalar()); }, "index_fill"},
    {"masked_fill_.Tensor(Tensor self, Tensor mask, Tensor value) -> Tensor", kMethod, N::Unify,
     OP { return masked_fill_(a[0].tensor(), a[1].tensor(), zero_dim_value(a[2].tensor(), "masked_fill_")); }, "masked_fill"},
    {"masked_fill_.Scalar(Tensor self, Tensor mask, Scalar value) -> Tensor", kMethod, N::Unify,
     OP { return masked_fill_(a[0].tensor(), a[1].tensor(), a[2].scalar()); }, "masked_fill"},
    {"masked_fill.Tensor(Tensor self, Tensor mask, Tensor value) -> Tensor", kBoth, N::Unify,
     OP { return masked_fill(a[0].tensor(), a[1].tensor(), zero_dim_value(a[2].tensor(), "masked_fill")); }, "masked_fill"},
    {"masked_fill.Scalar(Tensor self, Tensor mask, Scalar value) -> Tensor", kBoth, N::Unify,
     OP { return masked_fill(a[0].tensor(), a[1].tensor(), a[2].scalar()); }, "masked_fill"},
    {"masked_select(Tensor self, Tensor mask) -> Tensor", kBoth, N::Unsupported,
     OP { return masked_select(a[0].tensor(), a[1].tensor()); }, "masked_select"},
    {"masked_scatter_(Tensor self, Tensor mask, Tensor source) -> Tensor", kMethod, N::Unsupported,
     OP { return masked_scatter_(a[0].tensor(), a[1].tensor(), a[2].tensor()); }, "masked_scatter"},
    {"masked_scatter(Tensor self, Tensor mask, Tensor source) -> Tensor", kBoth, N::Unsupported,
     OP { return masked_scatter(a[0].tensor(), a[1].tensor(), a[2].tensor()); }, "masked_scatter"},
    // Tensor.where(condition, y) puts self second: core/_tensor.py defines that method.
    {"where.self(Tensor condition, Tensor self, Tensor other) -> Tensor", kFunction, N::Unify,
     OP { return where(a[0].tensor(), a[1].tensor(), a[2].tensor()); }, "where"},
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
     OP { return take(a[0].tensor(), a[1].tensor()); }, "take"},
    {"put_(Tensor self, Tensor index, Tensor source, bool accumulate=False) -> Tensor", kMethod, N::Unsupported,
     OP { return put_(a[0].tensor(), a[1].tensor(), a[2].tensor(), a[3].to_bool()); }, "put"},
    {"put(Tensor self, Tensor index, Tensor source, bool accumulate=False) -> Tensor", kBoth, N::Unsupported,
     OP { return put(a[0].tensor(), a[1].tensor(), a[2].tensor(), a[3].to_bool()); }, "put"},
    // Tensor?[] arguments are not generated by the op matrix: tests/core/test_indexing.py covers these.
    {"index_put_(Tensor self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor", kMethod, N::Unsupported,
     OP { return index_put_(a[0].tensor(), a[1].tensor_list(), a[2].tensor(), a[3].to_bool()); }, ""},
    {"index_put(Tensor self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor", kBoth, N::Unsupported,
     OP { return index_put(a[0].tensor(), a[1].tensor_list(), a[2].tensor(), a[3].to_bool()); }, ""},

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
