// Deformable convolution v2 (Dai et al. 2017, Zhu et al. 2019) as torchvision computes it:
// per image, a deformable im2col (each kernel tap sampled bilinearly at its offset position,
// times the modulation mask) and one GEMM per group. Sampling points outside
// (-1, H) x (-1, W) read zero; inside, missing neighbours read zero.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "iter/thread_pool.h"
#include "ops.h"
#include "ops/conversion.h"
#include "ops/creation.h"
#include "ops/linalg.h"
#include "ops/views.h"
#include "roi_common.h"

namespace tz::vision {
namespace {

struct Geometry {
  int64_t B, C, H, W, out_c, kh, kw, oH, oW, groups, offset_groups;
  DeformConvParams p;
  int64_t taps() const { return kh * kw; }
  int64_t plane() const { return oH * oW; }
};

// The sampling point of tap (i, j) at output (oy, ox) of image b, channel group g.
template <typename T>
struct Sampler {
  const Geometry& g;
  const T* offset;  // image b's offsets
  const T* mask;    // image b's mask, or null

  void at(int64_t grp, int64_t i, int64_t j, int64_t pos, T& y, T& x, T& m) const {
    const int64_t tap = i * g.kw + j, P = g.plane();
    const T* off = offset + (grp * 2 * g.taps() + 2 * tap) * P;
    const int64_t oy = pos / g.oW, ox = pos % g.oW;
    y = static_cast<T>(oy * g.p.stride_h - g.p.pad_h + i * g.p.dilation_h) + off[pos];
    x = static_cast<T>(ox * g.p.stride_w - g.p.pad_w + j * g.p.dilation_w) + off[P + pos];
    m = mask ? mask[(grp * g.taps() + tap) * P + pos] : T(1);
  }
};

// Bilinear corners of (y, x): pixels and weights, the invalid ones with weight 0.
template <typename T>
struct Corners {
  int64_t pos[4];
  bool valid[4];
  T ly, lx, hy, hx;
  bool inside;

