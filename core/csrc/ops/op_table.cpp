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

    // ---------------------------------------------------------------- conversion
    {"clone(Tensor self) -> Tensor", kBoth, N::Keep,
     OP { return clone(a[0].tensor()); }, "unary_any"},
    {"copy_(Tensor self, Tensor src, bool non_blocking=False) -> Tensor", kMethod, N::Keep,
     OP { return copy_(a[0].tensor(), a[1].tensor()); }, "copy"},
    // Tensor.to: core/_tensor.py normalises device objects, then these overloads decide.
    {"to.dtype(Tensor self, ScalarType dtype, bool non_blocking=False, bool copy=False) -> Tensor", kMethod, N::Keep,
     OP { return to_dtype(a[0].tensor(), a[1].dtype(), a[3].to_bool()); }, "to_dtype"},
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
const OpTableRegistrar registrar(kOpTable);

}  // namespace
}  // namespace tz
