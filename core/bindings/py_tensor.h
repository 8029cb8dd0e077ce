// The Python tensor type. `core._C._TensorBase` is a C type holding a tz::Tensor; the
// Python class `core.Tensor` subclasses it and is what C++ hands back to Python.
#pragma once
#include <Python.h>

#include "tensor/tensor.h"

namespace tz::py {

struct PyTensor {
  PyObject_HEAD
  Tensor tensor;
  PyObject* weakrefs;
};

extern PyTypeObject PyTensorBaseType;

inline bool is_tensor(PyObject* obj) { return PyObject_TypeCheck(obj, &PyTensorBaseType); }
inline const Tensor& unwrap(PyObject* obj) { return reinterpret_cast<PyTensor*>(obj)->tensor; }
// New reference to the Python object for `t`: the live wrapper if there is one (identity is
// preserved), else a new `core.Tensor`. An undefined tensor becomes None.
PyObject* wrap(Tensor t);

void init_tensor_type(PyObject* module);

}  // namespace tz::py
