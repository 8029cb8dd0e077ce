// Direct convolution for few input channels (see SmallInputConvArgs in kernels/conv.h):
// output channels in vector lanes, two vectors of them at a time (one for an odd last
// vector); each tap broadcasts one input value. Several output pixels (interior_step: eight
// to twelve FMA chains) share every weight load where all their taps are inside the input (one
// flat loop over the taps); border pixels go one at a time over their valid taps. The fused activation
// is applied before the store; NCHW rows are transposed from an NHWC buffer.
#include <algorithm>
#include <cmath>
#include <type_traits>

#include "kernels/conv.h"
#include "kernels/isa/conv_activation.h"
#include "kernels/isa_vector.h"
#include "kernels/simd_vec.h"

namespace tz {
namespace TZ_CPU_CAPABILITY {
namespace {

using vm::kLanes;
using vm::vec;
using vm::vfma;

// NV vectors of bias from o0 (zeros past O, or without a bias).
template <int NV, typename T> TZ_VINLINE void load_bias(const T* bias, int64_t o0, int64_t O, vec<T>* b) {
  constexpr int64_t L = kLanes<T>;
  alignas(vm::kVecBytes) T lanes[NV * L] = {};
  if (bias)
    for (int64_t l = 0; l < NV * L && o0 + l < O; ++l) lanes[l] = bias[o0 + l];
#pragma GCC unroll 4
  for (int v = 0; v < NV; ++v) b[v] = vm::load(lanes + v * L);
}

// Stores act(NV vectors of outputs) (channels o0 ...) of one NHWC pixel (NCHW rows go through
// a buffer of NHWC pixels, small_input_rows).
template <ConvAct A, int NV, typename T>
TZ_VINLINE void store_pixel(const SmallInputConvArgs& a, vec<T>* acc, int64_t o0, T* y) {
  constexpr int64_t L = kLanes<T>;
#pragma GCC unroll 4
  for (int v = 0; v < NV; ++v) acc[v] = conv_activate<A>(acc[v]);
  const int64_t count = std::min<int64_t>(NV * L, a.s.O - o0);
#pragma GCC unroll 4
  for (int v = 0; v < NV; ++v) {
    const int64_t n = count - v * L;
    if (n >= L) vm::store(y + o0 + v * L, acc[v]);
    else if (n > 0) vm::store_partial(y + o0 + v * L, acc[v], n);
  }
}

// P interior pixels (every tap inside the input), `pixel_step` apart in the input, over
// the taps listed in `taps` (input offsets, in the packed weight's (kh, kw, c) order); NV
// vectors of output channels from o0.
template <ConvAct A, int P, int NV, typename T>
TZ_VINLINE void interior_pixels(const SmallInputConvArgs& a, const T* x, int64_t pixel_step, const int64_t* taps,
                                int64_t n_taps, const T* w, int64_t o0, const T* bias, T* y) {
  using V = vec<T>;
  constexpr int64_t L = kLanes<T>;
  V acc[P][NV];
  load_bias<NV>(bias, o0, a.s.O, acc[0]);
#pragma GCC unroll 16
  for (int p = 1; p < P; ++p)
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) acc[p][v] = acc[0][v];
  const T* wt = w + o0;
  for (int64_t t = 0; t < n_taps; ++t, wt += a.opad) {
    V wv[NV];
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) wv[v] = vm::load(wt + v * L);
    const T* xp = x + taps[t];
#pragma GCC unroll 16
    for (int p = 0; p < P; ++p, xp += pixel_step) {
      const V xv = vm::splat<V>(*xp);
#pragma GCC unroll 4
      for (int v = 0; v < NV; ++v) acc[p][v] = vfma(xv, wv[v], acc[p][v]);
    }
  }
#pragma GCC unroll 16
  for (int p = 0; p < P; ++p) store_pixel<A, NV>(a, acc[p], o0, y + p * a.y_w);
}

// Interior pixels per step for NV vectors of output channels: FMA chains enough to hide the
// FMA latency. With 32 registers twelve chains, the activations' constants beside them (a
// 224x224 RGB stem to 16 channels under hardswish, four pixels a step: 151 us, 1 thread,
// AVX-512). With 16: five pixels (ten chains hid the latency better than eight: a 7x7
// stride-2 RGB stem 6% faster), four under the hard activations (with their constants in the
// register file, GCC kept six pixels' accumulators on the stack, stored and reloaded at every
// tap: 348 us instead of 242).
template <ConvAct A, int NV> constexpr int interior_step() {
  if constexpr (vm::kVecBytes == 64) return 12 / NV;
  return A == ConvAct::Hardswish || A == ConvAct::Hardsigmoid ? 4 : 5;
}

// `count` interior pixels from x (`pixel_step` apart) into y (a.y_w apart), P at a time, the
// rest fewer at a time: every pixel sums its taps in the same order, whatever its step.
template <ConvAct A, int P, int NV, typename T>
void interior_run(const SmallInputConvArgs& a, const T* x, int64_t pixel_step, const int64_t* taps, int64_t n_taps,
                  const T* w, int64_t o0, const T* bias, T* y, int64_t count) {
  int64_t i = 0;
  for (; i + P <= count; i += P)
    interior_pixels<A, P, NV>(a, x + i * pixel_step, pixel_step, taps, n_taps, w, o0, bias, y + i * a.y_w);
  if constexpr (P > 1)
    interior_run<A, P / 2, NV>(a, x + i * pixel_step, pixel_step, taps, n_taps, w, o0, bias, y + i * a.y_w, count - i);
}

// One pixel over its valid taps kh_r x kw_r. x: its input at (kh, kw) = (0, 0), which may
// lie outside (never read there).
template <ConvAct A, int NV, typename T>
TZ_VINLINE void border_pixel(const SmallInputConvArgs& a, ConvRange kh_r, ConvRange kw_r, const T* x, const T* w,
                             int64_t o0, const T* bias, T* y) {
  using V = vec<T>;
  constexpr int64_t L = kLanes<T>;
  const ConvShape& s = a.s;
  V acc[NV];
  load_bias<NV>(bias, o0, s.O, acc);
  for (int64_t kh = kh_r.lo; kh < kh_r.hi; ++kh)
    for (int64_t kw = kw_r.lo; kw < kw_r.hi; ++kw) {
      const T* xk = x + kh * s.dh * a.x_h + kw * s.dw * a.x_w;
      const T* wk = w + (kh * s.KW + kw) * s.C * a.opad + o0;
      for (int64_t c = 0; c < s.C; ++c) {
        const V xv = vm::splat<V>(xk[c * a.x_c]);
        for (int v = 0; v < NV; ++v) acc[v] = vfma(xv, vm::load(wk + c * a.opad + v * L), acc[v]);
      }
    }
  store_pixel<A, NV>(a, acc, o0, y);
}

// An NHWC row (cols pixels of `channels` values) into NCHW planes `plane` apart, eight pixels
// of a channel per step.
template <typename T> void transpose_row(const T* row, int64_t cols, int64_t channels, T* y, int64_t plane) {
  constexpr int64_t kStep = 8;
  for (int64_t c0 = 0; c0 < cols; c0 += kStep) {
    const int64_t n = std::min(kStep, cols - c0);
    for (int64_t o = 0; o < channels; ++o) {
      T* dst = y + o * plane + c0;
      const T* src = row + c0 * channels + o;
      for (int64_t j = 0; j < n; ++j) dst[j] = src[j * channels];
    }
  }
}

// Output channels go two vectors at a time; where Opad leaves one vector (O = 16 floats in a
// 64-byte vector), the last block is one vector: no lanes past Opad are computed or read.
template <typename T, ConvAct A>
void small_input_rows(const SmallInputConvArgs& a, int64_t begin, int64_t end) {
  const ConvShape& s = a.s;
  const T* x = static_cast<const T*>(a.x);
  const T* w = static_cast<const T*>(a.w);
  const T* bias = static_cast<const T*>(a.bias);
  T* y = static_cast<T*>(a.y);
  constexpr int64_t L = kLanes<T>;
  const int64_t pairs_end = a.opad / (2 * L) * (2 * L);  // channels covered by two-vector blocks
  // Output columns whose taps all lie inside the input row.
  const ConvRange inner = conv_valid_range(s.OW, s.W - (s.KW - 1) * s.dw, s.sw, -s.pw);
  // Input offsets of all taps in the packed weight's order, for rows with every kh inside.
  Vector<int64_t> taps;
  for (int64_t kh = 0; kh < s.KH; ++kh)
    for (int64_t kw = 0; kw < s.KW; ++kw)
      for (int64_t c = 0; c < s.C; ++c) taps.push_back(kh * s.dh * a.x_h + kw * s.dw * a.x_w + c * a.x_c);
  const int64_t pixel_step = s.sw * a.x_w;
  // NCHW outputs: each row is written NHWC into a buffer (whole vectors of channels per pixel)
  // and transposed into its planes while in cache; a value per plane from the lanes cost more.
  const bool planes = a.y_o != 1;
  Vector<T> row_buffer(planes ? s.OW * s.O : 0);
  SmallInputConvArgs row_args = a;
  if (planes) row_args.y_o = 1, row_args.y_w = s.O;
  for (int64_t task = begin; task < end; ++task) {
    const int64_t n = task / s.OH, oh = task % s.OH;
    const ConvRange kh_r = conv_valid_range(s.KH, s.H, s.dh, oh * s.sh - s.ph);
    const bool all_rows = kh_r.lo == 0 && kh_r.hi == s.KH;
    const T* xn = x + n * s.C * s.H * s.W + (oh * s.sh - s.ph) * a.x_h;  // row of kh = 0
    T* yrow = planes ? row_buffer.data() : y + n * s.O * s.OH * s.OW + oh * s.OW * a.y_w;
    auto x_at = [&](int64_t ow) { return xn + (ow * s.sw - s.pw) * a.x_w; };
    const SmallInputConvArgs& r = row_args;
    auto one = [&](int64_t ow) {
      const ConvRange kw_r = conv_valid_range(s.KW, s.W, s.dw, ow * s.sw - s.pw);
      T* yp = yrow + ow * r.y_w;
      for (int64_t o0 = 0; o0 < pairs_end; o0 += 2 * L) border_pixel<A, 2>(r, kh_r, kw_r, x_at(ow), w, o0, bias, yp);
      if (pairs_end < a.opad) border_pixel<A, 1>(r, kh_r, kw_r, x_at(ow), w, pairs_end, bias, yp);
    };
    int64_t ow = 0;
    for (; ow < inner.lo; ++ow) one(ow);
    // the interior pixels, each block of channels over all of them
    const int64_t interior_end = all_rows ? std::max(ow, inner.hi) : ow, count = interior_end - ow;
    const int64_t n_taps = static_cast<int64_t>(taps.size());
    for (int64_t o0 = 0; o0 < pairs_end; o0 += 2 * L)
      interior_run<A, interior_step<A, 2>(), 2>(r, x_at(ow), pixel_step, taps.data(), n_taps, w, o0, bias,
                                               yrow + ow * r.y_w, count);
    if (pairs_end < a.opad)
      interior_run<A, interior_step<A, 1>(), 1>(r, x_at(ow), pixel_step, taps.data(), n_taps, w, pairs_end, bias,
                                               yrow + ow * r.y_w, count);
    for (ow = interior_end; ow < s.OW; ++ow) one(ow);
    if (planes) transpose_row(row_buffer.data(), s.OW, s.O, y + n * s.O * s.OH * s.OW + oh * s.OW, a.y_o);
  }
}

template <typename T> void small_input_for(const SmallInputConvArgs& a, int64_t begin, int64_t end) {
  with_conv_act(a.act, [&](auto act) { small_input_rows<T, decltype(act)::value>(a, begin, end); });
}

void small_input(DType dtype, const SmallInputConvArgs& a, int64_t begin, int64_t end) {
  if (dtype == DType::Float64) small_input_for<double>(a, begin, end);
  else small_input_for<float>(a, begin, end);
}

}  // namespace
TZ_REGISTER_KERNEL(conv_small_input_stub, &small_input);
}  // namespace TZ_CPU_CAPABILITY
}  // namespace tz
