// Python callables for the ops in the registry: one per op name (all its overloads), as
// module functions and as Tensor methods (they bind `self` like Python functions do).
#pragma once
#include <Python.h>

namespace tz::py {

// Adds `_C._functions`, `_C._methods` and `_C._internal` dicts (name -> callable) to the module,
// and `_C._bind_ops(names)` for the entries extension modules register after it loaded.
void init_ops(PyObject* module);

}  // namespace tz::py
