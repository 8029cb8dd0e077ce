#include "random/distributions.h"

#include "random/counter_sampling.h"
#include "random/sampling.h"
#include "random/serial_fill.h"

namespace tz {

namespace {

// Locks g, then fills every element of a floating tensor with draw(engine) (a double, or
// the dtype's own value) cast to its dtype.
template <typename Draw>
void fill_floating(const Tensor& self, const char* op, Generator& g, Draw&& draw) {
  GeneratorLock lock(g);
  with_engine(g, [&](auto& eng) {
    TZ_DISPATCH_SAMPLING_FLOATING(self.dtype(), op, [&] {
      fill_serial<scalar_t>(self, [&] { return static_cast<scalar_t>(draw(eng)); });
    });
  });
}

// The same for every real dtype and bool.
template <typename Draw>
void fill_real_and_bool(const Tensor& self, const char* op, Generator& g, Draw&& draw) {
  GeneratorLock lock(g);
  with_engine(g, [&](auto& eng) {
    TZ_DISPATCH_REAL_AND_BOOL(self.dtype(), op, [&] {
      fill_serial<scalar_t>(self, [&] { return static_cast<scalar_t>(draw(eng)); });
    });
  });
}

}  // namespace

void uniform_kernel(const Tensor& self, double from, double to, Generator& g) {
  if (counter_sampling::uniform(self, from, to, g)) return;
  GeneratorLock lock(g);
  with_engine(g, [&](auto& eng) {
    TZ_DISPATCH_SAMPLING_FLOATING(self.dtype(), "uniform_", [&] {
      using acc = sampling::acc_t<scalar_t>;
      const acc lo = static_cast<acc>(from), hi = static_cast<acc>(to);
      fill_serial<scalar_t>(self, [&] { return sampling::uniform_real<scalar_t>(eng, lo, hi); });
    });
  });
}

void random_kernel(const Tensor& self, Generator& g) {
  if (counter_sampling::random(self, g)) return;
  GeneratorLock lock(g);
  with_engine(g, [&](auto& eng) {
    TZ_DISPATCH_REAL_AND_BOOL(self.dtype(), "random_", [&] {
      fill_serial<scalar_t>(self, [&] { return sampling::random_bits<scalar_t>(eng); });
    });
  });
}

void random_from_to_kernel(const Tensor& self, uint64_t range, int64_t base, Generator& g) {
  if (counter_sampling::random_from_to(self, range, base, g)) return;
  fill_real_and_bool(self, "random_", g, [&](auto& eng) { return sampling::random_from_to(eng, range, base); });
}

void random_full_range_kernel(const Tensor& self, Generator& g) {
  TZ_CHECK(self.dtype() == DType::Int64 || self.dtype() == DType::Float64 || self.dtype() == DType::Float32 ||
               self.dtype() == DType::BFloat16,
           Runtime, "random_(): the full 64-bit range is only supported for int64, float64, float32 and "
           "bfloat16, not ", dtype_name(self.dtype()));
  if (counter_sampling::random_full_range(self, g)) return;
  fill_real_and_bool(self, "random_", g, [](auto& eng) { return static_cast<int64_t>(eng.random64()); });
}

void bernoulli_kernel(const Tensor& self, double p, Generator& g) {
  if (counter_sampling::bernoulli(self, p, g)) return;
  fill_real_and_bool(self, "bernoulli_", g, [&](auto& eng) { return sampling::bernoulli(eng, p); });
}

void bernoulli_kernel(const Tensor& self, const Tensor& p, Generator& g) {
  if (counter_sampling::bernoulli(self, p, g)) return;
  GeneratorLock lock(g);
  auto check = [](auto v) {
    TZ_CHECK(v >= 0 && v <= 1, Runtime, "bernoulli_(): expected every probability in [0, 1], but got ", v);
  };
  with_engine(g, [&](auto& eng) {
    TZ_DISPATCH_REAL_AND_BOOL(self.dtype(), "bernoulli_", [&] {
      using out_t = scalar_t;
      if (p.dtype() == DType::Float64) {
        // float64 probabilities draw 53-bit uniforms, the others 24-bit ones compared in float.
        fill_serial_from<out_t, double>(self, p, [&](double v) {
          check(v);
          return static_cast<out_t>(sampling::bernoulli(eng, v));
        });
      } else {
        TZ_DISPATCH_SAMPLING_FLOATING(p.dtype(), "bernoulli_", [&] {
          fill_serial_from<out_t, scalar_t>(self, p, [&](scalar_t v) {
            float pv = static_cast<float>(v);
            check(pv);
            return static_cast<out_t>(sampling::bernoulli(eng, pv));
          });
        });
      }
    });
  });
}

void exponential_kernel(const Tensor& self, double lambd, Generator& g) {
  if (counter_sampling::exponential(self, lambd, g)) return;
  fill_floating(self, "exponential_", g, [&](auto& eng) { return sampling::exponential(eng, lambd); });
}

void cauchy_kernel(const Tensor& self, double median, double sigma, Generator& g) {
  if (counter_sampling::cauchy(self, median, sigma, g)) return;
  fill_floating(self, "cauchy_", g, [&](auto& eng) { return sampling::cauchy(eng, median, sigma); });
}

void log_normal_kernel(const Tensor& self, double mean, double std, Generator& g) {
  if (counter_sampling::log_normal(self, mean, std, g)) return;
  fill_floating(self, "log_normal_", g, [&](auto& eng) { return sampling::log_normal(eng, mean, std); });
}

void geometric_kernel(const Tensor& self, double p, Generator& g) {
  if (counter_sampling::geometric(self, p, g)) return;
  GeneratorLock lock(g);
  with_engine(g, [&](auto& eng) {
    TZ_DISPATCH_REAL(self.dtype(), "geometric_", [&] {
      fill_serial<scalar_t>(self, [&] { return static_cast<scalar_t>(sampling::geometric(eng, p)); });
    });
  });
}

}  // namespace tz
