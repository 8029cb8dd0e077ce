// Op-table entries of random draws (PyTorch's generator streams): the in-place samplers
// (uniform_, normal_, bernoulli_...) and the sampling functions (rand, randn, randint, randperm,
// multinomial...).
// See ops/registry.h for what an entry holds; op_table/register.cpp registers this family.
#include "derivatives/elementwise.h"
#include "op_table/util.h"
#include "ops/ops.h"

namespace tz::op_table {
namespace {

const OpDef kOps[] = {
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
     OP { return rand_like(a[0].tensor(), a[1].opt_generator(), a[2].opt_dtype()); }, "", "", not_differentiable},
    {"randn_like(Tensor self, *, Generator? generator=None, ScalarType? dtype=None) -> Tensor", kFunction, N::Keep,
     OP { return randn_like(a[0].tensor(), a[1].opt_generator(), a[2].opt_dtype()); }, "", "", not_differentiable},
    {"randint_like(Tensor self, int high, *, Generator? generator=None, ScalarType? dtype=None) -> Tensor", kFunction, N::Keep,
     OP { return randint_like(a[0].tensor(), 0, a[1].to_int(), a[2].opt_generator(), a[3].opt_dtype()); }, "", "", not_differentiable},
    {"randint_like.low_dtype(Tensor self, int low, int high, *, Generator? generator=None, ScalarType? dtype=None) -> Tensor", kFunction, N::Keep,
     OP { return randint_like(a[0].tensor(), a[1].to_int(), a[2].to_int(), a[3].opt_generator(), a[4].opt_dtype()); }, "", "", not_differentiable},
    // A Python float also fits a Tensor parameter, so the float forms come first.
    {"normal.float_float(float mean, float std, int[] size, *, Generator? generator=None, ScalarType? dtype=None) -> Tensor", kFunction, N::Factory,
     OP { return normal(a[0].to_double(), a[1].to_double(), a[2].int_list(), a[3].opt_generator(), a[4].opt_dtype()); }, ""},
    {"normal.float_Tensor(float mean, Tensor std, *, Generator? generator=None) -> Tensor", kFunction, N::Unify,
     OP { return normal(a[0].to_double(), a[1].tensor(), a[2].opt_generator()); }, "", "", &grad::zeros},
    {"normal.Tensor_float(Tensor mean, float std=1, *, Generator? generator=None) -> Tensor", kFunction, N::Unify,
     OP { return normal(a[0].tensor(), a[1].to_double(), a[2].opt_generator()); }, "", "", &grad::zeros},
    {"normal.Tensor_Tensor(Tensor mean, Tensor std, *, Generator? generator=None) -> Tensor", kFunction, N::Unify,
     OP { return normal(a[0].tensor(), a[1].tensor(), a[2].opt_generator()); }, "", "", &grad::zeros},
    {"bernoulli(Tensor self, *, Generator? generator=None) -> Tensor", kBoth, N::Keep,
     OP { return bernoulli(a[0].tensor(), a[1].opt_generator()); }, "", "", &grad::zeros},
    {"bernoulli.p(Tensor self, float p, *, Generator? generator=None) -> Tensor", kBoth, N::Keep,
     OP { return bernoulli(a[0].tensor(), a[1].to_double(), a[2].opt_generator()); }, "", "", &grad::zeros},
    {"multinomial(Tensor self, int num_samples, bool replacement=False, *, Generator? generator=None) -> Tensor", kBoth, N::Custom,
     OP { return multinomial(a[0].tensor(), a[1].to_int(), a[2].to_bool(), a[3].opt_generator()); }, ""},
    {"uniform_(Tensor self, float from=0, float to=1, *, Generator? generator=None) -> Tensor", kMethod, N::Keep,
     OP { return uniform_(a[0].tensor(), a[1].to_double(), a[2].to_double(), a[3].opt_generator()); }, "", "", &grad::zeros},
    {"normal_(Tensor self, float mean=0, float std=1, *, Generator? generator=None) -> Tensor", kMethod, N::Keep,
     OP { return normal_(a[0].tensor(), a[1].to_double(), a[2].to_double(), a[3].opt_generator()); }, "", "", &grad::zeros},
    // random_(), random_(to), random_(from, to): the one-int form must win over from-only.
    {"random_(Tensor self, *, Generator? generator=None) -> Tensor", kMethod, N::Keep,
     OP { return random_(a[0].tensor(), a[1].opt_generator()); }, "", "", &grad::zeros},
    {"random_.to(Tensor self, int to, *, Generator? generator=None) -> Tensor", kMethod, N::Keep,
     OP { return random_(a[0].tensor(), a[1].to_int(), a[2].opt_generator()); }, "", "", &grad::zeros},
    {"random_.from(Tensor self, int from, int? to, *, Generator? generator=None) -> Tensor", kMethod, N::Keep,
     OP { return random_(a[0].tensor(), a[1].to_int(), a[2].opt_int(), a[3].opt_generator()); }, "", "", &grad::zeros},
    {"bernoulli_.float(Tensor self, float p=0.5, *, Generator? generator=None) -> Tensor", kMethod, N::Keep,
     OP { return bernoulli_(a[0].tensor(), a[1].to_double(), a[2].opt_generator()); }, "", "", &grad::zeros},
    {"bernoulli_.Tensor(Tensor self, Tensor p, *, Generator? generator=None) -> Tensor", kMethod, N::Keep,
     OP { return bernoulli_(a[0].tensor(), a[1].tensor(), a[2].opt_generator()); }, "", "", &grad::zeros},
    {"exponential_(Tensor self, float lambd=1, *, Generator? generator=None) -> Tensor", kMethod, N::Keep,
     OP { return exponential_(a[0].tensor(), a[1].to_double(), a[2].opt_generator()); }, "", "", &grad::zeros},
    {"cauchy_(Tensor self, float median=0, float sigma=1, *, Generator? generator=None) -> Tensor", kMethod, N::Keep,
     OP { return cauchy_(a[0].tensor(), a[1].to_double(), a[2].to_double(), a[3].opt_generator()); }, "", "", &grad::zeros},
    {"log_normal_(Tensor self, float mean=1, float std=2, *, Generator? generator=None) -> Tensor", kMethod, N::Keep,
     OP { return log_normal_(a[0].tensor(), a[1].to_double(), a[2].to_double(), a[3].opt_generator()); }, "", "", &grad::zeros},
    {"geometric_(Tensor self, float p, *, Generator? generator=None) -> Tensor", kMethod, N::Keep,
     OP { return geometric_(a[0].tensor(), a[1].to_double(), a[2].opt_generator()); }, "", "", &grad::zeros},
};

}  // namespace

OpTableRef random_ops() { return kOps; }

}  // namespace tz::op_table
