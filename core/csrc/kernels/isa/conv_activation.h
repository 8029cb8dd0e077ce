// The activations of _conv2d_fused's epilogue on a scalar or a vector (lane-generic), shared
// by the elementwise epilogue (conv_epilogue_kernels.cpp) and the tile kernel's register
// store (conv_tile_kernels.cpp), so both paths give the same bits. The eager activation
// kernels' formulas, except that hardswish/hardsigmoid multiply by 1/6 where eager divides by
// 6 (agreeing to about an ulp): a vector division costs more than the GEMM block it follows
// at small K.
#pragma once
#include <type_traits>

#include "kernels/conv.h"
#include "kernels/vec_math.h"

namespace tz::TZ_CPU_CAPABILITY {

// min(max(x + 3, 0), 6): six times hardsigmoid.
template <typename X> TZ_VINLINE X hard_sigmoid_six(X x) {
  return vm::min(vm::max(x + vm::constant<X>(3), vm::constant<X>(0)), vm::constant<X>(6));
}

// x: a T or a vector of T.
template <ConvAct A, typename X> TZ_VINLINE X conv_activate(X x) {
  using vm::constant;
  if constexpr (A == ConvAct::Relu) return vm::select(x <= constant<X>(0), constant<X>(0), x);
  else if constexpr (A == ConvAct::Relu6) return vm::min(vm::max(x, constant<X>(0)), constant<X>(6));
  else if constexpr (A == ConvAct::Hardswish) return x * hard_sigmoid_six(x) * constant<X>(1.0 / 6.0);
  else if constexpr (A == ConvAct::Hardsigmoid) return hard_sigmoid_six(x) * constant<X>(1.0 / 6.0);
  else return x;
}

// Calls fn(std::integral_constant<ConvAct, A>{}) for the run-time act: kernels take the
// activation as a template parameter, so no switch runs per stored vector.
template <typename Fn> TZ_VINLINE void with_conv_act(ConvAct act, Fn&& fn) {
  switch (act) {
    case ConvAct::None: return fn(std::integral_constant<ConvAct, ConvAct::None>{});
    case ConvAct::Relu: return fn(std::integral_constant<ConvAct, ConvAct::Relu>{});
    case ConvAct::Relu6: return fn(std::integral_constant<ConvAct, ConvAct::Relu6>{});
    case ConvAct::Hardswish: return fn(std::integral_constant<ConvAct, ConvAct::Hardswish>{});
    case ConvAct::Hardsigmoid: return fn(std::integral_constant<ConvAct, ConvAct::Hardsigmoid>{});
  }
}

}  // namespace tz::TZ_CPU_CAPABILITY
