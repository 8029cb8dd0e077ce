// Op-table entries of sorting and selection: sort, argsort, msort, topk, kthvalue, median,
// nanmedian, mode and unique.
// See ops/registry.h for what an entry holds; op_table/register.cpp registers this family.
#include "derivatives/reduction.h"
#include "op_table/util.h"
#include "ops/ops.h"

namespace tz::op_table {
namespace {

const OpDef kOps[] = {
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
    {"unique(Tensor self, bool sorted=True, bool return_inverse=False, bool return_counts=False, int? dim=None) -> Tensor", kBoth, N::None,
     OP { return unique(a[0].tensor(), a[1].to_bool(), a[2].to_bool(), a[3].to_bool(), a[4].opt_int()); }, "unique",
     "", &not_differentiable},
};

}  // namespace

OpTableRef sorting_ops() { return kOps; }

}  // namespace tz::op_table
