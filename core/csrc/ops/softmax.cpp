#include "ops/softmax.h"

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

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
  const DType ct = compute_dtype(out_dtype);
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

namespace {

// One (n, inner) block of lines: out <- the softmax / log_softmax gradient.
template <typename T>
void softmax_backward_block(const T* g, const T* y, T* out, int64_t n, int64_t inner, bool log,
                            T* sums) {
  std::fill(sums, sums + inner, T(0));
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < inner; ++j) sums[j] += log ? g[i * inner + j] : g[i * inner + j] * y[i * inner + j];
  if (log) {
    if constexpr (std::is_same_v<T, float>) {
      vec_exp_stub(y, out, n * inner);
    } else {
      for (int64_t k = 0; k < n * inner; ++k) out[k] = std::exp(y[k]);
    }
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < inner; ++j) out[i * inner + j] = g[i * inner + j] - out[i * inner + j] * sums[j];
  } else {
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < inner; ++j) out[i * inner + j] = y[i * inner + j] * (g[i * inner + j] - sums[j]);
  }
}

}  // namespace

Tensor softmax_backward_data(const Tensor& grad, const Tensor& output, int64_t dim, bool log) {
  const char* name = log ? "_log_softmax_backward_data" : "_softmax_backward_data";
  TZ_CHECK(grad.sizes() == output.sizes(), Runtime, name, "(): grad and output shapes differ: ",
           shape_str(grad.sizes()), " vs ", shape_str(output.sizes()));
  const int64_t d = wrap_dim(dim, output.dim(), name);
  const DType out_dtype = output.dtype();
  TZ_CHECK(is_floating(out_dtype), Type, name, "(): expected a floating output, got ", dtype_name(out_dtype));
  const DType ct = compute_dtype(out_dtype);
  Tensor g = contiguous(to_dtype(grad, ct)), y = contiguous(to_dtype(output, ct));
  Tensor out = Tensor::empty(output.sizes(), ct);
  if (out.numel() == 0) return to_dtype(out, out_dtype);
  const DimSplit split = split_at_dim(output.sizes(), d);
  const int64_t block = split.n * split.inner;
  const int64_t grain = std::max<int64_t>(1, 16384 / block);
  if (split.inner == 1) {  // rows: the vectorised kernel
    const void *gp = g.raw_data(), *yp = y.raw_data();
    void* op = out.raw_data();
    parallel_for(0, split.outer, grain, [&](int64_t b, int64_t e) {
      softmax_backward_stub(ct, log, gp, yp, op, split.n, b, e);
    });
    return to_dtype(out, out_dtype);
  }
  TZ_DISPATCH_FLOATING(ct, name, [&] {
    const scalar_t* gp = g.data<scalar_t>();
    const scalar_t* yp = y.data<scalar_t>();
    scalar_t* op = out.data<scalar_t>();
    auto run = [&](int64_t b, int64_t e) {
      std::vector<scalar_t> sums(split.inner);
      for (int64_t o = b; o < e; ++o)
        softmax_backward_block(gp + o * block, yp + o * block, op + o * block, split.n, split.inner, log, sums.data());
    };
    parallel_for(0, split.outer, grain, run);
  });
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
