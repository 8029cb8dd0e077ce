// `core.Generator` (pybind11 class over tz::Generator, subclassable from C++ and Python).
#pragma once
#include <Python.h>
#include <pybind11/pybind11.h>

#include "random/generator.h"

namespace tz::py {

// The engine behind a `core.Generator` object, or null if `obj` is not one.
GeneratorPtr generator_from_object(PyObject* obj);
void init_generator(pybind11::module_& m);

}  // namespace tz::py
