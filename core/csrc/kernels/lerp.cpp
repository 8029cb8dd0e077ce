#include "kernels/lerp.h"

#include <cmath>
#include <complex>

#include "kernels/loops.h"

namespace tz {
namespace {

// Two-sided so that w = 0 gives a and w = 1 gives b exactly (PyTorch's formula).
template <typename T>
void lerp_typed(const TensorIter& iter) {
  iter.for_each([](char** data, const int64_t* strides, int64_t n) {
    ternary_loop<T, T, T, T>(data, strides, n, [](T a, T b, T w) {
      return std::abs(w) < 0.5f ? T(a + w * (b - a)) : T(b - (b - a) * (T(1) - w));
    });
  });
}

}  // namespace

void lerp_kernel(const TensorIter& iter, DType dtype) {
  switch (dtype) {
    case DType::Float32: return lerp_typed<float>(iter);
    case DType::Float64: return lerp_typed<double>(iter);
    case DType::Complex64: return lerp_typed<complex64>(iter);
    default: fail(ErrorKind::NotImplemented, "lerp(): not implemented for dtype ", dtype_name(dtype));
  }
}

}  // namespace tz
