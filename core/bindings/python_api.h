// What other extension modules (vision, crypto_rng, ...) use to exchange tensors and
// generators with Python: core._C publishes these entry points in the capsule
// `core._C._C_API`, and a pybind11 type caster for tz::Tensor is built on them.
#pragma once
#include <Python.h>
#include <pybind11/pybind11.h>

#include "tensor/tensor.h"

namespace tz::py {

struct PythonApi {
  int version;
  PyObject* (*wrap)(Tensor t);                // new reference (None for undefined)
  bool (*is_tensor)(PyObject* obj);
  const Tensor& (*unwrap)(PyObject* obj);     // obj must be a tensor
  void (*set_error_from_current_exception)();  // inside catch (...)
};

constexpr int kPythonApiVersion = 1;

// The API of the loaded core._C (imports `core` on first use).
inline const PythonApi& python_api() {
  static const PythonApi* api = [] {
    auto* p = static_cast<const PythonApi*>(PyCapsule_Import("core._C._C_API", 0));
    if (!p) throw pybind11::error_already_set();
    if (p->version != kPythonApiVersion) throw std::runtime_error("core._C API version mismatch");
    return p;
  }();
  return *api;
}

}  // namespace tz::py

namespace pybind11::detail {

// Lets pybind11 functions in other modules take and return tz::Tensor directly.
template <>
struct type_caster<tz::Tensor> {
  PYBIND11_TYPE_CASTER(tz::Tensor, const_name("Tensor"));
  bool load(handle src, bool allow_none) {
    const auto& api = tz::py::python_api();
    if (allow_none && src.is_none()) {
      value = tz::Tensor();
      return true;
    }
    if (!api.is_tensor(src.ptr())) return false;
    value = api.unwrap(src.ptr());
    return true;
  }
  static handle cast(const tz::Tensor& t, return_value_policy, handle) {
    return tz::py::python_api().wrap(t);
  }
};

}  // namespace pybind11::detail
