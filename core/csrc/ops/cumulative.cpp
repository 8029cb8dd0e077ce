#include "ops/cumulative.h"

#include <algorithm>
#include <complex>
#include <vector>

#include "iter/thread_pool.h"
#include "ops/conversion.h"
#include "ops/reduce_engine.h"

namespace tz {

namespace {

// Accumulator types: float32 scans accumulate in double, like PyTorch on CPU.
template <typename T> struct AccOf { using type = T; };
template <> struct AccOf<float> { using type = double; };
template <> struct AccOf<complex64> { using type = std::complex<double>; };

// Scans a contiguous (outer, n, inner) tensor along n.
template <typename T, bool kProd>
void scan(const T* in, T* out, int64_t outer, int64_t n, int64_t inner) {
  using A = typename AccOf<T>::type;
  const int64_t work = outer * n * inner;
  auto lines = [&](int64_t b, int64_t e) {
    if (inner == 1) {  // contiguous lines: the running value stays in a register
      for (int64_t o = b; o < e; ++o) {
        A acc = A(kProd ? 1 : 0);
        const T* x = in + o * n;
        T* y = out + o * n;
        for (int64_t i = 0; i < n; ++i) {
          if constexpr (kProd) acc *= A(x[i]);
          else acc += A(x[i]);
          y[i] = static_cast<T>(acc);
        }
      }
      return;
    }
    std::vector<A> acc(inner);
    for (int64_t o = b; o < e; ++o) {
      std::fill(acc.begin(), acc.end(), A(kProd ? 1 : 0));
      const T* x = in + o * n * inner;
      T* y = out + o * n * inner;
      for (int64_t i = 0; i < n; ++i, x += inner, y += inner)
        for (int64_t j = 0; j < inner; ++j) {
          if constexpr (kProd) acc[j] *= A(x[j]);
          else acc[j] += A(x[j]);
          y[j] = static_cast<T>(acc[j]);
        }
    }
  };
  if (outer > 1 && work >= 65536 && get_num_threads() > 1 && !in_parallel_region()) {
    parallel_for(0, outer, std::max<int64_t>(1, 32768 / (n * inner)), lines);
  } else {
    lines(0, outer);
  }
}

Tensor cumulative(const Tensor& t, int64_t dim, std::optional<DType> dtype, bool prod, const char* name) {
  TZ_CHECK(!is_quantized(t.dtype()), NotImplemented, name, "(): not supported for quantized tensors");
  const int64_t d = wrap_dim(dim, t.dim(), name);
  const DType out = dtype.value_or(is_integral(t.dtype(), true) ? DType::Int64 : t.dtype());
  Tensor src = to_dtype(t, out);
  const DType ct = is_integral(out, true) ? DType::Int64 : compute_dtype(out);
  Tensor in = contiguous(to_dtype(src, ct));
  Tensor res = Tensor::empty(t.sizes(), ct);
  if (t.numel() == 0) return to_dtype(res, out);
  const DimSplit split = split_at_dim(t.sizes(), d);
  const int64_t outer = split.outer, n = split.n, inner = split.inner;
  auto go = [&](auto tag) {
    using T = decltype(tag);
    if (prod) scan<T, true>(in.data<T>(), res.data<T>(), outer, n, inner);
    else scan<T, false>(in.data<T>(), res.data<T>(), outer, n, inner);
  };
  switch (ct) {
    case DType::Int64: go(int64_t{}); break;
    case DType::Float32: go(float{}); break;
    case DType::Float64: go(double{}); break;
    case DType::Complex64: go(complex64{}); break;
    case DType::Complex128: go(complex128{}); break;
    default: fail(ErrorKind::Type, name, "(): not implemented for '", dtype_name(ct), "'");
  }
  return to_dtype(res, out);
}

}  // namespace

Tensor cumsum(const Tensor& t, int64_t dim, std::optional<DType> dtype) {
  return cumulative(t, dim, dtype, false, "cumsum");
}

Tensor cumprod(const Tensor& t, int64_t dim, std::optional<DType> dtype) {
  return cumulative(t, dim, dtype, true, "cumprod");
}

}  // namespace tz
