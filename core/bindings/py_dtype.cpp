#include "bindings/py_dtype.h"

#include "bindings/py_errors.h"

namespace tz::py {

namespace {

struct PyDType {
  PyObject_HEAD
  DType dtype;
};

PyTypeObject PyDTypeType = {PyVarObject_HEAD_INIT(nullptr, 0)};
PyObject* g_dtypes[kNumDTypes] = {};

DType of(PyObject* self) { return reinterpret_cast<PyDType*>(self)->dtype; }

PyObject* dtype_repr(PyObject* self) { return PyUnicode_FromFormat("core.%s", dtype_name(of(self))); }
PyObject* dtype_reduce(PyObject* self, PyObject*) { return PyUnicode_FromString(dtype_name(of(self))); }
PyObject* get_is_floating(PyObject* self, void*) { return PyBool_FromLong(is_floating(of(self))); }
PyObject* get_is_complex(PyObject* self, void*) { return PyBool_FromLong(is_complex(of(self))); }
PyObject* get_is_signed(PyObject* self, void*) { return PyBool_FromLong(is_signed(of(self))); }
PyObject* get_is_quantized(PyObject* self, void*) { return PyBool_FromLong(is_quantized(of(self))); }
PyObject* get_itemsize(PyObject* self, void*) { return PyLong_FromLongLong(itemsize(of(self))); }

PyGetSetDef dtype_getset[] = {
    {"is_floating_point", get_is_floating, nullptr, nullptr, nullptr},
    {"is_complex", get_is_complex, nullptr, nullptr, nullptr},
    {"is_signed", get_is_signed, nullptr, nullptr, nullptr},
    {"is_quantized", get_is_quantized, nullptr, nullptr, nullptr},
    {"itemsize", get_itemsize, nullptr, nullptr, nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};

PyMethodDef dtype_methods[] = {
    // Pickle by name: `core.float32` is found again as a module global.
    {"__reduce__", dtype_reduce, METH_NOARGS, nullptr},
    {nullptr, nullptr, 0, nullptr},
};

}  // namespace

PyObject* dtype_object(DType t) { return g_dtypes[static_cast<int>(t)]; }

std::optional<DType> dtype_from_object(PyObject* obj) {
  if (Py_TYPE(obj) == &PyDTypeType) return of(obj);
  if (obj == reinterpret_cast<PyObject*>(&PyFloat_Type)) return DType::Float64;
  if (obj == reinterpret_cast<PyObject*>(&PyLong_Type)) return DType::Int64;
  if (obj == reinterpret_cast<PyObject*>(&PyBool_Type)) return DType::Bool;
  if (obj == reinterpret_cast<PyObject*>(&PyComplex_Type)) return DType::Complex128;
  return std::nullopt;
}

void init_dtypes(PyObject* module) {
  PyTypeObject& t = PyDTypeType;
  t.tp_name = "core.dtype";
  t.tp_basicsize = sizeof(PyDType);
  t.tp_flags = Py_TPFLAGS_DEFAULT;
  t.tp_repr = dtype_repr;
  t.tp_getset = dtype_getset;
  t.tp_methods = dtype_methods;
  if (PyType_Ready(&t) < 0) throw_python_error();
  Py_INCREF(&t);
  PyModule_AddObject(module, "dtype", reinterpret_cast<PyObject*>(&t));
  for (int i = 0; i < kNumDTypes; ++i) {
    PyDType* d = PyObject_New(PyDType, &t);
    d->dtype = static_cast<DType>(i);
    g_dtypes[i] = reinterpret_cast<PyObject*>(d);  // kept forever
    Py_INCREF(g_dtypes[i]);
    PyModule_AddObject(module, dtype_name(d->dtype), g_dtypes[i]);
  }
}

}  // namespace tz::py
