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
    {"sum(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", kBoth, N::Reduce,
     OP { return sum(a[0].tensor(), a[1].opt_int_list(), a[2].to_bool(), a[3].opt_dtype()); }, "reduce_sum"},
    {"nansum(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", kBoth, N::Reduce,
     OP { return nansum(a[0].tensor(), a[1].opt_int_list(), a[2].to_bool(), a[3].opt_dtype()); }, "reduce_sum"},
    {"mean(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", kBoth, N::Reduce,
     OP { return mean(a[0].tensor(), a[1].opt_int_list(), a[2].to_bool(), a[3].opt_dtype()); }, "reduce_float"},
    {"prod(Tensor self, int? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", kBoth, N::Reduce,
     OP { return prod(a[0].tensor(), a[1].opt_int(), a[2].to_bool(), a[3].opt_dtype()); }, "reduce_one_dim"},
    {"max(Tensor self) -> Tensor", kBoth, N::Reduce,
     OP { return max_all(a[0].tensor(), true); }, "reduce_all_nonempty"},
    {"max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)", kBoth, N::Reduce,
     OP { auto r = max_dim(a[0].tensor(), a[1].to_int(), a[2].to_bool(), true); return Value::Tuple{r.first, r.second}; }, "reduce_dim_nonempty"},
    {"min(Tensor self) -> Tensor", kBoth, N::Reduce,
     OP { return max_all(a[0].tensor(), false); }, "reduce_all_nonempty"},
    {"min.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)", kBoth, N::Reduce,
     OP { auto r = max_dim(a[0].tensor(), a[1].to_int(), a[2].to_bool(), false); return Value::Tuple{r.first, r.second}; }, "reduce_dim_nonempty"},
    {"amax(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor", kBoth, N::Reduce,
     OP { return amax(a[0].tensor(), a[1].int_list(), a[2].to_bool(), true); }, "reduce_dims_nonempty"},
    {"amin(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor", kBoth, N::Reduce,
     OP { return amax(a[0].tensor(), a[1].int_list(), a[2].to_bool(), false); }, "reduce_dims_nonempty"},
    {"argmax(Tensor self, int? dim=None, bool keepdim=False) -> Tensor", kBoth, N::Reduce,
     OP { return argmax(a[0].tensor(), a[1].opt_int(), a[2].to_bool(), true); }, "reduce_arg"},
    {"argmin(Tensor self, int? dim=None, bool keepdim=False) -> Tensor", kBoth, N::Reduce,
     OP { return argmax(a[0].tensor(), a[1].opt_int(), a[2].to_bool(), false); }, "reduce_arg"},
    // `x.var(True)` means unbiased (bools are not dims), so this overload comes first.
    {"var.unbiased(Tensor self, bool unbiased) -> Tensor", kBoth, N::Reduce,
     OP { return var(a[0].tensor(), std::nullopt, a[1].to_bool() ? 1.0 : 0.0, false, false); }, "reduce_unbiased"},
    {"var(Tensor self, int[1]? dim=None, bool unbiased=True, bool keepdim=False, *, Scalar? correction=None) -> Tensor", kBoth, N::Reduce,
     OP { return var(a[0].tensor(), a[1].opt_int_list(), var_correction(a[2].to_bool(), a[4].is_none() ? std::nullopt : std::optional<Scalar>(a[4].scalar())), a[3].to_bool(), false); }, "reduce_var"},
    {"std.unbiased(Tensor self, bool unbiased) -> Tensor", kBoth, N::Reduce,
     OP { return var(a[0].tensor(), std::nullopt, a[1].to_bool() ? 1.0 : 0.0, false, true); }, "reduce_unbiased"},
    {"std(Tensor self, int[1]? dim=None, bool unbiased=True, bool keepdim=False, *, Scalar? correction=None) -> Tensor", kBoth, N::Reduce,
     OP { return var(a[0].tensor(), a[1].opt_int_list(), var_correction(a[2].to_bool(), a[4].is_none() ? std::nullopt : std::optional<Scalar>(a[4].scalar())), a[3].to_bool(), true); }, "reduce_var"},
    {"var_mean.unbiased(Tensor self, bool unbiased) -> (Tensor, Tensor)", kFunction, N::Reduce,
     OP { auto r = var_mean(a[0].tensor(), std::nullopt, a[1].to_bool() ? 1.0 : 0.0, false, false); return Value::Tuple{r.first, r.second}; }, "reduce_unbiased"},
    {"var_mean(Tensor self, int[1]? dim=None, bool unbiased=True, bool keepdim=False, *, Scalar? correction=None) -> (Tensor, Tensor)", kFunction, N::Reduce,
     OP { auto r = var_mean(a[0].tensor(), a[1].opt_int_list(), var_correction(a[2].to_bool(), a[4].is_none() ? std::nullopt : std::optional<Scalar>(a[4].scalar())), a[3].to_bool(), false); return Value::Tuple{r.first, r.second}; }, "reduce_var"},
    {"std_mean.unbiased(Tensor self, bool unbiased) -> (Tensor, Tensor)", kFunction, N::Reduce,
     OP { auto r = var_mean(a[0].tensor(), std::nullopt, a[1].to_bool() ? 1.0 : 0.0, false, true); return Value::Tuple{r.first, r.second}; }, "reduce_unbiased"},
    {"std_mean(Tensor self, int[1]? dim=None, bool unbiased=True, bool keepdim=False, *, Scalar? correction=None) -> (Tensor, Tensor)", kFunction, N::Reduce,
     OP { auto r = var_mean(a[0].tensor(), a[1].opt_int_list(), var_correction(a[2].to_bool(), a[4].is_none() ? std::nullopt : std::optional<Scalar>(a[4].scalar())), a[3].to_bool(), true); return Value::Tuple{r.first, r.second}; }, "reduce_var"},
    {"norm(Tensor self, Scalar? p=2, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", kBoth, N::Reduce,
     OP { return norm(a[0].tensor(), a[1].is_none() ? 2.0 : a[1].scalar().to_double(), a[2].opt_int_list(), a[3].to_bool(), a[4].opt_dtype()); }, "reduce_norm"},
    {"norm.str(Tensor self, str p, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", kBoth, N::Reduce,
     OP { return norm_str(a[0].tensor(), a[1].str(), a[2].opt_int_list(), a[3].to_bool(), a[4].opt_dtype()); }, "reduce_norm_str"},
    {"logsumexp(Tensor self, int[1] dim, bool keepdim=False) -> Tensor", kBoth, N::Reduce,
     OP { return logsumexp(a[0].tensor(), a[1].int_list(), a[2].to_bool()); }, "reduce_logsumexp"},
    {"all(Tensor self, int[1]? dim=None, bool keepdim=False) -> Tensor", kBoth, N::Reduce,
     OP { return all(a[0].tensor(), a[1].opt_int_list(), a[2].to_bool()); }, "reduce_logical"},
    {"any(Tensor self, int[1]? dim=None, bool keepdim=False) -> Tensor", kBoth, N::Reduce,
     OP { return any(a[0].tensor(), a[1].opt_int_list(), a[2].to_bool()); }, "reduce_logical"},
    {"count_nonzero(Tensor self, int[1]? dim=None) -> Tensor", kBoth, N::Reduce,
     OP { return count_nonzero(a[0].tensor(), a[1].opt_int_list()); }, "reduce_count"},
    {"cumsum(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor", kBoth, N::Keep,
     OP { return cumsum(a[0].tensor(), a[1].to_int(), a[2].opt_dtype()); }, "scan"},
    {"cumprod(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor", kBoth, N::Keep,
     OP { return cumprod(a[0].tensor(), a[1].to_int(), a[2].opt_dtype()); }, "scan"},
    {"softmax(Tensor self, int dim, ScalarType? dtype=None) -> Tensor", kBoth, N::Keep,
     OP { return softmax(a[0].tensor(), a[1].to_int(), a[2].opt_dtype(), false); }, "softmax"},
    {"log_softmax(Tensor self, int dim, ScalarType? dtype=None) -> Tensor", kBoth, N::Keep,
     OP { return softmax(a[0].tensor(), a[1].to_int(), a[2].opt_dtype(), true); }, "softmax"},
    // The kernels' vectorised float32 exp, exposed for its accuracy tests.
    {"_vec_exp(Tensor self) -> Tensor", kFunction, N::Keep,
     OP { return vec_exp(a[0].tensor()); }, ""},

    // ---------------------------------------------------------------- sorting
    {"sort(Tensor self, int dim=-1, bool descending=False, bool? stable=False) -> (Tensor values, Tensor indices)", kBoth, N::Keep,
     OP { auto r = sort(a[0].tensor(), a[1].to_int(), a[2].to_bool()); return Value::Tuple{r.first, r.second}; }, "sort"},
    {"argsort(Tensor self, int dim=-1, bool descending=False, *, bool stable=False) -> Tensor", kBoth, N::Keep,
     OP { return sort(a[0].tensor(), a[1].to_int(), a[2].to_bool()).second; }, "sort"},
    {"msort(Tensor self) -> Tensor", kBoth, N::Keep,
     OP { return msort(a[0].tensor()); }, "sort_plain"},
    {"topk(Tensor self, int k, int dim=-1, bool largest=True, bool sorted=True) -> (Tensor values, Tensor indices)", kBoth, N::Keep,
     OP { auto r = topk(a[0].tensor(), a[1].to_int(), a[2].to_int(), a[3].to_bool(), a[4].to_bool()); return Value::Tuple{r.first, r.second}; }, "topk"},
    {"kthvalue(Tensor self, int k, int dim=-1, bool keepdim=False) -> (Tensor values, Tensor indices)", kBoth, N::Reduce,
     OP { auto r = kthvalue(a[0].tensor(), a[1].to_int(), a[2].to_int(), a[3].to_bool()); return Value::Tuple{r.first, r.second}; }, "kthvalue"},
    {"median(Tensor self) -> Tensor", kBoth, N::Reduce,
     OP { return median_all(a[0].tensor(), false); }, "median_all"},
    {"median.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)", kBoth, N::Reduce,
     OP { auto r = median_dim(a[0].tensor(), a[1].to_int(), a[2].to_bool(), false); return Value::Tuple{r.first, r.second}; }, "median_dim"},
    {"nanmedian(Tensor self) -> Tensor", kBoth, N::Reduce,
     OP { return median_all(a[0].tensor(), true); }, "median_all"},
    {"nanmedian.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)", kBoth, N::Reduce,
     OP { auto r = median_dim(a[0].tensor(), a[1].to_int(), a[2].to_bool(), true); return Value::Tuple{r.first, r.second}; }, "median_dim"},
    {"mode(Tensor self, int dim=-1, bool keepdim=False) -> (Tensor values, Tensor indices)", kBoth, N::Reduce,
     OP { auto r = mode(a[0].tensor(), a[1].to_int(), a[2].to_bool()); return Value::Tuple{r.first, r.second}; }, "mode"},
    // Returns a Tensor, or a tuple when inverse indices or counts are asked for.
    {"unique(Tensor self, bool sorted=True, bool return_inverse=False, bool return_counts=False, int? dim=None) -> Tensor", kBoth, N::Unsupported,
     OP { return unique(a[0].tensor(), a[1].to_bool(), a[2].to_bool(), a[3].to_bool(), a[4].opt_int()); }, "unique"},

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
