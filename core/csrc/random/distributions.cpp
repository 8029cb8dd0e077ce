#include "random/distributions.h"

#include "random/sampling.h"
#include "random/serial_fill.h"

namespace tz {

namespace {

// Fills a floating tensor with draw() (a double, or the dtype's own value) cast to it.
template <typename Draw>
void fill_floating(const Tensor& self, const char* op, Generator& g, Draw&& draw) {
  GeneratorLock lock(g);
  TZ_DISPATCH_SAMPLING_FLOATING(self.dtype(), op, [&] {
    fill_serial<scalar_t>(self, [&] { return static_cast<scalar_t>(draw()); });
  });
}

}  // namespace

void uniform_kernel(const Tensor& self, double from, double to, Generator& g) {
  GeneratorLock lock(g);
  TZ_DISPATCH_SAMPLING_FLOATING(self.dtype(), "uniform_", [&] {
    using acc = sampling::acc_t<scalar_t>;
    const acc lo = static_cast<acc>(from), hi = static_cast<acc>(to);
    fill_serial<scalar_t>(self, [&] { return sampling::uniform_real<scalar_t>(g, lo, hi); });
  });
}

void random_kernel(const Tensor& self, Generator& g) {
  GeneratorLock lock(g);
  TZ_DISPATCH_REAL_AND_BOOL(self.dtype(), "random_", [&] {
    fill_serial<scalar_t>(self, [&] { return sampling::random_bits<scalar_t>(g); });
  });
}

void random_from_to_kernel(const Tensor& self, uint64_t range, int64_t base, Generator& g) {
  GeneratorLock lock(g);
  TZ_DISPATCH_REAL_AND_BOOL(self.dtype(), "random_", [&] {
    fill_serial<scalar_t>(self, [&] {
      return static_cast<scalar_t>(sampling::random_from_to(g, range, base));
    });
  });
}

void random_full_range_kernel(const Tensor& self, Generator& g) {
  GeneratorLock lock(g);
  auto full = [&] { return static_cast<int64_t>(g.random64()); };
  switch (self.dtype()) {
    case DType::Int64: fill_serial<int64_t>(self, full); break;
    case DType::Float64: fill_serial<double>(self, [&] { return static_cast<double>(full()); }); break;
    case DType::Float32: fill_serial<float>(self, [&] { return static_cast<float>(full()); }); break;
    case DType::BFloat16: fill_serial<BFloat16>(self, [&] { return static_cast<BFloat16>(full()); }); break;
    default:
      fail(ErrorKind::Runtime, "random_(): the full 64-bit range is only supported for int64, "
           "float64, float32 and bfloat16, not ", dtype_name(self.dtype()));
  }
}

void bernoulli_kernel(const Tensor& self, double p, Generator& g) {
  GeneratorLock lock(g);
  TZ_DISPATCH_REAL_AND_BOOL(self.dtype(), "bernoulli_", [&] {
    fill_serial<scalar_t>(self, [&] { return static_cast<scalar_t>(sampling::bernoulli(g, p)); });
  });
}

void bernoulli_kernel(const Tensor& self, const Tensor& p, Generator& g) {
  GeneratorLock lock(g);
  TZ_DISPATCH_REAL_AND_BOOL(self.dtype(), "bernoulli_", [&] {
    using out_t = scalar_t;
    auto check = [](auto v) {
      TZ_CHECK(v >= 0 && v <= 1, Runtime, "bernoulli_(): expected every probability in [0, 1], but got ", v);
    };
    if (p.dtype() == DType::Float64) {
      // float64 probabilities draw 53-bit uniforms, the others 24-bit ones compared in float.
      fill_serial_from<out_t, double>(self, p, [&](double v) {
        check(v);
        return static_cast<out_t>(sampling::bernoulli(g, v));
      });
    } else {
      TZ_DISPATCH_SAMPLING_FLOATING(p.dtype(), "bernoulli_", [&] {
        fill_serial_from<out_t, scalar_t>(self, p, [&](scalar_t v) {
          float pv = static_cast<float>(v);
          check(pv);
          return static_cast<out_t>(sampling::bernoulli(g, pv));
        });
      });
    }
  });
}

void exponential_kernel(const Tensor& self, double lambd, Generator& g) {
  fill_floating(self, "exponential_", g, [&] { return sampling::exponential(g, lambd); });
}

void cauchy_kernel(const Tensor& self, double median, double sigma, Generator& g) {
  fill_floating(self, "cauchy_", g, [&] { return sampling::cauchy(g, median, sigma); });
}

void log_normal_kernel(const Tensor& self, double mean, double std, Generator& g) {
  fill_floating(self, "log_normal_", g, [&] { return sampling::log_normal(g, mean, std); });
}

void geometric_kernel(const Tensor& self, double p, Generator& g) {
  GeneratorLock lock(g);
  TZ_DISPATCH_REAL(self.dtype(), "geometric_", [&] {
    fill_serial<scalar_t>(self, [&] {
      return static_cast<scalar_t>(sampling::geometric(g, p));
    });
  });
}

}  // namespace tz
