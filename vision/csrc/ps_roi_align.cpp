// Position-sensitive RoIAlign (R-FCN), torchvision's CPU semantics: bin (ph, pw) of output
// channel c averages bilinear samples of input channel (c * PH + ph) * PW + pw; boxes always
// shift by half a pixel and are not forced to 1x1.
#include <cmath>

#include "iter/thread_pool.h"
#include "ops.h"
#include "ops/conversion.h"
#include "ops/creation.h"
#include "roi_common.h"

namespace tz::vision {
namespace {

// One box's bin size, origin and sampling grid.
template <typename T>
struct PsBox {
  int64_t batch, grid_h, grid_w;
  T start_h, start_w, bin_h, bin_w, count;

  PsBox(const T* roi, T scale, int64_t PH, int64_t PW, int64_t sampling_ratio) {
    batch = static_cast<int64_t>(roi[0]);
    start_w = roi[1] * scale - T(0.5), start_h = roi[2] * scale - T(0.5);
    const T roi_w = (roi[3] * scale - T(0.5)) - start_w, roi_h = (roi[4] * scale - T(0.5)) - start_h;
    bin_h = roi_h / static_cast<T>(PH), bin_w = roi_w / static_cast<T>(PW);
    grid_h = sampling_ratio > 0 ? sampling_ratio : static_cast<int64_t>(std::ceil(roi_h / PH));
    grid_w = sampling_ratio > 0 ? sampling_ratio : static_cast<int64_t>(std::ceil(roi_w / PW));
    count = static_cast<T>(grid_h * grid_w);  // may be 0 for empty boxes: 0/0 as torchvision
  }

  // Calls fn(tap) for every sample of bin (ph, pw).
  template <typename Fn>
  void for_each_tap(int64_t ph, int64_t pw, int64_t H, int64_t W, Fn&& fn) const {
    const T h0 = static_cast<T>(ph) * bin_h + start_h, w0 = static_cast<T>(pw) * bin_w + start_w;
    for (int64_t iy = 0; iy < grid_h; ++iy) {
      const T y = h0 + static_cast<T>(iy + .5f) * bin_h / static_cast<T>(grid_h);
      for (int64_t ix = 0; ix < grid_w; ++ix) {
        const T x = w0 + static_cast<T>(ix + .5f) * bin_w / static_cast<T>(grid_w);
        fn(bilinear_tap(y, x, H, W));
      }
    }
  }
};

template <typename T>
void forward(const RoiArgs& a, T scale, int64_t PH, int64_t PW, int64_t sampling_ratio, Tensor& out) {
  const int64_t C = a.C, H = a.H, W = a.W, C_out = C / (PH * PW);
  const T* in = a.input.data<T>();
  const T* rois = a.rois.data<T>();
  T* o = out.data<T>();
  parallel_for(0, a.K, 1, [&](int64_t k0, int64_t k1) {
    for (int64_t k = k0; k < k1; ++k) {
      const PsBox<T> b(rois + k * 5, scale, PH, PW, sampling_ratio);
      for (int64_t c_in = 0; c_in < C_out * PH * PW; ++c_in) {
        const int64_t pw = c_in % PW, ph = (c_in / PW) % PH;
        const T* plane = in + (b.batch * C + c_in) * H * W;
        T sum = 0;
        b.for_each_tap(ph, pw, H, W, [&](const Tap<T>& t) {
          sum += t.w[0] * plane[t.pos[0]] + t.w[1] * plane[t.pos[1]] + t.w[2] * plane[t.pos[2]] +
                 t.w[3] * plane[t.pos[3]];
        });
        o[k * C_out * PH * PW + c_in] = sum / b.count;  // output (k, c_out, ph, pw) is flat index c_in
      }
    }
  });
}

template <typename T>
void backward(const Tensor& grad, const Tensor& rois, T scale, int64_t PH, int64_t PW, int64_t sampling_ratio,
              int64_t H, int64_t W, Tensor& grad_input) {
  const int64_t K = rois.sizes()[0], C = grad_input.sizes()[1];
  const T* go = grad.data<T>();
  const T* r = rois.data<T>();
  T* gi = grad_input.data<T>();
  parallel_for(0, C, 1, [&](int64_t c0, int64_t c1) {
    for (int64_t k = 0; k < K; ++k) {
      const PsBox<T> b(r + k * 5, scale, PH, PW, sampling_ratio);
      for (int64_t c_in = c0; c_in < c1; ++c_in) {
        const int64_t pw = c_in % PW, ph = (c_in / PW) % PH;
        const T g = go[k * C + c_in];
        T* plane = gi + (b.batch * C + c_in) * H * W;
        b.for_each_tap(ph, pw, H, W, [&](const Tap<T>& t) {
          if (!t.inside) return;
          for (int j = 0; j < 4; ++j) plane[t.pos[j]] += g * t.w[j] / b.count;
        });
      }
    }
  });
}


}  // namespace

Tensor ps_roi_align(const Tensor& input, const Tensor& rois, double spatial_scale, int64_t pooled_height,
                    int64_t pooled_width, int64_t sampling_ratio) {
  RoiArgs a = check_roi_args("ps_roi_align", input, rois, pooled_height, pooled_width);
  check_ps_channels("ps_roi_align", a.C, pooled_height, pooled_width);
  Tensor out = zeros({a.K, a.C / (pooled_height * pooled_width), pooled_height, pooled_width}, input.dtype());
  if (out.numel() == 0 || a.H == 0 || a.W == 0) return out;
  a.input = contiguous(input);
  dispatch_float(input.dtype(), "ps_roi_align", [&](auto t) {
    using T = decltype(t);
    forward<T>(a, static_cast<T>(spatial_scale), pooled_height, pooled_width, sampling_ratio, out);
  });
  return out;
}

Tensor ps_roi_align_backward(const Tensor& grad, const Tensor& rois, double spatial_scale, int64_t pooled_height,
                             int64_t pooled_width, int64_t sampling_ratio, int64_t batch_size, int64_t channels,
                             int64_t height, int64_t width) {
  const char* op = "_ps_roi_align_backward";
  check_ps_channels(op, channels, pooled_height, pooled_width);
  const Tensor r = check_roi_grad(op, grad, rois, channels / (pooled_height * pooled_width), pooled_height,
                                  pooled_width, batch_size);
  Tensor grad_input = zeros({batch_size, channels, height, width}, grad.dtype());
  if (grad.numel() == 0 || height == 0 || width == 0) return grad_input;
  const Tensor go = contiguous(grad);
  dispatch_float(grad.dtype(), op, [&](auto t) {
    using T = decltype(t);
    backward<T>(go, r, static_cast<T>(spatial_scale), pooled_height, pooled_width, sampling_ratio, height, width,
                grad_input);
  });
  return grad_input;
}

}  // namespace tz::vision
