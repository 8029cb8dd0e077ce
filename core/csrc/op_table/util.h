// Shared vocabulary of the op table files. The op table is one registry filled from one file
// per family under op_table/ (creation, views, elementwise, ..., the nn families), each a
// `const OpDef k...[]` handed to op_table/register.cpp by its `<family>_ops()` function.
#pragma once
#include "autograd/functions.h"
#include "autograd/op_node.h"
#include "derivatives/util.h"
#include "ops/registry.h"

namespace tz::op_table {

// Each family's entries, in the order register.cpp adds them.
OpTableRef creation_ops();
OpTableRef views_ops();
OpTableRef elementwise_ops();
OpTableRef random_ops();
OpTableRef indexing_ops();
OpTableRef joining_ops();
OpTableRef reduction_ops();
OpTableRef sorting_ops();
OpTableRef linalg_ops();
OpTableRef conversion_ops();
OpTableRef activation_ops();
OpTableRef conv_ops();
OpTableRef dropout_ops();
OpTableRef fft_ops();
OpTableRef loss_ops();
OpTableRef nn_pool_ops();
OpTableRef norm_ops();
OpTableRef optim_ops();
OpTableRef quantized_ops();
OpTableRef viterbi_ops();
OpTableRef rnn_ops();

using N = NameRule;
// Casts and copies: the gradient flows back unchanged (the engine casts it to the input dtype).
inline TensorList pass_through(BackwardContext& c) { return {c.grad()}; }
// Ops whose result doesn't depend smoothly on self (fills, in-place logical ops): zero gradient.
inline TensorList zero_for_self(BackwardContext& c) { return {F::mul(c.grad(), Scalar(0.0))}; }

}  // namespace tz::op_table

// A boxed kernel: `a` is the argument stack, matched to the entry's schema.
#define OP [](Stack & a) -> Value
// A derivative formula: `c` is the BackwardContext (c.grad(), c.input("self"), c.arg("dim"), c.result()...).
#define GRAD [](BackwardContext & c) -> TensorList
