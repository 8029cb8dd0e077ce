// FFT plans (see kernels/fft.h): factorisation, twiddle tables, the Bluestein kernel, and the
// per-length cache. Tables are computed in long double and rounded once to the plan's type.
#include <cmath>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>

#include "kernels/fft.h"

namespace tz {

DispatchStub<FftC2CFn> fft_c2c_stub("fft_c2c");
DispatchStub<FftR2CFn> fft_r2c_stub("fft_r2c");
DispatchStub<FftC2RFn> fft_c2r_stub("fft_c2r");

namespace {

constexpr long double kTwoPi = 6.283185307179586476925286766559005768L;

// exp(-2 pi i num / den) for 0 <= num < den, into (re, im).
template <typename T> void unit_root(int64_t num, int64_t den, T& re, T& im) {
  const long double angle = -kTwoPi * static_cast<long double>(num) / static_cast<long double>(den);
  re = static_cast<T>(std::cos(angle));
  im = static_cast<T>(std::sin(angle));
}

// Radices of n in pass order: 8s first (then one 4 or 2 for the rest of the power of two),
// then 3, 5 and the remaining primes ascending. Empty if a prime factor exceeds kMaxDirectRadix.
std::vector<int64_t> radices(int64_t n) {
  std::vector<int64_t> out;
  int twos = 0;
  while (n % 2 == 0) n /= 2, ++twos;
  for (int i = 0; i < twos / 3; ++i) out.push_back(8);
  if (twos % 3) out.push_back(twos % 3 == 2 ? 4 : 2);
  for (int64_t p = 3; p * p <= n; p += 2)
    while (n % p == 0) out.push_back(p), n /= p;
  if (n > 1) out.push_back(n);
  for (int64_t r : out)
    if (r > kMaxDirectRadix) return {};
  return out;
}

template <typename T> void build_stockham(FftPlan<T>& plan, const std::vector<int64_t>& rs) {
  plan.kind = FftPlan<T>::Kind::Stockham;
  int64_t len = plan.n;
  for (int64_t r : rs) {
    FftStage<T> st;
    st.radix = r;
    st.m = len / r;
    st.tw_re.resize(st.m * (r - 1));
    st.tw_im.resize(st.m * (r - 1));
    for (int64_t p = 0; p < st.m; ++p)
      for (int64_t k = 1; k < r; ++k)
        unit_root((p * k) % len, len, st.tw_re[p * (r - 1) + k - 1], st.tw_im[p * (r - 1) + k - 1]);
    if (plan.stages.empty()) {  // a vector of k per p in the within-line first pass
      st.tw_row_re.assign(st.m * r, T(1));
      st.tw_row_im.assign(st.m * r, T(0));
      for (int64_t p = 0; p < st.m; ++p)
        for (int64_t k = 1; k < r; ++k) {
          st.tw_row_re[p * r + k] = st.tw_re[p * (r - 1) + k - 1];
          st.tw_row_im[p * r + k] = st.tw_im[p * (r - 1) + k - 1];
        }
    }
    if (r > 5) {
      st.root_re.resize(r);
      st.root_im.resize(r);
      for (int64_t j = 0; j < r; ++j) unit_root(j, r, st.root_re[j], st.root_im[j]);
    }
    plan.stages.push_back(std::move(st));
    len /= r;
  }
}

// The four-step column length n1: the largest divisor of n not above sqrt(n) when that leaves
// rows of at most kMaxStockhamLength, else the largest divisor not above kMaxStockhamLength
// (longer rows are four-step lines themselves).
int64_t four_step_columns(int64_t n) {
  int64_t balanced = 1, largest = 1;
  for (int64_t d = 1; d <= kMaxStockhamLength && d <= n; ++d)
    if (n % d == 0) {
      if (d * d <= n) balanced = d;
      largest = d;
    }
  return n / balanced <= kMaxStockhamLength ? balanced : largest;
}

template <typename T> void build_four_step(FftPlan<T>& plan) {
  constexpr int64_t G = kFftTwiddleGroup<T>;
  const int64_t n = plan.n, n1 = four_step_columns(n), n2 = n / n1, groups = (n2 + G - 1) / G;
  plan.kind = FftPlan<T>::Kind::FourStep;
  plan.blocked = false;
  plan.n1 = n1;
  plan.n2 = n2;
  plan.sub1 = &fft_plan<T>(n1);
  plan.sub2 = &fft_plan<T>(n2);
  plan.base_re.resize(groups * n1);
  plan.base_im.resize(groups * n1);
  for (int64_t g = 0; g < groups; ++g)
    for (int64_t k1 = 0; k1 < n1; ++k1)
      unit_root((k1 * g * G) % n, n, plan.base_re[g * n1 + k1], plan.base_im[g * n1 + k1]);
  plan.fine_re.resize(n1 * G);
  plan.fine_im.resize(n1 * G);
  for (int64_t k1 = 0; k1 < n1; ++k1)
    for (int64_t l = 0; l < G; ++l) unit_root((k1 * l) % n, n, plan.fine_re[k1 * G + l], plan.fine_im[k1 * G + l]);
}

template <typename T> std::unique_ptr<FftPlan<T>> build_plan(int64_t n) {
  auto plan = std::make_unique<FftPlan<T>>();
  plan->n = n;
  plan->half_re.resize(n + 1);
  plan->half_im.resize(n + 1);
  for (int64_t k = 0; k <= n; ++k) unit_root(k, 2 * n, plan->half_re[k], plan->half_im[k]);

  const std::vector<int64_t> rs = radices(n);
  if (n == 1 || (!rs.empty() && n <= kMaxStockhamLength)) {
    build_stockham(*plan, rs);
    return plan;
  }
  if (!rs.empty()) {
    build_four_step(*plan);
    return plan;
  }
  // Bluestein: X_k = c_k sum_j (x_j c_j) conj(c_{k-j}) with c_k = exp(-i pi k^2 / n).
  plan->kind = FftPlan<T>::Kind::Bluestein;
  int64_t m = 1;
  while (m < 2 * n - 1) m *= 2;
  plan->m = m;
  plan->inner = &fft_plan<T>(m);
  plan->blocked = plan->inner->blocked;
  plan->chirp_re.resize(n);
  plan->chirp_im.resize(n);
  std::vector<double> b(2 * m, 0.0), bhat(2 * m);  // interleaved complex
  for (int64_t k = 0; k < n; ++k) {
    const int64_t k2 = (k * k) % (2 * n);  // exact: the angle pi k^2 / n mod 2 pi
    unit_root(k2, 2 * n, plan->chirp_re[k], plan->chirp_im[k]);
    double re, im;
    unit_root(k2, 2 * n, re, im);
    b[2 * k] = re, b[2 * k + 1] = -im;
    if (k > 0) b[2 * (m - k)] = re, b[2 * (m - k) + 1] = -im;
  }
  // The kernel's transform in double precision (the dispatched kernel, one line).
  fft_c2c_stub(DType::Float64, b.data(), bhat.data(), m, 1, 1, false, 1.0 / static_cast<double>(m));
  plan->kernel_re.resize(m);
  plan->kernel_im.resize(m);
  for (int64_t k = 0; k < m; ++k) {
    plan->kernel_re[k] = static_cast<T>(bhat[2 * k]);
    plan->kernel_im[k] = static_cast<T>(bhat[2 * k + 1]);
  }
  return plan;
}

template <typename T> struct PlanCache {
  std::mutex mutex;
  std::map<int64_t, std::unique_ptr<FftPlan<T>>> plans;
};

template <typename T> PlanCache<T>& cache() {
  static PlanCache<T>* c = new PlanCache<T>();  // never destroyed: plans outlive static teardown
  return *c;
}

struct ScratchArea {
  void* data = nullptr;
  size_t bytes = 0;
  ~ScratchArea() { std::free(data); }
};

}  // namespace

template <typename T> const FftPlan<T>& fft_plan(int64_t n) {
  TZ_CHECK(n >= 1, Runtime, "fft: invalid transform length ", n);
  PlanCache<T>& c = cache<T>();
  {
    std::lock_guard<std::mutex> lock(c.mutex);
    auto it = c.plans.find(n);
    if (it != c.plans.end()) return *it->second;
  }
  // Built outside the lock: a plan asks for the plans of its parts. Two threads may build
  // the same plan at once; the first one stored wins.
  std::unique_ptr<FftPlan<T>> built = build_plan<T>(n);
  std::lock_guard<std::mutex> lock(c.mutex);
  auto it = c.plans.emplace(n, std::move(built)).first;
  return *it->second;
}

template const FftPlan<float>& fft_plan<float>(int64_t);
template const FftPlan<double>& fft_plan<double>(int64_t);

void* fft_scratch(int slot, size_t bytes) {
  TZ_CHECK(slot >= 0 && slot < kFftScratchSlots, Runtime, "fft: no scratch slot ", slot);
  thread_local ScratchArea areas[kFftScratchSlots];
  ScratchArea& a = areas[slot];
  if (a.bytes < bytes) {
    std::free(a.data);
    a.bytes = (bytes + 63) / 64 * 64;
    a.data = std::aligned_alloc(64, a.bytes);
    TZ_CHECK(a.data != nullptr, Runtime, "fft: out of memory for a scratch area of ", bytes, " bytes");
  }
  return a.data;
}

}  // namespace tz
