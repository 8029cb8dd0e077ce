// Op-table entries of views and reshapes (view, reshape, permute, transpose, expand,
// as_strided, squeeze, unfold, split, unbind...), and the internal pieces of
// Tensor.__getitem__ and of the split family's backward.
// See ops/registry.h for what an entry holds; op_table/register.cpp registers this family.
#include "derivatives/indexing.h"
#include "op_table/util.h"
#include "ops/ops.h"

namespace tz::op_table {
namespace {

const OpDef kOps[] = {
    // view/reshape (and the _as forms) raise with named inputs, as in PyTorch: a new shape says
    // nothing about which dims keep their meaning; flatten/unflatten are the named reshapes.
    {"view(Tensor self, int[] size) -> Tensor", kMethod, N::Unsupported,
     OP { return view(a[0].tensor(), a[1].int_list()); }, "reshape",
     "", GRAD { return {F::reshape(c.grad(), c.input_sizes("self"))}; }},
    {"reshape(Tensor self, int[] shape) -> Tensor", kBoth, N::Unsupported,
     OP { return reshape(a[0].tensor(), a[1].int_list()); }, "reshape",
     "", GRAD { return {F::reshape(c.grad(), c.input_sizes("self"))}; }},
    {"permute(Tensor self, int[] dims) -> Tensor", kBoth, N::Permute,
     OP { return permute(a[0].tensor(), a[1].int_list()); }, "permute",
     "", GRAD {
       const IntList& dims = c.arg("dims").int_list();
       IntList inverse(dims.size());
       for (size_t i = 0; i < dims.size(); ++i) inverse[wrap_dim(dims[i], dims.size(), "permute")] = i;
       return {F::permute(c.grad(), inverse)};
     }},
    {"transpose(Tensor self, int dim0, int dim1) -> Tensor", kBoth, N::Permute,
     OP { return transpose(a[0].tensor(), a[1].to_int(), a[2].to_int()); }, "transpose",
     "", GRAD { return {F::transpose(c.grad(), c.arg("dim0").to_int(), c.arg("dim1").to_int())}; }},
    {"expand(Tensor self, int[] size) -> Tensor", kMethod, N::Custom,
     OP { return expand(a[0].tensor(), a[1].int_list()); }, "expand",
     "", GRAD { return {c.grad()}; }},  // the engine sums the gradient back to the input's shape
    // Overlapping inputs (expanded tensors) have no derivative (NotImplementedError in backward).
    {"as_strided(Tensor self, int[] size, int[] stride, int? storage_offset=None) -> Tensor", kBoth, N::Unsupported,
     OP { return as_strided(a[0].tensor(), a[1].int_list(), a[2].int_list(), a[3].opt_int()); }, "as_strided",
     "geometry", &grad::as_strided},
    {"contiguous(Tensor self, *, MemoryFormat memory_format=contiguous_format) -> Tensor", kMethod, N::Keep,
     OP { return contiguous(a[0].tensor(), a[1].memory_format()); }, "unary_any",
     "", GRAD { return {c.grad()}; }},
    {"is_contiguous(Tensor self, *, MemoryFormat memory_format=contiguous_format) -> bool", kMethod, N::None,
     OP { return is_contiguous_as(a[0].tensor(), a[1].memory_format()); }, ""},  // tests/core/test_memory_format.py
    {"view_as(Tensor self, Tensor other) -> Tensor", kMethod, N::Unsupported,
     OP { return view_as(a[0].tensor(), a[1].tensor()); }, "view_as",
     "", GRAD { return {F::reshape(c.grad(), c.input_sizes("self"))}; }},
    {"reshape_as(Tensor self, Tensor other) -> Tensor", kMethod, N::Unsupported,
     OP { return reshape_as(a[0].tensor(), a[1].tensor()); }, "view_as",
     "", GRAD { return {F::reshape(c.grad(), c.input_sizes("self"))}; }},
    {"expand_as(Tensor self, Tensor other) -> Tensor", kMethod, N::Custom,
     OP { return expand_as(a[0].tensor(), a[1].tensor()); }, "expand_as",
     "", GRAD { return {c.grad()}; }},
    {"swapaxes(Tensor self, int axis0, int axis1) -> Tensor", kBoth, N::Permute,
     OP { return transpose(a[0].tensor(), a[1].to_int(), a[2].to_int()); }, "transpose",
     "", GRAD { return {F::transpose(c.grad(), c.arg("axis0").to_int(), c.arg("axis1").to_int())}; }},
    {"swapdims(Tensor self, int dim0, int dim1) -> Tensor", kBoth, N::Permute,
     OP { return transpose(a[0].tensor(), a[1].to_int(), a[2].to_int()); }, "transpose",
     "", GRAD { return {F::transpose(c.grad(), c.arg("dim0").to_int(), c.arg("dim1").to_int())}; }},
    {"t(Tensor self) -> Tensor", kBoth, N::Permute,
     OP { return matrix_t(a[0].tensor()); }, "matrix_t",
     "", GRAD { return {F::tensor_call(TZ_OP("t"), {c.grad()})}; }},
    {"squeeze(Tensor self) -> Tensor", kBoth, N::Custom,
     OP { return squeeze(a[0].tensor()); }, "squeeze",
     "", GRAD { return {F::reshape(c.grad(), c.input_sizes("self"))}; }},
    {"squeeze.dim(Tensor self, int dim) -> Tensor", kBoth, N::Custom,
     OP { return squeeze(a[0].tensor(), a[1].to_int()); }, "squeeze_dim",
     "", GRAD { return {F::reshape(c.grad(), c.input_sizes("self"))}; }},
    {"unsqueeze(Tensor self, int dim) -> Tensor", kBoth, N::Custom,
     OP { return unsqueeze(a[0].tensor(), a[1].to_int()); }, "unsqueeze",
     "", GRAD { return {F::reshape(c.grad(), c.input_sizes("self"))}; }},
    {"flatten(Tensor self, int start_dim=0, int end_dim=-1) -> Tensor", kBoth, N::Custom,
     OP { return flatten(a[0].tensor(), a[1].to_int(), a[2].to_int()); }, "flatten",
     "", GRAD { return {F::reshape(c.grad(), c.input_sizes("self"))}; }},
    {"unflatten(Tensor self, int dim, int[] sizes) -> Tensor", kMethod, N::Custom,
     OP { return unflatten(a[0].tensor(), a[1].to_int(), a[2].int_list()); }, "unflatten",
     "", GRAD { return {F::reshape(c.grad(), c.input_sizes("self"))}; }},
    {"movedim(Tensor self, int[] source, int[] destination) -> Tensor", kBoth, N::Permute,
     OP { return movedim(a[0].tensor(), a[1].int_list(), a[2].int_list()); }, "movedim",
     "", GRAD { return {F::tensor_call(TZ_OP("movedim"), {c.grad(), c.arg("destination"), c.arg("source")})}; }},
    {"moveaxis(Tensor self, int[] source, int[] destination) -> Tensor", kBoth, N::Permute,
     OP { return movedim(a[0].tensor(), a[1].int_list(), a[2].int_list()); }, "movedim",
     "", GRAD { return {F::tensor_call(TZ_OP("movedim"), {c.grad(), c.arg("destination"), c.arg("source")})}; }},
    {"narrow(Tensor self, int dim, int start, int length) -> Tensor", kBoth, N::Keep,
     OP { return narrow(a[0].tensor(), a[1].to_int(), a[2].to_int(), a[3].to_int()); }, "narrow",
     "", &grad::strided_view},
    {"select(Tensor self, int dim, int index) -> Tensor", kBoth, N::Reduce,
     OP { return select(a[0].tensor(), a[1].to_int(), a[2].to_int()); }, "select",
     "", &grad::strided_view},
    {"unbind(Tensor self, int dim=0) -> Tensor[]", kBoth, N::Reduce,
     OP { return unbind(a[0].tensor(), a[1].to_int()); }, "unbind",
     "", GRAD { return grad::pieces(c, c.arg("dim").to_int(), false); }},
    {"split(Tensor self, int split_size, int dim=0) -> Tensor[]", kBoth, N::Keep,
     OP { return split(a[0].tensor(), a[1].to_int(), a[2].to_int()); }, "split",
     "", GRAD { return grad::pieces(c, c.arg("dim").to_int(), true); }},
    {"split_with_sizes(Tensor self, int[] split_sizes, int dim=0) -> Tensor[]", kBoth, N::Keep,
     OP { return split_with_sizes(a[0].tensor(), a[1].int_list(), a[2].to_int()); }, "split_with_sizes",
     "", GRAD { return grad::pieces(c, c.arg("dim").to_int(), true); }},
    {"chunk(Tensor self, int chunks, int dim=0) -> Tensor[]", kBoth, N::Keep,
     OP { return chunk(a[0].tensor(), a[1].to_int(), a[2].to_int()); }, "chunk",
     "", GRAD { return grad::pieces(c, c.arg("dim").to_int(), true); }},
    {"tensor_split(Tensor self, int sections, int dim=0) -> Tensor[]", kBoth, N::Keep,
     OP { return tensor_split(a[0].tensor(), a[1].to_int(), a[2].to_int()); }, "tensor_split",
     "", GRAD { return grad::pieces(c, c.arg("dim").to_int(), true); }},
    {"tensor_split.indices(Tensor self, int[] indices, int dim=0) -> Tensor[]", kBoth, N::Keep,
     OP { return tensor_split(a[0].tensor(), a[1].int_list(), a[2].to_int()); }, "tensor_split_indices",
     "", GRAD { return grad::pieces(c, c.arg("dim").to_int(), true); }},
    {"unfold(Tensor self, int dimension, int size, int step) -> Tensor", kMethod, N::Custom,
     OP { return unfold(a[0].tensor(), a[1].to_int(), a[2].to_int(), a[3].to_int()); }, "unfold",
     "", &grad::strided_view},
    {"view_as_real(Tensor self) -> Tensor", kFunction, N::Custom,
     OP { return view_as_real(a[0].tensor()); }, "view_as_real",
     "", GRAD {  // view_as_complex needs the pairs of the gradient adjacent in memory
       return {F::tensor_call(TZ_OP("view_as_complex"), {F::tensor_call(TZ_OP("contiguous"), {c.grad()})})};
     }},
    {"view_as_complex(Tensor self) -> Tensor", kFunction, N::Custom,
     OP { return view_as_complex(a[0].tensor()); }, "view_as_complex",
     "", GRAD { return {F::tensor_call(TZ_OP("view_as_real"), {c.grad()})}; }},
    // ---- internal (not exported): the pieces of Tensor.__getitem__, and backward helpers
    {"slice(Tensor self, int dim, int start, int end, int step) -> Tensor", kInternal, N::Keep,
     OP { return slice(a[0].tensor(), a[1].to_int(), a[2].to_int(), a[3].to_int(), a[4].to_int()); }, "slice",
     "", &grad::strided_view},
    {"alias(Tensor self) -> Tensor", kInternal, N::Keep,
     OP { return alias(a[0].tensor()); }, "unary_any",
     "", GRAD { return {c.grad()}; }},
    {"_view_scatter_add(Tensor grad, int[] base_sizes, int[] size, int[] stride, int offset) -> Tensor", kInternal, N::Unsupported,
     OP { return view_scatter_add(a[0].tensor(), a[1].int_list(), a[2].int_list(), a[3].int_list(), a[4].to_int()); }, "",
     "", &grad::view_scatter_add},
    {"_split_backward(Tensor[] grads, int[] sizes, int dim, int[] starts, bool keepdim) -> Tensor", kInternal, N::Custom,
     OP { return split_backward(a[0].tensor_list(), a[1].int_list(), a[2].to_int(), a[3].int_list(), a[4].to_bool()); }, "",
     "", &grad::split_backward},
};

}  // namespace

OpTableRef views_ops() { return kOps; }

}  // namespace tz::op_table
