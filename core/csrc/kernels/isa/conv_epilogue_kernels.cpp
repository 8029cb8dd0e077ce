// The inference epilogue of _conv2d_fused (see conv_epilogue_stub in kernels/conv.h):
// y = act(y + residual) over a block of output the convolution has just written. Plain loops
// over lane-generic selects, which the compiler vectorises for each build (as the eager
// activation kernels are); the activations use the eager kernels' formulas, so a fused
// activation gives the bits of the separate one.
#include <cstdint>

#include "kernels/conv.h"
#include "kernels/vec_math.h"

namespace tz {
namespace TZ_CPU_CAPABILITY {
namespace {

// y and residual never overlap: the output is a fresh tensor.
template <typename T, typename F>
void map(T* __restrict y, const T* __restrict residual, int64_t n, F f) {
  if (residual)
    for (int64_t i = 0; i < n; ++i) y[i] = f(y[i] + residual[i]);
  else
    for (int64_t i = 0; i < n; ++i) y[i] = f(y[i]);
}

template <typename T> void epilogue(ConvAct act, T* y, const T* residual, int64_t n) {
  switch (act) {
    case ConvAct::None: return map(y, residual, n, [](T x) { return x; });
    case ConvAct::Relu: return map(y, residual, n, [](T x) { return vm::select(x <= T(0), T(0), x); });
    case ConvAct::Relu6: return map(y, residual, n, [](T x) { return vm::min(vm::max(x, T(0)), T(6)); });
    case ConvAct::Hardswish:
      return map(y, residual, n, [](T x) { return x * vm::min(vm::max(x + T(3), T(0)), T(6)) / T(6); });
    case ConvAct::Hardsigmoid:
      return map(y, residual, n, [](T x) { return vm::min(vm::max(x + T(3), T(0)), T(6)) / T(6); });
  }
}

void conv_epilogue(DType dtype, ConvAct act, void* y, const void* residual, int64_t n) {
  if (dtype == DType::Float64) epilogue(act, static_cast<double*>(y), static_cast<const double*>(residual), n);
  else epilogue(act, static_cast<float*>(y), static_cast<const float*>(residual), n);
}

}  // namespace
TZ_REGISTER_KERNEL(conv_epilogue_stub, &conv_epilogue);
}  // namespace TZ_CPU_CAPABILITY
}  // namespace tz
