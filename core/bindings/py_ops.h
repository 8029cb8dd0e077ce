// Python callables for the ops in the registry: one per op name (all its overloads), as
// module functions and as Tensor methods (they bind `self` like Python functions do).
#pragma once
#include <Python.h>

#include "ops/value.h"

namespace tz::py {

// Adds `_C._functions`, `_C._methods` and `_C._internal` dicts (name -> callable) to the module,
// and `_C._bind_ops(names)` for the entries extension modules register after it loaded.
void init_ops(PyObject* module);

// A boxed op result as a Python object (new reference; nullptr with a Python error set).
PyObject* value_to_python(const Value& v);

}  // namespace tz::py
