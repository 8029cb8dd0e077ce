// The inference epilogue of _conv2d_fused (see conv_epilogue_stub in kernels/conv.h):
// y = act(y + bias + residual) over a block of output the convolution has just written, and
// the fused squeeze-excitation's channel scale (conv_channel_scale_stub). Plain loops
// over lane-generic selects, which the compiler vectorises for each build (as the eager
// activation kernels are), on the activations of conv_activation.h.
#include <cstdint>

#include "kernels/conv.h"
#include "kernels/isa/conv_activation.h"

namespace tz {
namespace TZ_CPU_CAPABILITY {
namespace {

// y and residual never overlap: the output is a fresh tensor. With a bias, y is rows of
// `channels` elements and bias[c] joins element c of each row first.
template <typename T, typename F>
void map(T* __restrict y, const T* __restrict bias, int64_t channels, const T* __restrict residual, int64_t n, F f) {
  if (bias) {
    for (int64_t r = 0; r < n; r += channels, y += channels) {
      if (residual) {
        for (int64_t c = 0; c < channels; ++c) y[c] = f(y[c] + bias[c] + residual[c]);
        residual += channels;
      } else {
        for (int64_t c = 0; c < channels; ++c) y[c] = f(y[c] + bias[c]);
      }
    }
  } else if (residual) {
    for (int64_t i = 0; i < n; ++i) y[i] = f(y[i] + residual[i]);
  } else {
    for (int64_t i = 0; i < n; ++i) y[i] = f(y[i]);
  }
}

template <typename T>
void epilogue(ConvAct act, T* y, const T* bias, int64_t channels, const T* residual, int64_t n) {
  switch (act) {
    case ConvAct::None: return map(y, bias, channels, residual, n, conv_activate<ConvAct::None, T>);
    case ConvAct::Relu: return map(y, bias, channels, residual, n, conv_activate<ConvAct::Relu, T>);
    case ConvAct::Relu6: return map(y, bias, channels, residual, n, conv_activate<ConvAct::Relu6, T>);
    case ConvAct::Hardswish: return map(y, bias, channels, residual, n, conv_activate<ConvAct::Hardswish, T>);
    case ConvAct::Hardsigmoid: return map(y, bias, channels, residual, n, conv_activate<ConvAct::Hardsigmoid, T>);
  }
}

void conv_epilogue(DType dtype, ConvAct act, void* y, const void* bias, int64_t channels, const void* residual,
                   int64_t n) {
  if (dtype == DType::Float64)
    epilogue(act, static_cast<double*>(y), static_cast<const double*>(bias), channels,
             static_cast<const double*>(residual), n);
  else
    epilogue(act, static_cast<float*>(y), static_cast<const float*>(bias), channels, static_cast<const float*>(residual),
             n);
}

template <typename T> void scale_channels(T* __restrict x, const T* __restrict scale, int64_t pixels, int64_t channels) {
  for (int64_t p = 0; p < pixels; ++p, x += channels)
    for (int64_t c = 0; c < channels; ++c) x[c] *= scale[c];
}

void channel_scale(DType dtype, void* x, const void* scale, int64_t pixels, int64_t channels) {
  if (dtype == DType::Float64)
    scale_channels(static_cast<double*>(x), static_cast<const double*>(scale), pixels, channels);
  else
    scale_channels(static_cast<float*>(x), static_cast<const float*>(scale), pixels, channels);
}

}  // namespace
TZ_REGISTER_KERNEL(conv_epilogue_stub, &conv_epilogue);
TZ_REGISTER_KERNEL(conv_channel_scale_stub, &channel_scale);
}  // namespace TZ_CPU_CAPABILITY
}  // namespace tz
