// Python callables for the ops in the registry: one per op name (all its overloads), as
// module functions and as Tensor methods (they bind `self` like Python functions do).
#pragma once
#include <Python.h>

namespace tz::py {

// Adds `_C._functions` and `_C._methods` dicts (name -> callable) to the module.
void init_ops(PyObject* module);

}  // namespace tz::py
