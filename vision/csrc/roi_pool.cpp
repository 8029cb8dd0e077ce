// RoIPool (Fast R-CNN max pooling over rounded box bins) and its position-sensitive average
// variant, torchvision's CPU semantics. Forward kernels run over boxes; backward kernels run
// over disjoint channels, since boxes of one image overlap.
#include <algorithm>
#include <cfloat>
#include <cmath>

#include "iter/thread_pool.h"
#include "ops.h"
#include "ops/conversion.h"
#include "ops/creation.h"
#include "roi_common.h"

namespace tz::vision {
namespace {

// One box rounded to the feature grid, and its bins' [start, end) windows clipped to the map.
struct PoolBox {
  int64_t batch, start_h, start_w;
  double bin_h, bin_w;  // in T, widened
};

struct Window {
  int64_t h0, h1, w0, w1;
  bool empty() const { return h1 <= h0 || w1 <= w0; }
};

// RoIPool adds one pixel to the box size; PSRoIPool doesn't (torchvision's two kernels differ).
template <typename T>
PoolBox pool_box(const T* roi, T scale, int64_t ph_n, int64_t pw_n, int64_t extra) {
  const int64_t x1 = std::lround(roi[1] * scale), y1 = std::lround(roi[2] * scale);
  const int64_t x2 = std::lround(roi[3] * scale), y2 = std::lround(roi[4] * scale);
  const int64_t w = std::max<int64_t>(x2 - x1 + extra, 1), h = std::max<int64_t>(y2 - y1 + extra, 1);
  return {static_cast<int64_t>(roi[0]), y1, x1, static_cast<T>(h) / static_cast<T>(ph_n),
          static_cast<T>(w) / static_cast<T>(pw_n)};
}

// `limit_h`/`limit_w`: the largest allowed end (RoIPool: H; PSRoIPool's forward: H - 1).
template <typename T>
Window bin_window(const PoolBox& b, int64_t ph, int64_t pw, int64_t limit_h, int64_t limit_w) {
  const T bh = static_cast<T>(b.bin_h), bw = static_cast<T>(b.bin_w);
  auto clip = [](int64_t v, int64_t hi) { return std::min(std::max<int64_t>(v, 0), hi); };
  Window w;
  w.h0 = clip(static_cast<int64_t>(std::floor(static_cast<T>(ph) * bh)) + b.start_h, limit_h);
  w.h1 = clip(static_cast<int64_t>(std::ceil(static_cast<T>(ph + 1) * bh)) + b.start_h, limit_h);
  w.w0 = clip(static_cast<int64_t>(std::floor(static_cast<T>(pw) * bw)) + b.start_w, limit_w);
  w.w1 = clip(static_cast<int64_t>(std::ceil(static_cast<T>(pw + 1) * bw)) + b.start_w, limit_w);
  return w;
}

template <typename T>
void roi_pool_forward(const RoiArgs& a, T scale, int64_t PH, int64_t PW, Tensor& out, Tensor& argmax) {
  const int64_t C = a.C, H = a.H, W = a.W;
  const T* in = a.input.data<T>();
  const T* rois = a.rois.data<T>();
  T* o = out.data<T>();
  int64_t* am = argmax.data<int64_t>();
  parallel_for(0, a.K, 1, [&](int64_t k0, int64_t k1) {
    for (int64_t k = k0; k < k1; ++k) {
      const PoolBox b = pool_box(rois + k * 5, scale, PH, PW, 1);
      for (int64_t ph = 0; ph < PH; ++ph)
        for (int64_t pw = 0; pw < PW; ++pw) {
          const Window win = bin_window<T>(b, ph, pw, H, W);
          for (int64_t c = 0; c < C; ++c) {
            const T* plane = in + (b.batch * C + c) * H * W;
            T best = win.empty() ? T(0) : T(-FLT_MAX);
            int64_t where = -1;
            for (int64_t h = win.h0; h < win.h1; ++h)
              for (int64_t w = win.w0; w < win.w1; ++w)
                if (plane[h * W + w] > best) best = plane[h * W + w], where = h * W + w;
            const int64_t index = ((k * C + c) * PH + ph) * PW + pw;
            o[index] = best;
            am[index] = where;
          }
        }
    }
  });
}

template <typename T>
void roi_pool_backward_kernel(const Tensor& grad, const Tensor& rois, const Tensor& argmax, int64_t H, int64_t W,
                              Tensor& grad_input) {
  const int64_t K = rois.sizes()[0], C = grad.sizes()[1], bins = grad.sizes()[2] * grad.sizes()[3];
  const T* go = grad.data<T>();
  const T* r = rois.data<T>();
  const int64_t* am = argmax.data<int64_t>();
  T* gi = grad_input.data<T>();
  parallel_for(0, C, 1, [&](int64_t c0, int64_t c1) {
    for (int64_t k = 0; k < K; ++k) {
      const int64_t batch = static_cast<int64_t>(r[k * 5]);
      for (int64_t c = c0; c < c1; ++c) {
        T* plane = gi + (batch * C + c) * H * W;
        const int64_t base = (k * C + c) * bins;
        for (int64_t i = 0; i < bins; ++i)
          if (am[base + i] >= 0) plane[am[base + i]] += go[base + i];
      }
    }
  });
}

// PSRoIPool: the average of channel (c * PH + ph) * PW + pw over bin (ph, pw). The forward
// clips bins to H - 1 / W - 1 as torchvision's does; our backward is its exact adjoint.
template <typename T>
void ps_roi_pool_forward(const RoiArgs& a, T scale, int64_t PH, int64_t PW, Tensor& out) {
  const int64_t C = a.C, H = a.H, W = a.W, C_out = C / (PH * PW);
  const T* in = a.input.data<T>();
  const T* rois = a.rois.data<T>();
  T* o = out.data<T>();
  parallel_for(0, a.K, 1, [&](int64_t k0, int64_t k1) {
    for (int64_t k = k0; k < k1; ++k) {
      const PoolBox b = pool_box(rois + k * 5, scale, PH, PW, 0);
      for (int64_t c_out = 0; c_out < C_out; ++c_out)
        for (int64_t ph = 0; ph < PH; ++ph)
          for (int64_t pw = 0; pw < PW; ++pw) {
            const Window win = bin_window<T>(b, ph, pw, H - 1, W - 1);
            const int64_t c_in = (c_out * PH + ph) * PW + pw;
            const T* plane = in + (b.batch * C + c_in) * H * W;
            T sum = 0;
            for (int64_t h = win.h0; h < win.h1; ++h)
              for (int64_t w = win.w0; w < win.w1; ++w) sum += plane[h * W + w];
            const T area = static_cast<T>((win.h1 - win.h0) * (win.w1 - win.w0));
            o[((k * C_out + c_out) * PH + ph) * PW + pw] = win.empty() ? T(0) : sum / area;
          }
    }
  });
}

template <typename T>
void ps_roi_pool_backward_kernel(const Tensor& grad, const Tensor& rois, T scale, int64_t PH, int64_t PW, int64_t H,
                                 int64_t W, Tensor& grad_input) {
  const int64_t K = rois.sizes()[0], C = grad_input.sizes()[1], C_out = C / (PH * PW);
  const T* go = grad.data<T>();
  const T* r = rois.data<T>();
  T* gi = grad_input.data<T>();
  parallel_for(0, C, 1, [&](int64_t c0, int64_t c1) {
    for (int64_t k = 0; k < K; ++k) {
      const PoolBox b = pool_box(r + k * 5, scale, PH, PW, 0);
      for (int64_t c_in = c0; c_in < c1; ++c_in) {
        const int64_t pw = c_in % PW, ph = (c_in / PW) % PH, c_out = c_in / (PH * PW);
        const Window win = bin_window<T>(b, ph, pw, H - 1, W - 1);
        if (win.empty()) continue;
        const T area = static_cast<T>((win.h1 - win.h0) * (win.w1 - win.w0));
        const T g = go[((k * C_out + c_out) * PH + ph) * PW + pw] / area;
        T* plane = gi + (b.batch * C + c_in) * H * W;
        for (int64_t h = win.h0; h < win.h1; ++h)
          for (int64_t w = win.w0; w < win.w1; ++w) plane[h * W + w] += g;
      }
    }
  });
}


}  // namespace

std::tuple<Tensor, Tensor> roi_pool(const Tensor& input, const Tensor& rois, double spatial_scale,
                                    int64_t pooled_height, int64_t pooled_width) {
  RoiArgs a = check_roi_args("roi_pool", input, rois, pooled_height, pooled_width);
  Tensor out = zeros({a.K, a.C, pooled_height, pooled_width}, input.dtype());
  Tensor argmax = full({a.K, a.C, pooled_height, pooled_width}, Scalar(int64_t(-1)), DType::Int64);
  if (out.numel() == 0 || a.H == 0 || a.W == 0) return {out, argmax};
  a.input = contiguous(input);
  dispatch_float(input.dtype(), "roi_pool", [&](auto t) {
    using T = decltype(t);
    roi_pool_forward<T>(a, static_cast<T>(spatial_scale), pooled_height, pooled_width, out, argmax);
  });
  return {out, argmax};
}

Tensor roi_pool_backward(const Tensor& grad, const Tensor& rois, const Tensor& argmax, int64_t batch_size,
                         int64_t channels, int64_t height, int64_t width) {
  const char* op = "_roi_pool_backward";
  TZ_CHECK(grad.dim() == 4, Runtime, op, "(): expected grad of shape [K, C, PH, PW], got ", shape_str(grad.sizes()));
  const Tensor r = check_roi_grad(op, grad, rois, channels, grad.sizes()[2], grad.sizes()[3], batch_size);
  TZ_CHECK(argmax.sizes() == grad.sizes() && argmax.dtype() == DType::Int64, Runtime, op,
           "(): argmax must be an int64 tensor of the grad's shape");
  Tensor grad_input = zeros({batch_size, channels, height, width}, grad.dtype());
  if (grad.numel() == 0) return grad_input;
  const Tensor go = contiguous(grad), am = contiguous(argmax);
  dispatch_float(grad.dtype(), op, [&](auto t) {
    using T = decltype(t);
    roi_pool_backward_kernel<T>(go, r, am, height, width, grad_input);
  });
  return grad_input;
}

Tensor ps_roi_pool(const Tensor& input, const Tensor& rois, double spatial_scale, int64_t pooled_height,
                   int64_t pooled_width) {
  RoiArgs a = check_roi_args("ps_roi_pool", input, rois, pooled_height, pooled_width);
  check_ps_channels("ps_roi_pool", a.C, pooled_height, pooled_width);
  Tensor out = zeros({a.K, a.C / (pooled_height * pooled_width), pooled_height, pooled_width}, input.dtype());
  if (out.numel() == 0 || a.H == 0 || a.W == 0) return out;
  a.input = contiguous(input);
  dispatch_float(input.dtype(), "ps_roi_pool", [&](auto t) {
    using T = decltype(t);
    ps_roi_pool_forward<T>(a, static_cast<T>(spatial_scale), pooled_height, pooled_width, out);
  });
  return out;
}

Tensor ps_roi_pool_backward(const Tensor& grad, const Tensor& rois, double spatial_scale, int64_t pooled_height,
                            int64_t pooled_width, int64_t batch_size, int64_t channels, int64_t height,
                            int64_t width) {
  const char* op = "_ps_roi_pool_backward";
  check_ps_channels(op, channels, pooled_height, pooled_width);
  const Tensor r = check_roi_grad(op, grad, rois, channels / (pooled_height * pooled_width), pooled_height,
                                  pooled_width, batch_size);
  Tensor grad_input = zeros({batch_size, channels, height, width}, grad.dtype());
  if (grad.numel() == 0 || height == 0 || width == 0) return grad_input;
  const Tensor go = contiguous(grad);
  dispatch_float(grad.dtype(), op, [&](auto t) {
    using T = decltype(t);
    ps_roi_pool_backward_kernel<T>(go, r, static_cast<T>(spatial_scale), pooled_height, pooled_width, height, width,
                                   grad_input);
  });
  return grad_input;
}

}  // namespace tz::vision
