// Process-wide settings: threads, default dtype, CPU capability, allocator statistics.
#include <pybind11/pybind11.h>

#include <atomic>

#include "bindings/module.h"
#include "bindings/py_dtype.h"
#include "iter/thread_pool.h"
#include "kernels/dispatch.h"
#include "ops/conv_tile.h"
#include "tensor/allocator.h"
#include "tensor/errors.h"
#include "tensor/storage.h"

namespace tz::py {

namespace pyb = pybind11;

void init_runtime(pyb::module_& m) {
  m.def("set_num_threads", [](int n) { set_num_threads(n); });
  m.def("get_num_threads", [] { return get_num_threads(); });
  m.def("_cpu_capability", [] { return std::string(cpu_capability_name(cpu_capability())); });
  m.def("_set_conv_algorithm", [](const std::string& name) {
    TZ_CHECK(name == "auto" || name == "tile" || name == "gemm" || name == "winograd", Value,
             "_set_conv_algorithm(): expected 'auto', 'tile', 'gemm' or 'winograd', got '", name, "'");
    set_conv_algorithm(name == "tile"       ? ConvAlgorithm::Tile
                       : name == "gemm"     ? ConvAlgorithm::Gemm
                       : name == "winograd" ? ConvAlgorithm::Winograd
                                            : ConvAlgorithm::Auto);
  });
  // For the thread pool's tests: the sum of 0..n-1 through parallel_for, each chunk summing
  // its range through a nested parallel_for; the index `fail_at` throws from its chunk.
  m.def("_parallel_sum", [](int64_t n, int64_t grain, int64_t fail_at) {
    std::atomic<int64_t> total{0};
    pyb::gil_scoped_release nogil;
    parallel_for(0, n, grain, [&](int64_t b, int64_t e) {
      parallel_for(b, e, 1, [&](int64_t ib, int64_t ie) {
        int64_t sum = 0;
        for (int64_t i = ib; i < ie; ++i) {
          TZ_CHECK(i != fail_at, Runtime, "_parallel_sum(): index ", i, " fails, as asked");
          sum += i;
        }
        total.fetch_add(sum);
      });
    });
    return total.load();
  });
  m.def("_bytes_in_use", [] { return Storage::bytes_in_use(); });
  m.def("_allocator_cached_bytes", [] { return allocator::cached_bytes(); });
  m.def("_allocator_cache_limit", [] { return allocator::cache_limit_bytes(); });
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
