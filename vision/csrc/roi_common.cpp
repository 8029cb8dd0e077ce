#include "roi_common.h"

#include "ops/conversion.h"

namespace tz::vision {

namespace {

void check_rois(const char* op, const Tensor& rois, DType dtype) {
  TZ_CHECK(rois.dim() == 2 && rois.sizes()[1] == 5, Runtime, op, "(): Tensor rois should have shape as Tensor[K, 5], "
           "got ", shape_str(rois.sizes()));
  TZ_CHECK(rois.dtype() == dtype, Runtime, op, "(): expected rois to have the same dtype as the input (",
           scalar_type_name(dtype), "), got ", scalar_type_name(rois.dtype()));
}

template <typename T>
void check_batch_indices(const char* op, const Tensor& rois, int64_t batch) {
  const T* r = rois.data<T>();
  for (int64_t k = 0; k < rois.sizes()[0]; ++k) {
    const T b = r[k * 5];
    TZ_CHECK(b >= 0 && b < T(batch), Index, op, "(): box ", k, " has batch index ", b,
             ", out of range for an input batch of ", batch);
  }
}

}  // namespace

RoiArgs check_roi_args(const char* op, const Tensor& input, const Tensor& rois, int64_t pooled_height,
                       int64_t pooled_width) {
  TZ_CHECK(input.dim() == 4, Runtime, op, "(): expected input of shape [N, C, H, W], got ", shape_str(input.sizes()));
  dispatch_float(input.dtype(), op, [](auto) {});
  check_rois(op, rois, input.dtype());
  TZ_CHECK(pooled_height > 0 && pooled_width > 0, Runtime, op, "(): output_size must be positive, got (",
           pooled_height, ", ", pooled_width, ")");
  RoiArgs a{input, contiguous(rois), input.sizes()[0], input.sizes()[1], input.sizes()[2], input.sizes()[3],
            rois.sizes()[0]};
  dispatch_float(input.dtype(), op, [&](auto t) { check_batch_indices<decltype(t)>(op, a.rois, a.N); });
  return a;
}

Tensor check_roi_grad(const char* op, const Tensor& grad, const Tensor& rois, int64_t channels_out,
                      int64_t pooled_height, int64_t pooled_width, int64_t batch_size) {
  dispatch_float(grad.dtype(), op, [](auto) {});
  check_rois(op, rois, grad.dtype());
  const Shape expected{rois.sizes()[0], channels_out, pooled_height, pooled_width};
  TZ_CHECK(grad.sizes() == expected, Runtime, op, "(): expected grad of shape ", shape_str(expected), ", got ",
           shape_str(grad.sizes()));
  Tensor r = contiguous(rois);
  dispatch_float(grad.dtype(), op, [&](auto t) { check_batch_indices<decltype(t)>(op, r, batch_size); });
  return r;
}

void check_ps_channels(const char* op, int64_t channels, int64_t pooled_height, int64_t pooled_width) {
  TZ_CHECK(channels % (pooled_height * pooled_width) == 0, Runtime, op, "(): input channels must be a multiple of "
           "pooling height * pooling width, got ", channels, " channels for ", pooled_height, "x", pooled_width, " bins");
}

}  // namespace tz::vision
