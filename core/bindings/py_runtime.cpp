// Process-wide settings: threads, default dtype, CPU capability, allocator statistics.
#include <pybind11/pybind11.h>

#include "bindings/module.h"
#include "bindings/py_dtype.h"
#include "iter/thread_pool.h"
#include "kernels/dispatch.h"
#include "ops/conv_tile.h"
#include "tensor/allocator.h"
#include "tensor/storage.h"

namespace tz::py {

namespace pyb = pybind11;

void init_runtime(pyb::module_& m) {
  m.def("set_num_threads", [](int n) { set_num_threads(n); });
  m.def("get_num_threads", [] { return get_num_threads(); });
  m.def("_cpu_capability", [] { return std::string(cpu_capability_name(cpu_capability())); });
  m.def("_set_conv_algorithm", [](const std::string& name) {
    TZ_CHECK(name == "auto" || name == "tile" || name == "gemm", Value,
             "_set_conv_algorithm(): expected 'auto', 'tile' or 'gemm', got '", name, "'");
    set_conv_algorithm(name == "tile" ? ConvAlgorithm::Tile : name == "gemm" ? ConvAlgorithm::Gemm : ConvAlgorithm::Auto);
  });
  m.def("_bytes_in_use", [] { return Storage::bytes_in_use(); });
  m.def("_allocator_cached_bytes", [] { return allocator::cached_bytes(); });
  m.def("_allocator_empty_cache", [] { allocator::empty_cache(); });
  m.def("get_default_dtype", [] {
    return pyb::reinterpret_borrow<pyb::object>(dtype_object(default_float_dtype()));
  });
  m.def("set_default_dtype", [](pyb::handle d) {
    auto dt = dtype_from_object(d.ptr());
    TZ_CHECK(dt.has_value(), Type, "set_default_dtype(): expected a core.dtype");
    set_default_float_dtype(*dt);
  });
}

}  // namespace tz::py
