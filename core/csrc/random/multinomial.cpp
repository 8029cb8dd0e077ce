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

// PyTorch's topk comparator: larger first, NaN above everything; ties keep whatever order
// the standard algorithms leave, which the selection below reproduces.
template <typename A>
bool ranks_above(const std::pair<A, int64_t>& a, const std::pair<A, int64_t>& b) {
  return (std::isnan(a.first) && !std::isnan(b.first)) || a.first > b.first;
}

// The k largest first, selected the way PyTorch's CPU topk does (partial_sort for small k,
// else nth_element and a sort of the first k - 1), so ties come out in the same order.
// One sample is an argmax: the first largest (or first NaN).
template <typename A>
void select_top(std::vector<std::pair<A, int64_t>>& q, int64_t k) {
  if (k == 1) {
    auto best = q.begin();
    for (auto it = q.begin(); it != q.end(); ++it)
      if (!std::isnan(best->first) && (std::isnan(it->first) || it->first > best->first)) best = it;
    std::iter_swap(q.begin(), best);
  } else if (k * 64 <= static_cast<int64_t>(q.size())) {
    std::partial_sort(q.begin(), q.begin() + k, q.end(), ranks_above<A>);
  } else {
    std::nth_element(q.begin(), q.begin() + k - 1, q.end(), ranks_above<A>);
    std::sort(q.begin(), q.begin() + k - 1, ranks_above<A>);
  }
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
    select_top(ranked, n_sample);
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
