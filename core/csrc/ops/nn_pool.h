// torch.nn.functional pooling, resampling and sparse ops (the nn-pool family): front-ends
// that check arguments like PyTorch 1.8, pick the NCHW or NHWC (channels-last) path and run
// the kernels of kernels/nn_pool.h. Channels-last inputs give channels-last outputs.
#pragma once
#include <optional>
#include <string>
#include <tuple>

#include "ops/value.h"

namespace tz {

// ---- nn_pool.cpp (2-d ops take (C, H, W) or (N, C, H, W); 1-d ops (C, L) or (N, C, L))
// Values and flat h * W + w indices of the maxima.
std::tuple<Tensor, Tensor> max_pool2d_with_indices(const Tensor& self, const IntList& kernel, const IntList& stride,
                                                   const IntList& padding, const IntList& dilation, bool ceil_mode);
Tensor max_pool2d(const Tensor& self, const IntList& kernel, const IntList& stride, const IntList& padding,
                  const IntList& dilation, bool ceil_mode);
std::tuple<Tensor, Tensor> max_pool1d_with_indices(const Tensor& self, const IntList& kernel, const IntList& stride,
                                                   const IntList& padding, const IntList& dilation, bool ceil_mode);
Tensor avg_pool2d(const Tensor& self, const IntList& kernel, const IntList& stride, const IntList& padding,
                  bool ceil_mode, bool count_include_pad, std::optional<int64_t> divisor_override);
// The input gradient of avg_pool2d for an input of size input_size.
Tensor avg_pool2d_backward(const Tensor& grad, const IntList& input_size, const IntList& kernel, const IntList& stride,
                           const IntList& padding, bool ceil_mode, bool count_include_pad,
                           std::optional<int64_t> divisor_override);
Tensor adaptive_avg_pool2d(const Tensor& self, const IntList& output_size);
Tensor adaptive_avg_pool2d_backward(const Tensor& grad, const IntList& input_size);
std::tuple<Tensor, Tensor> adaptive_max_pool2d(const Tensor& self, const IntList& output_size);
// Scatters `self` into zeros of spatial size output_size (N, C, oH, oW) at `indices`
// (flat per plane): max_unpool2d assigns, max pool's backward accumulates.
Tensor max_unpool2d(const Tensor& self, const Tensor& indices, const IntList& output_size);
Tensor max_pool_backward(const Tensor& grad, const Tensor& indices, const IntList& input_size);

// ---- nn_sampling.cpp
enum class InterpMode { Nearest, Linear, Cubic };
InterpMode interp_mode(const std::string& name);
// upsample_{nearest,linear,bicubic}{1d,2d}: 3-d input for 1 spatial size, 4-d for 2.
Tensor upsample(const Tensor& self, const IntList& output_size, InterpMode mode, bool align_corners,
                std::optional<double> scale_h, std::optional<double> scale_w, const char* op);
Tensor upsample_backward(const Tensor& grad, const IntList& input_size, InterpMode mode, bool align_corners,
                         std::optional<double> scale_h, std::optional<double> scale_w);
// interpolation 0 bilinear, 1 nearest, 2 bicubic; padding 0 zeros, 1 border, 2 reflection.
Tensor grid_sampler_2d(const Tensor& input, const Tensor& grid, int64_t interpolation, int64_t padding,
                       bool align_corners);
std::tuple<Tensor, Tensor> grid_sampler_2d_backward(const Tensor& grad, const Tensor& input, const Tensor& grid,
                                                    int64_t interpolation, int64_t padding, bool align_corners,
                                                    bool input_grad, bool grid_grad);
// The (1, H*W, 3) (or (1, D*H*W, 4)) base grid of affine_grid for size (N, C, [D,] H, W).
Tensor affine_grid_base(const IntList& size, bool align_corners, DType dtype);
Tensor affine_grid_generator(const Tensor& theta, const IntList& size, bool align_corners);
Tensor pixel_shuffle(const Tensor& self, int64_t upscale_factor);
Tensor pixel_unshuffle(const Tensor& self, int64_t downscale_factor);

// ---- nn_sparse.cpp
Tensor embedding(const Tensor& weight, const Tensor& indices, int64_t padding_idx);
Tensor embedding_dense_backward(const Tensor& grad, const Tensor& indices, int64_t num_weights, int64_t padding_idx,
                                bool scale_grad_by_freq);
const Tensor& embedding_renorm_(const Tensor& weight, const Tensor& indices, double max_norm, double norm_type);
// mode 0 sum, 1 mean, 2 max. Returns (output, offset2bag, bag_size, max_indices).
std::tuple<Tensor, Tensor, Tensor, Tensor> embedding_bag(const Tensor& weight, const Tensor& indices,
                                                         const Tensor& offsets, int64_t mode,
                                                         const Tensor& per_sample_weights, bool include_last_offset,
                                                         int64_t padding_idx);
// Per index position: the factor its row's gradient gets from the bag's output gradient
// (0 outside bags and at padding_idx; 1/bag size for mean; 1/frequency if scale_grad_by_freq).
Tensor embedding_bag_position_scale(const Tensor& indices, const Tensor& offsets, bool include_last_offset,
                                    int64_t mode, int64_t padding_idx, bool scale_grad_by_freq, int64_t num_weights,
                                    DType dtype);
Tensor one_hot(const Tensor& self, int64_t num_classes);

}  // namespace tz
