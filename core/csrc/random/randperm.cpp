#include "random/randperm.h"

#include <limits>
#include <utility>

namespace tz {

namespace {

template <typename T, typename E>
void shuffle(T* r, int64_t stride, int64_t n, E& g) {
  if (n < static_cast<int64_t>(std::numeric_limits<uint32_t>::max() / 20)) {
    for (int64_t i = 0; i < n; ++i) r[i * stride] = static_cast<T>(i);
    for (int64_t i = 0; i + 1 < n; ++i) {
      int64_t z = static_cast<int64_t>(g.random() % static_cast<uint64_t>(n - i));
      std::swap(r[i * stride], r[(z + i) * stride]);
    }
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    int64_t z = static_cast<int64_t>(g.random64() % static_cast<uint64_t>(i + 1));
    r[i * stride] = r[z * stride];
    r[z * stride] = static_cast<T>(i);
  }
}

}  // namespace

void randperm_kernel(const Tensor& out, Generator& g) {
  GeneratorLock lock(g);
  const int64_t n = out.numel();
  const int64_t stride = out.dim() ? out.strides()[0] : 1;
  with_engine(g, [&](auto& eng) {
    TZ_DISPATCH_REAL(out.dtype(), "randperm", [&] { shuffle(out.data<scalar_t>(), stride, n, eng); });
  });
}

}  // namespace tz
