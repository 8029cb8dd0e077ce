// Kernels of the pooling and resampling ops (ops/nn_pool.cpp, ops/nn_sampling.cpp).
// Data is a contiguous (P, H, W, L) block: NCHW planes (P = N*C, L = 1) or NHWC images
// (P = N, L = C, channels in the vector lanes). 1-d ops run as H = 1.
#pragma once
#include <cstdint>

#include "kernels/dispatch.h"
#include "tensor/dtype.h"

namespace tz {

struct PoolGeom {
  int64_t P, H, W, L, oH, oW;
  // Elements from one input pixel to the next, for L channels of wider NHWC pixels (0: L). The
  // forward average kernel only: a squeeze-excitation's channel groups pool their own channels.
  int64_t stride = 0;
};

// Windows along one axis: output o reads start[o], start[o] + step, ... below end[o] (empty
// where padding and dilation leave no position: a max over it is -inf, as PyTorch's); div[o]
// is that axis' factor of the averaging divisor.
struct PoolWindows {
  const int64_t* start;
  const int64_t* end;
  int64_t step;
  const double* div;  // averaging only
};

// Separable interpolation: along an axis, output o is sum_k weight[o*taps+k] * x[index[o*taps+k]]
// (weights in the compute type: float for float32, double for float64).
struct InterpTaps {
  int taps;
  const int64_t* index;
  const void* weight;
};

// Max over each window; idx (may be null) receives h * W + w of the max (NaN wins, like PyTorch).
// Real dtypes but the half types.
using MaxPoolFn = void (*)(DType dtype, const void* x, void* out, int64_t* idx, const PoolGeom& g,
                           const PoolWindows& h, const PoolWindows& w);
// Sum of each window divided by div_h[oh] * div_w[ow]. Float32, Float64, Int64 (truncating).
using AvgPoolFn = void (*)(DType dtype, const void* x, void* out, const PoolGeom& g, const PoolWindows& h,
                           const PoolWindows& w);
// gin (zeroed, (P, H, W, L)) += each gout element / divisor over its window. Float32, Float64.
using AvgPoolBackwardFn = void (*)(DType dtype, const void* gout, void* gin, const PoolGeom& g,
                                   const PoolWindows& h, const PoolWindows& w);
// out = separable interpolation of x. Float32, Float64.
using InterpFn = void (*)(DType dtype, const void* x, void* out, const PoolGeom& g, const InterpTaps& h,
                          const InterpTaps& w);
// gin (zeroed) += the adjoint of InterpFn applied to gout. Float32, Float64.
using InterpBackwardFn = void (*)(DType dtype, const void* gout, void* gin, const PoolGeom& g,
                                  const InterpTaps& h, const InterpTaps& w);
// Nearest neighbour (one tap, weight 1): moves elements of `itemsize` bytes, any dtype.
using NearestFn = void (*)(int64_t itemsize, const void* x, void* out, const PoolGeom& g,
                           const int64_t* h_index, const int64_t* w_index);

extern DispatchStub<MaxPoolFn> max_pool_stub;
extern DispatchStub<AvgPoolFn> avg_pool_stub;
extern DispatchStub<AvgPoolBackwardFn> avg_pool_backward_stub;
extern DispatchStub<InterpFn> interp_stub;
extern DispatchStub<InterpBackwardFn> interp_backward_stub;
extern DispatchStub<NearestFn> nearest_stub;

}  // namespace tz
