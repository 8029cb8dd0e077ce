// The transforms of Winograd F(4x4, 3x3) (see kernels/conv_winograd.h), channels in vector
// lanes. Each 2-d transform is the 1-d one along the rows of the tile, then along its columns.
#include <algorithm>

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

template <typename T> void weight_transform(const WinogradWeightArgs& a, int64_t begin, int64_t end) {
  using V = vec<T>;
  constexpr int L = kLanes<T>;
  const T* w = static_cast<const T*>(a.w);
  T* u = static_cast<T*>(a.u);
  const int64_t plane = a.u_plane;
  for (int64_t c = begin; c < end; ++c)
    for (int64_t o0 = 0; o0 < a.Op; o0 += L) {
      V g[3][3];  // the taps of L filters (output channels o0...) gathered into lanes
      for (int kh = 0; kh < 3; ++kh)
        for (int kw = 0; kw < 3; ++kw) {
          alignas(vm::kVecBytes) T lanes[L] = {};
          const T* tap = w + c * a.sc + kh * a.skh + kw * a.skw;
          for (int64_t l = 0; l < L && o0 + l < a.O; ++l) lanes[l] = tap[(o0 + l) * a.so];
          g[kh][kw] = vm::load(lanes);
        }
      V rows[kIn][3];  // G along kh
      for (int kw = 0; kw < 3; ++kw) {
        const V col[3] = {g[0][kw], g[1][kw], g[2][kw]};
        V r[kIn];
        filter_1d<V, T>(col, r);
        for (int i = 0; i < kIn; ++i) rows[i][kw] = r[i];
      }
      for (int i = 0; i < kIn; ++i) {  // G along kw
        V r[kIn];
        filter_1d<V, T>(rows[i], r);
        for (int j = 0; j < kIn; ++j) vm::store(u + (i * kIn + j) * plane + c * a.Op + o0, r[j]);
      }
    }
}

template <typename T> void input_transform(const WinogradTileArgs& a, int64_t begin, int64_t end) {
  using V = vec<T>;
  constexpr int L = kLanes<T>;
  const T* x = static_cast<const T*>(a.x);
  T* v = static_cast<T*>(a.v);
  const int64_t plane = a.v_plane, row = a.Wp * a.Cp;
  for (int64_t t = begin; t < end; ++t) {
    const int64_t q = a.first + t, tw = q % a.TW, th = q / a.TW % a.TH, n = q / (a.TW * a.TH);
    const T* origin = x + ((n * a.Hp + th * kOut) * a.Wp + tw * kOut) * a.Cp;
    T* dst = v + t * a.Cp;
    for (int64_t c = 0; c < a.Cp; c += L) {
      V cols[kIn][kIn];  // B^T along the tile's rows, per column
      for (int j = 0; j < kIn; ++j) {
        V d[kIn];
        for (int i = 0; i < kIn; ++i) d[i] = vm::load(origin + i * row + j * a.Cp + c);
        V r[kIn];
        input_1d<V, T>(d, r);
        for (int i = 0; i < kIn; ++i) cols[i][j] = r[i];
      }
      for (int i = 0; i < kIn; ++i) {  // B^T along the columns
        V r[kIn];
        input_1d<V, T>(cols[i], r);
        for (int j = 0; j < kIn; ++j) vm::store(dst + (i * kIn + j) * plane + c, r[j]);
      }
    }
  }
}

template <typename T> void output_transform(const WinogradTileArgs& a, int64_t begin, int64_t end) {
  using V = vec<T>;
  constexpr int L = kLanes<T>;
  const T* m = static_cast<const T*>(a.m);
  const T* bias = static_cast<const T*>(a.bias);
  T* y = static_cast<T*>(a.y);
  const int64_t plane = a.m_plane;
  for (int64_t t = begin; t < end; ++t) {
    const int64_t q = a.first + t, tw = q % a.TW, th = q / a.TW % a.TH, n = q / (a.TW * a.TH);
    const int64_t oh0 = th * kOut, ow0 = tw * kOut;
    const int rows = static_cast<int>(std::min<int64_t>(kOut, a.OH - oh0));
    const int cols = static_cast<int>(std::min<int64_t>(kOut, a.OW - ow0));
    const T* src = m + t * a.Op;
    T* origin = y + ((n * a.OH + oh0) * a.OW + ow0) * a.O;
    for (int64_t o = 0; o < a.O; o += L) {
      V half[kOut][kIn];  // A^T along the tile's rows, per column
      for (int j = 0; j < kIn; ++j) {
        V p[kIn];
        for (int i = 0; i < kIn; ++i) p[i] = vm::load(src + (i * kIn + j) * plane + o);
        V r[kOut];
        output_1d<V, T>(p, r);
        for (int i = 0; i < kOut; ++i) half[i][j] = r[i];
      }
      const int64_t lanes = std::min<int64_t>(L, a.O - o);
      const V b = !bias ? V{} : lanes == L ? vm::load(bias + o) : vm::load_partial(bias + o, lanes);
      for (int i = 0; i < rows; ++i) {  // A^T along the columns, plus the bias
        V r[kOut];
        output_1d<V, T>(half[i], r);
        for (int j = 0; j < cols; ++j) {
          T* out = origin + (i * a.OW + j) * a.O + o;
          if (lanes == L) vm::store(out, r[j] + b);
          else vm::store_partial(out, r[j] + b, lanes);
        }
      }
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

}  // namespace
TZ_REGISTER_KERNEL(conv_winograd_weight_stub, &winograd_weight);
TZ_REGISTER_KERNEL(conv_winograd_input_stub, &winograd_input);
TZ_REGISTER_KERNEL(conv_winograd_output_stub, &winograd_output);
}  // namespace TZ_CPU_CAPABILITY
}  // namespace tz
