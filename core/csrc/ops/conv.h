// Convolutions (1-d and 2-d, regular and transposed), their weight gradient, and
// im2col / col2im (F.unfold / F.fold). 1-d runs as 2-d with H = 1. Channels-last inputs
// (or weights) take the NHWC kernels and give a channels-last result, like PyTorch.
#pragma once
#include <string>

#include "kernels/conv.h"
#include "ops/value.h"
#include "tensor/tensor.h"

namespace tz {

// input (N, C, *spatial) or unbatched (C, *spatial); weight (O, C / groups, *kernel), or
// (C, O / groups, *kernel) when transposed; bias (O) or undefined. The number of spatial
// dims comes from the weight. `op` names the caller in messages and shape checks
// ("conv2d" expects 2 spatial dims; "_convolution" takes 1 or 2).
// What an inference call (_conv2d_fused) adds to a regular convolution: an epilogue
// y = act(conv(x, w) + bias + residual), applied to each block of output while the kernel that
// wrote it still has it in cache (ConvAct: kernels/conv.h); and optionally the weight already
// transformed for Winograd (conv_winograd_pack), which the convolution then runs on.
// "none", "relu", "relu6", "hardswish" or "hardsigmoid"; `op` names the caller in the error.
ConvAct conv_act_from_name(const std::string& name, const char* op);
struct ConvInference {
  ConvAct act = ConvAct::None;
  Tensor residual;         // undefined, or the output's shape
  Tensor winograd_weight;  // undefined, or conv_winograd_pack(weight)
};

// A regular convolution's padded input and dilated kernel extent along each spatial dim
// (overflow checked, `op` naming the caller), and its output sizes where every kernel fits
// in its padded input (`fits`; sizes 0 where it does not).
struct ConvExtents {
  IntList padded, extent, out;
  bool fits = true;
};
ConvExtents conv_extents(const IntList& in, const IntList& kernel, const IntList& stride, const IntList& padding,
                         const IntList& dilation, const char* op);

Tensor convolution(const Tensor& input, const Tensor& weight, const Tensor& bias, const IntList& stride,
                   const IntList& padding, const IntList& dilation, bool transposed,
                   const IntList& output_padding, int64_t groups, const char* op,
                   const ConvInference* inference = nullptr);

// A depthwise weight (C * mult, 1, KH, KW) as the NHWC kernels read it: (mult, KH, KW, C)
// (a bias goes with it as (mult, C)); a view where its memory is in that order already.
Tensor dw_weight_nhwc(const Tensor& weight, int64_t C);

// Gradient of the weight of the regular convolution of `input` giving `grad_output`
// (a transposed convolution's weight gradient is this with the roles swapped).
Tensor conv_backward_weight(const Tensor& input, const Tensor& grad_output, const IntList& weight_size,
                            const IntList& stride, const IntList& padding, const IntList& dilation,
                            int64_t groups);

// F.unfold: (N, C, H, W) or (C, H, W) -> (N, C*KH*KW, L); F.fold: the adjoint.
Tensor im2col(const Tensor& input, const IntList& kernel_size, const IntList& dilation,
              const IntList& padding, const IntList& stride);
Tensor col2im(const Tensor& input, const IntList& output_size, const IntList& kernel_size,
              const IntList& dilation, const IntList& padding, const IntList& stride);

}  // namespace tz
