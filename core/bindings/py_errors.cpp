#include "bindings/py_errors.h"

#include <pybind11/pybind11.h>

#include "tensor/errors.h"

namespace tz::py {

void set_error_from_current_exception() {
  try {
    throw;
  } catch (const python_error&) {
    // The Python error is already set.
  } catch (pybind11::error_already_set& e) {
    e.restore();
  } catch (const Error& e) {
    PyObject* type = PyExc_RuntimeError;
    switch (e.kind()) {
      case ErrorKind::Value: type = PyExc_ValueError; break;
      case ErrorKind::Type: type = PyExc_TypeError; break;
      case ErrorKind::Index: type = PyExc_IndexError; break;
      case ErrorKind::NotImplemented: type = PyExc_NotImplementedError; break;
      case ErrorKind::Runtime: break;
    }
    PyErr_SetString(type, e.what());
  } catch (const std::bad_alloc&) {
    PyErr_SetString(PyExc_MemoryError, "out of memory");
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  } catch (...) {
    PyErr_SetString(PyExc_RuntimeError, "unknown C++ exception");
  }
}

}  // namespace tz::py
