// Python face of dimension names (core/_named.py builds Tensor.names, rename, align_to... on it).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "autograd/autograd_meta.h"
#include "bindings/module.h"
#include "bindings/py_tensor.h"
#include "tensor/errors.h"
#include "tensor/names.h"

namespace tz::py {

namespace pyb = pybind11;

namespace {

const Tensor& tensor_arg(pyb::handle obj, const char* fn) {
  if (!is_tensor(obj.ptr())) throw pyb::type_error(std::string(fn) + "(): expected a Tensor");
  return unwrap(obj.ptr());
}

}  // namespace

void init_names(pyb::module_& m) {
  m.def("_get_names", [](pyb::handle t) {
    const Tensor& tensor = tensor_arg(t, "_get_names");
    pyb::tuple out(tensor.dim());
    const DimNames* names = tensor.impl()->names.get();
    for (int64_t i = 0; i < tensor.dim(); ++i) {
      if (names && (*names)[i]) out[i] = pyb::str(*(*names)[i]);
      else out[i] = pyb::none();
    }
    return out;
  }, "the names of t's dims (None where unnamed)");
  m.def("_has_names", [](pyb::handle t) { return tensor_arg(t, "_has_names").has_names(); });
  m.def("_set_names", [](pyb::handle t, std::optional<DimNames> names) {
    const Tensor& tensor = tensor_arg(t, "_set_names");
    set_names(tensor, names ? &*names : nullptr);
    autograd::note_names(tensor);
  }, "sets t's names in place (None clears them)", pyb::arg("t"), pyb::arg("names").none(true));
  m.def("_dim_of_name", [](pyb::handle t, const std::string& name) { return dim_of_name(tensor_arg(t, "_dim_of_name"), name); },
        "the dim of t with this name (PyTorch's error when there is none)");
  m.def("_unify_names", [](const DimNames& a, const DimNames& b) { return unify_from_right(a, b); },
        "names aligned from the right, as broadcasting ops unify them");
}

}  // namespace tz::py
