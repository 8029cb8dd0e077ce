// Shared plumbing of the nn-pool family's front-ends (nn_pool.cpp, nn_sampling.cpp): the
// (P, H, W, L) block a kernel runs on, in the compute dtype, and outputs shaped like the input.
#pragma once
#include "kernels/nn_pool.h"
#include "ops/nn_pool.h"
#include "ops/promotion.h"

namespace tz::nn {


struct Spatial {
  Tensor data;  // contiguous NCHW, or NHWC-contiguous when channels_last; compute dtype
  DType dtype;  // the input's dtype
  bool channels_last = false, batched = true;
  int64_t N = 1, C = 1, H = 1, W = 1;

  PoolGeom geom(int64_t oH, int64_t oW) const {
    return channels_last ? PoolGeom{N, H, W, C, oH, oW} : PoolGeom{N * C, H, W, 1, oH, oW};
  }
  // An uninitialised output of spatial size (oH, oW) in the input's layout.
  Tensor empty(int64_t oH, int64_t oW, DType d) const;
  Tensor zeros(int64_t oH, int64_t oW, DType d) const;
  // `out` (compute dtype) converted back to the input's dtype, keeping the layout.
  Tensor finish(const Tensor& out) const;
};

// A 3-d (C, H, W) or 4-d (N, C, H, W) tensor as a kernel block; `compute` overrides the dtype.
Spatial spatial_of(const Tensor& t, DType compute);
// The input shape checks shared by pooling ops: 3-d or 4-d with non-empty C, H, W.
void check_spatial_input(const Tensor& t, const char* op);

}  // namespace tz::nn
