// Memory-format helpers of the nn-pool family (see ops/nn_pool.h).
#include "ops/conversion.h"
#include "ops/nn_pool.h"
#include "ops/views.h"

namespace tz::nn {

bool is_channels_last(const Tensor& t) {
  // PyTorch's is_channels_last_strides_2d: strides decrease along C, W, H, N; ambiguous
  // cases (size-1 dims) fall back to the contiguous format.
  if (t.dim() != 4 || t.is_contiguous()) return false;
  const Shape &sizes = t.sizes(), &strides = t.strides();
  if (strides[1] == 0) return false;
  int64_t min = 0;
  for (int d : {1, 3, 2, 0}) {
    if (sizes[d] == 0 || strides[d] < min) return false;
    if (d == 0 && min == strides[1]) return false;
    min = strides[d];
    if (sizes[d] > 1) min *= sizes[d];
  }
  return true;
}

Tensor empty_channels_last(const Shape& nchw, DType dtype) {
  return permute(Tensor::empty({nchw[0], nchw[2], nchw[3], nchw[1]}, dtype), {0, 3, 1, 2});
}

Tensor to_channels_last(const Tensor& t) {
  Tensor nhwc = permute(t, {0, 2, 3, 1});
  if (nhwc.is_contiguous()) return t;
  Tensor out = empty_channels_last(t.sizes(), t.dtype());
  copy_(out, t);
  return out;
}

Tensor match_layout(const Tensor& t, const Tensor& like) {
  if (is_channels_last(like)) return t.dim() == 4 && !is_channels_last(t) ? to_channels_last(t) : t;
  return is_channels_last(t) ? contiguous(t) : t;
}

}  // namespace tz::nn
