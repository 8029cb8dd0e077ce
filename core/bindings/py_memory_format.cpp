#include "bindings/py_memory_format.h"

#include "bindings/py_errors.h"

namespace tz::py {

namespace {

struct PyMemoryFormat {
  PyObject_HEAD
  MemoryFormat format;
};

PyTypeObject PyMemoryFormatType = {PyVarObject_HEAD_INIT(nullptr, 0)};

MemoryFormat of(PyObject* self) { return reinterpret_cast<PyMemoryFormat*>(self)->format; }

PyObject* format_repr(PyObject* self) { return PyUnicode_FromFormat("core.%s", memory_format_name(of(self))); }
// Pickle by name: `core.channels_last` is found again as a module global.
PyObject* format_reduce(PyObject* self, PyObject*) { return PyUnicode_FromString(memory_format_name(of(self))); }

PyMethodDef format_methods[] = {
    {"__reduce__", format_reduce, METH_NOARGS, nullptr},
    {nullptr, nullptr, 0, nullptr},
};

}  // namespace

std::optional<MemoryFormat> memory_format_from_object(PyObject* obj) {
  if (Py_TYPE(obj) != &PyMemoryFormatType) return std::nullopt;
  return of(obj);
}

void init_memory_formats(PyObject* module) {
  PyTypeObject& t = PyMemoryFormatType;
  t.tp_name = "core.memory_format";
  t.tp_basicsize = sizeof(PyMemoryFormat);
  t.tp_flags = Py_TPFLAGS_DEFAULT;
  t.tp_repr = format_repr;
  t.tp_methods = format_methods;
  if (PyType_Ready(&t) < 0) throw_python_error();
  Py_INCREF(&t);
  PyModule_AddObject(module, "memory_format", reinterpret_cast<PyObject*>(&t));
  for (auto f : {MemoryFormat::Contiguous, MemoryFormat::Preserve, MemoryFormat::ChannelsLast,
                 MemoryFormat::ChannelsLast3d}) {
    PyMemoryFormat* obj = PyObject_New(PyMemoryFormat, &t);
    obj->format = f;
    Py_INCREF(obj);  // PyModule_AddObject steals one reference; this one makes it immortal
    PyModule_AddObject(module, memory_format_name(f), reinterpret_cast<PyObject*>(obj));
  }
}

}  // namespace tz::py
