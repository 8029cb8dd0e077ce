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

template <typename T> void grad_output_transform(const WinogradTileArgs& a, int64_t begin, int64_t end) {
  using V = vec<T>;
  constexpr int L = kLanes<T>;
  const T* g = static_cast<const T*>(a.x);
  T* v = static_cast<T*>(a.v);
  const int64_t plane = a.v_plane, row = a.Wp * a.Op;
  for (int64_t t = begin; t < end; ++t) {
    const int64_t q = a.first + t, tw = q % a.TW, th = q / a.TW % a.TH, n = q / (a.TW * a.TH);
    const T* origin = g + ((n * a.Hp + th * kOut) * a.Wp + tw * kOut) * a.Op;
    T* dst = v + t * a.Op;
    for (int64_t o = 0; o < a.Op; o += L) {
      V cols[kIn][kOut];  // A along the tile's rows, per column
      for (int j = 0; j < kOut; ++j) {
        V y[kOut];
        for (int i = 0; i < kOut; ++i) y[i] = vm::load(origin + i * row + j * a.Op + o);
        V z[kIn];
        grad_output_1d<V, T>(y, z);
        for (int i = 0; i < kIn; ++i) cols[i][j] = z[i];
      }
      for (int i = 0; i < kIn; ++i) {  // A along the columns
        V z[kIn];
        grad_output_1d<V, T>(cols[i], z);
        for (int j = 0; j < kIn; ++j) vm::store(dst + (i * kIn + j) * plane + o, z[j]);
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
      V rows[3][kIn];  // G^T along the first axis, per column
      for (int j = 0; j < kIn; ++j) {
        V s[kIn];
        for (int i = 0; i < kIn; ++i) s[i] = vm::load(u + (i * kIn + j) * a.u_plane + c * a.Op + o0);
        V r[3];
        filter_grad_1d<V, T>(s, r);
        for (int i = 0; i < 3; ++i) rows[i][j] = r[i];
      }
      for (int kh = 0; kh < 3; ++kh) {  // G^T along the second, then the lanes out to their filters
        V r[3];
        filter_grad_1d<V, T>(rows[kh], r);
        for (int kw = 0; kw < 3; ++kw) {
          alignas(vm::kVecBytes) T lanes[L];
          vm::store(lanes, r[kw]);
          T* tap = gw + c * a.sc + kh * a.skh + kw * a.skw;
          for (int64_t l = 0; l < L && o0 + l < a.O; ++l) tap[(o0 + l) * a.so] = lanes[l];
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
