// vision's C++ kernels (torchvision 0.9's ops, CPU): front-ends with argument checks.
// Each is an op of the core op table (op_table.cpp), so calls are recorded by autograd.
#pragma once
#include <tuple>

#include "tensor/tensor.h"

namespace tz::vision {

// Indices of the boxes [N, 4] kept by non-maximum suppression, by decreasing score.
Tensor nms(const Tensor& boxes, const Tensor& scores, double iou_threshold);

// rois: [K, 5] rows (batch index, x1, y1, x2, y2) in input coordinates / spatial_scale.
Tensor roi_align(const Tensor& input, const Tensor& rois, double spatial_scale, int64_t pooled_height,
                 int64_t pooled_width, int64_t sampling_ratio, bool aligned);
Tensor roi_align_backward(const Tensor& grad, const Tensor& rois, double spatial_scale, int64_t pooled_height,
                          int64_t pooled_width, int64_t batch_size, int64_t channels, int64_t height, int64_t width,
                          int64_t sampling_ratio, bool aligned);

// (output, argmax): argmax is the flat h*W+w position of each maximum in its plane, -1 for empty bins.
std::tuple<Tensor, Tensor> roi_pool(const Tensor& input, const Tensor& rois, double spatial_scale,
                                    int64_t pooled_height, int64_t pooled_width);
Tensor roi_pool_backward(const Tensor& grad, const Tensor& rois, const Tensor& argmax, int64_t batch_size,
                         int64_t channels, int64_t height, int64_t width);

// Position-sensitive variants: input channel (c * pooled_height + ph) * pooled_width + pw feeds
// output channel c at bin (ph, pw).
Tensor ps_roi_align(const Tensor& input, const Tensor& rois, double spatial_scale, int64_t pooled_height,
                    int64_t pooled_width, int64_t sampling_ratio);
Tensor ps_roi_align_backward(const Tensor& grad, const Tensor& rois, double spatial_scale, int64_t pooled_height,
                             int64_t pooled_width, int64_t sampling_ratio, int64_t batch_size, int64_t channels,
                             int64_t height, int64_t width);
Tensor ps_roi_pool(const Tensor& input, const Tensor& rois, double spatial_scale, int64_t pooled_height,
                   int64_t pooled_width);
Tensor ps_roi_pool_backward(const Tensor& grad, const Tensor& rois, double spatial_scale, int64_t pooled_height,
                            int64_t pooled_width, int64_t batch_size, int64_t channels, int64_t height,
                            int64_t width);

// Deformable convolution v2 (modulated when mask is defined). offset: [B, 2*G*kh*kw, oH, oW] as
// (dy, dx) pairs per kernel tap and offset group G; mask: [B, G*kh*kw, oH, oW].
struct DeformConvParams {
  int64_t stride_h, stride_w, pad_h, pad_w, dilation_h, dilation_w, groups, offset_groups;
};
Tensor deform_conv2d(const Tensor& input, const Tensor& weight, const Tensor& offset, const Tensor& mask,
                     const Tensor& bias, const DeformConvParams& p);
// Gradients (input, weight, offset, mask, bias); undefined where the input was undefined.
std::tuple<Tensor, Tensor, Tensor, Tensor, Tensor> deform_conv2d_backward(
    const Tensor& grad, const Tensor& input, const Tensor& weight, const Tensor& offset, const Tensor& mask,
    const Tensor& bias, const DeformConvParams& p);

}  // namespace tz::vision
