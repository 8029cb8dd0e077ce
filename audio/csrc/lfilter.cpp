#include "lfilter.h"

#include <algorithm>
#include <vector>

#include "iter/thread_pool.h"
#include "ops/conversion.h"
#include "tensor/errors.h"

namespace tz::audio {

namespace {

// One row. The sums run in double whatever T is (float32 recursions drift otherwise).
template <typename T, int kOrder>
void filter_row(const T* x, T* y, int64_t n, const double* a, const double* b, int order) {
  const int K = kOrder > 0 ? kOrder : order;
  for (int64_t t = 0; t < n; ++t) {
    double acc = 0.0;
    const int taps = static_cast<int>(std::min<int64_t>(K, t + 1));
    for (int k = 0; k < taps; ++k) acc += b[k] * static_cast<double>(x[t - k]);
    for (int k = 1; k < taps; ++k) acc -= a[k] * static_cast<double>(y[t - k]);
    y[t] = static_cast<T>(acc);
  }
}

// The biquad case, with the two past inputs and outputs held in registers (the recursion's
// latency, not arithmetic, bounds it).
template <typename T>
void biquad_row(const T* x, T* y, int64_t n, const double* a, const double* b) {
  double x1 = 0, x2 = 0, y1 = 0, y2 = 0;
  for (int64_t t = 0; t < n; ++t) {
    const double x0 = static_cast<double>(x[t]);
    const double y0 = b[0] * x0 + b[1] * x1 + b[2] * x2 - a[1] * y1 - a[2] * y2;
    x2 = x1, x1 = x0, y2 = y1, y1 = y0;
    y[t] = static_cast<T>(y0);
  }
}

template <typename T>
void run(const Tensor& x, const Tensor& a, const Tensor& b, Tensor& y) {
  const int64_t rows = x.sizes()[0] * x.sizes()[1], filters = x.sizes()[1], n = x.sizes()[2];
  const int order = static_cast<int>(a.sizes()[1]);
  std::vector<double> ca(a.numel()), cb(b.numel());
  std::copy(a.data<T>(), a.data<T>() + a.numel(), ca.begin());
  std::copy(b.data<T>(), b.data<T>() + b.numel(), cb.begin());
  const T* in = x.data<T>();
  T* out = y.data<T>();
  auto rows_fn = [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      const double* fa = ca.data() + (r % filters) * order;
      const double* fb = cb.data() + (r % filters) * order;
      if (order == 3) biquad_row(in + r * n, out + r * n, n, fa, fb);
      else filter_row<T, 0>(in + r * n, out + r * n, n, fa, fb, order);
    }
  };
  if (rows > 1 && rows * n >= 32768 && get_num_threads() > 1 && !in_parallel_region())
    parallel_for(0, rows, 1, rows_fn);
  else
    rows_fn(0, rows);
}

}  // namespace

Tensor lfilter(const Tensor& waveform, const Tensor& a_coeffs, const Tensor& b_coeffs) {
  TZ_CHECK(waveform.dim() == 3, Value, "waveform must be (batch, filters, time), got ", waveform.dim(), " dims");
  TZ_CHECK(a_coeffs.dim() == 2 && a_coeffs.sizes() == b_coeffs.sizes(), Value,
           "a_coeffs and b_coeffs must both be (filters, order) of one shape");
  TZ_CHECK(a_coeffs.sizes()[0] == waveform.sizes()[1], Value, "there are ", a_coeffs.sizes()[0],
           " filters for ", waveform.sizes()[1], " filter rows of the waveform");
  TZ_CHECK(a_coeffs.sizes()[1] >= 1, Value, "the filter order must be at least 1");
  const DType dt = waveform.dtype();
  TZ_CHECK(dt == DType::Float32 || dt == DType::Float64, Type, "waveform must be float32 or float64, got ",
           dtype_name(dt));
  TZ_CHECK(a_coeffs.dtype() == dt && b_coeffs.dtype() == dt, Type,
           "the coefficients must have the waveform's dtype (", dtype_name(dt), ")");
  Tensor x = contiguous(waveform), a = contiguous(a_coeffs), b = contiguous(b_coeffs);
  Tensor y = Tensor::empty(waveform.sizes(), dt);
  if (y.numel() == 0) return y;
  if (dt == DType::Float32) run<float>(x, a, b, y);
  else run<double>(x, a, b, y);
  return y;
}

}  // namespace tz::audio
