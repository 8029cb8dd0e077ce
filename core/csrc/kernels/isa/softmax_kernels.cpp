// Softmax loops (see kernels/softmax.h): rows when the softmax dim is innermost, column
// tiles (lanes across the inner dim) otherwise.

#include "kernels/isa_vector.h"
#include "kernels/reduce_loops.h"
#include "kernels/softmax.h"
#include "kernels/vec_math.h"

#pragma GCC diagnostic ignored "-Wpsabi"

namespace tz {
namespace TZ_CPU_CAPABILITY {
namespace {

using vm::kLanes;
using vm::splat;
using vm::vec;
using vm::Wide;

// y <- softmax(x) (or log_softmax) of one contiguous row; y may alias x. The sum runs in
// wide vectors (see vec_math.h), so every build gives the same bits.
template <typename T> void softmax_row(bool log, const T* x, T* y, int64_t n) {
  using V = vec<T>;
  constexpr int P = vm::kParts, L = kLanes<T>, WL = vm::kWideLanes<T>;
  const T m = reduce_contig(MaxR<T>{}, x, n, T(0));
  const V mv = splat<V>(m);
  // The sum of exp(x - max); softmax keeps the exponentials in y on the way.
  Wide<T> s0, s1;
  for (int q = 0; q < P; ++q) s0.v[q] = V{}, s1.v[q] = V{};
  int64_t i = 0;
  for (; i + 2 * WL <= n; i += 2 * WL)
    for (int q = 0; q < P; ++q) {
      V e0 = vm::exp(vm::load(x + i + q * L) - mv), e1 = vm::exp(vm::load(x + i + WL + q * L) - mv);
      if (!log) vm::store(y + i + q * L, e0), vm::store(y + i + WL + q * L, e1);
      s0.v[q] += e0, s1.v[q] += e1;
    }
  for (; i + WL <= n; i += WL)
    for (int q = 0; q < P; ++q) {
      V e = vm::exp(vm::load(x + i + q * L) - mv);
      if (!log) vm::store(y + i + q * L, e);
      s0.v[q] += e;
    }
  for (int q = 0; q < P && i + q * L < n; ++q) {
    const int64_t rem = std::min<int64_t>(L, n - i - q * L);
    V e = vm::exp(vm::load_partial(x + i + q * L, rem) - mv);
    e = first_lanes<T>(rem) ? e : V{};
    if (!log) vm::store_partial(y + i + q * L, e, rem);
    s1.v[q] += e;
  }
  for (int q = 0; q < P; ++q) s0.v[q] += s1.v[q];
  const T sum = combine_lanes<T>(SumR<T>{}, s0);
  if (log) {
    // (x - max) first: folding max into the shift would round log(sum) away at large |x|.
    const T lse = std::log(sum);
    for (int64_t k = 0; k < n; ++k) y[k] = (x[k] - m) - lse;
  } else {
    const T inv = T(1) / sum;
    for (int64_t k = 0; k < n; ++k) y[k] *= inv;
  }
}

// NV vectors of columns: rows of `dim` elements `inner` apart.
template <typename T, int NV> void softmax_columns(bool log, const T* x, T* y, int64_t dim, int64_t inner) {
  using V = vec<T>;
  constexpr int L = kLanes<T>;
  V m[NV], s[NV];
  for (int v = 0; v < NV; ++v) m[v] = splat<V>(-std::numeric_limits<T>::infinity()), s[v] = V{};
  for (int64_t r = 0; r < dim; ++r)
    for (int v = 0; v < NV; ++v) m[v] = max_nan(m[v], vm::load(x + r * inner + v * L));
  for (int64_t r = 0; r < dim; ++r)
    for (int v = 0; v < NV; ++v) {
      V e = vm::exp(vm::load(x + r * inner + v * L) - m[v]);
      if (!log) vm::store(y + r * inner + v * L, e);
      s[v] += e;
    }
  for (int v = 0; v < NV; ++v) {
    if (log) {
      for (int k = 0; k < L; ++k) s[v][k] = std::log(s[v][k]);
    } else {
      s[v] = T(1) / s[v];
    }
  }
  for (int64_t r = 0; r < dim; ++r)
    for (int v = 0; v < NV; ++v) {
      T* py = y + r * inner + v * L;
      if (log) {
        vm::store(py, (vm::load(x + r * inner + v * L) - m[v]) - s[v]);
      } else {
        vm::store(py, vm::load(py) * s[v]);
      }
    }
}

// A full tile of kSoftmaxTile columns, up to four vectors per pass over the rows.
template <typename T> void softmax_tile(bool log, const T* x, T* y, int64_t dim, int64_t inner) {
  constexpr int L = kLanes<T>;
  constexpr int G = std::min(4, int(kSoftmaxTile / L));
  for (int64_t g = 0; g < kSoftmaxTile; g += G * L) softmax_columns<T, G>(log, x + g, y + g, dim, inner);
}

template <typename T>
void softmax_impl(bool log, const T* in, T* out, int64_t outer, int64_t dim, int64_t inner,
                  int64_t begin, int64_t end) {
  if (inner == 1) {
    for (int64_t o = begin; o < end; ++o) softmax_row(log, in + o * dim, out + o * dim, dim);
    return;
  }
  const int64_t ntiles = (inner + kSoftmaxTile - 1) / kSoftmaxTile;
  Vector<T> line;
  for (int64_t t = begin; t < end; ++t) {
    const int64_t o = t / ntiles, j0 = (t % ntiles) * kSoftmaxTile;
    const int64_t w = std::min(kSoftmaxTile, inner - j0);
    const T* x = in + o * dim * inner + j0;
    T* y = out + o * dim * inner + j0;
    if (w == kSoftmaxTile) {
      softmax_tile(log, x, y, dim, inner);
      continue;
    }
    // A narrow tile: each column gathered into a row.
    line.resize(dim);
    for (int64_t j = 0; j < w; ++j) {
      for (int64_t r = 0; r < dim; ++r) line[r] = x[r * inner + j];
      softmax_row(log, line.data(), line.data(), dim);
      for (int64_t r = 0; r < dim; ++r) y[r * inner + j] = line[r];
    }
  }
}

void softmax_kernel(DType dtype, bool log, const void* in, void* out, int64_t outer, int64_t dim,
                    int64_t inner, int64_t begin, int64_t end) {
  switch (dtype) {
    case DType::Float32:
      return softmax_impl(log, static_cast<const float*>(in), static_cast<float*>(out), outer, dim,
                          inner, begin, end);
    case DType::Float64:
      return softmax_impl(log, static_cast<const double*>(in), static_cast<double*>(out), outer,
                          dim, inner, begin, end);
    default: fail(ErrorKind::Runtime, "softmax kernel: unsupported dtype ", dtype_name(dtype));
  }
}

template <typename T>
void softmax_backward_rows(bool log, const T* g, const T* y, T* out, int64_t n, int64_t begin, int64_t end) {
  using V = vec<T>;
  constexpr int L = kLanes<T>;
  for (int64_t r = begin; r < end; ++r) {
    const T* gr = g + r * n;
    const T* yr = y + r * n;
    T* o = out + r * n;
    // The row sum of g (log) or of g*y (staged in o), reduced in the same order by every build.
    if (!log)
      for (int64_t k = 0; k < n; ++k) o[k] = gr[k] * yr[k];
    const V s = splat<V>(reduce_contig(SumR<T>{}, log ? gr : o, n, T(0)));
    int64_t i = 0;
    for (; i + L <= n; i += L) {
      V gv = vm::load(gr + i), yv = vm::load(yr + i);
      vm::store(o + i, log ? gv - vm::exp(yv) * s : yv * (gv - s));
    }
    if (i < n) {
      V gv = vm::load_partial(gr + i, n - i), yv = vm::load_partial(yr + i, n - i);
      vm::store_partial(o + i, log ? gv - vm::exp(yv) * s : yv * (gv - s), n - i);
    }
  }
}

void softmax_backward_kernel(DType dtype, bool log, const void* g, const void* y, void* out, int64_t n,
                             int64_t begin, int64_t end) {
  switch (dtype) {
    case DType::Float32:
      return softmax_backward_rows(log, static_cast<const float*>(g), static_cast<const float*>(y),
                                   static_cast<float*>(out), n, begin, end);
    case DType::Float64:
      return softmax_backward_rows(log, static_cast<const double*>(g), static_cast<const double*>(y),
                                   static_cast<double*>(out), n, begin, end);
    default: fail(ErrorKind::Runtime, "softmax backward kernel: unsupported dtype ", dtype_name(dtype));
  }
}

void vec_exp_kernel(const float* in, float* out, int64_t n) {
  constexpr int L = kLanes<float>;
  int64_t i = 0;
  for (; i + L <= n; i += L) vm::store(out + i, vm::exp(vm::load(in + i)));
  if (i < n) vm::store_partial(out + i, vm::exp(vm::load_partial(in + i, n - i)), n - i);
}

}  // namespace

TZ_REGISTER_KERNEL(softmax_stub, &softmax_kernel);
TZ_REGISTER_KERNEL(softmax_backward_stub, &softmax_backward_kernel);
TZ_REGISTER_KERNEL(vec_exp_stub, &vec_exp_kernel);

}  // namespace TZ_CPU_CAPABILITY
}  // namespace tz
