// Op-table entries of linear algebra: matmul, mm, bmm, mv, dot/vdot, outer, the add*
// family (addmm, addbmm, baddbmm, addmv), einsum and tensordot.
// See ops/registry.h for what an entry holds; op_table/register.cpp registers this family.
#include "derivatives/linalg.h"
#include "op_table/util.h"
#include "ops/ops.h"

namespace tz::op_table {
namespace {

const OpDef kOps[] = {
    {"matmul(Tensor self, Tensor other) -> Tensor", kBoth, N::Contract,
     OP { return matmul(a[0].tensor(), a[1].tensor()); }, "matmul",
     "self other", GRAD { return grad::matmul_backward(c); }},
    {"mm(Tensor self, Tensor mat2) -> Tensor", kBoth, N::Contract,
     OP { return mm(a[0].tensor(), a[1].tensor()); }, "mm",
     "self mat2", GRAD {
       return {c.needs_grad("self") ? grad::mm_grad_a(c.grad(), c.input("mat2")) : Tensor(),
               c.needs_grad("mat2") ? grad::mm_grad_b(c.grad(), c.input("self")) : Tensor()};
     }},
    {"bmm(Tensor self, Tensor mat2) -> Tensor", kBoth, N::Contract,
     OP { return bmm(a[0].tensor(), a[1].tensor()); }, "bmm",
     "self mat2", GRAD {
       return {c.needs_grad("self") ? grad::mm_grad_a(c.grad(), c.input("mat2")) : Tensor(),
               c.needs_grad("mat2") ? grad::mm_grad_b(c.grad(), c.input("self")) : Tensor()};
     }},
    {"mv(Tensor self, Tensor vec) -> Tensor", kBoth, N::Contract,
     OP { return mv(a[0].tensor(), a[1].tensor()); }, "mv",
     "self vec", GRAD { return grad::mv_backward(c); }},
    {"dot(Tensor self, Tensor tensor) -> Tensor", kBoth, N::Contract,
     OP { return dot(a[0].tensor(), a[1].tensor()); }, "dot",
     "self tensor", GRAD { return grad::dot_backward(c, false); }},
    {"vdot(Tensor self, Tensor other) -> Tensor", kBoth, N::Contract,
     OP { return vdot(a[0].tensor(), a[1].tensor()); }, "dot",
     "self other", GRAD { return grad::dot_backward(c, true); }},
    {"outer(Tensor self, Tensor vec2) -> Tensor", kBoth, N::Custom,
     OP { return outer(a[0].tensor(), a[1].tensor()); }, "outer",
     "self vec2", GRAD { return grad::outer_backward(c); }},
    {"ger(Tensor self, Tensor vec2) -> Tensor", kBoth, N::Custom,
     OP { return outer(a[0].tensor(), a[1].tensor()); }, "outer",
     "self vec2", GRAD { return grad::outer_backward(c); }},
    {"addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor", kBoth, N::Contract,
     OP { return addmm(a[0].tensor(), a[1].tensor(), a[2].tensor(), a[3].scalar(), a[4].scalar()); }, "addmm",
     "mat1 mat2", GRAD { return grad::addmm_backward(c, "mat1", "mat2"); }},
    {"addmm_(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor", kMethod, N::Contract,
     OP { return addmm_(a[0].tensor(), a[1].tensor(), a[2].tensor(), a[3].scalar(), a[4].scalar()); }, "addmm_inplace",
     "mat1 mat2", GRAD { return grad::addmm_backward(c, "mat1", "mat2"); }},
    {"addmv(Tensor self, Tensor mat, Tensor vec, *, Scalar beta=1, Scalar alpha=1) -> Tensor", kBoth, N::Contract,
     OP { return addmv(a[0].tensor(), a[1].tensor(), a[2].tensor(), a[3].scalar(), a[4].scalar()); }, "addmv",
     "mat vec", GRAD { return grad::addmv_backward(c); }},
    {"addmv_(Tensor self, Tensor mat, Tensor vec, *, Scalar beta=1, Scalar alpha=1) -> Tensor", kMethod, N::Contract,
     OP { return addmv_(a[0].tensor(), a[1].tensor(), a[2].tensor(), a[3].scalar(), a[4].scalar()); }, "addmv_inplace",
     "mat vec", GRAD { return grad::addmv_backward(c); }},
    {"baddbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor", kBoth, N::Contract,
     OP { return baddbmm(a[0].tensor(), a[1].tensor(), a[2].tensor(), a[3].scalar(), a[4].scalar()); }, "baddbmm",
     "batch1 batch2", GRAD { return grad::addmm_backward(c, "batch1", "batch2"); }},
    {"baddbmm_(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor", kMethod, N::Contract,
     OP { return baddbmm_(a[0].tensor(), a[1].tensor(), a[2].tensor(), a[3].scalar(), a[4].scalar()); }, "baddbmm_inplace",
     "batch1 batch2", GRAD { return grad::addmm_backward(c, "batch1", "batch2"); }},
    {"addbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor", kBoth, N::Contract,
     OP { return addbmm(a[0].tensor(), a[1].tensor(), a[2].tensor(), a[3].scalar(), a[4].scalar()); }, "addbmm",
     "batch1 batch2", GRAD { return grad::addmm_backward(c, "batch1", "batch2"); }},
    {"addbmm_(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor", kMethod, N::Contract,
     OP { return addbmm_(a[0].tensor(), a[1].tensor(), a[2].tensor(), a[3].scalar(), a[4].scalar()); }, "addbmm_inplace",
     "batch1 batch2", GRAD { return grad::addmm_backward(c, "batch1", "batch2"); }},
    {"tensordot(Tensor self, Tensor other, int[] dims_self, int[] dims_other) -> Tensor", kFunction, N::Contract,
     OP { return tensordot(a[0].tensor(), a[1].tensor(), a[2].int_list(), a[3].int_list()); }, "tensordot",
     "self other", GRAD { return grad::tensordot_backward(c); }},
    {"einsum(str equation, Tensor[] tensors) -> Tensor", kFunction, N::Custom,
     OP { return einsum(a[0].str(), a[1].tensor_list()); }, "einsum",
     "tensors", GRAD { return grad::einsum_backward(c); }},
};

}  // namespace

OpTableRef linalg_ops() { return kOps; }

}  // namespace tz::op_table
