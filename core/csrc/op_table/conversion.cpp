// Op-table entries of conversions and dtype queries: to, type, the dtype shorthands (float,
// half, long...), clone, copy_, item, numel, promote_types and result_type.
// See ops/registry.h for what an entry holds; op_table/register.cpp registers this family.
#include "op_table/util.h"
#include "ops/ops.h"

namespace tz::op_table {
namespace {

const OpDef kOps[] = {
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

}  // namespace

OpTableRef conversion_ops() { return kOps; }

}  // namespace tz::op_table