  Corners(T y, T x, int64_t H, int64_t W) {
    inside = y > T(-1) && y < T(H) && x > T(-1) && x < T(W);
    const int64_t y0 = static_cast<int64_t>(std::floor(y)), x0 = static_cast<int64_t>(std::floor(x));
    ly = y - y0, lx = x - x0, hy = T(1) - ly, hx = T(1) - lx;
    const int64_t ys[4] = {y0, y0, y0 + 1, y0 + 1}, xs[4] = {x0, x0 + 1, x0, x0 + 1};
    for (int k = 0; k < 4; ++k) {
      valid[k] = inside && ys[k] >= 0 && ys[k] < H && xs[k] >= 0 && xs[k] < W;
      pos[k] = valid[k] ? ys[k] * W + xs[k] : 0;
    }
  }
  T weight(int k) const { return k == 0 ? hy * hx : k == 1 ? hy * lx : k == 2 ? ly * hx : ly * lx; }
  T value(const T* plane, int k) const { return valid[k] ? plane[pos[k]] : T(0); }
  T sample(const T* plane) const {
    if (!inside) return 0;
    return hy * hx * value(plane, 0) + hy * lx * value(plane, 1) + ly * hx * value(plane, 2) + ly * lx * value(plane, 3);
  }
};

// columns[(c * kh + i) * kw + j, pos] = mask * input[c] sampled at tap (i, j) of pos.
template <typename T>
void deformable_im2col(const Geometry& g, const T* input, const Sampler<T>& s, T* columns) {
  const int64_t P = g.plane(), per_group = g.C / g.offset_groups;
  parallel_for(0, g.C, 1, [&](int64_t c0, int64_t c1) {
    for (int64_t c = c0; c < c1; ++c) {
      const T* plane = input + c * g.H * g.W;
      for (int64_t i = 0; i < g.kh; ++i)
        for (int64_t j = 0; j < g.kw; ++j) {
          T* row = columns + ((c * g.kh + i) * g.kw + j) * P;
          for (int64_t pos = 0; pos < P; ++pos) {
            T y, x, m;
            s.at(c / per_group, i, j, pos, y, x, m);
            row[pos] = m * Corners<T>(y, x, g.H, g.W).sample(plane);
          }
        }
    }
  });
}

Geometry check(const Tensor& input, const Tensor& weight, const Tensor& offset, const Tensor& mask,
               const Tensor& bias, const DeformConvParams& p) {
  const char* op = "deform_conv2d";
  TZ_CHECK(input.dim() == 4, Runtime, op, "(): expected input of shape [B, C, H, W], got ", shape_str(input.sizes()));
  TZ_CHECK(weight.dim() == 4, Runtime, op, "(): expected weight of shape [C_out, C_in / groups, kH, kW], got ",
           shape_str(weight.sizes()));
  TZ_CHECK(offset.dim() == 4, Runtime, op, "(): expected offset of shape [B, 2 * offset_groups * kH * kW, oH, oW], "
           "got ", shape_str(offset.sizes()));
  dispatch_float(input.dtype(), op, [](auto) {});
  for (const Tensor* t : {&weight, &offset, &mask, &bias})
    TZ_CHECK(!t->defined() || t->dtype() == input.dtype(), Runtime, op, "(): input, weight, offset, mask and bias "
             "must have the same dtype, got ", scalar_type_name(input.dtype()), " and ", scalar_type_name(t->dtype()));
  Geometry g{input.sizes()[0], input.sizes()[1], input.sizes()[2], input.sizes()[3], weight.sizes()[0],
             weight.sizes()[2], weight.sizes()[3], 0, 0, p.groups, p.offset_groups, p};
  TZ_CHECK(p.stride_h > 0 && p.stride_w > 0, Runtime, op, "(): stride must be positive, got (", p.stride_h, ", ",
           p.stride_w, ")");
  TZ_CHECK(p.pad_h >= 0 && p.pad_w >= 0, Runtime, op, "(): padding must be non-negative, got (", p.pad_h, ", ",
           p.pad_w, ")");
  TZ_CHECK(p.dilation_h > 0 && p.dilation_w > 0, Runtime, op, "(): dilation must be positive, got (", p.dilation_h,
           ", ", p.dilation_w, ")");
  TZ_CHECK(g.kh > 0 && g.kw > 0, Runtime, op, "(): kernel size must be positive, got ", shape_str(weight.sizes()));
  TZ_CHECK(p.groups > 0 && g.C % p.groups == 0 && g.out_c % p.groups == 0, Runtime, op, "(): the input channels (",
           g.C, ") and output channels (", g.out_c, ") must be divisible by groups (", p.groups, ")");
  TZ_CHECK(weight.sizes()[1] * p.groups == g.C, Runtime, op, "(): the weight's in-channels (", weight.sizes()[1],
           ") times groups (", p.groups, ") must equal the input channels (", g.C, ")");
  TZ_CHECK(p.offset_groups > 0 && g.C % p.offset_groups == 0, Runtime, op, "(): the input channels (", g.C,
           ") must be divisible by the offset groups (", p.offset_groups, ")");
  TZ_CHECK(offset.sizes()[1] == 2 * p.offset_groups * g.taps(), Runtime, op, "(): offset must have ",
           2 * p.offset_groups * g.taps(), " channels (2 * offset_groups * kH * kW), got ", offset.sizes()[1]);
  g.oH = (g.H + 2 * p.pad_h - (p.dilation_h * (g.kh - 1) + 1)) / p.stride_h + 1;
  g.oW = (g.W + 2 * p.pad_w - (p.dilation_w * (g.kw - 1) + 1)) / p.stride_w + 1;
  TZ_CHECK(g.oH > 0 && g.oW > 0, Runtime, op, "(): the computed output size (", g.oH, "x", g.oW, ") is too small "
           "for input ", shape_str(input.sizes()), " and kernel ", g.kh, "x", g.kw);
  const Shape offset_shape{g.B, 2 * p.offset_groups * g.taps(), g.oH, g.oW};
  TZ_CHECK(offset.sizes() == offset_shape, Runtime, op, "(): expected offset of shape ", shape_str(offset_shape),
           ", got ", shape_str(offset.sizes()));
  if (mask.defined()) {
    const Shape mask_shape{g.B, p.offset_groups * g.taps(), g.oH, g.oW};
    TZ_CHECK(mask.sizes() == mask_shape, Runtime, op, "(): expected mask of shape ", shape_str(mask_shape), ", got ",
             shape_str(mask.sizes()));
  }
  TZ_CHECK(!bias.defined() || (bias.dim() == 1 && bias.sizes()[0] == g.out_c), Runtime, op, "(): expected bias of "
           "shape [", g.out_c, "], got ", bias.defined() ? shape_str(bias.sizes()) : "");
  return g;
}

struct Operands {
  Tensor input, weight, offset, mask;
  Operands(const Tensor& i, const Tensor& w, const Tensor& o, const Tensor& m)
      : input(contiguous(i)), weight(contiguous(w)), offset(contiguous(o)), mask(m.defined() ? contiguous(m) : m) {}
  template <typename T>
  Sampler<T> sampler(const Geometry& g, int64_t b) const {
    return {g, offset.data<T>() + b * offset.sizes()[1] * g.plane(),
            mask.defined() ? mask.data<T>() + b * mask.sizes()[1] * g.plane() : nullptr};
  }
};

// The group-g block of rows of a [rows, cols] matrix.
Tensor rows_of(const Tensor& m, int64_t g, int64_t groups) {
  const int64_t n = m.sizes()[0] / groups;
  return narrow(m, 0, g * n, n);
}

template <typename T>
void forward(const Geometry& g, const Operands& x, const Tensor& bias, Tensor& out) {
  const int64_t K = g.C * g.taps(), P = g.plane();
  Tensor columns = Tensor::empty({K, P}, x.input.dtype());
  const Tensor w = reshape(x.weight, {g.out_c, K / g.groups});
  T* o = out.data<T>();
  for (int64_t b = 0; b < g.B; ++b) {
    deformable_im2col<T>(g, x.input.data<T>() + b * g.C * g.H * g.W, x.sampler<T>(g, b), columns.data<T>());
    for (int64_t grp = 0; grp < g.groups; ++grp) {
      const Tensor y = contiguous(mm(rows_of(w, grp, g.groups), rows_of(columns, grp, g.groups)));
      std::memcpy(o + (b * g.out_c + grp * (g.out_c / g.groups)) * P, y.data<T>(), y.numel() * sizeof(T));
    }
    if (bias.defined()) {
      const Tensor bc = contiguous(bias);
      for (int64_t c = 0; c < g.out_c; ++c) {
        T* row = o + (b * g.out_c + c) * P;
        for (int64_t pos = 0; pos < P; ++pos) row[pos] += bc.data<T>()[c];
      }
    }
  }
}

// Scatters grad_columns back: into the input (bilinear weights), the offsets (the sample's
// spatial derivative) and the mask (the sample itself), for image b.
template <typename T>
void deformable_col2im(const Geometry& g, const T* input, const Sampler<T>& s, const T* grad_columns, T* grad_input,
                       T* grad_offset, T* grad_mask) {
  const int64_t P = g.plane(), per_group = g.C / g.offset_groups;
  // grad_input: channel c's rows write only plane c.
  parallel_for(0, g.C, 1, [&](int64_t c0, int64_t c1) {
    for (int64_t c = c0; c < c1; ++c) {
      T* plane = grad_input + c * g.H * g.W;
      for (int64_t i = 0; i < g.kh; ++i)
        for (int64_t j = 0; j < g.kw; ++j) {
          const T* row = grad_columns + ((c * g.kh + i) * g.kw + j) * P;
          for (int64_t pos = 0; pos < P; ++pos) {
            T y, x, m;
            s.at(c / per_group, i, j, pos, y, x, m);
            const Corners<T> k(y, x, g.H, g.W);
            for (int q = 0; q < 4; ++q)
              if (k.valid[q]) plane[k.pos[q]] += k.weight(q) * m * row[pos];
          }
        }
    }
  });
  // offsets and mask: each (offset group, tap) sums over its channels.
  parallel_for(0, g.offset_groups * g.taps(), 1, [&](int64_t t0, int64_t t1) {
    for (int64_t t = t0; t < t1; ++t) {
      const int64_t grp = t / g.taps(), tap = t % g.taps(), i = tap / g.kw, j = tap % g.kw;
      T* gy = grad_offset + (grp * 2 * g.taps() + 2 * tap) * P;
      T* gx = gy + P;
      T* gm = grad_mask ? grad_mask + (grp * g.taps() + tap) * P : nullptr;
      for (int64_t c = grp * per_group; c < (grp + 1) * per_group; ++c) {
        const T* plane = input + c * g.H * g.W;
        const T* row = grad_columns + ((c * g.kh + i) * g.kw + j) * P;
        for (int64_t pos = 0; pos < P; ++pos) {
          T y, x, m;
          s.at(grp, i, j, pos, y, x, m);
          const Corners<T> k(y, x, g.H, g.W);
          if (!k.inside) continue;
          const T v1 = k.value(plane, 0), v2 = k.value(plane, 1), v3 = k.value(plane, 2), v4 = k.value(plane, 3);
          const T dy = k.hx * (v3 - v1) + k.lx * (v4 - v2), dx = k.hy * (v2 - v1) + k.ly * (v4 - v3);
          gy[pos] += row[pos] * m * dy;
          gx[pos] += row[pos] * m * dx;
          if (gm) gm[pos] += row[pos] * k.sample(plane);
        }
      }
    }
  });
}

template <typename T>
void backward(const Geometry& g, const Operands& x, const Tensor& grad, Tensor& gi, Tensor& gw, Tensor& go,
              Tensor& gm) {
  const int64_t K = g.C * g.taps(), P = g.plane(), oc = g.out_c / g.groups;
  Tensor columns = Tensor::empty({K, P}, x.input.dtype());
  Tensor grad_columns = Tensor::empty({K, P}, x.input.dtype());
  const Tensor w = reshape(x.weight, {g.out_c, K / g.groups});
  T* gwd = gw.data<T>();
  for (int64_t b = 0; b < g.B; ++b) {
    const Sampler<T> s = x.sampler<T>(g, b);
    const T* in = x.input.data<T>() + b * g.C * g.H * g.W;
    deformable_im2col<T>(g, in, s, columns.data<T>());
    const Tensor gb = select(grad, 0, b);  // [out_c, P]
    for (int64_t grp = 0; grp < g.groups; ++grp) {
      const Tensor g_rows = narrow(gb, 0, grp * oc, oc);
      const Tensor dw = contiguous(mm(g_rows, transpose(rows_of(columns, grp, g.groups), 0, 1)));
      T* dst = gwd + grp * dw.numel();
      for (int64_t e = 0; e < dw.numel(); ++e) dst[e] += dw.data<T>()[e];
      const Tensor dc = contiguous(mm(transpose(rows_of(w, grp, g.groups), 0, 1), g_rows));
      std::memcpy(grad_columns.data<T>() + grp * dc.numel(), dc.data<T>(), dc.numel() * sizeof(T));
    }
    deformable_col2im<T>(g, in, s, grad_columns.data<T>(), gi.data<T>() + b * g.C * g.H * g.W,
                         go.data<T>() + b * go.sizes()[1] * P, gm.defined() ? gm.data<T>() + b * gm.sizes()[1] * P : nullptr);
  }
}

}  // namespace

Tensor deform_conv2d(const Tensor& input, const Tensor& weight, const Tensor& offset, const Tensor& mask,
                     const Tensor& bias, const DeformConvParams& p) {
  const Geometry g = check(input, weight, offset, mask, bias, p);
  Tensor out = zeros({g.B, g.out_c, g.oH, g.oW}, input.dtype());
  if (out.numel() == 0) return out;
  const Operands x(input, weight, offset, mask);
  dispatch_float(input.dtype(), "deform_conv2d", [&](auto t) { forward<decltype(t)>(g, x, bias, out); });
  return out;
}

std::tuple<Tensor, Tensor, Tensor, Tensor, Tensor> deform_conv2d_backward(
    const Tensor& grad, const Tensor& input, const Tensor& weight, const Tensor& offset, const Tensor& mask,
    const Tensor& bias, const DeformConvParams& p) {
  const Geometry g = check(input, weight, offset, mask, bias, p);
  const Shape out_shape{g.B, g.out_c, g.oH, g.oW};
  TZ_CHECK(grad.sizes() == out_shape, Runtime, "_deform_conv2d_backward(): expected grad of shape ",
           shape_str(out_shape), ", got ", shape_str(grad.sizes()));
  const DType d = input.dtype();
  Tensor gi = zeros(input.sizes(), d), gw = zeros(weight.sizes(), d), go = zeros(offset.sizes(), d);
  Tensor gm = mask.defined() ? zeros(mask.sizes(), d) : Tensor();
  const Tensor grad_c = contiguous(to_dtype(grad, d));
  if (grad.numel() > 0) {
    const Operands x(input, weight, offset, mask);
    const Tensor g2 = reshape(grad_c, {g.B, g.out_c, g.plane()});
    dispatch_float(d, "_deform_conv2d_backward", [&](auto t) { backward<decltype(t)>(g, x, g2, gi, gw, go, gm); });
  }
  Tensor gb;
  if (bias.defined()) {
    gb = zeros({g.out_c}, d);
    dispatch_float(d, "_deform_conv2d_backward", [&](auto t) {
      using T = decltype(t);
      const T* src = grad_c.data<T>();
      T* dst = gb.data<T>();
      for (int64_t b = 0; b < g.B; ++b)
        for (int64_t c = 0; c < g.out_c; ++c)
          for (int64_t pos = 0; pos < g.plane(); ++pos) dst[c] += src[(b * g.out_c + c) * g.plane() + pos];
    });
  }
  return {gi, gw, go, gm, gb};
}

}  // namespace tz::vision
