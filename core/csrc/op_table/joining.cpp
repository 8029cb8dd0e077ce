// Op-table entries of joining and rearranging: cat, stack and the *stack forms, atleast_*,
// meshgrid, flip, roll, rot90, repeat, tile, tril/triu, diag, diagonal, trace and pad.
// See ops/registry.h for what an entry holds; op_table/register.cpp registers this family.
#include "derivatives/joining.h"
#include "op_table/util.h"
#include "ops/ops.h"

namespace tz::op_table {
namespace {

const OpDef kOps[] = {
    {"cat(Tensor[] tensors, int dim=0) -> Tensor", kFunction, N::Custom,
     OP { return cat(a[0].tensor_list(), a[1].to_int()); }, "cat",
     "", GRAD { return grad::cat_backward(c, c.arg("dim").to_int()); }},
    {"concat(Tensor[] tensors, int dim=0) -> Tensor", kFunction, N::Custom,
     OP { return cat(a[0].tensor_list(), a[1].to_int()); }, "cat",
     "", GRAD { return grad::cat_backward(c, c.arg("dim").to_int()); }},
    {"stack(Tensor[] tensors, int dim=0) -> Tensor", kFunction, N::Custom,
     OP { return stack(a[0].tensor_list(), a[1].to_int()); }, "stack",
     "", GRAD { return grad::stack_backward(c, c.arg("dim").to_int()); }},
    {"hstack(Tensor[] tensors) -> Tensor", kFunction, N::Custom,
     OP { return hstack(a[0].tensor_list()); }, "stack_np",
     "", GRAD { return grad::stack_np_backward(c, grad::StackKind::H); }},
    {"vstack(Tensor[] tensors) -> Tensor", kFunction, N::Custom,
     OP { return vstack(a[0].tensor_list()); }, "stack_np",
     "", GRAD { return grad::stack_np_backward(c, grad::StackKind::V); }},
    {"dstack(Tensor[] tensors) -> Tensor", kFunction, N::Custom,
     OP { return dstack(a[0].tensor_list()); }, "stack_np",
     "", GRAD { return grad::stack_np_backward(c, grad::StackKind::D); }},
    {"column_stack(Tensor[] tensors) -> Tensor", kFunction, N::Custom,
     OP { return column_stack(a[0].tensor_list()); }, "stack_np",
     "", GRAD { return grad::stack_np_backward(c, grad::StackKind::Column); }},
    {"atleast_1d(Tensor self) -> Tensor", kFunction, N::Custom,
     OP { return atleast_1d(a[0].tensor()); }, "unary_any",
     "", GRAD { return grad::reshape_each_backward(c); }},
    {"atleast_1d.Sequence(Tensor[] tensors) -> Tensor[]", kFunction, N::Custom,
     OP { return atleast_1d(a[0].tensor_list()); }, "tensor_list_any",
     "", GRAD { return grad::reshape_each_backward(c); }},
    {"atleast_2d(Tensor self) -> Tensor", kFunction, N::Custom,
     OP { return atleast_2d(a[0].tensor()); }, "unary_any",
     "", GRAD { return grad::reshape_each_backward(c); }},
    {"atleast_2d.Sequence(Tensor[] tensors) -> Tensor[]", kFunction, N::Custom,
     OP { return atleast_2d(a[0].tensor_list()); }, "tensor_list_any",
     "", GRAD { return grad::reshape_each_backward(c); }},
    {"atleast_3d(Tensor self) -> Tensor", kFunction, N::Custom,
     OP { return atleast_3d(a[0].tensor()); }, "unary_any",
     "", GRAD { return grad::reshape_each_backward(c); }},
    {"atleast_3d.Sequence(Tensor[] tensors) -> Tensor[]", kFunction, N::Custom,
     OP { return atleast_3d(a[0].tensor_list()); }, "tensor_list_any",
     "", GRAD { return grad::reshape_each_backward(c); }},
    {"flip(Tensor self, int[] dims) -> Tensor", kBoth, N::Keep,
     OP { return flip(a[0].tensor(), a[1].int_list()); }, "flip",
     "", GRAD { return {grad::op(TZ_OP("flip"), {c.grad(), c.arg("dims")})}; }},
    {"fliplr(Tensor self) -> Tensor", kBoth, N::Keep,
     OP { return fliplr(a[0].tensor()); }, "matrix_any",
     "", GRAD { return {grad::op(TZ_OP("fliplr"), {c.grad()})}; }},
    {"flipud(Tensor self) -> Tensor", kBoth, N::Keep,
     OP { return flipud(a[0].tensor()); }, "matrix_any",
     "", GRAD { return {grad::op(TZ_OP("flipud"), {c.grad()})}; }},
    // `int[1]? dims` (None = flatten) rather than `int[1] dims=[]`: a defaulted param after
    // `shifts` would make `x.roll(1, 0)` parse as varargs shifts=(1, 0).
    {"roll(Tensor self, int[1] shifts, int[1]? dims) -> Tensor", kBoth, N::Keep,
     OP { return roll(a[0].tensor(), a[1].int_list(), a[2].opt_int_list().value_or(IntList{})); }, "roll",
     "", GRAD { return {grad::op(TZ_OP("roll"), {c.grad(), grad::negated(c.arg("shifts").int_list()), c.arg("dims")})}; }},
    {"rot90(Tensor self, int k=1, int[] dims=[0,1]) -> Tensor", kBoth, N::Custom,
     OP { return rot90(a[0].tensor(), a[1].to_int(), a[2].int_list()); }, "rot90",
     "", GRAD { return {grad::op(TZ_OP("rot90"), {c.grad(), -c.arg("k").to_int(), c.arg("dims")})}; }},
    {"repeat(Tensor self, int[] repeats) -> Tensor", kMethod, N::Custom,
     OP { return repeat(a[0].tensor(), a[1].int_list()); }, "repeat",
     "", GRAD { return {grad::repeat_backward(c.grad(), c.input_sizes("self"), c.arg("repeats").int_list())}; }},
    {"tile(Tensor self, int[] dims) -> Tensor", kBoth, N::Custom,
     OP { return tile(a[0].tensor(), a[1].int_list()); }, "tile",
     "", GRAD { return {grad::tile_backward(c.grad(), c.input_sizes("self"), c.arg("dims").int_list())}; }},
    // int before Tensor: a Python int would otherwise become a 0-dim repeats tensor.
    {"repeat_interleave.self_int(Tensor self, int repeats, int? dim=None) -> Tensor", kBoth, N::Custom,
     OP { return repeat_interleave(a[0].tensor(), a[1].to_int(), a[2].opt_int()); }, "repeat_interleave",
     "", GRAD {
       return {grad::repeat_interleave_backward(c.grad(), c.input_sizes("self"), c.arg("repeats").to_int(), c.arg("dim").opt_int())};
     }},
    {"repeat_interleave.self_Tensor(Tensor self, Tensor repeats, int? dim=None) -> Tensor", kBoth, N::Custom,
     OP { return repeat_interleave(a[0].tensor(), a[1].tensor(), a[2].opt_int()); }, "repeat_interleave_tensor",
     "repeats", GRAD {
       return {grad::repeat_interleave_backward(c.grad(), c.input_sizes("self"), c.input("repeats"), c.arg("dim").opt_int())};
     }},
    {"repeat_interleave.Tensor(Tensor repeats) -> Tensor", kFunction, N::None,
     OP { return repeat_interleave(a[0].tensor()); }, "repeat_interleave_index",
     "", &not_differentiable},  // integer in, integer out
    {"tril(Tensor self, int diagonal=0) -> Tensor", kBoth, N::Keep,
     OP { return tril(a[0].tensor(), a[1].to_int()); }, "triangular",
     "", GRAD { return {grad::op(TZ_OP("tril"), {c.grad(), c.arg("diagonal")})}; }},
    {"triu(Tensor self, int diagonal=0) -> Tensor", kBoth, N::Keep,
     OP { return triu(a[0].tensor(), a[1].to_int()); }, "triangular",
     "", GRAD { return {grad::op(TZ_OP("triu"), {c.grad(), c.arg("diagonal")})}; }},
    {"tril_(Tensor self, int diagonal=0) -> Tensor", kMethod, N::Keep,
     OP { return tril_(a[0].tensor(), a[1].to_int()); }, "triangular",
     "", GRAD { return {grad::op(TZ_OP("tril"), {c.grad(), c.arg("diagonal")})}; }},
    {"triu_(Tensor self, int diagonal=0) -> Tensor", kMethod, N::Keep,
     OP { return triu_(a[0].tensor(), a[1].to_int()); }, "triangular",
     "", GRAD { return {grad::op(TZ_OP("triu"), {c.grad(), c.arg("diagonal")})}; }},
    {"diag(Tensor self, int diagonal=0) -> Tensor", kBoth, N::Custom,
     OP { return diag(a[0].tensor(), a[1].to_int()); }, "diag",
     "", GRAD {
       const int64_t k = c.arg("diagonal").to_int();
       if (c.input_sizes("self").size() == 1) return {grad::op(TZ_OP("diagonal"), {c.grad(), k})};
       return {grad::diagonal_backward(c.grad(), c.input_sizes("self"), k, 0, 1)};
     }},
    {"diag_embed(Tensor self, int offset=0, int dim1=-2, int dim2=-1) -> Tensor", kBoth, N::Custom,
     OP { return diag_embed(a[0].tensor(), a[1].to_int(), a[2].to_int(), a[3].to_int()); }, "diag_embed",
     "", GRAD { return {grad::op(TZ_OP("diagonal"), {c.grad(), c.arg("offset"), c.arg("dim1"), c.arg("dim2")})}; }},
    {"diagonal(Tensor self, int offset=0, int dim1=0, int dim2=1) -> Tensor", kBoth, N::Custom,
     OP { return diagonal(a[0].tensor(), a[1].to_int(), a[2].to_int(), a[3].to_int()); }, "diagonal",
     "", GRAD {
       return {grad::diagonal_backward(c.grad(), c.input_sizes("self"), c.arg("offset").to_int(), c.arg("dim1").to_int(), c.arg("dim2").to_int())};
     }},
    {"trace(Tensor self) -> Tensor", kBoth, N::Reduce,
     OP { return trace(a[0].tensor()); }, "trace",
     "", GRAD { return {grad::trace_backward(c.grad(), c.input_sizes("self"))}; }},
    {"meshgrid(Tensor[] tensors, *, str indexing='ij') -> Tensor[]", kFunction, N::Custom,
     OP { return meshgrid(a[0].tensor_list(), a[1].str()); }, "meshgrid",
     "", GRAD { return grad::meshgrid_backward(c, c.arg("indexing").str()); }},
    {"cartesian_prod(Tensor[] tensors) -> Tensor", kFunction, N::None,
     OP { return cartesian_prod(a[0].tensor_list()); }, "cartesian_prod",
     "", GRAD { return grad::cartesian_prod_backward(c); }},
    {"broadcast_tensors(Tensor[] tensors) -> Tensor[]", kFunction, N::Custom,
     OP { return broadcast_tensors(a[0].tensor_list()); }, "broadcast_tensors",
     "", GRAD { return c.grads; }},
    {"broadcast_to(Tensor self, int[] size) -> Tensor", kBoth, N::Custom,
     OP { return broadcast_to(a[0].tensor(), a[1].int_list()); }, "expand",
     "", GRAD { return {c.grad()}; }},
    {"pad(Tensor self, int[] pad, str mode='constant', float? value=None) -> Tensor", kFunction, N::Keep,
     OP { return pad(a[0].tensor(), a[1].int_list(), a[2].str(), a[3].opt_double()); }, "pad",
     "", GRAD { return {grad::pad_backward(c.grad(), c.input_sizes("self"), c.arg("pad").int_list(), c.arg("mode").str())}; }},
};

}  // namespace

OpTableRef joining_ops() { return kOps; }

}  // namespace tz::op_table
