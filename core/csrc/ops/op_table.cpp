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

    // ---------------------------------------------------------------- joining

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
