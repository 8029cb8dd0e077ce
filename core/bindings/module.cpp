// The `core._C` extension module.
#include <pybind11/pybind11.h>

#include "bindings/module.h"
#include "bindings/py_dtype.h"
#include "bindings/py_errors.h"
#include "bindings/py_generator.h"
#include "bindings/py_ops.h"
#include "bindings/py_tensor.h"
#include "tensor/errors.h"

namespace pyb = pybind11;

PYBIND11_MODULE(_C, m) {
  m.doc() = "tensorzoo core: C++ tensors, ops and autograd";
  // Typed C++ errors surface as the matching Python exception.
  pyb::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const tz::Error&) {
      tz::py::set_error_from_current_exception();
    }
  });
  tz::py::init_dtypes(m.ptr());
  tz::py::init_tensor_type(m.ptr());
  tz::py::init_generator(m);
  tz::py::init_ops(m.ptr());
  tz::py::init_numpy(m);
  tz::py::init_runtime(m);
  tz::py::init_dlpack(m);
}
