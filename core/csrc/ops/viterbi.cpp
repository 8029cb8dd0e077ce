// Viterbi with quadratic transitions. The minimum over j of cost[j] + c (i - j)^2 for every i
// is the lower envelope of the parabolas j -> cost[j] + c (i - j)^2: found in O(states) per
// frame by the one-dimensional distance transform (Felzenszwalb and Huttenlocher, 2012), an
// exact minimum like the O(states^2) search it replaces.
#include "ops/viterbi.h"

#include <algorithm>
#include <limits>
#include <vector>

#include "ops/conversion.h"
#include "ops/creation.h"

namespace tz {

namespace {

// best[i] = min_j prev[j] + c (i - j)^2 and back[i] = its arg-min (c > 0). `hull` and
// `bounds` are scratch of n and n + 1 entries.
void distance_transform(const double* prev, int64_t n, double c, double* best, int64_t* back,
                        std::vector<int64_t>& hull, std::vector<double>& bounds) {
  const double inf = std::numeric_limits<double>::infinity();
  // Where the parabola of q overtakes the one of p (q > p), as a state index (real valued).
  auto crossing = [&](int64_t p, int64_t q) {
    const double dq = static_cast<double>(q), dp = static_cast<double>(p);
    return ((prev[q] + c * dq * dq) - (prev[p] + c * dp * dp)) / (2.0 * c * (dq - dp));
  };
  int64_t k = 0;  // hull[0 .. k]: the parabolas on the envelope; bounds[k], bounds[k + 1] their span
  hull[0] = 0;
  bounds[0] = -inf;
  bounds[1] = inf;
  for (int64_t q = 1; q < n; ++q) {
    double s = crossing(hull[k], q);
    while (k > 0 && s <= bounds[k]) s = crossing(hull[--k], q);
    ++k;
    hull[k] = q;
    bounds[k] = s;
    bounds[k + 1] = inf;
  }
  k = 0;
  for (int64_t i = 0; i < n; ++i) {
    while (bounds[k + 1] < static_cast<double>(i)) ++k;
    const int64_t j = hull[k];
    const double d = static_cast<double>(i - j);
    best[i] = prev[j] + c * d * d;
    back[i] = j;
  }
}

}  // namespace

std::pair<Tensor, Tensor> viterbi_quadratic(const Tensor& local_cost, const Tensor& initial_cost,
                                            double transition_cost) {
  const char* op = "_viterbi_quadratic";
  TZ_CHECK(local_cost.dim() == 2, Runtime, op, "(): expected local_cost of (frames, states), got ",
           shape_str(local_cost.sizes()));
  const int64_t frames = local_cost.sizes()[0], states = local_cost.sizes()[1];
  TZ_CHECK(initial_cost.dim() == 1 && initial_cost.sizes()[0] == states, Runtime, op,
           "(): expected initial_cost of (", states, "), got ", shape_str(initial_cost.sizes()));
  TZ_CHECK(states >= 1, Runtime, op, "(): expected at least one state");
  TZ_CHECK(local_cost.dtype() == DType::Float64 && initial_cost.dtype() == DType::Float64, Runtime, op,
           "(): expected float64 costs");
  TZ_CHECK(transition_cost >= 0.0, Runtime, op, "(): transition_cost must be >= 0, got ", transition_cost);
  const Tensor local = contiguous(local_cost);
  Tensor cost = contiguous(to_dtype(initial_cost, DType::Float64, true));
  Tensor back = empty({frames, states}, DType::Int64);
  const double* lc = local.data<double>();
  double* cur = cost.data<double>();
  int64_t* bp = back.data<int64_t>();
  std::vector<double> prev(states);
  std::vector<int64_t> hull(states);
  std::vector<double> bounds(states + 1);
  for (int64_t t = 0; t < frames; ++t) {
    prev.assign(cur, cur + states);
    int64_t* row = bp + t * states;
    if (transition_cost > 0.0) {
      distance_transform(prev.data(), states, transition_cost, cur, row, hull, bounds);
    } else {  // free transitions: every state continues from the cheapest one
      int64_t j = 0;
      for (int64_t i = 1; i < states; ++i)
        if (prev[i] < prev[j]) j = i;
      for (int64_t i = 0; i < states; ++i) cur[i] = prev[j], row[i] = j;
    }
    double lowest = std::numeric_limits<double>::infinity();
    for (int64_t i = 0; i < states; ++i) {
      cur[i] += lc[t * states + i];
      lowest = std::min(lowest, cur[i]);
    }
    for (int64_t i = 0; i < states; ++i) cur[i] -= lowest;  // as Kaldi: the best state costs 0
  }
  return {back, cost};
}

}  // namespace tz
