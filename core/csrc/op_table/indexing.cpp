// Op-table entries of indexing: gather/scatter, the index_* family, masked ops, nonzero,
// take/put, where, and the advanced indexing behind Tensor.__getitem__/__setitem__.
// See ops/registry.h for what an entry holds; op_table/register.cpp registers this family.
#include "derivatives/indexing.h"
#include "op_table/util.h"
#include "ops/ops.h"

namespace tz::op_table {
namespace {

const OpDef kOps[] = {
    {"index_select(Tensor self, int dim, Tensor index) -> Tensor", kBoth, N::Keep,
     OP { return index_select(a[0].tensor(), a[1].to_int(), a[2].tensor()); }, "index_select",
     "index", GRAD {
       Tensor z = zeros(c.input_sizes("self"), c.grad().dtype());  // repeated indices accumulate
       return {F::tensor_call(TZ_OP("index_add"), {z, c.arg("dim"), c.input("index"), c.grad()})};
     }},
    {"gather(Tensor self, int dim, Tensor index, *, bool sparse_grad=False) -> Tensor", kBoth, N::Keep,
     OP { return gather(a[0].tensor(), a[1].to_int(), a[2].tensor()); }, "gather",
     "index", GRAD {
       Tensor z = zeros(c.input_sizes("self"), c.grad().dtype());
       return {F::tensor_call(TZ_OP("scatter_add"), {z, c.arg("dim"), c.input("index"), c.grad()})};
     }},
    // A Python number given as `src` is the value overload (Tensor params accept numbers).
    {"scatter.src(Tensor self, int dim, Tensor index, Tensor src, *, str? reduce=None) -> Tensor", kBoth, N::Keep,
     OP {
       auto reduce = a[4].is_none() ? std::optional<std::string>() : a[4].str();
       const Tensor& src = a[3].tensor();
       if (src.impl()->wrapped_number) return scatter(a[0].tensor(), a[1].to_int(), a[2].tensor(), item(src), reduce);
       return scatter(a[0].tensor(), a[1].to_int(), a[2].tensor(), src, reduce);
     }, "scatter",
     "index", &grad::scatter},
    {"scatter.value(Tensor self, int dim, Tensor index, Scalar value, *, str? reduce=None) -> Tensor", kBoth, N::Keep,
     OP {
       auto reduce = a[4].is_none() ? std::optional<std::string>() : a[4].str();
       return scatter(a[0].tensor(), a[1].to_int(), a[2].tensor(), a[3].scalar(), reduce);
     }, "scatter_value",
     "index", &grad::scatter},
    {"scatter_.src(Tensor self, int dim, Tensor index, Tensor src, *, str? reduce=None) -> Tensor", kMethod, N::Keep,
     OP {
       auto reduce = a[4].is_none() ? std::optional<std::string>() : a[4].str();
       const Tensor& src = a[3].tensor();
       if (src.impl()->wrapped_number) return scatter_(a[0].tensor(), a[1].to_int(), a[2].tensor(), item(src), reduce);
       return scatter_(a[0].tensor(), a[1].to_int(), a[2].tensor(), src, reduce);
     }, "scatter",
     "index", &grad::scatter},
    {"scatter_.value(Tensor self, int dim, Tensor index, Scalar value, *, str? reduce=None) -> Tensor", kMethod, N::Keep,
     OP {
       auto reduce = a[4].is_none() ? std::optional<std::string>() : a[4].str();
       return scatter_(a[0].tensor(), a[1].to_int(), a[2].tensor(), a[3].scalar(), reduce);
     }, "scatter_value",
     "index", &grad::scatter},
    {"scatter_add(Tensor self, int dim, Tensor index, Tensor src) -> Tensor", kBoth, N::Keep,
     OP { return scatter_add(a[0].tensor(), a[1].to_int(), a[2].tensor(), a[3].tensor()); }, "scatter",
     "index", &grad::scatter_add},
    {"scatter_add_(Tensor self, int dim, Tensor index, Tensor src) -> Tensor", kMethod, N::Keep,
     OP { return scatter_add_(a[0].tensor(), a[1].to_int(), a[2].tensor(), a[3].tensor()); }, "scatter",
     "index", &grad::scatter_add},
    {"index_add_(Tensor self, int dim, Tensor index, Tensor source, *, Scalar alpha=1) -> Tensor", kMethod, N::Keep,
     OP { return index_add_(a[0].tensor(), a[1].to_int(), a[2].tensor(), a[3].tensor(), a[4].scalar()); }, "index_add",
     "index", &grad::index_add},
    {"index_add(Tensor self, int dim, Tensor index, Tensor source, *, Scalar alpha=1) -> Tensor", kBoth, N::Keep,
     OP { return index_add(a[0].tensor(), a[1].to_int(), a[2].tensor(), a[3].tensor(), a[4].scalar()); }, "index_add",
     "index", &grad::index_add},
    {"index_copy_(Tensor self, int dim, Tensor index, Tensor source) -> Tensor", kMethod, N::Keep,
     OP { return index_copy_(a[0].tensor(), a[1].to_int(), a[2].tensor(), a[3].tensor()); }, "index_copy",
     "index", &grad::index_copy},
    {"index_copy(Tensor self, int dim, Tensor index, Tensor source) -> Tensor", kBoth, N::Keep,
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
    {"masked_select(Tensor self, Tensor mask) -> Tensor", kBoth, N::Custom,
     OP { return masked_select(a[0].tensor(), a[1].tensor()); }, "masked_select",
     "mask", &grad::masked_select},
    {"masked_scatter_(Tensor self, Tensor mask, Tensor source) -> Tensor", kMethod, N::Keep,
     OP { return masked_scatter_(a[0].tensor(), a[1].tensor(), a[2].tensor()); }, "masked_scatter",
     "mask", &grad::masked_scatter},
    {"masked_scatter(Tensor self, Tensor mask, Tensor source) -> Tensor", kBoth, N::Keep,
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
    {"where(Tensor condition) -> Tensor[]", kFunction, N::None,
     OP { return nonzero_numpy(a[0].tensor()); }, "unary_any"},
    {"nonzero(Tensor self, *, bool as_tuple=False) -> Tensor", kBoth, N::None,
     OP {
       if (a[1].to_bool()) return nonzero_numpy(a[0].tensor());
       return nonzero(a[0].tensor());
     }, "unary_any"},
    {"argwhere(Tensor self) -> Tensor", kBoth, N::None,
     OP { return nonzero(a[0].tensor()); }, "unary_any"},
    {"take(Tensor self, Tensor index) -> Tensor", kBoth, N::Custom,
     OP { return take(a[0].tensor(), a[1].tensor()); }, "take",
     "index", &grad::take},
    {"put_(Tensor self, Tensor index, Tensor source, bool accumulate=False) -> Tensor", kMethod, N::Keep,
     OP { return put_(a[0].tensor(), a[1].tensor(), a[2].tensor(), a[3].to_bool()); }, "put",
     "index", &grad::put},
    {"put(Tensor self, Tensor index, Tensor source, bool accumulate=False) -> Tensor", kBoth, N::Keep,
     OP { return put(a[0].tensor(), a[1].tensor(), a[2].tensor(), a[3].to_bool()); }, "put",
     "index", &grad::put},
    // Tensor?[] arguments are not generated by the op matrix: tests/core/test_indexing.py covers these.
    {"index_put_(Tensor self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor", kMethod, N::Keep,
     OP { return index_put_(a[0].tensor(), a[1].tensor_list(), a[2].tensor(), a[3].to_bool()); }, "index_put",
     "indices", &grad::index_put},
    {"index_put(Tensor self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor", kBoth, N::Keep,
     OP { return index_put(a[0].tensor(), a[1].tensor_list(), a[2].tensor(), a[3].to_bool()); }, "index_put",
     "indices", &grad::index_put},

    // self[indices] of Tensor.__getitem__ (internal; the Python spelling is t[...]).
    {"index.Tensor(Tensor self, Tensor?[] indices) -> Tensor", kInternal, N::Unsupported,
     OP { return index(a[0].tensor(), a[1].tensor_list()); }, "index_tensor",
     "indices", &grad::index},
};

}  // namespace

OpTableRef indexing_ops() { return kOps; }

}  // namespace tz::op_table
