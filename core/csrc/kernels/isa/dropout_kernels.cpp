// The dropout kernel (kernels/dropout.h): one pass that applies a drawn mask, its scale and
// (alpha dropout) its affine shift; the same kernel computes the gradient (plain, grad for x).
#include "kernels/dropout.h"
#include "kernels/loops.h"
#include "kernels/vec_math.h"

namespace tz {
namespace TZ_CPU_CAPABILITY {
namespace {

template <typename T>
void dropout_typed(const TensorIter& iter, const DropoutArgs& a) {
  const T scale = static_cast<T>(a.scale), shift = static_cast<T>(a.shift), fill = static_cast<T>(a.fill);
  if (a.affine()) {
    iter.for_each([&](char** data, const int64_t* strides, int64_t n) {
      binary_loop<T, T, bool>(data, strides, n, [=](T x, bool m) {
        return x * vm::select(m, scale, T(0)) + vm::select(m, shift, fill);
      });
    });
  } else {
    iter.for_each([&](char** data, const int64_t* strides, int64_t n) {
      binary_loop<T, T, bool>(data, strides, n, [=](T x, bool m) { return (x * static_cast<T>(m)) * scale; });
    });
  }
}

void dropout_kernel(const TensorIter& iter, DType dtype, const DropoutArgs& args) {
  if (dtype == DType::Float64) return dropout_typed<double>(iter, args);
  TZ_CHECK(dtype == DType::Float32, Runtime, "dropout kernel: expected a float32 or float64 compute dtype");
  dropout_typed<float>(iter, args);
}

}  // namespace
TZ_REGISTER_KERNEL(dropout_stub, &dropout_kernel);
}  // namespace TZ_CPU_CAPABILITY
}  // namespace tz
