// Tensor's Python operators as C number slots of _TensorBase (see py_operators.cpp).
#pragma once
#include <Python.h>

namespace tz::py {

// Fills _TensorBase's number and comparison slots: before init_tensor_type readies the type.
void init_operator_slots();
// Binds the slots to the op callables: after init_ops made them.
void init_operators(PyObject* module);

}  // namespace tz::py
