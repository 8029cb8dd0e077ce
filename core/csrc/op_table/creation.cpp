// Op-table entries of the factories: empty, zeros, ones, full, arange, linspace, logspace,
// eye, the *_like forms, and the fills fill_ and zero_.
// See ops/registry.h for what an entry holds; op_table/register.cpp registers this family.
#include "op_table/util.h"
#include "ops/ops.h"

namespace tz::op_table {
namespace {

const OpDef kOps[] = {
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
};

}  // namespace

OpTableRef creation_ops() { return kOps; }

}  // namespace tz::op_table
