#include "bindings/py_tensor.h"

#include <structmember.h>

#include "bindings/py_dtype.h"
#include "bindings/py_errors.h"

namespace tz::py {

namespace {

PyTypeObject* g_tensor_class = &PyTensorBaseType;  // replaced by core.Tensor at import

PyObject* tensor_new(PyTypeObject* type, PyObject*, PyObject*) {
  PyErr_SetString(PyExc_TypeError,
                  "core.Tensor cannot be constructed directly; use core.tensor(), core.empty(), ...");
  (void)type;
  return nullptr;
}

// Python subclasses (core.Tensor, Parameter) get __dict__, GC and the type's reference
// handled by CPython's subtype_dealloc, which then calls this.
void tensor_dealloc(PyObject* self) {
  auto* t = reinterpret_cast<PyTensor*>(self);
  if (t->weakrefs) PyObject_ClearWeakRefs(self);
  if (t->tensor.defined() && t->tensor.impl()->pyobj == self) t->tensor.impl()->pyobj = nullptr;
  t->tensor.~Tensor();
  Py_TYPE(self)->tp_free(self);
}

// _make_subclass(cls, tensor): an alias of `tensor` (same storage and version counter)
// whose Python type is `cls`; how nn.Parameter and other subclasses are made.
PyObject* make_subclass(PyObject*, PyObject* args) {
  PyObject *cls, *src;
  if (!PyArg_ParseTuple(args, "OO", &cls, &src)) return nullptr;
  if (!PyType_Check(cls) || !PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(cls), &PyTensorBaseType) ||
      !is_tensor(src)) {
    PyErr_SetString(PyExc_TypeError, "_make_subclass(): expected a Tensor subclass and a tensor");
    return nullptr;
  }
  const Tensor& t = unwrap(src);
  auto* type = reinterpret_cast<PyTypeObject*>(cls);
  PyObject* obj = type->tp_alloc(type, 0);
  if (!obj) return nullptr;
  auto* pt = reinterpret_cast<PyTensor*>(obj);
  new (&pt->tensor) Tensor(Tensor::view_of(t, t.sizes(), t.strides(), t.offset()));
  pt->weakrefs = nullptr;
  pt->tensor.impl()->pyobj = obj;
  return obj;
}

PyObject* set_tensor_class(PyObject*, PyObject* cls) {
  if (!PyType_Check(cls) || !PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(cls), &PyTensorBaseType)) {
    PyErr_SetString(PyExc_TypeError, "_set_tensor_class: expected a subclass of _TensorBase");
    return nullptr;
  }
  Py_INCREF(cls);
  g_tensor_class = reinterpret_cast<PyTypeObject*>(cls);
  Py_RETURN_NONE;
}

// ---- properties and cheap accessors, kept in C for speed

PyObject* get_dtype(PyObject* self, void*) { return new_ref(dtype_object(unwrap(self).dtype())); }
PyObject* get_ndim(PyObject* self, void*) { return PyLong_FromLongLong(unwrap(self).dim()); }
PyObject* get_sizes(PyObject* self, void*) {
  const Shape& s = unwrap(self).sizes();
  PyObject* tup = PyTuple_New(static_cast<Py_ssize_t>(s.size()));
  for (size_t i = 0; i < s.size(); ++i) PyTuple_SET_ITEM(tup, i, PyLong_FromLongLong(s[i]));
  return tup;
}
PyObject* get_strides(PyObject* self, void*) {
  const Shape& s = unwrap(self).strides();
  PyObject* tup = PyTuple_New(static_cast<Py_ssize_t>(s.size()));
  for (size_t i = 0; i < s.size(); ++i) PyTuple_SET_ITEM(tup, i, PyLong_FromLongLong(s[i]));
  return tup;
}
PyObject* get_version(PyObject* self, void*) { return PyLong_FromUnsignedLong(unwrap(self).version()); }
PyObject* get_is_wrapped(PyObject* self, void*) { return PyBool_FromLong(unwrap(self).impl()->wrapped_number); }

