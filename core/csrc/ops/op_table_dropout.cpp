// Op-table entries of dropout: the one-pass apply of a drawn mask (ops/dropout.h). The mask
// draw and the p/training logic are core/_dropout.py's (torch.dropout, torch.alpha_dropout...).
// The gradient is the same apply, unshifted: grad * mask * scale.
#include "ops/dropout.h"
#include "ops/op_table_util.h"

namespace tz {
namespace {

using namespace op_table;

DropoutArgs dropout_args(const Stack& a) {
  return DropoutArgs{a[2].to_double(), a[3].to_double(), a[4].to_double()};
}

TensorList dropout_grad(BackwardContext& c) {
  return {F::tensor_call(TZ_OP("_dropout_apply"), {c.grad(), c.input("mask"), c.arg("scale")})};
}

const OpDef kDropoutOps[] = {
    {"_dropout_apply(Tensor self, Tensor mask, float scale, float shift=0., float fill=0.) -> Tensor", kInternal, N::Keep,
     OP { return dropout_apply(a[0].tensor(), a[1].tensor(), dropout_args(a)); }, "dropout_apply",
     "mask", &dropout_grad},
    {"_dropout_apply_(Tensor self, Tensor mask, float scale, float shift=0., float fill=0.) -> Tensor", kInternal, N::Keep,
     OP { return dropout_apply_(a[0].tensor(), a[1].tensor(), dropout_args(a)); }, "dropout_apply_inplace",
     "mask", &dropout_grad},
};

const OpTableRegistrar registrar(kDropoutOps);

}  // namespace
}  // namespace tz
