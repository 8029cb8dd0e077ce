// The `vision._C` extension module. Loading it registers vision's ops in the core op table
// (op_table.cpp); vision.ops binds them by name through core._C._bind_ops.
#include <pybind11/pybind11.h>

namespace py = pybind11;

PYBIND11_MODULE(_C, m) {
  m.doc() = "vision: torchvision's C++ ops (nms, roi_align, roi_pool, ps_roi_*, deform_conv2d) in the core op table";
  py::module_::import("core._C");  // the op registry and tensor type live in libtensorzoo / core._C
  m.attr("ops") = py::make_tuple("nms", "roi_align", "_roi_align_backward", "roi_pool", "_roi_pool_backward",
                                 "ps_roi_align", "_ps_roi_align_backward", "ps_roi_pool", "_ps_roi_pool_backward",
                                 "deform_conv2d", "_deform_conv2d_backward");
}
