// Shared vocabulary of the op table files. The op table is one registry filled from
// several files: ops/op_table.cpp (tensor ops) and one ops/op_table_<family>.cpp per nn
// family, each a static `const OpDef k...[]` registered with an OpTableRegistrar.
#pragma once
#include "autograd/functions.h"
#include "autograd/grad_util.h"
#include "autograd/op_node.h"
#include "ops/registry.h"

namespace tz::op_table {

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
