// `core.dtype` objects: one immortal instance per DType.
#pragma once
#include <Python.h>

#include <optional>

#include "tensor/dtype.h"

namespace tz::py {

PyObject* dtype_object(DType t);  // borrowed reference
// A dtype argument: a core.dtype, or the Python types bool/int/float/complex.
std::optional<DType> dtype_from_object(PyObject* obj);

void init_dtypes(PyObject* module);

}  // namespace tz::py
