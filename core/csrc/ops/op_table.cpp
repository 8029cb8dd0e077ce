// THE op table. One entry per op (overload): signature with defaults, variants (function
// and/or Tensor method), named-tensor rule, boxed kernel, and the sample kind the generated
// tests in tests/core/test_op_matrix.py draw inputs from. Bindings are derived from it.
#include "autograd/functions.h"
#include "autograd/op_node.h"
#include "ops/ops.h"
#include "ops/registry.h"

namespace tz {
namespace {

using N = NameRule;
#define OP [](Stack & a) -> Value
// A derivative formula: `c` is the BackwardContext (c.grad(), c.tensor(arg), c.result()...).
#define GRAD [](BackwardContext & c) -> TensorList

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
     OP { return view(a[0].tensor(), a[1].int_list()); }, "reshape",
     "", GRAD { return {F::reshape(c.grad(), c.input_sizes(0))}; }},
    {"reshape(Tensor self, int[] shape) -> Tensor", kBoth, N::Custom,
     OP { return reshape(a[0].tensor(), a[1].int_list()); }, "reshape",
     "", GRAD { return {F::reshape(c.grad(), c.input_sizes(0))}; }},
    {"permute(Tensor self, int[] dims) -> Tensor", kBoth, N::Permute,
     OP { return permute(a[0].tensor(), a[1].int_list()); }, "permute",
     "", GRAD {
       const IntList& dims = c.args[1].int_list();
       IntList inverse(dims.size());
       for (size_t i = 0; i < dims.size(); ++i) inverse[wrap_dim(dims[i], dims.size(), "permute")] = i;
       return {F::permute(c.grad(), inverse)};
     }},
    {"transpose(Tensor self, int dim0, int dim1) -> Tensor", kBoth, N::Permute,
     OP { return transpose(a[0].tensor(), a[1].to_int(), a[2].to_int()); }, "transpose",
     "", GRAD { return {F::transpose(c.grad(), c.args[1].to_int(), c.args[2].to_int())}; }},
    {"expand(Tensor self, int[] size) -> Tensor", kMethod, N::Custom,
     OP { return expand(a[0].tensor(), a[1].int_list()); }, "expand",
     "", GRAD { return {c.grad()}; }},  // the engine sums the gradient back to the input's shape
    {"as_strided(Tensor self, int[] size, int[] stride, int? storage_offset=None) -> Tensor", kBoth, N::Unsupported,
     OP { return as_strided(a[0].tensor(), a[1].int_list(), a[2].int_list(), a[3].opt_int()); }, ""},
    {"contiguous(Tensor self) -> Tensor", kMethod, N::Keep,
     OP { return contiguous(a[0].tensor()); }, "unary_any",
     "", GRAD { return {c.grad()}; }},

    // ---------------------------------------------------------------- elementwise
    {"add(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", kBoth, N::Unify,
     OP { return add(a[0].tensor(), a[1].tensor(), a[2].scalar()); }, "binary_arith",
     "", GRAD { return {c.grad(), F::mul(c.grad(), c.args[2].scalar())}; }},
    {"add_(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", kMethod, N::Unify,
     OP { return binary_op_(BinaryOp::Add, a[0].tensor(), a[1].tensor(), "add_", a[2].scalar()); }, "binary_inplace",
     "", GRAD { return {c.grad(), F::mul(c.grad(), c.args[2].scalar())}; }},
    {"sub(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", kBoth, N::Unify,
     OP { return sub(a[0].tensor(), a[1].tensor(), a[2].scalar()); }, "binary_arith",
     "", GRAD { return {c.grad(), F::mul(c.grad(), Scalar(-c.args[2].scalar().to_double()))}; }},
    {"sub_(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", kMethod, N::Unify,
     OP { return binary_op_(BinaryOp::Sub, a[0].tensor(), a[1].tensor(), "sub_", a[2].scalar()); }, "binary_inplace",
     "", GRAD { return {c.grad(), F::mul(c.grad(), Scalar(-c.args[2].scalar().to_double()))}; }},
    {"mul(Tensor self, Tensor other) -> Tensor", kBoth, N::Unify,
     OP { return mul(a[0].tensor(), a[1].tensor()); }, "binary_arith",
     "self other", GRAD {
       return {c.needs_grad(0) ? F::mul(c.grad(), c.tensor(1)) : Tensor(),
               c.needs_grad(1) ? F::mul(c.grad(), c.tensor(0)) : Tensor()};
     }},
    {"mul_(Tensor self, Tensor other) -> Tensor", kMethod, N::Unify,
     OP { return binary_op_(BinaryOp::Mul, a[0].tensor(), a[1].tensor(), "mul_"); }, "binary_inplace",
     "self other", GRAD {
       return {c.needs_grad(0) ? F::mul(c.grad(), c.tensor(1)) : Tensor(),
               c.needs_grad(1) ? F::mul(c.grad(), c.tensor(0)) : Tensor()};
     }},
    {"div(Tensor self, Tensor other) -> Tensor", kBoth, N::Unify,
     OP { return div(a[0].tensor(), a[1].tensor()); }, "binary_arith",
     "self other", GRAD {
       Tensor g_self = F::div(c.grad(), c.tensor(1));
       return {g_self, c.needs_grad(1) ? F::neg(F::div(F::mul(g_self, c.tensor(0)), c.tensor(1))) : Tensor()};
     }},
    {"div_(Tensor self, Tensor other) -> Tensor", kMethod, N::Unify,
     OP { return binary_op_(BinaryOp::Div, a[0].tensor(), a[1].tensor(), "div_"); }, "binary_inplace",
     "self other", GRAD {
       Tensor g_self = F::div(c.grad(), c.tensor(1));
       return {g_self, c.needs_grad(1) ? F::neg(F::div(F::mul(g_self, c.tensor(0)), c.tensor(1))) : Tensor()};
     }},

    // ---------------------------------------------------------------- random

    // ---------------------------------------------------------------- indexing

    // ---------------------------------------------------------------- joining

    // ---------------------------------------------------------------- reduction

    // ---------------------------------------------------------------- sorting

    // ---------------------------------------------------------------- linalg

    // ---------------------------------------------------------------- conversion
    {"clone(Tensor self) -> Tensor", kBoth, N::Keep,
     OP { return clone(a[0].tensor()); }, "unary_any",
     "", GRAD { return {c.grad()}; }},
    {"copy_(Tensor self, Tensor src) -> Tensor", kMethod, N::Keep,
     OP { return copy_(a[0].tensor(), a[1].tensor()); }, ""},
    {"to.dtype(Tensor self, ScalarType dtype, bool non_blocking=False, bool copy=False) -> Tensor", kMethod, N::Keep,
     OP { return to_dtype(a[0].tensor(), a[1].dtype(), a[3].to_bool()); }, "",
     "", GRAD { return {c.grad()}; }},  // the engine casts the gradient back to the input dtype
    {"item(Tensor self) -> Scalar", kMethod, N::None,
     OP { return item(a[0].tensor()); }, ""},
};

#undef OP
#undef GRAD
const OpTableRegistrar registrar(kOpTable);

}  // namespace
}  // namespace tz
