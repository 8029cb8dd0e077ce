// Resampling front-ends (ops/nn_pool.h): upsample_* as separable tap tables (source index
// and weight per output position, computed exactly as PyTorch's UpSample.h does, in the
// kernel's compute type), grid_sampler_2d with its backward, affine grids, pixel shuffles.
#include <cmath>
#include <limits>

#include "iter/thread_pool.h"
#include "ops/conversion.h"
#include "ops/creation.h"
#include "ops/linalg.h"
#include "ops/nn_pool_util.h"
#include "ops/views.h"
#include "tensor/memory_format.h"
#include "tensor/size_math.h"

namespace tz {

InterpMode interp_mode(const std::string& name) {
  if (name == "nearest") return InterpMode::Nearest;
  if (name == "linear") return InterpMode::Linear;
  if (name == "cubic") return InterpMode::Cubic;
  fail(ErrorKind::Value, "upsample: unknown mode ", name);
}

namespace {

// PyTorch's compute_scales_value: 1/scale when a scale was given, else in/out.
template <typename T> T scales_value(std::optional<double> scale, int64_t in, int64_t out) {
  return scale && *scale > 0 ? static_cast<T>(1.0 / *scale) : static_cast<T>(in) / static_cast<T>(out);
}
template <typename T> T area_scale(int64_t in, int64_t out, bool align, std::optional<double> scale) {
  if (align) return out > 1 ? static_cast<T>(in - 1) / static_cast<T>(out - 1) : T(0);
  return scales_value<T>(scale, in, out);
}
// PyTorch's CPU kernels are built with floating-point contraction, so this product-minus
// is one fused multiply-add there; std::fma gives the same source positions bit for bit.
template <typename T> T source_index(T scale, int64_t o, bool align, bool cubic) {
  if (align) return scale * static_cast<T>(o);
  const T src = std::fma(scale, static_cast<T>(o) + T(0.5), T(-0.5));
  return !cubic && src < T(0) ? T(0) : src;
}

constexpr double kCubicA = -0.75;
template <typename T> T cubic1(T x) { const T A = kCubicA; return ((A + 2) * x - (A + 3)) * x * x + 1; }
template <typename T> T cubic2(T x) { const T A = kCubicA; return ((A * x - 5 * A) * x + 8 * A) * x - 4 * A; }
template <typename T> void cubic_coeffs(T t, T c[4]) {
  c[0] = cubic2<T>(t + T(1)), c[1] = cubic1<T>(t), c[2] = cubic1<T>(T(1) - t), c[3] = cubic2<T>(T(2) - t);
}

// Nearest: PyTorch's nearest_idx, in float like its kernels.
std::vector<int64_t> nearest_index(int64_t in, int64_t out, std::optional<double> scale) {
  std::vector<int64_t> idx(out);
  const float s = scales_value<float>(scale, in, out);
  for (int64_t o = 0; o < out; ++o) {
    if (out == in) idx[o] = o;
    else if (out == 2 * in) idx[o] = o >> 1;
    else idx[o] = std::min(static_cast<int64_t>(std::floor(static_cast<float>(o) * s)), in - 1);
  }
  return idx;
}

template <typename T> struct Taps {
  int taps = 1;
  std::vector<int64_t> index;
  std::vector<T> weight;
  InterpTaps view() const { return {taps, index.data(), weight.data()}; }
};

template <typename T>
Taps<T> make_taps(InterpMode mode, int64_t in, int64_t out, bool align, std::optional<double> scale) {
  Taps<T> t;
  if (mode == InterpMode::Nearest) {
    t.index = nearest_index(in, out, scale);
    t.weight.assign(out, T(1));
    return t;
  }
  const bool cubic = mode == InterpMode::Cubic;
  t.taps = cubic ? 4 : 2;
  const T s = area_scale<T>(in, out, align, scale);
  for (int64_t o = 0; o < out; ++o) {
    const T real = source_index<T>(s, o, align, cubic);
    // guard_index_and_lambda
    const int64_t i0 = std::min(static_cast<int64_t>(std::floor(real)), in - 1);
    const T lambda = std::min(std::max(real - static_cast<T>(i0), T(0)), T(1));
    if (!cubic) {
      t.index.push_back(i0), t.index.push_back(i0 + (i0 < in - 1 ? 1 : 0));
      t.weight.push_back(T(1) - lambda), t.weight.push_back(lambda);
      continue;
    }
    T c[4];
    cubic_coeffs<T>(lambda, c);
    for (int k = 0; k < 4; ++k) {
      t.index.push_back(std::max<int64_t>(std::min<int64_t>(i0 - 1 + k, in - 1), 0));
      t.weight.push_back(c[k]);
    }
  }
  return t;
}

// The block of a 3-d (N, C, L) or 4-d input; 3-d runs as (N, C, 1, L).
nn::Spatial block_of(const Tensor& t, DType compute) {
  if (t.dim() == 4) return nn::spatial_of(t, compute);
  nn::Spatial s = nn::spatial_of(unsqueeze(t, -2), compute);
  return s;
}
// A (oH, oW) output of the block's layout, back in the input's rank.
Tensor shape_like(const Tensor& out, int64_t rank) { return rank == 3 ? squeeze(out, -2) : out; }

template <typename T>
void run_interp(const nn::Spatial& s, const Tensor& out, InterpMode mode, int64_t oH, int64_t oW, bool align,
                std::optional<double> sh, std::optional<double> sw, bool backward, const Tensor& src) {
  const Taps<T> h = make_taps<T>(mode, s.H, oH, align, sh), w = make_taps<T>(mode, s.W, oW, align, sw);
  if (backward) interp_backward_stub(out.dtype(), src.raw_data(), out.raw_data(), s.geom(oH, oW), h.view(), w.view());
  else interp_stub(out.dtype(), src.raw_data(), out.raw_data(), s.geom(oH, oW), h.view(), w.view());
}

}  // namespace

Tensor upsample(const Tensor& self, const IntList& output_size, InterpMode mode, bool align_corners,
                std::optional<double> scale_h, std::optional<double> scale_w, const char* op) {
  const int64_t nd = self.dim(), k = nd - 2;
  TZ_CHECK(nd == 3 || nd == 4, Runtime, op, "(): expected a ", nd == 3 ? "3" : "4", "-d input, but got input of size ",
           shape_str(self.sizes()));
  TZ_CHECK(static_cast<int64_t>(output_size.size()) == k, Runtime, op, "(): It is expected output_size equals to ",
           k, ", but got size ", output_size.size());
  for (int64_t d = 1; d < nd; ++d)
    TZ_CHECK(self.sizes()[d] > 0, Runtime, op, "(): Input and output sizes should be greater than 0, but got input (",
             shape_str(self.sizes()), ")");
  for (int64_t v : output_size)
    TZ_CHECK(v > 0, Runtime, op, "(): Input and output sizes should be greater than 0, but got output_size ",
             shape_str(Shape(output_size.begin(), output_size.end())));
  const bool nearest = mode == InterpMode::Nearest;
  TZ_CHECK(is_floating(self.dtype()) || (nearest && !is_complex(self.dtype()) && self.dtype() != DType::Bool) ||
           (self.dtype() == DType::UInt8 && nearest), Runtime, op, "(): \"", op, "\" not implemented for '",
           scalar_type_name(self.dtype()), "'");
  const int64_t oH = k == 2 ? output_size[0] : 1, oW = output_size[k - 1];
  // 1-d ops get their one scale as the w scale.
  if (k == 1) scale_w = scale_h, scale_h = std::nullopt;
  const nn::Spatial s = block_of(self, nearest ? self.dtype() : compute_dtype(self.dtype()));
  Tensor out = s.empty(oH, oW, s.data.dtype());
  if (out.numel() > 0) {
    if (nearest) {
      const std::vector<int64_t> hi = nearest_index(s.H, oH, scale_h), wi = nearest_index(s.W, oW, scale_w);
      nearest_stub(s.data.itemsize(), s.data.raw_data(), out.raw_data(), s.geom(oH, oW), hi.data(), wi.data());
    } else if (out.dtype() == DType::Float32) {
      run_interp<float>(s, out, mode, oH, oW, align_corners, scale_h, scale_w, false, s.data);
    } else {
      run_interp<double>(s, out, mode, oH, oW, align_corners, scale_h, scale_w, false, s.data);
    }
  }
  return shape_like(s.finish(out), nd);
}

Tensor upsample_backward(const Tensor& grad, const IntList& input_size, InterpMode mode, bool align_corners,
                         std::optional<double> scale_h, std::optional<double> scale_w) {
  const int64_t nd = grad.dim();
  TZ_CHECK((nd == 3 || nd == 4) && static_cast<int64_t>(input_size.size()) == nd, Runtime,
           "upsample_backward(): grad_output and input_size must have 3 or 4 dims");
  for (int64_t d = 0; d < nd - (nd - 2); ++d)
    TZ_CHECK(grad.sizes()[d] == input_size[d], Runtime, "upsample_backward(): grad_output size ",
             shape_str(grad.sizes()), " doesn't match input_size ", shape_str(Shape(input_size.begin(), input_size.end())));
  if (nd == 3) scale_w = scale_h, scale_h = std::nullopt;
  const nn::Spatial g = block_of(grad, compute_dtype(grad.dtype()));
  nn::Spatial s = g;  // the input gradient's block: grad's layout, input's spatial size
  s.H = nd == 4 ? input_size[2] : 1, s.W = input_size[nd - 1];
  Tensor gin = s.zeros(s.H, s.W, g.data.dtype());
  const int64_t oH = g.H, oW = g.W;
  if (grad.numel() > 0) {
    if (gin.dtype() == DType::Float32)
      run_interp<float>(s, gin, mode, oH, oW, align_corners, scale_h, scale_w, true, g.data);
    else
      run_interp<double>(s, gin, mode, oH, oW, align_corners, scale_h, scale_w, true, g.data);
  }
  return shape_like(s.finish(gin), nd);
}

// ---------------------------------------------------------------- grid_sampler_2d
namespace {

enum : int64_t { kBilinear = 0, kNearest = 1, kBicubic = 2 };
enum : int64_t { kZeros = 0, kBorder = 1, kReflection = 2 };

// PyTorch's GridSampler.h helpers, each with the derivative of its result w.r.t. its input.
template <typename T> T unnormalize(T coord, int64_t size, bool align, T* d) {
  if (align) {
    *d = T(size - 1) / 2;
    return (coord + 1) / 2 * (size - 1);
  }
  *d = T(size) / 2;
  return ((coord + 1) * size - 1) / 2;
}
template <typename T> T clip(T in, int64_t limit, T* d) {
  if (in <= T(0)) return *d = 0, T(0);
  const T hi = static_cast<T>(limit - 1);
  if (in >= hi) return *d = 0, hi;
  return *d = 1, in;
}
template <typename T> T reflect(T in, int64_t twice_low, int64_t twice_high, T* d) {
  if (twice_low == twice_high) return *d = 0, T(0);
  const T min = static_cast<T>(twice_low) / 2, span = static_cast<T>(twice_high - twice_low) / 2;
  in = in - min;
  T sign = 1;
  if (in < T(0)) sign = -1, in = -in;
  const T extra = std::fmod(in, span);
  const int64_t flips = static_cast<int64_t>(std::floor(in / span));
  if (flips % 2 == 0) return *d = sign, extra + min;
  return *d = -sign, span - extra + min;
}
// Padding applied to an unnormalized coordinate.
template <typename T> T pad_coord(T c, int64_t size, int64_t padding, bool align, T* d) {
  *d = 1;
  if (padding == kBorder) return clip(c, size, d);
  if (padding == kReflection) {
    T dr, dc;
    c = align ? reflect(c, 0, 2 * (size - 1), &dr) : reflect(c, -1, 2 * size - 1, &dr);
    c = clip(c, size, &dc);
    *d = dr * dc;
  }
  return c;
}
template <typename T> void cubic_coeff_grads(T t, T c[4]) {
  const T A = kCubicA;
  T x = -1 - t;
  c[0] = (-3 * A * x - 10 * A) * x - 8 * A;
  x = -t;
  c[1] = (-3 * (A + 2) * x - 2 * (A + 3)) * x;
  x = 1 - t;
  c[2] = (3 * (A + 2) * x - 2 * (A + 3)) * x;
  x = 2 - t;
  c[3] = (3 * A * x - 10 * A) * x + 8 * A;
}

// floor / round-half-even without libm calls (this file is built for baseline x86-64, where
// std::floor and std::nearbyint are function calls). Coordinates are first brought into a
// range where the integer tricks are exact; NaN becomes a position outside every image.
template <typename T> T sanitize(T x) {
  if (!(x == x)) return T(-16);
  const T lim = T(1 << 22);
  return x < -lim ? -lim : (x > lim ? lim : x);
}
template <typename T> T fast_floor(T x) {
  const T f = static_cast<T>(static_cast<int64_t>(x));
  return f > x ? f - T(1) : f;
}
template <typename T> T round_even(T x) {
  // Adding 1.5 * 2^(mantissa bits) rounds to an integer in the current (nearest-even) mode.
  const T magic = sizeof(T) == 4 ? T(12582912.0) : T(6755399441055744.0);
  volatile T y = x + magic;  // volatile: keep the compiler from folding the pair away
  return y - magic;
}

template <typename T> struct GridArgs {
  const T* in;   // (N, C, H, W) contiguous
  const T* grid; // (N, oH, oW, 2) contiguous
  int64_t N, C, H, W, oH, oW, interp, padding;
  bool align;
};

bool inside(int64_t x, int64_t y, int64_t W, int64_t H) { return x >= 0 && x < W && y >= 0 && y < H; }

// One output location: calls tap(x, y, weight) for every input tap that is in bounds, and
// returns the coordinates (for the backward's grid gradient).
template <typename T, typename Tap>
void grid_taps(const GridArgs<T>& a, T gx, T gy, Tap tap) {
  T dx, dy;
  if (a.interp == kBicubic) {
    const T ix = sanitize(unnormalize(gx, a.W, a.align, &dx)), iy = sanitize(unnormalize(gy, a.H, a.align, &dy));
    const T fx = fast_floor(ix), fy = fast_floor(iy);
    T cx[4], cy[4];
    cubic_coeffs<T>(ix - fx, cx);
    cubic_coeffs<T>(iy - fy, cy);
    for (int j = 0; j < 4; ++j)
      for (int i = 0; i < 4; ++i) {
        T d;
        // get_value_bounded: every tap coordinate goes through the padding mode.
        const int64_t x = static_cast<int64_t>(pad_coord<T>(fx - 1 + i, a.W, a.padding, a.align, &d));
        const int64_t y = static_cast<int64_t>(pad_coord<T>(fy - 1 + j, a.H, a.padding, a.align, &d));
        if (inside(x, y, a.W, a.H)) tap(x, y, cx[i] * cy[j]);
      }
    return;
  }
  T ux = unnormalize(gx, a.W, a.align, &dx), uy = unnormalize(gy, a.H, a.align, &dy);
  T px, py;
  const T ix = sanitize(pad_coord(ux, a.W, a.padding, a.align, &px));
  const T iy = sanitize(pad_coord(uy, a.H, a.padding, a.align, &py));
  if (a.interp == kNearest) {
    const int64_t x = static_cast<int64_t>(round_even(ix)), y = static_cast<int64_t>(round_even(iy));
    if (inside(x, y, a.W, a.H)) tap(x, y, T(1));
    return;
  }
  const int64_t x0 = static_cast<int64_t>(fast_floor(ix)), y0 = static_cast<int64_t>(fast_floor(iy));
  const T tx = ix - x0, ty = iy - y0;
  if (inside(x0, y0, a.W, a.H)) tap(x0, y0, (1 - tx) * (1 - ty));
  if (inside(x0 + 1, y0, a.W, a.H)) tap(x0 + 1, y0, tx * (1 - ty));
  if (inside(x0, y0 + 1, a.W, a.H)) tap(x0, y0 + 1, (1 - tx) * ty);
  if (inside(x0 + 1, y0 + 1, a.W, a.H)) tap(x0 + 1, y0 + 1, tx * ty);
}

template <typename T> void grid_forward(const GridArgs<T>& a, T* out) {
  const int64_t HW = a.H * a.W, oHW = a.oH * a.oW;
  parallel_for(0, a.N * a.oH, std::max<int64_t>(1, 2048 / std::max<int64_t>(1, a.oW * a.C)), [&](int64_t b, int64_t e) {
    // A row's taps first (plane offset and weight of each in-bounds tap), then every channel.
    std::vector<int64_t> offs(16 * a.oW);
    std::vector<T> wts(16 * a.oW);
    std::vector<int> count(a.oW);
    for (int64_t r = b; r < e; ++r) {
      const int64_t n = r / a.oH, oh = r % a.oH;
      for (int64_t ow = 0; ow < a.oW; ++ow) {
        const T* g = a.grid + ((n * a.oH + oh) * a.oW + ow) * 2;
        if (g[0] != g[0] || g[1] != g[1]) {  // a nan position samples nan, in every mode
          count[ow] = -1;
          continue;
        }
        int k = 0;
        grid_taps(a, g[0], g[1], [&](int64_t x, int64_t y, T w) {
          offs[ow * 16 + k] = y * a.W + x, wts[ow * 16 + k] = w, ++k;
        });
        count[ow] = k;
      }
      const T* in = a.in + n * a.C * HW;
      T* orow = out + n * a.C * oHW + oh * a.oW;
      for (int64_t c = 0; c < a.C; ++c) {
        const T* ic = in + c * HW;
        T* oc = orow + c * oHW;
        for (int64_t ow = 0; ow < a.oW; ++ow) {
          if (count[ow] < 0) {
            oc[ow] = std::numeric_limits<T>::quiet_NaN();
            continue;
          }
          T s = 0;
          for (int k = 0; k < count[ow]; ++k) s += ic[offs[ow * 16 + k]] * wts[ow * 16 + k];
          oc[ow] = s;
        }
      }
    }
  });
}

// Input gradient (gin zeroed) and grid gradient (ggrid) of one batch element each task.
template <typename T> void grid_backward(const GridArgs<T>& a, const T* gout, T* gin, T* ggrid) {
  const int64_t HW = a.H * a.W, oHW = a.oH * a.oW;
  parallel_for(0, a.N, 1, [&](int64_t b, int64_t e) {
    for (int64_t n = b; n < e; ++n) {
      const T* in = a.in + n * a.C * HW;
      T* gi = gin ? gin + n * a.C * HW : nullptr;
      for (int64_t j = 0; j < oHW; ++j) {
        const T* g = a.grid + (n * oHW + j) * 2;
        const T* go = gout + n * a.C * oHW + j;
        if (gi)
          grid_taps(a, g[0], g[1], [&](int64_t x, int64_t y, T w) {
            T* dst = gi + y * a.W + x;
            for (int64_t c = 0; c < a.C; ++c) dst[c * HW] += go[c * oHW] * w;
          });
        if (!ggrid) continue;
        T* gg = ggrid + (n * oHW + j) * 2;
        gg[0] = gg[1] = 0;
        if (a.interp == kNearest) continue;
        // d out / d (ix, iy): sum over channels of value * d weight.
        T dx, dy, px = 1, py = 1, gix = 0, giy = 0;
        if (a.interp == kBilinear) {
          const T ux = unnormalize(g[0], a.W, a.align, &dx), uy = unnormalize(g[1], a.H, a.align, &dy);
          const T ix = sanitize(pad_coord(ux, a.W, a.padding, a.align, &px));
          const T iy = sanitize(pad_coord(uy, a.H, a.padding, a.align, &py));
          const int64_t x0 = static_cast<int64_t>(fast_floor(ix)), y0 = static_cast<int64_t>(fast_floor(iy));
          const T tx = ix - x0, ty = iy - y0;
          const int64_t xs[4] = {x0, x0 + 1, x0, x0 + 1}, ys[4] = {y0, y0, y0 + 1, y0 + 1};
          const T wx[4] = {-(1 - ty), 1 - ty, -ty, ty}, wy[4] = {-(1 - tx), -tx, 1 - tx, tx};
          for (int k = 0; k < 4; ++k) {
            if (!inside(xs[k], ys[k], a.W, a.H)) continue;
            const T* src = in + ys[k] * a.W + xs[k];
            T s = 0;
            for (int64_t c = 0; c < a.C; ++c) s += src[c * HW] * go[c * oHW];
            gix += wx[k] * s, giy += wy[k] * s;
          }
        } else {
          const T ix = sanitize(unnormalize(g[0], a.W, a.align, &dx)), iy = sanitize(unnormalize(g[1], a.H, a.align, &dy));
          const T fx = fast_floor(ix), fy = fast_floor(iy);
          T cx[4], cy[4], gcx[4], gcy[4];
          cubic_coeffs<T>(ix - fx, cx), cubic_coeffs<T>(iy - fy, cy);
          cubic_coeff_grads<T>(ix - fx, gcx), cubic_coeff_grads<T>(iy - fy, gcy);
          for (int jj = 0; jj < 4; ++jj)
            for (int i = 0; i < 4; ++i) {
              T d;
              const int64_t x = static_cast<int64_t>(pad_coord<T>(fx - 1 + i, a.W, a.padding, a.align, &d));
              const int64_t y = static_cast<int64_t>(pad_coord<T>(fy - 1 + jj, a.H, a.padding, a.align, &d));
              if (!inside(x, y, a.W, a.H)) continue;
              const T* src = in + y * a.W + x;
              T s = 0;
              for (int64_t c = 0; c < a.C; ++c) s += src[c * HW] * go[c * oHW];
              gix -= s * gcx[i] * cy[jj], giy -= s * cx[i] * gcy[jj];
            }
        }
        gg[0] = gix * dx * px, gg[1] = giy * dy * py;
      }
    }
  });
}

void check_grid(const Tensor& input, const Tensor& grid, int64_t interp, int64_t padding) {
  const char* op = "grid_sampler_2d";
  TZ_CHECK(input.dtype() == grid.dtype(), Runtime, op, "(): expected input and grid to have same dtype, but input has ",
           scalar_type_name(input.dtype()), " and grid has ", scalar_type_name(grid.dtype()));
  TZ_CHECK(is_floating(input.dtype()), Runtime, op, "(): \"", op, "\" not implemented for '",
           scalar_type_name(input.dtype()), "'");
  TZ_CHECK(input.dim() == 4 && grid.dim() == 4, Runtime, op, "(): expected 4D input and grid with same number of "
           "dimensions, but got input with sizes ", shape_str(input.sizes()), " and grid with sizes ",
           shape_str(grid.sizes()));
  TZ_CHECK(input.sizes()[0] == grid.sizes()[0], Runtime, op, "(): expected grid and input to have same batch size, "
           "but got input with sizes ", shape_str(input.sizes()), " and grid with sizes ", shape_str(grid.sizes()));
  TZ_CHECK(grid.sizes()[3] == 2, Runtime, op, "(): expected grid to have size 2 in last dimension, but got grid with "
           "sizes ", shape_str(grid.sizes()));
  for (int64_t d = 2; d < 4; ++d)
    TZ_CHECK(input.sizes()[d] > 0, Runtime, op, "(): expected input to have non-empty spatial dimensions, but input "
             "has sizes ", shape_str(input.sizes()), " with dimension ", d, " being empty");
  TZ_CHECK(interp >= 0 && interp <= 2, Runtime, op, "(): unknown interpolation mode ", interp);
  TZ_CHECK(padding >= 0 && padding <= 2, Runtime, op, "(): unknown padding mode ", padding);
}

template <typename T>
GridArgs<T> grid_args(const Tensor& in, const Tensor& grid, int64_t interp, int64_t padding, bool align) {
  return {in.data<T>(), grid.data<T>(), in.sizes()[0], in.sizes()[1], in.sizes()[2], in.sizes()[3],
          grid.sizes()[1], grid.sizes()[2], interp, padding, align};
}

}  // namespace

Tensor grid_sampler_2d(const Tensor& input, const Tensor& grid, int64_t interpolation, int64_t padding,
                       bool align_corners) {
  check_grid(input, grid, interpolation, padding);
  const DType cd = compute_dtype(input.dtype());
  const Tensor in = contiguous(to_dtype(input, cd)), g = contiguous(to_dtype(grid, cd));
  Tensor out = Tensor::empty({input.sizes()[0], input.sizes()[1], grid.sizes()[1], grid.sizes()[2]}, cd);
  if (out.numel() > 0) {
    if (cd == DType::Float32) grid_forward(grid_args<float>(in, g, interpolation, padding, align_corners), out.data<float>());
    else grid_forward(grid_args<double>(in, g, interpolation, padding, align_corners), out.data<double>());
  }
  return to_dtype(out, input.dtype());
}

std::tuple<Tensor, Tensor> grid_sampler_2d_backward(const Tensor& grad, const Tensor& input, const Tensor& grid,
                                                    int64_t interpolation, int64_t padding, bool align_corners,
                                                    bool input_grad, bool grid_grad) {
  check_grid(input, grid, interpolation, padding);
  const DType cd = compute_dtype(input.dtype());
  const Tensor in = contiguous(to_dtype(input, cd)), g = contiguous(to_dtype(grid, cd));
  const Tensor go = contiguous(to_dtype(grad, cd));
  Tensor gin = input_grad ? zeros(input.sizes(), cd) : Tensor();
  Tensor ggrid = grid_grad ? zeros(grid.sizes(), cd) : Tensor();
  if (grad.numel() > 0 && (input_grad || grid_grad)) {
    if (cd == DType::Float32)
      grid_backward(grid_args<float>(in, g, interpolation, padding, align_corners), go.data<float>(),
                    input_grad ? gin.data<float>() : nullptr, grid_grad ? ggrid.data<float>() : nullptr);
    else
      grid_backward(grid_args<double>(in, g, interpolation, padding, align_corners), go.data<double>(),
                    input_grad ? gin.data<double>() : nullptr, grid_grad ? ggrid.data<double>() : nullptr);
  }
  return {input_grad ? to_dtype(gin, input.dtype()) : Tensor(), grid_grad ? to_dtype(ggrid, grid.dtype()) : Tensor()};
}

// ---------------------------------------------------------------- affine_grid_generator
Tensor affine_grid_base(const IntList& size, bool align_corners, DType dtype) {
  const int64_t k = static_cast<int64_t>(size.size()) - 2;  // spatial dims: 2 or 3
  // Coordinates along a dim of n points in [-1, 1] (scaled by (n-1)/n unless align_corners).
  auto coords = [&](int64_t n) {
    std::vector<double> c(n);
    for (int64_t i = 0; i < n; ++i) {
      double v = n <= 1 ? 0.0 : -1.0 + 2.0 * i / (n - 1);
      c[i] = align_corners ? v : v * (n - 1) / n;
    }
    return c;
  };
  int64_t total = 1;
  for (int64_t d = 2; d < 2 + k; ++d) total *= size[d];
  Tensor base = Tensor::empty({1, total, k + 1}, DType::Float64);
  double* p = base.data<double>();
  // Last spatial dim (x) varies fastest; columns are (x, y[, z], 1).
  std::vector<std::vector<double>> axes;
  for (int64_t d = 2; d < 2 + k; ++d) axes.push_back(coords(size[d]));
  for (int64_t i = 0; i < total; ++i) {
    int64_t rem = i;
    for (int64_t j = 0; j < k; ++j) {
      const int64_t d = k - 1 - j;  // spatial dim index from the last
      const int64_t n = size[2 + d];
      p[i * (k + 1) + j] = axes[d][rem % n];
      rem /= n;
    }
    p[i * (k + 1) + k] = 1.0;
  }
  return to_dtype(base, dtype);
}

Tensor affine_grid_generator(const Tensor& theta, const IntList& size, bool align_corners) {
  const char* op = "affine_grid_generator";
  const int64_t k = static_cast<int64_t>(size.size()) - 2;
  TZ_CHECK(k == 2 || k == 3, NotImplemented, op, "(): affine_grid only supports 4D and 5D sizes, for 2D and 3D "
           "affine transforms, respectively. Got size ", shape_str(Shape(size.begin(), size.end())), ".");
  TZ_CHECK(is_floating(theta.dtype()), Runtime, op, "(): expected theta to have floating point type, but got ",
           scalar_type_name(theta.dtype()));
  TZ_CHECK(theta.dim() == 3 && theta.sizes()[0] == size[0] && theta.sizes()[1] == k && theta.sizes()[2] == k + 1,
           Runtime, op, "(): Expected a batch of ", k, "D affine matrices of shape Nx", k, "x", k + 1, " for size ",
           shape_str(Shape(size.begin(), size.end())), ". Got ", shape_str(theta.sizes()), ".");
  for (int64_t d = 0; d < k + 2; ++d)
    TZ_CHECK(size[d] > 0, Runtime, op, "(): Expected non-zero, positive output size. Got ",
             shape_str(Shape(size.begin(), size.end())));
  const Tensor base = affine_grid_base(size, align_corners, theta.dtype());
  const Tensor grid = bmm(expand(base, {size[0], base.sizes()[1], k + 1}), transpose(theta, 1, 2));
  Shape out{size[0]};
  for (int64_t d = 2; d < k + 2; ++d) out.push_back(size[d]);
  out.push_back(k);
  return reshape(grid, IntList(out.begin(), out.end()));
}

// ---------------------------------------------------------------- pixel_shuffle
namespace {
Tensor shuffle(const Tensor& self, int64_t r, bool up) {
  const char* op = up ? "pixel_shuffle" : "pixel_unshuffle";
  const int64_t nd = self.dim();
  TZ_CHECK(nd >= 3, Runtime, op, "(): ", op, " expects input to have at least 3 dimensions, but got input with ", nd,
           " dimension(s)");
  TZ_CHECK(r > 0, Runtime, op, "(): ", op, " expects a positive ", up ? "upscale_factor" : "downscale_factor",
           ", but got ", r);
  const int64_t C = self.sizes()[nd - 3], H = self.sizes()[nd - 2], W = self.sizes()[nd - 1];
  const int64_t r2 = checked_mul(r, r, op, up ? "upscale_factor squared" : "downscale_factor squared");
  if (up) checked_mul(checked_mul(H, r, op, "the output height"), checked_mul(W, r, op, "the output width"), op,
                      "the output plane");
  IntList batch(self.sizes().begin(), self.sizes().end() - 3);
  IntList split = batch, perm, out = batch;
  const int64_t b = static_cast<int64_t>(batch.size());
  for (int64_t i = 0; i < b; ++i) perm.push_back(i);
  if (up) {
    TZ_CHECK(C % r2 == 0, Runtime, op, "(): pixel_shuffle expects its input's 'channel' dimension to be "
             "divisible by the square of upscale_factor, but input.size(-3)=", C, " is not divisible by ", r2);
    split.insert(split.end(), {C / r2, r, r, H, W});
    perm.insert(perm.end(), {b, b + 3, b + 1, b + 4, b + 2});
    out.insert(out.end(), {C / r2, H * r, W * r});
  } else {
    TZ_CHECK(H % r == 0, Runtime, op, "(): pixel_unshuffle expects height to be divisible by downscale_factor, but "
             "input.size(-2)=", H, " is not divisible by ", r);
    TZ_CHECK(W % r == 0, Runtime, op, "(): pixel_unshuffle expects width to be divisible by downscale_factor, but "
             "input.size(-1)=", W, " is not divisible by ", r);
    split.insert(split.end(), {C, H / r, r, W / r, r});
    perm.insert(perm.end(), {b, b + 2, b + 4, b + 1, b + 3});
    out.insert(out.end(), {checked_mul(C, r2, op, "the output channels"), H / r, W / r});
  }
  Tensor result = reshape(permute(reshape(self, split), perm), out);
  if (result.storage() == self.storage()) result = clone(result);  // never a view, like PyTorch
  return contiguous(result, suggest_memory_format(self));
}
}  // namespace

Tensor pixel_shuffle(const Tensor& self, int64_t upscale_factor) { return shuffle(self, upscale_factor, true); }
Tensor pixel_unshuffle(const Tensor& self, int64_t downscale_factor) { return shuffle(self, downscale_factor, false); }

}  // namespace tz
