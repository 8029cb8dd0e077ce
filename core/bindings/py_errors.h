// C++ exceptions -> Python exceptions, at every boundary where C++ is called from Python.
#pragma once
#include <Python.h>

#include <stdexcept>

namespace tz::py {

// Thrown when a Python error is already set and C++ must unwind to the boundary.
struct python_error : std::exception {};

[[noreturn]] inline void throw_python_error() { throw python_error(); }
inline PyObject* new_ref(PyObject* o) { Py_INCREF(o); return o; }

// Sets the Python error for the exception in flight (call inside catch (...)).
void set_error_from_current_exception();

}  // namespace tz::py

// Wrap a C-API function body: exceptions become Python errors and the function returns `ret`.
#define TZ_PY_BEGIN try {
#define TZ_PY_END(ret)                                   \
  }                                                      \
  catch (...) {                                          \
    ::tz::py::set_error_from_current_exception();        \
    return ret;                                          \
  }
