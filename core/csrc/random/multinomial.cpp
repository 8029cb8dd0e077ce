#include "random/multinomial.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "random/sampling.h"
#include "random/serial_fill.h"

namespace tz {

namespace {

struct RowLayout {
  int64_t rows, cols, row_stride, col_stride;
};

RowLayout layout_of(const Tensor& t) {
  const bool two_d = t.dim() == 2;
  return {two_d ? t.size(0) : 1, t.size(-1), two_d ? t.stride(0) : 0, t.stride(-1)};
}

// Half types accumulate in float; float and double in themselves.
template <typename T>
using acc_of = std::conditional_t<std::is_same_v<T, double>, double, float>;

template <typename T>
void with_replacement(const Tensor& probs, int64_t n_sample, const Tensor& out, Generator& g) {
  using A = acc_of<T>;
  const RowLayout in = layout_of(probs), res = layout_of(out);
  const T* p = probs.data<T>();
  int64_t* r = out.data<int64_t>();
  std::vector<A> cum(in.cols);
  for (int64_t i = 0; i < in.rows; ++i) {
    A sum = 0;
    for (int64_t j = 0; j < in.cols; ++j) {
      A v = static_cast<A>(p[i * in.row_stride + j * in.col_stride]);
      TZ_CHECK(v >= 0, Runtime, "multinomial(): invalid multinomial distribution (encountering probability entry < 0)");
      TZ_CHECK(std::isfinite(v), Runtime,
               "multinomial(): invalid multinomial distribution (encountering probability entry = infinity or NaN)");
      sum += v;
      cum[j] = sum;
    }
    TZ_CHECK(sum > 0, Runtime, "multinomial(): invalid multinomial distribution (sum of probabilities <= 0)");
    for (A& c : cum) c /= sum;
    cum[in.cols - 1] = 1;  // the last bucket ends exactly at 1
    for (int64_t s = 0; s < n_sample; ++s) {
      double u = sampling::uniform01<double>(g);
      int64_t lo = 0, hi = in.cols;
      while (hi > lo) {
        int64_t mid = lo + (hi - lo) / 2;
        if (cum[mid] < u) lo = mid + 1;
        else hi = mid;
      }
      r[i * res.row_stride + s * res.col_stride] = lo;
    }
  }
}

// True when a ranks above b: larger first, NaN above everything, ties by index.
template <typename A>
bool ranks_above(const std::pair<A, int64_t>& a, const std::pair<A, int64_t>& b) {
  if (std::isnan(a.first) != std::isnan(b.first)) return std::isnan(a.first);
  if (a.first != b.first && !std::isnan(a.first)) return a.first > b.first;
  return a.second < b.second;
}

template <typename T>
void top_keys(const Tensor& probs, const Tensor& keys, int64_t n_sample, const Tensor& out) {
  using A = acc_of<T>;
  const RowLayout in = layout_of(probs), k = layout_of(keys), res = layout_of(out);
  const T* p = probs.data<T>();
  const T* q = keys.data<T>();
  int64_t* r = out.data<int64_t>();
  std::vector<std::pair<A, int64_t>> ranked(in.cols);
  for (int64_t i = 0; i < in.rows; ++i) {
    for (int64_t j = 0; j < in.cols; ++j) {
      // The quotient is rounded to T, as PyTorch divides into a tensor of probs' dtype.
      A pv = static_cast<A>(p[i * in.row_stride + j * in.col_stride]);
      A qv = static_cast<A>(q[i * k.row_stride + j * k.col_stride]);
      ranked[j] = {static_cast<A>(static_cast<T>(pv / qv)), j};
    }
    std::partial_sort(ranked.begin(), ranked.begin() + n_sample, ranked.end(), ranks_above<A>);
    for (int64_t s = 0; s < n_sample; ++s) r[i * res.row_stride + s * res.col_stride] = ranked[s].second;
  }
}

}  // namespace

void multinomial_with_replacement_kernel(const Tensor& probs, int64_t n_sample, const Tensor& out,
                                         Generator& g) {
  GeneratorLock lock(g);
  TZ_DISPATCH_SAMPLING_FLOATING(probs.dtype(), "multinomial", [&] {
    with_replacement<scalar_t>(probs, n_sample, out, g);
  });
}

void multinomial_top_keys(const Tensor& probs, const Tensor& keys, int64_t n_sample, const Tensor& out) {
  TZ_DISPATCH_SAMPLING_FLOATING(probs.dtype(), "multinomial", [&] {
    top_keys<scalar_t>(probs, keys, n_sample, out);
  });
}

}  // namespace tz