PyGetSetDef tensor_getset[] = {
    {"dtype", get_dtype, nullptr, "the element type", nullptr},
    {"ndim", get_ndim, nullptr, "number of dimensions", nullptr},
    {"_sizes", get_sizes, nullptr, "sizes as a tuple", nullptr},
    {"_strides", get_strides, nullptr, "strides as a tuple", nullptr},
    {"_version", get_version, nullptr, "in-place modification counter", nullptr},
    {"_is_wrapped_number", get_is_wrapped, nullptr, nullptr, nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};

PyObject* m_dim(PyObject* self, PyObject*) { return PyLong_FromLongLong(unwrap(self).dim()); }
PyObject* m_numel(PyObject* self, PyObject*) { return PyLong_FromLongLong(unwrap(self).numel()); }
PyObject* m_element_size(PyObject* self, PyObject*) { return PyLong_FromLongLong(unwrap(self).itemsize()); }
PyObject* m_is_inference(PyObject* self, PyObject*) { return PyBool_FromLong(unwrap(self).is_inference()); }
PyObject* m_storage_offset(PyObject* self, PyObject*) { return PyLong_FromLongLong(unwrap(self).offset()); }
PyObject* m_data_ptr(PyObject* self, PyObject*) { return PyLong_FromVoidPtr(unwrap(self).raw_data()); }
PyObject* m_storage_nbytes(PyObject* self, PyObject*) {
  return PyLong_FromSize_t(unwrap(self).storage()->nbytes());
}
PyObject* m_storage_ptr(PyObject* self, PyObject*) {
  return PyLong_FromVoidPtr(unwrap(self).storage()->data());
}

PyMethodDef tensor_methods[] = {
    {"dim", m_dim, METH_NOARGS, "number of dimensions"},
    {"ndimension", m_dim, METH_NOARGS, "number of dimensions"},
    {"numel", m_numel, METH_NOARGS, "number of elements"},
    {"nelement", m_numel, METH_NOARGS, "number of elements"},
    {"element_size", m_element_size, METH_NOARGS, "bytes per element"},
    {"is_inference", m_is_inference, METH_NOARGS, "whether the tensor was made in inference mode"},
    {"storage_offset", m_storage_offset, METH_NOARGS, "offset into the storage, in elements"},
    {"data_ptr", m_data_ptr, METH_NOARGS, "address of the first element"},
    {"_storage_nbytes", m_storage_nbytes, METH_NOARGS, nullptr},
    {"_storage_ptr", m_storage_ptr, METH_NOARGS, nullptr},
    {nullptr, nullptr, 0, nullptr},
};

}  // namespace

PyTypeObject PyTensorBaseType = {PyVarObject_HEAD_INIT(nullptr, 0)};

PyObject* wrap(Tensor t) {
  if (!t.defined()) Py_RETURN_NONE;
  TensorImpl* impl = t.impl();
  if (impl->pyobj) {
    PyObject* obj = static_cast<PyObject*>(impl->pyobj);
    Py_INCREF(obj);
    return obj;
  }
  PyObject* obj = g_tensor_class->tp_alloc(g_tensor_class, 0);
  if (!obj) return nullptr;
  auto* pt = reinterpret_cast<PyTensor*>(obj);
  new (&pt->tensor) Tensor(std::move(t));
  pt->weakrefs = nullptr;
  impl->pyobj = obj;
  return obj;
}

void init_tensor_type(PyObject* module) {
  PyTypeObject& t = PyTensorBaseType;
  t.tp_name = "core._C._TensorBase";
  t.tp_basicsize = sizeof(PyTensor);
  t.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE;
  t.tp_new = tensor_new;
  t.tp_dealloc = tensor_dealloc;
  t.tp_getset = tensor_getset;
  t.tp_methods = tensor_methods;
  t.tp_weaklistoffset = offsetof(PyTensor, weakrefs);
  if (PyType_Ready(&t) < 0) throw_python_error();
  Py_INCREF(&t);
  PyModule_AddObject(module, "_TensorBase", reinterpret_cast<PyObject*>(&t));
  static PyMethodDef functions[] = {
      {"_set_tensor_class", set_tensor_class, METH_O, nullptr},
      {"_make_subclass", make_subclass, METH_VARARGS, nullptr},
  };
  for (PyMethodDef& f : functions) PyModule_AddObject(module, f.ml_name, PyCFunction_New(&f, nullptr));
}

}  // namespace tz::py
