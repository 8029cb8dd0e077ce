// The transforms of Winograd F(4x4, 3x3) (see kernels/conv_winograd.h), channels in vector
// lanes. Each 2-d transform is the 1-d one along the rows of the tile, then along its columns.
#include <algorithm>
#include <vector>

#include "kernels/conv_winograd.h"
#include "kernels/simd_vec.h"

namespace tz {
namespace TZ_CPU_CAPABILITY {
namespace {

using vm::kLanes;
using vm::vec;

constexpr int kIn = static_cast<int>(kWinogradInput), kOut = static_cast<int>(kWinogradTile);

// u = G g: the filter's 3 taps at the 6 points.
template <typename V, typename T> TZ_VINLINE void filter_1d(const V g[3], V u[kIn]) {
  const V sixth = vm::splat<V>(T(1) / T(6)), twelfth = vm::splat<V>(T(1) / T(12));
  const V quarter = vm::splat<V>(T(0.25)), twentyfourth = vm::splat<V>(T(1) / T(24));
  const V even = g[0] + g[2];
  u[0] = g[0] * quarter;
  u[1] = -(even + g[1]) * sixth;
  u[2] = -(even - g[1]) * sixth;
  const V outer = g[0] * twentyfourth + g[2] * sixth, middle = g[1] * twelfth;
  u[3] = outer + middle;
  u[4] = outer - middle;
  u[5] = g[2];
}

// r = B^T d: 6 input pixels at the 6 points.
template <typename V, typename T> TZ_VINLINE void input_1d(const V d[kIn], V r[kIn]) {
  const V two = vm::splat<V>(T(2)), four = vm::splat<V>(T(4)), five = vm::splat<V>(T(5));
  const V d42 = d[4] - d[2], d31 = d[3] - d[1];
  r[0] = (d[0] * four - d[2] * five) + d[4];
  r[1] = (d[3] + d[4]) - (d[1] + d[2]) * four;
  r[2] = (d[4] - d[3]) + (d[1] - d[2]) * four;
  r[3] = d42 + d31 * two;
  r[4] = d42 - d31 * two;
  r[5] = (d[1] * four - d[3] * five) + d[5];
}

// y = A^T m: the 6 points' products back to 4 output pixels.
template <typename V, typename T> TZ_VINLINE void output_1d(const V m[kIn], V y[kOut]) {
  const V two = vm::splat<V>(T(2)), four = vm::splat<V>(T(4)), eight = vm::splat<V>(T(8));
  const V s12 = m[1] + m[2], d12 = m[1] - m[2], s34 = m[3] + m[4], d34 = m[3] - m[4];
  y[0] = (m[0] + s12) + s34;
  y[1] = d12 + d34 * two;
  y[2] = s12 + s34 * four;
  y[3] = (d12 + d34 * eight) + m[5];
}

// z = A y: 4 output-gradient pixels at the 6 points (the adjoint of output_1d).
template <typename V, typename T> TZ_VINLINE void grad_output_1d(const V y[kOut], V z[kIn]) {
  const V two = vm::splat<V>(T(2)), four = vm::splat<V>(T(4)), eight = vm::splat<V>(T(8));
  const V e02 = y[0] + y[2], o13 = y[1] + y[3];
  const V e = y[0] + y[2] * four, o = y[1] * two + y[3] * eight;
  z[0] = y[0];
  z[1] = e02 + o13;
  z[2] = e02 - o13;
  z[3] = e + o;
  z[4] = e - o;
  z[5] = y[3];
}

// g = G^T s: the 6 points' sums back to the filter's 3 taps (the adjoint of filter_1d).
template <typename V, typename T> TZ_VINLINE void filter_grad_1d(const V s[kIn], V g[3]) {
  const V sixth = vm::splat<V>(T(1) / T(6)), twelfth = vm::splat<V>(T(1) / T(12));
  const V quarter = vm::splat<V>(T(0.25)), twentyfourth = vm::splat<V>(T(1) / T(24));
  const V s12 = s[1] + s[2], d21 = s[2] - s[1], s34 = s[3] + s[4], d34 = s[3] - s[4];
  g[0] = (s[0] * quarter - s12 * sixth) + s34 * twentyfourth;
  g[1] = d21 * sixth + d34 * twelfth;
  g[2] = ((s34 - s12) * sixth) + s[5];
}

// The 2-d transform of a From x From grid of vectors: the 1-d transform F (From -> To points)
// down the columns, then along the rows.
template <int From, int To, typename V, void (*F)(const V*, V*)>
TZ_VINLINE void transform_2d(const V in[From][From], V out[To][To]) {
  V half[To][From];
  for (int j = 0; j < From; ++j) {
    V col[From], r[To];
    for (int i = 0; i < From; ++i) col[i] = in[i][j];
    F(col, r);
    for (int i = 0; i < To; ++i) half[i][j] = r[i];
  }
  for (int i = 0; i < To; ++i) F(half[i], out[i]);
}

// Tile q of the batch: its image and its row and column of tiles.
struct TilePosition {
  int64_t n, th, tw;
};
TilePosition tile_position(const WinogradTileArgs& a, int64_t t) {
  const int64_t q = a.first + t;
  return {q / (a.TW * a.TH), q / a.TW % a.TH, q % a.TW};
}

template <typename T> void weight_transform(const WinogradWeightArgs& a, int64_t begin, int64_t end) {
  using V = vec<T>;
  constexpr int L = kLanes<T>;
  const T* w = static_cast<const T*>(a.w);
  T* u = static_cast<T*>(a.u);
  // One channel's taps of the block's filters, tap-major (taps[k * block + o - b0]): gathered
  // filter by filter (each one's taps near each other) before the vector loads read them.
  std::vector<T> taps(9 * a.block);
  // Block by block, so that each point's writes run on along the block's rows (channel by
  // channel: 36 streams, not 36 per block, which would miss the TLB at every store).
  for (int64_t b0 = 0; b0 < a.Op; b0 += a.block) {
    const int64_t width = std::min(a.Op, b0 + a.block) - b0, real = std::clamp<int64_t>(a.O - b0, 0, width);
    for (int64_t c = begin; c < end; ++c) {
      if (c < a.C) {
        std::fill(taps.begin(), taps.end(), T(0));
        for (int64_t o = 0; o < real; ++o) {
          const T* filter = w + (b0 + o) * a.so + c * a.sc;
          for (int k = 0; k < 9; ++k) taps[k * a.block + o] = filter[k / 3 * a.skh + k % 3 * a.skw];
        }
      }
      for (int64_t o0 = 0; o0 < width; o0 += L) {
        T* dst = u + ((b0 + o0) / a.block * a.Cp + c) * a.block + o0;
        V r[kIn][kIn] = {};
        if (c < a.C) {
          V g[3][3];  // the taps of L filters (output channels b0 + o0...) in lanes
          for (int k = 0; k < 9; ++k) g[k / 3][k % 3] = vm::load(taps.data() + k * a.block + o0);
          transform_2d<3, kIn, V, filter_1d<V, T>>(g, r);
        }
        for (int p = 0; p < kIn * kIn; ++p) vm::store(dst + p * a.u_plane, r[p / kIn][p % kIn]);
      }
    }
  }
}

// The input's and the output gradient's transforms: a From x From tile of `channels` channels
// (rows of the padded NHWC image) -> the chunk's 36 points, v_plane apart.
template <typename T, int From, void (*F)(const vec<T>*, vec<T>*)>
void tile_transform(const WinogradTileArgs& a, int64_t channels, int64_t begin, int64_t end) {
  using V = vec<T>;
  const T* x = static_cast<const T*>(a.x);
  T* v = static_cast<T*>(a.v);
  const int64_t row = a.Wp * channels;
  for (int64_t t = begin; t < end; ++t) {
    const TilePosition at = tile_position(a, t);
    const T* origin = x + ((at.n * a.Hp + at.th * kOut) * a.Wp + at.tw * kOut) * channels;
    T* dst = v + t * channels;
    for (int64_t c = 0; c < channels; c += kLanes<T>) {
      V d[From][From], r[kIn][kIn];
      for (int i = 0; i < From; ++i)
        for (int j = 0; j < From; ++j) d[i][j] = vm::load(origin + i * row + j * channels + c);
      transform_2d<From, kIn, V, F>(d, r);
      for (int p = 0; p < kIn * kIn; ++p) vm::store(dst + p * a.v_plane + c, r[p / kIn][p % kIn]);
    }
  }
}

template <typename T> void input_transform(const WinogradTileArgs& a, int64_t begin, int64_t end) {
  tile_transform<T, kIn, input_1d<vec<T>, T>>(a, a.Cp, begin, end);
}

template <typename T> void grad_output_transform(const WinogradTileArgs& a, int64_t begin, int64_t end) {
  tile_transform<T, kOut, grad_output_1d<vec<T>, T>>(a, a.Op, begin, end);
}

template <typename T> void output_transform(const WinogradTileArgs& a, int64_t begin, int64_t end) {
  using V = vec<T>;
  constexpr int L = kLanes<T>;
  const T* m = static_cast<const T*>(a.m);
  const T* bias = static_cast<const T*>(a.bias);
  T* y = static_cast<T*>(a.y);
  for (int64_t t = begin; t < end; ++t) {
    const TilePosition at = tile_position(a, t);
    const int64_t oh0 = at.th * kOut, ow0 = at.tw * kOut;
    const int rows = static_cast<int>(std::min<int64_t>(kOut, a.OH - oh0));
    const int cols = static_cast<int>(std::min<int64_t>(kOut, a.OW - ow0));
    const T* src = m + t * a.Op;
    T* origin = y + ((at.n * a.OH + oh0) * a.OW + ow0) * a.O;
    for (int64_t o = 0; o < a.O; o += L) {
      V p[kIn][kIn], r[kOut][kOut];
      for (int q = 0; q < kIn * kIn; ++q) p[q / kIn][q % kIn] = vm::load(src + q * a.m_plane + o);
      transform_2d<kIn, kOut, V, output_1d<V, T>>(p, r);
      const int64_t lanes = std::min<int64_t>(L, a.O - o);
      const V b = !bias ? V{} : lanes == L ? vm::load(bias + o) : vm::load_partial(bias + o, lanes);
      for (int i = 0; i < rows; ++i)  // the tile's pixels inside the output, plus the bias
        for (int j = 0; j < cols; ++j) {
          T* out = origin + (i * a.OW + j) * a.O + o;
          if (lanes == L) vm::store(out, r[i][j] + b);
          else vm::store_partial(out, r[i][j] + b, lanes);
        }
    }
  }
}

template <typename T> void weight_grad_transform(const WinogradWeightGradArgs& a, int64_t begin, int64_t end) {
  using V = vec<T>;
  constexpr int L = kLanes<T>;
  const T* u = static_cast<const T*>(a.u);
  T* gw = static_cast<T*>(a.gw);
  for (int64_t c = begin; c < end; ++c)
    for (int64_t o0 = 0; o0 < a.O; o0 += L) {
      V s[kIn][kIn], g[3][3];
      for (int p = 0; p < kIn * kIn; ++p) s[p / kIn][p % kIn] = vm::load(u + p * a.u_plane + c * a.Op + o0);
      transform_2d<kIn, 3, V, filter_grad_1d<V, T>>(s, g);
      for (int kh = 0; kh < 3; ++kh)  // the lanes out to their filters
        for (int kw = 0; kw < 3; ++kw) {
          alignas(vm::kVecBytes) T lanes[L];
          vm::store(lanes, g[kh][kw]);
          T* tap = gw + c * a.sc + kh * a.skh + kw * a.skw;
          for (int64_t l = 0; l < L && o0 + l < a.O; ++l) tap[(o0 + l) * a.so] = lanes[l];
        }
    }
}

void winograd_weight(DType dtype, const WinogradWeightArgs& a, int64_t begin, int64_t end) {
  if (dtype == DType::Float64) weight_transform<double>(a, begin, end);
  else weight_transform<float>(a, begin, end);
}
void winograd_input(DType dtype, const WinogradTileArgs& a, int64_t begin, int64_t end) {
  if (dtype == DType::Float64) input_transform<double>(a, begin, end);
  else input_transform<float>(a, begin, end);
}
void winograd_output(DType dtype, const WinogradTileArgs& a, int64_t begin, int64_t end) {
  if (dtype == DType::Float64) output_transform<double>(a, begin, end);
  else output_transform<float>(a, begin, end);
}

void winograd_grad_output(DType dtype, const WinogradTileArgs& a, int64_t begin, int64_t end) {
  if (dtype == DType::Float64) grad_output_transform<double>(a, begin, end);
  else grad_output_transform<float>(a, begin, end);
}
void winograd_weight_grad(DType dtype, const WinogradWeightGradArgs& a, int64_t begin, int64_t end) {
  if (dtype == DType::Float64) weight_grad_transform<double>(a, begin, end);
  else weight_grad_transform<float>(a, begin, end);
}

}  // namespace
TZ_REGISTER_KERNEL(conv_winograd_grad_output_stub, &winograd_grad_output);
TZ_REGISTER_KERNEL(conv_winograd_weight_grad_stub, &winograd_weight_grad);
TZ_REGISTER_KERNEL(conv_winograd_weight_stub, &winograd_weight);
TZ_REGISTER_KERNEL(conv_winograd_input_stub, &winograd_input);
TZ_REGISTER_KERNEL(conv_winograd_output_stub, &winograd_output);
}  // namespace TZ_CPU_CAPABILITY
}  // namespace tz
