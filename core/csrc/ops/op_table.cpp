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
    {"eye(int n, int? m=None, *, ScalarType? dtype=None) -> Tensor", kFunction, N::Factory,
     OP { return eye(a[0].to_int(), a[1].opt_int(), a[2].opt_dtype()); }, "eye"},
    {"linspace(Scalar start, Scalar end, int steps, *, ScalarType? dtype=None) -> Tensor", kFunction, N::Factory,
     OP { return linspace(a[0].scalar(), a[1].scalar(), a[2].to_int(), a[3].opt_dtype()); }, "linspace"},
    {"logspace(Scalar start, Scalar end, int steps, float base=10.0, *, ScalarType? dtype=None) -> Tensor", kFunction, N::Factory,
     OP { return logspace(a[0].scalar(), a[1].scalar(), a[2].to_int(), a[3].to_double(), a[4].opt_dtype()); }, "logspace"},
    {"empty_like(Tensor self, *, ScalarType? dtype=None) -> Tensor", kFunction, N::Keep,
     OP { return empty_like(a[0].tensor(), a[1].opt_dtype()); }, "like"},
    {"zeros_like(Tensor self, *, ScalarType? dtype=None) -> Tensor", kFunction, N::Keep,
     OP { return zeros_like(a[0].tensor(), a[1].opt_dtype()); }, "like"},
    {"ones_like(Tensor self, *, ScalarType? dtype=None) -> Tensor", kFunction, N::Keep,
     OP { return ones_like(a[0].tensor(), a[1].opt_dtype()); }, "like"},
    {"full_like(Tensor self, Scalar fill_value, *, ScalarType? dtype=None) -> Tensor", kFunction, N::Keep,
     OP { return full_like(a[0].tensor(), a[1].scalar(), a[2].opt_dtype()); }, "full_like"},

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
     OP { return rand_like(a[0].tensor(), a[1].opt_generator(), a[2].opt_dtype()); }, ""},
    {"randn_like(Tensor self, *, Generator? generator=None, ScalarType? dtype=None) -> Tensor", kFunction, N::Keep,
     OP { return randn_like(a[0].tensor(), a[1].opt_generator(), a[2].opt_dtype()); }, ""},
    {"randint_like(Tensor self, int high, *, Generator? generator=None, ScalarType? dtype=None) -> Tensor", kFunction, N::Keep,
     OP { return randint_like(a[0].tensor(), 0, a[1].to_int(), a[2].opt_generator(), a[3].opt_dtype()); }, ""},
    {"randint_like.low_dtype(Tensor self, int low, int high, *, Generator? generator=None, ScalarType? dtype=None) -> Tensor", kFunction, N::Keep,
     OP { return randint_like(a[0].tensor(), a[1].to_int(), a[2].to_int(), a[3].opt_generator(), a[4].opt_dtype()); }, ""},
    // A Python float also fits a Tensor parameter, so the float forms come first.
    {"normal.float_float(float mean, float std, int[] size, *, Generator? generator=None, ScalarType? dtype=None) -> Tensor", kFunction, N::Factory,
     OP { return normal(a[0].to_double(), a[1].to_double(), a[2].int_list(), a[3].opt_generator(), a[4].opt_dtype()); }, ""},
    {"normal.float_Tensor(float mean, Tensor std, *, Generator? generator=None) -> Tensor", kFunction, N::Unsupported,
     OP { return normal(a[0].to_double(), a[1].tensor(), a[2].opt_generator()); }, ""},
    {"normal.Tensor_float(Tensor mean, float std=1, *, Generator? generator=None) -> Tensor", kFunction, N::Unsupported,
     OP { return normal(a[0].tensor(), a[1].to_double(), a[2].opt_generator()); }, ""},
    {"normal.Tensor_Tensor(Tensor mean, Tensor std, *, Generator? generator=None) -> Tensor", kFunction, N::Unsupported,
     OP { return normal(a[0].tensor(), a[1].tensor(), a[2].opt_generator()); }, ""},
    {"bernoulli(Tensor self, *, Generator? generator=None) -> Tensor", kBoth, N::Keep,
     OP { return bernoulli(a[0].tensor(), a[1].opt_generator()); }, ""},
    {"bernoulli.p(Tensor self, float p, *, Generator? generator=None) -> Tensor", kBoth, N::Keep,
     OP { return bernoulli(a[0].tensor(), a[1].to_double(), a[2].opt_generator()); }, ""},
    {"multinomial(Tensor self, int num_samples, bool replacement=False, *, Generator? generator=None) -> Tensor", kBoth, N::Unsupported,
     OP { return multinomial(a[0].tensor(), a[1].to_int(), a[2].to_bool(), a[3].opt_generator()); }, ""},
    {"uniform_(Tensor self, float from=0, float to=1, *, Generator? generator=None) -> Tensor", kMethod, N::Keep,
     OP { return uniform_(a[0].tensor(), a[1].to_double(), a[2].to_double(), a[3].opt_generator()); }, ""},
    {"normal_(Tensor self, float mean=0, float std=1, *, Generator? generator=None) -> Tensor", kMethod, N::Keep,
     OP { return normal_(a[0].tensor(), a[1].to_double(), a[2].to_double(), a[3].opt_generator()); }, ""},
    // random_(), random_(to), random_(from, to): the one-int form must win over from-only.
    {"random_(Tensor self, *, Generator? generator=None) -> Tensor", kMethod, N::Keep,
     OP { return random_(a[0].tensor(), a[1].opt_generator()); }, ""},
    {"random_.to(Tensor self, int to, *, Generator? generator=None) -> Tensor", kMethod, N::Keep,
     OP { return random_(a[0].tensor(), a[1].to_int(), a[2].opt_generator()); }, ""},
    {"random_.from(Tensor self, int from, int? to, *, Generator? generator=None) -> Tensor", kMethod, N::Keep,
     OP { return random_(a[0].tensor(), a[1].to_int(), a[2].opt_int(), a[3].opt_generator()); }, ""},
    {"bernoulli_.float(Tensor self, float p=0.5, *, Generator? generator=None) -> Tensor", kMethod, N::Keep,
     OP { return bernoulli_(a[0].tensor(), a[1].to_double(), a[2].opt_generator()); }, ""},
    {"bernoulli_.Tensor(Tensor self, Tensor p, *, Generator? generator=None) -> Tensor", kMethod, N::Keep,
     OP { return bernoulli_(a[0].tensor(), a[1].tensor(), a[2].opt_generator()); }, ""},
    {"exponential_(Tensor self, float lambd=1, *, Generator? generator=None) -> Tensor", kMethod, N::Keep,
     OP { return exponential_(a[0].tensor(), a[1].to_double(), a[2].opt_generator()); }, ""},
    {"cauchy_(Tensor self, float median=0, float sigma=1, *, Generator? generator=None) -> Tensor", kMethod, N::Keep,
     OP { return cauchy_(a[0].tensor(), a[1].to_double(), a[2].to_double(), a[3].opt_generator()); }, ""},
    {"log_normal_(Tensor self, float mean=1, float std=2, *, Generator? generator=None) -> Tensor", kMethod, N::Keep,
     OP { return log_normal_(a[0].tensor(), a[1].to_double(), a[2].to_double(), a[3].opt_generator()); }, ""},
    {"geometric_(Tensor self, float p, *, Generator? generator=None) -> Tensor", kMethod, N::Keep,
     OP { return geometric_(a[0].tensor(), a[1].to_double(), a[2].opt_generator()); }, ""},

    // ---------------------------------------------------------------- indexing

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
