#include "random/counter_sampling.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "iter/tensor_iter.h"
#include "ops/conversion.h"
#include "random/sampling.h"
#include "random/serial_fill.h"

namespace tz::counter_sampling {

namespace {

constexpr int64_t kBlockBytes = 16;
constexpr int64_t kChunkBlocks = 256;   // made per step: 4 KB, stays in L1
constexpr int64_t kGrainBlocks = 4096;  // per parallel task, at least

// The sub-blocks of one element, read like an engine (torchcsprng's RNGValues): random()
// is the low 32 bits of the next sub-block, random64() all of it.
template <int N>
struct Values {
  uint64_t v[N];
  int next = 0;
  uint32_t random() { return static_cast<uint32_t>(v[next++]); }
  uint64_t random64() { return v[next++]; }
};

template <typename T>
constexpr bool is_half_type = std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;

// A double rounded to T (half types through float, as c10::Half(double) does).
template <typename T>
T from_double(double x) {
  if constexpr (is_half_type<T>) return T(static_cast<float>(x));
  else return static_cast<T>(x);
}

// (bits & (2^53 - 1)) * 2^-53: uniform in [0, 1).
inline double uniform53(uint64_t bits) {
  // Through int64: one signed conversion instruction (the value is below 2^53 anyway).
  return static_cast<double>(static_cast<int64_t>(bits & ((uint64_t(1) << 53) - 1))) * (1.0 / 9007199254740992.0);
}

// Box-Muller's cosine half, without FMA contraction (the core builds with -ffp-contract=off).
inline double standard_normal(Values<2>& v) {
  const double u1 = uniform53(v.random64());
  const double u2 = uniform53(v.random64());
  const double r = std::sqrt(-2.0 * std::log(1.0 - u2));
  const double theta = 2.0 * sampling::kPi * u1;
  return r * std::cos(theta);
}

// The stream for one call, taken while holding g's lock (it may draw from the engine).
BlockStreamPtr stream_of(Generator& g) {
  GeneratorLock lock(g);
  BlockStreamPtr s = g.block_stream();
  TZ_CHECK(s != nullptr, Runtime, "counter-based generator '", g.engine_name(), "' returned no block stream");
  return s;
}

// out[k] = draw(values of element k, input element k or null) for each element k of `out`
// in memory order; element k reads N sub-blocks of type U starting at byte k N sizeof(U)
// of the stream. Blocks are made and consumed in chunks, in parallel; the result does not
// depend on the number of threads.
template <typename T, typename U, int N, typename Draw>
void fill(const Tensor& out, const Tensor& input, const BlockStream& s, const Draw& draw) {
  const int64_t numel = out.numel();
  if (numel == 0) return;
  constexpr int64_t per_block = kBlockBytes / (N * sizeof(U));
  static_assert(per_block * N * sizeof(U) == kBlockBytes, "sub-blocks must tile a block");
  const int64_t nblocks = (numel + per_block - 1) / per_block;
  Tensor keep_out = out, keep_in = input;
  const bool has_input = input.defined();
  const TensorIter iter =
      has_input ? TensorIter({keep_out, keep_in}, out.sizes()) : TensorIter({keep_out}, out.sizes());
  parallel_for(0, nblocks, kGrainBlocks, [&](int64_t b0, int64_t b1) {
    alignas(64) uint8_t buf[kChunkBlocks * kBlockBytes];
    for (int64_t b = b0; b < b1; b += kChunkBlocks) {
      const int64_t nb = std::min(kChunkBlocks, b1 - b);
      s.fill(static_cast<uint64_t>(b), nb, buf);
      const uint8_t* sub = buf;
      iter.run_range([&](char** data, const int64_t* strides, int64_t n) {
        char* o = data[0];
        const char* in = has_input ? data[1] : nullptr;
        for (int64_t i = 0; i < n; ++i) {
          Values<N> v;
          for (int j = 0; j < N; ++j, sub += sizeof(U)) {
            U u;
            std::memcpy(&u, sub, sizeof(U));
            v.v[j] = u;
          }
          *reinterpret_cast<T*>(o) = draw(v, in);
          o += strides[0];
          if (has_input) in += strides[1];
        }
      }, b * per_block, std::min((b + nb) * per_block, numel));
    }
  });
}

// Floating dtypes, U = u64 and N sub-blocks per element: out = from_double(f(values)).
template <int N, typename F>
bool fill_floating(const Tensor& self, Generator& g, const char* op, F f) {
  if (!g.counter_based()) return false;
  BlockStreamPtr s = stream_of(g);
  TZ_DISPATCH_SAMPLING_FLOATING(self.dtype(), op, [&] {
    fill<scalar_t, uint64_t, N>(self, Tensor(), *s, [&](Values<N>& v, const char*) { return from_double<scalar_t>(f(v)); });
  });
  return true;
}

// Sub-blocks of random_ (torchcsprng's UIntType).
template <typename T>
using random_sub_t = std::conditional_t<std::is_same_v<T, double> || std::is_same_v<T, int64_t>, uint64_t,
                                        std::conditional_t<is_half_type<T>, uint16_t, uint32_t>>;

// Dtypes whose random_(from, to) draws from 64-bit sub-blocks.
template <typename T>
constexpr bool wide_range_type = std::is_same_v<T, int64_t> || std::is_same_v<T, double> ||
                                 std::is_same_v<T, float> || std::is_same_v<T, BFloat16>;

}  // namespace

bool uniform(const Tensor& self, double from, double to, Generator& g) {
  if (!g.counter_based()) return false;
  BlockStreamPtr s = stream_of(g);
  TZ_DISPATCH_SAMPLING_FLOATING(self.dtype(), "uniform_", [&] {
    const scalar_t top = from_double<scalar_t>(to), bottom = from_double<scalar_t>(from);
    fill<scalar_t, uint64_t, 1>(self, Tensor(), *s, [&](Values<1>& v, const char*) {
      const scalar_t r = from_double<scalar_t>(uniform53(v.random64()) * (to - from) + from);
      return static_cast<double>(r) >= static_cast<double>(top) ? bottom : r;
    });
  });
  return true;
}

bool normal(const Tensor& self, double mean, double std, Generator& g) {
  return fill_floating<2>(self, g, "normal_", [&](Values<2>& v) { return standard_normal(v) * std + mean; });
}

bool log_normal(const Tensor& self, double mean, double std, Generator& g) {
  return fill_floating<2>(self, g, "log_normal_", [&](Values<2>& v) { return std::exp(standard_normal(v) * std + mean); });
}

bool exponential(const Tensor& self, double lambd, Generator& g) {
  return fill_floating<1>(self, g, "exponential_",
                          [&](Values<1>& v) { return (-1.0 / lambd) * std::log(1.0 - uniform53(v.random64())); });
}

bool cauchy(const Tensor& self, double median, double sigma, Generator& g) {
  return fill_floating<1>(self, g, "cauchy_", [&](Values<1>& v) {
    return median + sigma * std::tan(sampling::kPi * (uniform53(v.random64()) - 0.5));
  });
}

bool random(const Tensor& self, Generator& g) {
  if (!g.counter_based()) return false;
  BlockStreamPtr s = stream_of(g);
  TZ_DISPATCH_REAL_AND_BOOL(self.dtype(), "random_", [&] {
    fill<scalar_t, random_sub_t<scalar_t>, 1>(self, Tensor(), *s,
                                              [](Values<1>& v, const char*) { return sampling::random_bits<scalar_t>(v); });
  });
  return true;
}

bool random_from_to(const Tensor& self, uint64_t range, int64_t base, Generator& g) {
  if (!g.counter_based()) return false;
  BlockStreamPtr s = stream_of(g);
  TZ_DISPATCH_REAL_AND_BOOL(self.dtype(), "random_", [&] {
    constexpr bool wide = wide_range_type<scalar_t>;
    const bool use64 = wide && range >= (uint64_t(1) << 32);
    fill<scalar_t, std::conditional_t<wide, uint64_t, uint32_t>, 1>(self, Tensor(), *s, [&](Values<1>& v, const char*) {
      const uint64_t bits = use64 ? v.random64() : v.random();
      return static_cast<scalar_t>(static_cast<int64_t>(bits % range + static_cast<uint64_t>(base)));
    });
  });
  return true;
}

bool random_full_range(const Tensor& self, Generator& g) {
  if (!g.counter_based()) return false;
  BlockStreamPtr s = stream_of(g);
  TZ_DISPATCH_REAL_AND_BOOL(self.dtype(), "random_", [&] {
    fill<scalar_t, uint64_t, 1>(self, Tensor(), *s, [](Values<1>& v, const char*) {
      return static_cast<scalar_t>(static_cast<int64_t>(v.random64()));
    });
  });
  return true;
}

bool bernoulli(const Tensor& self, double p, Generator& g) {
  if (!g.counter_based()) return false;
  BlockStreamPtr s = stream_of(g);
  TZ_DISPATCH_REAL_AND_BOOL(self.dtype(), "bernoulli_", [&] {
    fill<scalar_t, uint64_t, 1>(self, Tensor(), *s, [&](Values<1>& v, const char*) {
      return static_cast<scalar_t>(uniform53(v.random64()) < p);
    });
  });
  return true;
}

bool bernoulli(const Tensor& self, const Tensor& p, Generator& g) {
  if (!g.counter_based()) return false;
  const Tensor probs = to_dtype(p, DType::Float64);
  const Tensor dense = contiguous(probs);
  const double* pv = dense.data<double>();
  for (int64_t i = 0; i < dense.numel(); ++i)
    TZ_CHECK(pv[i] >= 0 && pv[i] <= 1, Runtime, "bernoulli_(): expected every probability in [0, 1], but got ", pv[i]);
  BlockStreamPtr s = stream_of(g);
  TZ_DISPATCH_REAL_AND_BOOL(self.dtype(), "bernoulli_", [&] {
    fill<scalar_t, uint64_t, 1>(self, probs, *s, [](Values<1>& v, const char* in) {
      return static_cast<scalar_t>(uniform53(v.random64()) < *reinterpret_cast<const double*>(in));
    });
  });
  return true;
}

bool geometric(const Tensor& self, double p, Generator& g) {
  if (!g.counter_based()) return false;
  BlockStreamPtr s = stream_of(g);
  const double log_q = std::log(1.0 - p);
  TZ_DISPATCH_REAL(self.dtype(), "geometric_", [&] {
    fill<scalar_t, uint64_t, 1>(self, Tensor(), *s, [&](Values<1>& v, const char*) {
      return from_double<scalar_t>(std::ceil(std::log(uniform53(v.random64())) / log_q));
    });
  });
  return true;
}

}  // namespace tz::counter_sampling
