#include "ops/softmax.h"

#include <algorithm>

#include "iter/thread_pool.h"
#include "kernels/softmax.h"
#include "ops/conversion.h"
#include "ops/reduce_engine.h"

namespace tz {

Tensor softmax(const Tensor& t, int64_t dim, std::optional<DType> dtype, bool log) {
  const char* name = log ? "log_softmax" : "softmax";
  const int64_t d = wrap_dim(dim, t.dim(), name);
  Tensor src = dtype ? to_dtype(t, *dtype) : t;
  const DType out_dtype = src.dtype();
  if (!is_floating(out_dtype)) {
    const bool last = d == std::max<int64_t>(t.dim(), 1) - 1;
    fail(ErrorKind::NotImplemented, name, "(): \"", name, last ? "_lastdim" : "", "_kernel_impl\" not "
         "implemented for '", scalar_type_name(out_dtype), "'");
  }
  const DType ct = half_to_float(out_dtype);
  Tensor in = contiguous(to_dtype(src, ct));
  Tensor out = Tensor::empty(t.sizes(), ct);
  if (t.numel() == 0) return to_dtype(out, out_dtype);
  const DimSplit split = split_at_dim(t.sizes(), d);
  const int64_t outer = split.outer, n = split.n, inner = split.inner;
  const int64_t tasks = softmax_tasks(outer, inner);
  const int64_t per_task = n * std::min(inner, kSoftmaxTile);
  const void* ip = in.raw_data();
  void* op = out.raw_data();
  auto run = [&](int64_t b, int64_t e) { softmax_stub(ct, log, ip, op, outer, n, inner, b, e); };
  if (tasks > 1 && tasks * per_task >= 65536 && get_num_threads() > 1 && !in_parallel_region()) {
    parallel_for(0, tasks, std::max<int64_t>(1, 16384 / per_task), run);
  } else {
    run(0, tasks);
  }
  return to_dtype(out, out_dtype);
}

Tensor vec_exp(const Tensor& t) {
  TZ_CHECK(t.dtype() == DType::Float32, Type, "_vec_exp(): expected a float32 tensor, got ",
           dtype_name(t.dtype()));
  Tensor in = contiguous(t);
  Tensor out = Tensor::empty(t.sizes(), DType::Float32);
  vec_exp_stub(in.data<float>(), out.data<float>(), t.numel());
  return out;
}

}  // namespace tz
