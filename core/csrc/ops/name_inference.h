// Name inference for op-table ops (shared/SPEC.md 1.5): what names an op's results carry,
// from the entry's NameRule and its arguments. Only calls with a named input pay for it.
#pragma once
#include "ops/registry.h"

namespace tz {

// Whether any tensor argument (or element of a Tensor[] argument) has names.
bool any_named(const Stack& args);
// Before the kernel runs: rejects ops without named-tensor support and names that do not
// unify (so an in-place op fails before it writes).
void check_names_before(const Op& op, const Stack& args);
// After the kernel ran: sets the names its results carry; returns those result tensors.
TensorList propagate_names(const Op& op, const Stack& args, const Value& result);

}  // namespace tz
