// Shared pieces of the RoI kernels: argument checks, dtype dispatch and the bilinear tap of
// torchvision's RoIAlign (a sample outside [-1, size] contributes nothing; inside, it is
// clamped to the border pixels).
#pragma once
#include <cstdint>

#include "tensor/errors.h"
#include "tensor/tensor.h"

namespace tz::vision {

// Checks input [N, C, H, W] (float32/64) and rois [K, 5] of the same dtype, with every batch
// index in [0, N); returns both contiguous.
struct RoiArgs {
  Tensor input, rois;
  int64_t N, C, H, W, K;
};
RoiArgs check_roi_args(const char* op, const Tensor& input, const Tensor& rois, int64_t pooled_height,
                       int64_t pooled_width);
// Checks a backward call's grad [K, C', PH, PW] against its rois and the input batch;
// returns the rois contiguous.
Tensor check_roi_grad(const char* op, const Tensor& grad, const Tensor& rois, int64_t channels_out,
                      int64_t pooled_height, int64_t pooled_width, int64_t batch_size);

// The position-sensitive ops need C to be a multiple of PH * PW.
void check_ps_channels(const char* op, int64_t channels, int64_t pooled_height, int64_t pooled_width);

// The four pixels around (y, x) and their weights; all weights 0 when the point lies outside.
template <typename T>
struct Tap {
  int64_t pos[4] = {0, 0, 0, 0};  // y * W + x of the (low, low), (low, high), (high, low), (high, high) pixels
  T w[4] = {0, 0, 0, 0};
  bool inside = false;
};

template <typename T>
Tap<T> bilinear_tap(T y, T x, int64_t height, int64_t width) {
  Tap<T> t;
  // !(in range) rather than (out of range): NaN coordinates take this branch too
  if (!(y >= T(-1) && y <= T(height) && x >= T(-1) && x <= T(width))) return t;
  if (y <= 0) y = 0;
  if (x <= 0) x = 0;
  int64_t y_low = static_cast<int64_t>(y), x_low = static_cast<int64_t>(x), y_high, x_high;
  if (y_low >= height - 1) {
    y_high = y_low = height - 1;
    y = static_cast<T>(y_low);
  } else {
    y_high = y_low + 1;
  }
  if (x_low >= width - 1) {
    x_high = x_low = width - 1;
    x = static_cast<T>(x_low);
  } else {
    x_high = x_low + 1;
  }
  const T ly = y - y_low, lx = x - x_low, hy = T(1) - ly, hx = T(1) - lx;
  t.pos[0] = y_low * width + x_low, t.pos[1] = y_low * width + x_high;
  t.pos[2] = y_high * width + x_low, t.pos[3] = y_high * width + x_high;
  t.w[0] = hy * hx, t.w[1] = hy * lx, t.w[2] = ly * hx, t.w[3] = ly * lx;
  t.inside = true;
  return t;
}

// Calls fn(T{}) for float32 or float64 inputs.
template <typename Fn>
void dispatch_float(DType d, const char* op, Fn&& fn) {
  if (d == DType::Float32) return fn(float{});
  if (d == DType::Float64) return fn(double{});
  fail(ErrorKind::Runtime, op, "(): expected a float32 or float64 tensor, got ", scalar_type_name(d));
}

}  // namespace tz::vision
