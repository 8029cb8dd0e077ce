// The `core._C` extension module.
#include <pybind11/pybind11.h>

#include "bindings/module.h"
#include "bindings/py_dtype.h"
#include "bindings/py_errors.h"
#include "bindings/py_generator.h"
#include "bindings/py_memory_format.h"
#include "bindings/py_operators.h"
#include "bindings/py_ops.h"
#include "bindings/py_tensor.h"
#include "bindings/python_api.h"
#include "tensor/errors.h"

namespace pyb = pybind11;

namespace {
bool is_tensor_entry(PyObject* obj) { return tz::py::is_tensor(obj); }
const tz::Tensor& unwrap_entry(PyObject* obj) { return tz::py::unwrap(obj); }

// The entry points other extension modules use (see python_api.h).
const tz::py::PythonApi kApi{tz::py::kPythonApiVersion, &tz::py::wrap, &is_tensor_entry, &unwrap_entry,
                             &tz::py::set_error_from_current_exception};
}  // namespace

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
  tz::py::init_memory_formats(m.ptr());
  tz::py::init_indexing(m);  // before init_tensor_type: it fills _TensorBase's mapping slots
  tz::py::init_operator_slots();  // likewise: _TensorBase's number and comparison slots
  tz::py::init_tensor_type(m.ptr());
  tz::py::init_generator(m);
  tz::py::init_ops(m.ptr());
  tz::py::init_operators(m.ptr());
  tz::py::init_numpy(m);
  tz::py::init_runtime(m);
  tz::py::init_dlpack(m);
  tz::py::init_mpi(m);
  tz::py::init_autograd(m);
  tz::py::init_quantized(m);
  tz::py::init_profiler(m);
  tz::py::init_jit(m);
  tz::py::init_names(m);
  m.attr("_C_API") = pyb::capsule(static_cast<const void*>(&kApi), "core._C._C_API");
}
