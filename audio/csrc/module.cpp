// The `audio._C` extension module. Its kernels are op-table entries (op_table_audio.cpp),
// registered when this library loads; Python calls them through core._C._op.
#include <pybind11/pybind11.h>

namespace py = pybind11;

PYBIND11_MODULE(_C, m) {
  m.doc() = "audio: DSP kernels (lfilter, sox effects) registered in core's op table";
  py::module_::import("core._C");  // core's tables first: ours build on its ops
}
