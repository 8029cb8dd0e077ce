// Pooling and separable-interpolation loops (see kernels/nn_pool.h). NCHW planes run one
// output row per task with scalar window loops; NHWC images keep channels in the innermost
// loop, which the compiler vectorises with this file's ISA flags (NHWC averages sum whole
// vectors of channels in registers, window_mean_vectors). Backward kernels scatter
// into the input gradient, so their tasks split planes and channel blocks, never rows.
#include <algorithm>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "iter/thread_pool.h"
#include "kernels/isa_vector.h"
#include "kernels/nn_pool.h"
#include "kernels/simd_vec.h"

namespace tz {
namespace TZ_CPU_CAPABILITY {
namespace {

constexpr int64_t kWork = 1 << 15;  // element operations per task, at least
constexpr int64_t kLaneBlock = 64;  // channels per backward task

int64_t grain_for(int64_t per_item) { return std::max<int64_t>(1, kWork / std::max<int64_t>(1, per_item)); }

template <typename T> T lowest() {
  return std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::lowest();
}
template <typename T> bool is_nan(T v) { return v != v; }

// Tasks of a scatter (backward) kernel: planes times channel blocks.
template <typename F> void for_scatter_tasks(const PoolGeom& g, int64_t per_task, F f) {
  const int64_t blocks = (g.L + kLaneBlock - 1) / kLaneBlock;
  parallel_for(0, g.P * blocks, grain_for(per_task), [&](int64_t b, int64_t e) {
    for (int64_t t = b; t < e; ++t) {
      const int64_t l0 = (t % blocks) * kLaneBlock;
      f(t / blocks, l0, std::min(g.L, l0 + kLaneBlock));
    }
  });
}

// Whether v replaces the running maximum m (NaN wins, and stays).
template <typename T> TZ_VINLINE bool takes(T v, T m) { return (v > m) | is_nan(v); }

// o[j] = max over k < taps of c[j * kStride + k * step], j < n: the interior windows of a row.
template <typename T, int kStride>
void max_over_columns(const T* c, T* __restrict o, int64_t n, int64_t taps, int64_t step) {
  for (int64_t j = 0; j < n; ++j) o[j] = c[j * kStride];
  for (int64_t k = 1; k < taps; ++k) {
    const T* ck = c + k * step;
    for (int64_t j = 0; j < n; ++j) o[j] = takes(ck[j * kStride], o[j]) ? ck[j * kStride] : o[j];
  }
}

// The outputs [begin, end) of an axis whose windows all hold `taps` positions and start
// `stride` apart (the windows that padding and the edges leave whole).
struct Interior {
  int64_t begin = 0, end = 0, stride = 1, taps = 1;
};

Interior interior_of(const PoolWindows& w, int64_t n) {
  auto taps = [&](int64_t o) { return w.end[o] > w.start[o] ? (w.end[o] - w.start[o] - 1) / w.step + 1 : 0; };
  Interior in;
  for (int64_t o = 0; o < n; ++o) in.taps = std::max(in.taps, taps(o));
  while (in.begin < n && taps(in.begin) != in.taps) ++in.begin;
  in.end = in.begin;
  if (in.begin + 1 < n) in.stride = w.start[in.begin + 1] - w.start[in.begin];
  while (in.end < n && taps(in.end) == in.taps && w.start[in.end] == w.start[in.begin] + (in.end - in.begin) * in.stride)
    ++in.end;
  return in;
}

// One output row of NCHW planes without indices: the window rows' maximum of every input
// column (contiguous, vectorised), then each output's maximum over its window's columns, both
// without branches (a branch per element mispredicted about half the time on real data).
template <typename T>
void max_pool_plane_row(const T* xp, T* o, T* cols, const PoolGeom& g, const PoolWindows& h, const PoolWindows& w,
                        const Interior& in, int64_t oh) {
  const int64_t W = g.W, h0 = h.start[oh], h1 = h.end[oh];
  if (h0 >= h1) return std::fill(o, o + g.oW, lowest<T>());  // every window in the padding
  std::memcpy(cols, xp + h0 * W, static_cast<size_t>(W) * sizeof(T));
  for (int64_t ih = h0 + h.step; ih < h1; ih += h.step) {
    const T* __restrict src = xp + ih * W;
    T* __restrict c = cols;
    for (int64_t iw = 0; iw < W; ++iw) c[iw] = takes(src[iw], c[iw]) ? src[iw] : c[iw];
  }
  const int64_t lo = in.begin, hi = in.end;
  auto border = [&](int64_t ow0, int64_t ow1) {
    for (int64_t ow = ow0; ow < ow1; ++ow) {
      const int64_t w0 = w.start[ow], w1 = w.end[ow];
      T m = w0 < w1 ? cols[w0] : lowest<T>();  // a window in the padding: the max of nothing
      for (int64_t iw = w0 + w.step; iw < w1; iw += w.step) m = takes(cols[iw], m) ? cols[iw] : m;
      o[ow] = m;
    }
  };
  border(0, lo);
  if (lo < hi && in.stride == 1)
    max_over_columns<T, 1>(cols + w.start[lo], o + lo, hi - lo, in.taps, w.step);
  else if (lo < hi && in.stride == 2)
    max_over_columns<T, 2>(cols + w.start[lo], o + lo, hi - lo, in.taps, w.step);
  else
    border(lo, hi);
  border(hi, g.oW);
}

template <typename T>
void max_pool_impl(const T* x, T* out, int64_t* idx, const PoolGeom& g, const PoolWindows& h, const PoolWindows& w) {
  using I = std::conditional_t<sizeof(T) == 8, int64_t, int32_t>;  // plane positions fit in 31 bits
  const int64_t L = g.L, W = g.W;
  const int64_t win = ((h.end[0] - h.start[0]) / h.step + 1) * ((w.end[0] - w.start[0]) / w.step + 1);
  parallel_for(0, g.P * g.oH, grain_for(g.oW * L * win), [&](int64_t b, int64_t e) {
    Vector<I> scratch(L);
    Vector<T> cols(L == 1 && !idx ? W : 0);
    const Interior interior = L == 1 && !idx ? interior_of(w, g.oW) : Interior();
    // (p, oh) of row r, stepped without a division per row.
    for (int64_t r = b, p = b / g.oH, oh = b % g.oH; r < e; ++r, oh = oh + 1 == g.oH ? (++p, 0) : oh + 1) {
      const int64_t h0 = h.start[oh], h1 = h.end[oh];
      const T* xp = x + p * g.H * W * L;
      T* o = out + r * g.oW * L;
      if (L == 1 && !idx) {
        max_pool_plane_row(xp, o, cols.data(), g, h, w, interior, oh);
        continue;
      }
      int64_t* oi = idx ? idx + r * g.oW * L : nullptr;
      for (int64_t ow = 0; ow < g.oW; ++ow) {
        const int64_t w0 = w.start[ow], w1 = w.end[ow];
        if (L == 1) {
          T m = lowest<T>();
          int64_t mi = h0 * W + w0;
          for (int64_t ih = h0; ih < h1; ih += h.step)
            for (int64_t iw = w0; iw < w1; iw += w.step) {
              const T v = xp[ih * W + iw];
              const bool take = takes(v, m);
              m = take ? v : m;
              mi = take ? ih * W + iw : mi;
            }
          o[ow] = m;
          oi[ow] = mi;
          continue;
        }
        T* __restrict ol = o + ow * L;
        for (int64_t l = 0; l < L; ++l) ol[l] = lowest<T>();
        if (!oi) {  // values only: a plain vectorised max (NaN wins)
          for (int64_t ih = h0; ih < h1; ih += h.step)
            for (int64_t iw = w0; iw < w1; iw += w.step) {
              const T* __restrict src = xp + (ih * W + iw) * L;
              for (int64_t l = 0; l < L; ++l) {
                const T v = src[l];
                ol[l] = (v > ol[l]) | is_nan(v) ? v : ol[l];
              }
            }
          continue;
        }
        // Index lanes as wide as the values, so the selects vectorise; widened at the end.
        I* __restrict il = scratch.data();
        for (int64_t l = 0; l < L; ++l) il[l] = static_cast<I>(h0 * W + w0);
        for (int64_t ih = h0; ih < h1; ih += h.step)
          for (int64_t iw = w0; iw < w1; iw += w.step) {
            const T* __restrict src = xp + (ih * W + iw) * L;
            const I pos = static_cast<I>(ih * W + iw);
            for (int64_t l = 0; l < L; ++l) {
              const T v = src[l];
              const bool take = (v > ol[l]) | is_nan(v);
              ol[l] = take ? v : ol[l];
              il[l] = take ? pos : il[l];
            }
          }
        int64_t* __restrict out_idx = oi + ow * L;
        for (int64_t l = 0; l < L; ++l) out_idx[l] = il[l];
      }
    }
  });
}

void max_pool_kernel(DType dtype, const void* x, void* out, int64_t* idx, const PoolGeom& g, const PoolWindows& h,
                     const PoolWindows& w) {
  auto run = [&](auto zero) {
    using T = decltype(zero);
    max_pool_impl(static_cast<const T*>(x), static_cast<T*>(out), idx, g, h, w);
  };
  switch (dtype) {
    case DType::UInt8: return run(uint8_t());
    case DType::Int8: return run(int8_t());
    case DType::Int16: return run(int16_t());
    case DType::Int32: return run(int32_t());
    case DType::Int64: return run(int64_t());
    case DType::Float32: return run(float());
    case DType::Float64: return run(double());
    default: fail(ErrorKind::Type, "max_pool2d(): not implemented for dtype ", dtype_name(dtype));
  }
}

// Sum of a contiguous run in native vectors (two independent accumulators), then the tail.
template <typename Acc, typename T> Acc sum_run(const T* p, int64_t n) {
  static_assert(std::is_same_v<Acc, T>, "runs are summed in their own type");
  using V = vm::vec<T>;
  constexpr int64_t L = vm::kLanes<T>;
  V a0 = {}, a1 = {};
  int64_t i = 0;
  for (; i + 2 * L <= n; i += 2 * L) a0 += vm::load(p + i), a1 += vm::load(p + i + L);
  if (i + L <= n) a0 += vm::load(p + i), i += L;
  a0 += a1;
  // Lanes folded as a tree: log2(lanes) dependent adds, not one per lane.
  T lanes[L];
  std::memcpy(lanes, &a0, sizeof(a0));
  for (int64_t w = L / 2; w >= 1; w /= 2)
    for (int64_t k = 0; k < w; ++k) lanes[k] += lanes[k + w];
  Acc s = lanes[0];
  for (; i < n; ++i) s += p[i];
  return s;
}

template <typename Acc, typename T> Acc sum_box(const T* xp, int64_t W, int64_t h0, int64_t h1, int64_t w0, int64_t w1) {
  Acc s = 0;
  for (int64_t ih = h0; ih < h1; ++ih) {
    const T* row = xp + ih * W;
    for (int64_t iw = w0; iw < w1; ++iw) s += row[iw];
  }
  return s;
}

// NV vectors of channels from c of one NHWC window's average (pixels S elements apart), summed
// in registers pixel by pixel (the order of the lane loop below, so the same bits), into o.
template <int NV, typename T>
TZ_VINLINE void window_mean(const T* xp, int64_t W, int64_t S, int64_t c, int64_t h0, int64_t h1, int64_t w0, int64_t w1,
                            T div, T* o) {
  using V = vm::vec<T>;
  constexpr int64_t kL = vm::kLanes<T>;
  V acc[NV] = {};
  for (int64_t ih = h0; ih < h1; ++ih)
    for (int64_t iw = w0; iw < w1; ++iw) {
      const T* src = xp + (ih * W + iw) * S + c;
#pragma GCC unroll 8
      for (int v = 0; v < NV; ++v) acc[v] += vm::load(src + v * kL);
    }
  const V d = vm::splat<V>(div);
#pragma GCC unroll 8
  for (int v = 0; v < NV; ++v) vm::store(o + c + v * kL, acc[v] / d);
}

// The whole vectors of channels of one NHWC window's average, eight at a time (an accumulator
// array in memory cost a load and a store per vector and pixel: global pooling of 120 channels
// at 28x28 ran at a third of the bandwidth); returns the channels done. Pixels S elements apart.
template <typename T>
int64_t window_mean_vectors(const T* xp, int64_t W, int64_t L, int64_t S, int64_t h0, int64_t h1, int64_t w0,
                            int64_t w1, T div, T* o) {
  constexpr int64_t kL = vm::kLanes<T>;
  int64_t c = 0;
  for (; c + 8 * kL <= L; c += 8 * kL) window_mean<8>(xp, W, S, c, h0, h1, w0, w1, div, o);
  switch ((L - c) / kL) {
    case 7: window_mean<7>(xp, W, S, c, h0, h1, w0, w1, div, o); break;
    case 6: window_mean<6>(xp, W, S, c, h0, h1, w0, w1, div, o); break;
    case 5: window_mean<5>(xp, W, S, c, h0, h1, w0, w1, div, o); break;
    case 4: window_mean<4>(xp, W, S, c, h0, h1, w0, w1, div, o); break;
    case 3: window_mean<3>(xp, W, S, c, h0, h1, w0, w1, div, o); break;
    case 2: window_mean<2>(xp, W, S, c, h0, h1, w0, w1, div, o); break;
    case 1: window_mean<1>(xp, W, S, c, h0, h1, w0, w1, div, o); break;
    default: break;
  }
  return c + (L - c) / kL * kL;
}

template <typename T, typename Acc>
void avg_pool_impl(const T* x, T* out, const PoolGeom& g, const PoolWindows& h, const PoolWindows& w) {
  const int64_t L = g.L, W = g.W, S = g.stride ? g.stride : L;
  const int64_t win = (h.end[0] - h.start[0]) * (w.end[0] - w.start[0]);
  parallel_for(0, g.P * g.oH, grain_for(g.oW * L * win), [&](int64_t b, int64_t e) {
    Vector<Acc> acc(L);
    // (p, oh) of row r, stepped without a division per row.
    for (int64_t r = b, p = b / g.oH, oh = b % g.oH; r < e; ++r, oh = oh + 1 == g.oH ? (++p, 0) : oh + 1) {
      const int64_t h0 = h.start[oh], h1 = h.end[oh];
      const T* xp = x + p * g.H * W * S;
      T* o = out + r * g.oW * L;
      for (int64_t ow = 0; ow < g.oW; ++ow) {
        const int64_t w0 = w.start[ow], w1 = w.end[ow];
        const Acc div = static_cast<Acc>(h.div[oh] * w.div[ow]);
        if (L == 1 && S == 1) {
          // Windows spanning whole rows (global pooling: every classifier head) are one
          // contiguous run: summed with independent partial sums, which vectorise.
          const Acc s = w0 == 0 && w1 == W ? sum_run<Acc>(xp + h0 * W, (h1 - h0) * W) : sum_box<Acc>(xp, W, h0, h1, w0, w1);
          o[ow] = static_cast<T>(s / div);
          continue;
        }
        T* __restrict ol = o + ow * L;
        int64_t done = 0;
        if constexpr (std::is_floating_point_v<T>) done = window_mean_vectors(xp, W, L, S, h0, h1, w0, w1, div, ol);
        if (done == L) continue;
        Acc* __restrict a = acc.data();
        std::fill(a + done, a + L, Acc(0));
        for (int64_t ih = h0; ih < h1; ++ih)
          for (int64_t iw = w0; iw < w1; ++iw) {
            const T* __restrict src = xp + (ih * W + iw) * S;
            for (int64_t l = done; l < L; ++l) a[l] += src[l];
          }
        for (int64_t l = done; l < L; ++l) ol[l] = static_cast<T>(a[l] / div);
      }
    }
  });
}

void avg_pool_kernel(DType dtype, const void* x, void* out, const PoolGeom& g, const PoolWindows& h,
                     const PoolWindows& w) {
  switch (dtype) {
    case DType::Float32: return avg_pool_impl<float, float>(static_cast<const float*>(x), static_cast<float*>(out), g, h, w);
    case DType::Float64: return avg_pool_impl<double, double>(static_cast<const double*>(x), static_cast<double*>(out), g, h, w);
    case DType::Int64: return avg_pool_impl<int64_t, int64_t>(static_cast<const int64_t*>(x), static_cast<int64_t*>(out), g, h, w);
    default: fail(ErrorKind::Type, "avg_pool2d(): not implemented for dtype ", dtype_name(dtype));
  }
}

template <typename T>
void avg_pool_backward_impl(const T* gout, T* gin, const PoolGeom& g, const PoolWindows& h, const PoolWindows& w) {
  const int64_t L = g.L, W = g.W;
  for_scatter_tasks(g, g.oH * g.oW * std::min(L, kLaneBlock) * 4, [&](int64_t p, int64_t l0, int64_t l1) {
    T* gp = gin + p * g.H * W * L;
    for (int64_t oh = 0; oh < g.oH; ++oh)
      for (int64_t ow = 0; ow < g.oW; ++ow) {
        const T* go = gout + ((p * g.oH + oh) * g.oW + ow) * L;
        const T div = static_cast<T>(h.div[oh] * w.div[ow]);
        for (int64_t ih = h.start[oh]; ih < h.end[oh]; ++ih)
          for (int64_t iw = w.start[ow]; iw < w.end[ow]; ++iw) {
            T* __restrict dst = gp + (ih * W + iw) * L;
            for (int64_t l = l0; l < l1; ++l) dst[l] += go[l] / div;
          }
      }
  });
}

void avg_pool_backward_kernel(DType dtype, const void* gout, void* gin, const PoolGeom& g, const PoolWindows& h,
                              const PoolWindows& w) {
  if (dtype == DType::Float32)
    return avg_pool_backward_impl(static_cast<const float*>(gout), static_cast<float*>(gin), g, h, w);
  avg_pool_backward_impl(static_cast<const double*>(gout), static_cast<double*>(gin), g, h, w);
}

// TW: taps along w known at compile time (0 = use w.taps).
template <typename T, int TW>
void interp_impl(const T* x, T* out, const PoolGeom& g, const InterpTaps& h, const InterpTaps& w) {
  const int64_t L = g.L, W = g.W, th = h.taps, tw = TW ? TW : w.taps;
  const T* hw = static_cast<const T*>(h.weight);
  const T* ww = static_cast<const T*>(w.weight);
  parallel_for(0, g.P * g.oH, grain_for(g.oW * L * th * tw), [&](int64_t b, int64_t e) {
    Vector<T> inner(L);
    // NCHW (L == 1): input rows interpolated along w, kept in th slots (row_of: which input
    // row of plane `cached` each holds), so that the output rows sharing an input row (all of
    // them when upsampling) blend whole rows along h instead of gathering four taps each.
    Vector<T> rows(L == 1 ? th * g.oW : 0);
    std::vector<int64_t> row_of(L == 1 ? th : 0, -1);
    std::vector<const T*> taps(th);
    int64_t cached = -1;
    for (int64_t r = b, p = b / g.oH, oh = b % g.oH; r < e; ++r, oh = oh + 1 == g.oH ? (++p, 0) : oh + 1) {
      const T* xp = x + p * g.H * W * L;
      T* o = out + r * g.oW * L;
      const int64_t* hi = h.index + oh * th;
      const T* hwt = hw + oh * th;
      if (L == 1) {
        if (p != cached) std::fill(row_of.begin(), row_of.end(), int64_t(-1)), cached = p;
        for (int64_t a = 0; a < th; ++a) {
          int64_t slot = std::find(row_of.begin(), row_of.end(), hi[a]) - row_of.begin();
          if (slot == th) {  // a slot holding none of this output row's input rows
            slot = 0;
            while (std::find(hi, hi + th, row_of[slot]) != hi + th) ++slot;
            const T* row = xp + hi[a] * W;
            T* dst = rows.data() + slot * g.oW;
            for (int64_t ow = 0; ow < g.oW; ++ow) {
              const int64_t* wi = w.index + ow * tw;
              const T* wwt = ww + ow * tw;
              T t = row[wi[0]] * wwt[0];
              for (int64_t k = 1; k < tw; ++k) t += row[wi[k]] * wwt[k];
              dst[ow] = t;
            }
            row_of[slot] = hi[a];
          }
          taps[a] = rows.data() + slot * g.oW;
        }
        for (int64_t a = 0; a < th; ++a) {
          const T* __restrict t = taps[a];
          T* __restrict s = o;
          const T ha = hwt[a];
          if (a == 0)
            for (int64_t ow = 0; ow < g.oW; ++ow) s[ow] = t[ow] * ha;
          else
            for (int64_t ow = 0; ow < g.oW; ++ow) s[ow] += t[ow] * ha;
        }
        continue;
      }
      for (int64_t ow = 0; ow < g.oW; ++ow) {
        const int64_t* wi = w.index + ow * tw;
        const T* wwt = ww + ow * tw;
        T* __restrict s = o + ow * L;
        if (TW == 2 && th == 2) {  // bilinear: the four taps in one pass over the channels
          const T *__restrict r0 = xp + hi[0] * W * L, *__restrict r1 = xp + hi[1] * W * L;
          const T *__restrict a0 = r0 + wi[0] * L, *__restrict a1 = r0 + wi[1] * L;
          const T *__restrict b0 = r1 + wi[0] * L, *__restrict b1 = r1 + wi[1] * L;
          const T w0 = wwt[0], w1 = wwt[1], h0 = hwt[0], h1 = hwt[1];
          for (int64_t l = 0; l < L; ++l) s[l] = (a0[l] * w0 + a1[l] * w1) * h0 + (b0[l] * w0 + b1[l] * w1) * h1;
          continue;
        }
        T* __restrict t = inner.data();
        for (int64_t a = 0; a < th; ++a) {
          const T* row = xp + hi[a] * W * L;
          {
            const T* __restrict src = row + wi[0] * L;
            const T wk = wwt[0];
            for (int64_t l = 0; l < L; ++l) t[l] = src[l] * wk;
          }
          for (int64_t k = 1; k < tw; ++k) {
            const T* __restrict src = row + wi[k] * L;
            const T wk = wwt[k];
            for (int64_t l = 0; l < L; ++l) t[l] += src[l] * wk;
          }
          const T ha = hwt[a];
          if (a == 0)
            for (int64_t l = 0; l < L; ++l) s[l] = t[l] * ha;
          else
            for (int64_t l = 0; l < L; ++l) s[l] += t[l] * ha;
        }
      }
    }
  });
}

template <typename T>
void interp_typed(const void* x, void* out, const PoolGeom& g, const InterpTaps& h, const InterpTaps& w) {
  const T* xi = static_cast<const T*>(x);
  T* o = static_cast<T*>(out);
  switch (w.taps) {
    case 1: return interp_impl<T, 1>(xi, o, g, h, w);
    case 2: return interp_impl<T, 2>(xi, o, g, h, w);
    case 4: return interp_impl<T, 4>(xi, o, g, h, w);
    default: return interp_impl<T, 0>(xi, o, g, h, w);
  }
}

void interp_kernel(DType dtype, const void* x, void* out, const PoolGeom& g, const InterpTaps& h, const InterpTaps& w) {
  if (dtype == DType::Float32) return interp_typed<float>(x, out, g, h, w);
  interp_typed<double>(x, out, g, h, w);
}

template <typename T>
void interp_backward_impl(const T* gout, T* gin, const PoolGeom& g, const InterpTaps& h, const InterpTaps& w) {
  const int64_t L = g.L, W = g.W, th = h.taps, tw = w.taps;
  const T* hw = static_cast<const T*>(h.weight);
  const T* ww = static_cast<const T*>(w.weight);
  for_scatter_tasks(g, g.oH * g.oW * std::min(L, kLaneBlock) * th * tw, [&](int64_t p, int64_t l0, int64_t l1) {
    T* gp = gin + p * g.H * W * L;
    for (int64_t oh = 0; oh < g.oH; ++oh)
      for (int64_t ow = 0; ow < g.oW; ++ow) {
        const T* go = gout + ((p * g.oH + oh) * g.oW + ow) * L;
        for (int64_t a = 0; a < th; ++a)
          for (int64_t k = 0; k < tw; ++k) {
            const T wt = hw[oh * th + a] * ww[ow * tw + k];
            T* __restrict dst = gp + (h.index[oh * th + a] * W + w.index[ow * tw + k]) * L;
            for (int64_t l = l0; l < l1; ++l) dst[l] += wt * go[l];
          }
      }
  });
}

void interp_backward_kernel(DType dtype, const void* gout, void* gin, const PoolGeom& g, const InterpTaps& h,
                            const InterpTaps& w) {
  if (dtype == DType::Float32)
    return interp_backward_impl(static_cast<const float*>(gout), static_cast<float*>(gin), g, h, w);
  interp_backward_impl(static_cast<const double*>(gout), static_cast<double*>(gin), g, h, w);
}

template <typename E>
void nearest_impl(const E* x, E* out, const PoolGeom& g, const int64_t* hi, const int64_t* wi) {
  const int64_t L = g.L, W = g.W;
  parallel_for(0, g.P * g.oH, grain_for(g.oW * L), [&](int64_t b, int64_t e) {
    for (int64_t r = b, p = b / g.oH, oh = b % g.oH; r < e; ++r, oh = oh + 1 == g.oH ? (++p, 0) : oh + 1) {
      const E* row = x + (p * g.H + hi[oh]) * W * L;
      E* o = out + r * g.oW * L;
      if (L == 1) {
        for (int64_t ow = 0; ow < g.oW; ++ow) o[ow] = row[wi[ow]];
      } else {
        for (int64_t ow = 0; ow < g.oW; ++ow) std::memcpy(o + ow * L, row + wi[ow] * L, L * sizeof(E));
      }
    }
  });
}

void nearest_kernel(int64_t itemsize, const void* x, void* out, const PoolGeom& g, const int64_t* hi, const int64_t* wi) {
  switch (itemsize) {
    case 1: return nearest_impl(static_cast<const uint8_t*>(x), static_cast<uint8_t*>(out), g, hi, wi);
    case 2: return nearest_impl(static_cast<const uint16_t*>(x), static_cast<uint16_t*>(out), g, hi, wi);
    case 4: return nearest_impl(static_cast<const uint32_t*>(x), static_cast<uint32_t*>(out), g, hi, wi);
    default: return nearest_impl(static_cast<const uint64_t*>(x), static_cast<uint64_t*>(out), g, hi, wi);
  }
}

}  // namespace

TZ_REGISTER_KERNEL(max_pool_stub, &max_pool_kernel);
TZ_REGISTER_KERNEL(avg_pool_stub, &avg_pool_kernel);
TZ_REGISTER_KERNEL(avg_pool_backward_stub, &avg_pool_backward_kernel);
TZ_REGISTER_KERNEL(interp_stub, &interp_kernel);
TZ_REGISTER_KERNEL(interp_backward_stub, &interp_backward_kernel);
TZ_REGISTER_KERNEL(nearest_stub, &nearest_kernel);

}  // namespace TZ_CPU_CAPABILITY
}  // namespace tz
