// Pieces of the `core._C` module, each set up by its own file.
#pragma once
#include <pybind11/pybind11.h>

namespace tz::py {
void init_numpy(pybind11::module_& m);
void init_runtime(pybind11::module_& m);
void init_dlpack(pybind11::module_& m);
void init_mpi(pybind11::module_& m);
void init_autograd(pybind11::module_& m);
void init_indexing(pybind11::module_& m);
void init_quantized(pybind11::module_& m);
void init_profiler(pybind11::module_& m);
void init_jit(pybind11::module_& m);
void init_names(pybind11::module_& m);
}  // namespace tz::py
