// core._C._quantized: the int8 compute ops of quantized modules (PyTorch's quantized::
// ops) and PackedWeight, the packed weight of a quantized linear or convolution.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "bindings/module.h"
#include "bindings/py_tensor.h"
#include "quantized/qlinear_conv.h"
#include "quantized/qops.h"

namespace tz::py {

namespace pyb = pybind11;

namespace {

const Tensor& tensor_arg(pyb::handle h, const char* what) {
  if (!is_tensor(h.ptr())) fail(ErrorKind::Type, what, ": expected a Tensor, got ", Py_TYPE(h.ptr())->tp_name);
  return unwrap(h.ptr());
}
Tensor opt_tensor_arg(pyb::handle h, const char* what) { return h.is_none() ? Tensor() : tensor_arg(h, what); }
pyb::object to_py(const Tensor& t) {
  if (!t.defined()) return pyb::none();
  return pyb::reinterpret_steal<pyb::object>(wrap(t));
}
TensorList tensor_list(const pyb::sequence& seq, const char* what) {
  TensorList out;
  for (pyb::handle h : seq) out.push_back(tensor_arg(h, what));
  return out;
}

// A binary op's (a, b, scale, zero_point) binding.
template <Tensor (*Fn)(const Tensor&, const Tensor&, double, int64_t, bool), bool kRelu>
pyb::object binary(pyb::handle a, pyb::handle b, double scale, int64_t zp) {
  return to_py(Fn(tensor_arg(a, "quantized op"), tensor_arg(b, "quantized op"), scale, zp, kRelu));
}

}  // namespace

void init_quantized(pyb::module_& parent) {
  pyb::module_ m = parent.def_submodule("_quantized", "int8 ops of quantized modules");
  pyb::class_<PackedWeight, PackedWeightPtr>(m, "PackedWeight")
      .def_property_readonly("weight", [](const PackedWeight& p) { return to_py(p.weight); })
      .def_property_readonly("bias", [](const PackedWeight& p) { return to_py(p.bias); })
      .def_property_readonly("is_conv", [](const PackedWeight& p) { return p.is_conv; })
      .def_property_readonly("stride", [](const PackedWeight& p) { return p.stride; })
      .def_property_readonly("padding", [](const PackedWeight& p) { return p.padding; })
      .def_property_readonly("dilation", [](const PackedWeight& p) { return p.dilation; })
      .def_property_readonly("groups", [](const PackedWeight& p) { return p.groups; })
      .def("unpack", [](const PackedWeight& p) { return pyb::make_tuple(to_py(p.weight), to_py(p.bias)); });

  m.def("linear_prepack", [](pyb::handle w, pyb::handle b) {
    return pack_linear(tensor_arg(w, "linear_prepack"), opt_tensor_arg(b, "linear_prepack"));
  }, pyb::arg("weight"), pyb::arg("bias") = pyb::none());
  m.def("conv2d_prepack", [](pyb::handle w, pyb::handle b, IntList stride, IntList padding, IntList dilation,
                             int64_t groups) {
    return pack_conv2d(tensor_arg(w, "conv2d_prepack"), opt_tensor_arg(b, "conv2d_prepack"), stride, padding,
                       dilation, groups);
  });
  m.def("linear", [](pyb::handle x, const PackedWeight& w, double scale, int64_t zp) {
    return to_py(quantized_linear(tensor_arg(x, "quantized::linear"), w, scale, zp, false));
  });
  m.def("linear_relu", [](pyb::handle x, const PackedWeight& w, double scale, int64_t zp) {
    return to_py(quantized_linear(tensor_arg(x, "quantized::linear_relu"), w, scale, zp, true));
  });
  m.def("linear_dynamic", [](pyb::handle x, const PackedWeight& w, bool reduce_range) {
    return to_py(quantized_linear_dynamic(tensor_arg(x, "quantized::linear_dynamic"), w, reduce_range));
  }, pyb::arg("input"), pyb::arg("packed"), pyb::arg("reduce_range") = true);
  m.def("conv2d", [](pyb::handle x, const PackedWeight& w, double scale, int64_t zp) {
    return to_py(quantized_conv2d(tensor_arg(x, "quantized::conv2d"), w, scale, zp, false));
  });
  m.def("conv2d_relu", [](pyb::handle x, const PackedWeight& w, double scale, int64_t zp) {
    return to_py(quantized_conv2d(tensor_arg(x, "quantized::conv2d_relu"), w, scale, zp, true));
  });
  m.def("conv2d_hardswish", [](pyb::handle x, const PackedWeight& w, double conv_scale, int64_t conv_zp, double scale,
                               int64_t zp) {
    return to_py(quantized_conv2d_hardswish(tensor_arg(x, "quantized::conv2d_hardswish"), w, conv_scale, conv_zp, scale, zp));
  });
  m.def("conv2d_add", [](pyb::handle x, const PackedWeight& w, double conv_scale, int64_t conv_zp, pyb::handle residual,
                         double scale, int64_t zp) {
    return to_py(quantized_conv2d_add(tensor_arg(x, "quantized::conv2d_add"), w, conv_scale, conv_zp,
                                      tensor_arg(residual, "quantized::conv2d_add"), scale, zp));
  });
  m.def("add", &binary<quantized_add, false>);
  m.def("add_relu", &binary<quantized_add, true>);
  m.def("mul", &binary<quantized_mul, false>);
  m.def("mul_relu", &binary<quantized_mul, true>);
  m.def("add_scalar", [](pyb::handle a, double s) { return to_py(quantized_add_scalar(tensor_arg(a, "add_scalar"), s, false)); });
  m.def("add_scalar_relu", [](pyb::handle a, double s) { return to_py(quantized_add_scalar(tensor_arg(a, "add_scalar"), s, true)); });
  m.def("mul_scalar", [](pyb::handle a, double s) { return to_py(quantized_mul_scalar(tensor_arg(a, "mul_scalar"), s, false)); });
  m.def("mul_scalar_relu", [](pyb::handle a, double s) { return to_py(quantized_mul_scalar(tensor_arg(a, "mul_scalar"), s, true)); });
  m.def("cat", [](const pyb::sequence& xs, int64_t dim, double scale, int64_t zp) {
    return to_py(quantized_cat(tensor_list(xs, "quantized::cat"), dim, scale, zp, false));
  });
  m.def("cat_relu", [](const pyb::sequence& xs, int64_t dim, double scale, int64_t zp) {
    return to_py(quantized_cat(tensor_list(xs, "quantized::cat_relu"), dim, scale, zp, true));
  });
  m.def("hardswish", [](pyb::handle x, double scale, int64_t zp) {
    return to_py(quantized_hardswish(tensor_arg(x, "quantized::hardswish"), scale, zp));
  });
  m.def("hardsigmoid", [](pyb::handle x) { return to_py(quantized_hardsigmoid(tensor_arg(x, "quantized::hardsigmoid"))); });
  m.def("clamp", [](pyb::handle x, std::optional<double> lo, std::optional<double> hi) {
    return to_py(quantized_clamp(tensor_arg(x, "quantized::clamp"), lo, hi, "quantized::clamp"));
  });
  m.def("adaptive_avg_pool2d", [](pyb::handle x, IntList size) {
    return to_py(quantized_adaptive_avg_pool2d(tensor_arg(x, "quantized::adaptive_avg_pool2d"), size));
  });
  m.def("max_pool2d", [](pyb::handle x, IntList kernel, IntList stride, IntList padding, IntList dilation, bool ceil) {
    return to_py(quantized_max_pool2d(tensor_arg(x, "quantized::max_pool2d"), kernel, stride, padding, dilation, ceil));
  });
  m.def("set_engine", [](const std::string& name) {
    set_quantized_engine(name == "qnnpack" ? QuantizedEngine::QNNPACK : QuantizedEngine::FBGEMM);
  });
  m.def("choose_qparams", [](float lo, float hi, int64_t qmin, int64_t qmax) {
    double scale;
    int64_t zp;
    choose_qparams(lo, hi, qmin, qmax, &scale, &zp);
    return pyb::make_tuple(scale, zp);
  });
}

}  // namespace tz::py
