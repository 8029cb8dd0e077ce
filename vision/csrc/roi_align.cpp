// RoIAlign (Mask R-CNN), torchvision's CPU semantics: each output bin averages a grid of
// bilinear samples (sampling_ratio per axis, or ceil(roi / bins) when <= 0); aligned=True
// shifts boxes by half a pixel. The forward reads the input channels-last so that each tap
// is one contiguous run of channels; the backward scatters over disjoint channel blocks.
#include <algorithm>
#include <cmath>
#include <vector>

#include "iter/thread_pool.h"
#include "ops.h"
#include "ops/conversion.h"
#include "ops/creation.h"
#include "ops/views.h"
#include "roi_common.h"
#include "tensor/memory_format.h"

namespace tz::vision {
namespace {

struct BinGeometry {
  int64_t pooled_height, pooled_width, sampling_ratio;
  bool aligned;
};

// The taps of every sample of one box, bin-major (ph, pw, iy, ix), and the samples per bin.
template <typename T>
struct BoxSamples {
  int64_t batch = 0, per_bin = 0;
  T count = 1;  // the divisor of each bin's sum
  std::vector<Tap<T>> taps;
};

template <typename T>
BoxSamples<T> box_samples(const T* roi, T scale, const BinGeometry& g, int64_t height, int64_t width) {
  BoxSamples<T> s;
  s.batch = static_cast<int64_t>(roi[0]);
  const T offset = g.aligned ? T(0.5) : T(0);
  const T start_w = roi[1] * scale - offset, start_h = roi[2] * scale - offset;
  const T end_w = roi[3] * scale - offset, end_h = roi[4] * scale - offset;
  T roi_w = end_w - start_w, roi_h = end_h - start_h;
  if (!g.aligned) {  // legacy: malformed boxes are forced to 1x1
    roi_w = std::max(roi_w, T(1));
    roi_h = std::max(roi_h, T(1));
  }
  const T bin_h = roi_h / static_cast<T>(g.pooled_height), bin_w = roi_w / static_cast<T>(g.pooled_width);
  const int64_t grid_h = g.sampling_ratio > 0 ? g.sampling_ratio : static_cast<int64_t>(std::ceil(roi_h / g.pooled_height));
  const int64_t grid_w = g.sampling_ratio > 0 ? g.sampling_ratio : static_cast<int64_t>(std::ceil(roi_w / g.pooled_width));
  s.count = static_cast<T>(std::max<int64_t>(grid_h * grid_w, 1));
  s.per_bin = std::max<int64_t>(grid_h, 0) * std::max<int64_t>(grid_w, 0);
  s.taps.reserve(g.pooled_height * g.pooled_width * s.per_bin);
  for (int64_t ph = 0; ph < g.pooled_height; ++ph)
    for (int64_t pw = 0; pw < g.pooled_width; ++pw)
      for (int64_t iy = 0; iy < grid_h; ++iy) {
        const T y = start_h + ph * bin_h + static_cast<T>(iy + .5f) * bin_h / static_cast<T>(grid_h);
        for (int64_t ix = 0; ix < grid_w; ++ix) {
          const T x = start_w + pw * bin_w + static_cast<T>(ix + .5f) * bin_w / static_cast<T>(grid_w);
          s.taps.push_back(bilinear_tap(y, x, height, width));
        }
      }
  return s;
}

template <typename T>
void forward(const RoiArgs& a, const Tensor& nhwc, T scale, const BinGeometry& g, Tensor& out) {
  const int64_t C = a.C, H = a.H, W = a.W, bins = g.pooled_height * g.pooled_width;
  const T* in = nhwc.data<T>();
  const T* rois = a.rois.data<T>();
  T* o = out.data<T>();
  parallel_for(0, a.K, 1, [&](int64_t k0, int64_t k1) {
    std::vector<T> acc(C);
    for (int64_t k = k0; k < k1; ++k) {
      const BoxSamples<T> s = box_samples(rois + k * 5, scale, g, H, W);
      const T* plane = in + s.batch * H * W * C;
      for (int64_t bin = 0; bin < bins; ++bin) {
        std::fill(acc.begin(), acc.end(), T(0));
        for (int64_t i = 0; i < s.per_bin; ++i) {
          const Tap<T>& t = s.taps[bin * s.per_bin + i];
          const T *v1 = plane + t.pos[0] * C, *v2 = plane + t.pos[1] * C, *v3 = plane + t.pos[2] * C,
                  *v4 = plane + t.pos[3] * C;
          for (int64_t c = 0; c < C; ++c) acc[c] += t.w[0] * v1[c] + t.w[1] * v2[c] + t.w[2] * v3[c] + t.w[3] * v4[c];
        }
        T* ok = o + k * C * bins + bin;
        for (int64_t c = 0; c < C; ++c) ok[c * bins] = acc[c] / s.count;
      }
    }
  });
}

template <typename T>
void backward(const Tensor& grad, const Tensor& rois, T scale, const BinGeometry& g, int64_t H, int64_t W,
              Tensor& grad_nhwc) {
  const int64_t K = rois.sizes()[0], C = grad.sizes()[1], bins = g.pooled_height * g.pooled_width;
  const T* go = grad.data<T>();
  const T* r = rois.data<T>();
  T* gi = grad_nhwc.data<T>();
  // Boxes of one image overlap: each worker owns a block of channels.
  parallel_for(0, C, 1, [&](int64_t c0, int64_t c1) {
    for (int64_t k = 0; k < K; ++k) {
      const BoxSamples<T> s = box_samples(r + k * 5, scale, g, H, W);
      T* plane = gi + s.batch * H * W * C;
      for (int64_t bin = 0; bin < bins; ++bin) {
        const T* gk = go + k * C * bins + bin;
        for (int64_t i = 0; i < s.per_bin; ++i) {
          const Tap<T>& t = s.taps[bin * s.per_bin + i];
          if (!t.inside) continue;
          for (int j = 0; j < 4; ++j) {
            T* dst = plane + t.pos[j] * C;
            for (int64_t c = c0; c < c1; ++c) dst[c] += gk[c * bins] * t.w[j] / s.count;
          }
        }
      }
    }
  });
}

}  // namespace

Tensor roi_align(const Tensor& input, const Tensor& rois, double spatial_scale, int64_t pooled_height,
                 int64_t pooled_width, int64_t sampling_ratio, bool aligned) {
  const RoiArgs a = check_roi_args("roi_align", input, rois, pooled_height, pooled_width);
  Tensor out = zeros({a.K, a.C, pooled_height, pooled_width}, input.dtype());
  if (out.numel() == 0 || a.H == 0 || a.W == 0) return out;
  const Tensor nhwc = contiguous(input, MemoryFormat::ChannelsLast);
  const BinGeometry g{pooled_height, pooled_width, sampling_ratio, aligned};
  dispatch_float(input.dtype(), "roi_align", [&](auto t) {
    using T = decltype(t);
    forward<T>(a, nhwc, static_cast<T>(spatial_scale), g, out);
  });
  return out;
}

Tensor roi_align_backward(const Tensor& grad, const Tensor& rois, double spatial_scale, int64_t pooled_height,
                          int64_t pooled_width, int64_t batch_size, int64_t channels, int64_t height, int64_t width,
                          int64_t sampling_ratio, bool aligned) {
  const char* op = "_roi_align_backward";
  const Tensor r = check_roi_grad(op, grad, rois, channels, pooled_height, pooled_width, batch_size);
  Tensor grad_nhwc = zeros({batch_size, height, width, channels}, grad.dtype());
  if (grad.numel() > 0 && height > 0 && width > 0) {
    const Tensor go = contiguous(grad);
    const BinGeometry g{pooled_height, pooled_width, sampling_ratio, aligned};
    dispatch_float(grad.dtype(), op, [&](auto t) {
      using T = decltype(t);
      backward<T>(go, r, static_cast<T>(spatial_scale), g, height, width, grad_nhwc);
    });
  }
  return contiguous(permute(grad_nhwc, {0, 3, 1, 2}));
}

}  // namespace tz::vision
