// Normalization kernels (kernels/norm.h). Plane sums run in two vector accumulators of T
// flushed to double every kBlock elements; channels-last sums accumulate per channel in T
// arrays flushed to double every kRowBlock rows, so float32 sums stay accurate.
#include <algorithm>

#include "kernels/isa_vector.h"
#include "kernels/norm.h"
#include "kernels/simd_vec.h"

#pragma GCC diagnostic ignored "-Wpsabi"

namespace tz {
namespace TZ_CPU_CAPABILITY {
namespace {

using vm::kLanes;
using vm::splat;
using vm::vec;

constexpr int64_t kBlock = 4096;
constexpr int64_t kRowBlock = 64;

template <typename T> TZ_VINLINE double lanes_sum(const vec<T>& v) {
  double s = 0;
  for (int l = 0; l < kLanes<T>; ++l) s += static_cast<double>(v[l]);
  return s;
}

// sum(w * g) and sum(w * g * (x - c)), or sum(x - c) and sum((x - c)^2) when g is null.
template <typename T, bool kGrad, bool kWeighted>
void plane_sums(const T* g, const T* x, const T* w, int64_t n, T c, double& r1, double& r2) {
  using V = vec<T>;
  constexpr int L = kLanes<T>;
  const V cv = splat<V>(c);
  double t1 = 0, t2 = 0;
  int64_t i = 0;
  while (n - i >= 2 * L) {
    V a1 = {}, a2 = {}, b1 = {}, b2 = {};
    const int64_t stop = std::min(n, i + kBlock);
    for (; i + 2 * L <= stop; i += 2 * L) {
      V d0 = vm::load(x + i) - cv, d1 = vm::load(x + i + L) - cv;
      if constexpr (kGrad) {
        V g0 = vm::load(g + i), g1 = vm::load(g + i + L);
        if constexpr (kWeighted) g0 *= vm::load(w + i), g1 *= vm::load(w + i + L);
        a1 += g0, a2 += g0 * d0, b1 += g1, b2 += g1 * d1;
      } else {
        a1 += d0, a2 += d0 * d0, b1 += d1, b2 += d1 * d1;
      }
    }
    t1 += lanes_sum<T>(a1 + b1);
    t2 += lanes_sum<T>(a2 + b2);
  }
  for (; i < n; ++i) {
    T d = x[i] - c;
    T gi = kGrad ? g[i] : d;
    if constexpr (kGrad && kWeighted) gi *= w[i];
    t1 += gi;
    t2 += static_cast<double>(gi * d);
  }
  r1 = t1, r2 = t2;
}

template <typename T>
void plane_moments_t(const T* x, int64_t n, const double* c, double* s1, double* s2, int64_t b, int64_t e) {
  for (int64_t p = b; p < e; ++p)
    plane_sums<T, false, false>(nullptr, x + p * n, nullptr, n, static_cast<T>(c[p]), s1[p], s2[p]);
}

template <typename T>
void plane_grad_sums_t(const T* g, const T* x, const T* w, int64_t n, const double* c, double* sg,
                       double* sgx, int64_t b, int64_t e) {
  for (int64_t p = b; p < e; ++p) {
    if (w) plane_sums<T, true, true>(g + p * n, x + p * n, w, n, static_cast<T>(c[p]), sg[p], sgx[p]);
    else plane_sums<T, true, false>(g + p * n, x + p * n, nullptr, n, static_cast<T>(c[p]), sg[p], sgx[p]);
  }
}

template <typename T>
void plane_affine_t(const T* g, const T* x, const T* w, T* out, int64_t n, int64_t period,
                    const T* a, const T* b, const T* d, int64_t begin, int64_t end) {
  for (int64_t p = begin; p < end; ++p) {
    const int64_t q = p % period;
    const T A = a ? a[q] : T(0), B = b[q], D = d[q];
    const T* __restrict xp = x + p * n;
    T* __restrict o = out + p * n;
    if (!g) {
      for (int64_t i = 0; i < n; ++i) o[i] = xp[i] * B + D;
    } else if (w) {
      const T* __restrict gp = g + p * n;
      for (int64_t i = 0; i < n; ++i) o[i] = gp[i] * w[i] * A + xp[i] * B + D;
    } else {
      const T* __restrict gp = g + p * n;
      for (int64_t i = 0; i < n; ++i) o[i] = gp[i] * A + xp[i] * B + D;
    }
  }
}

template <typename T>
void rows_normalize_t(const T* x, T* y, int64_t n, const T* mean, const T* rstd, const T* w,
                      const T* bias, int64_t begin, int64_t end) {
  for (int64_t p = begin; p < end; ++p) {
    const T m = mean[p], r = rstd[p];
    const T* __restrict xp = x + p * n;
    T* __restrict o = y + p * n;
    if (w && bias) for (int64_t i = 0; i < n; ++i) o[i] = (xp[i] - m) * r * w[i] + bias[i];
    else if (w) for (int64_t i = 0; i < n; ++i) o[i] = (xp[i] - m) * r * w[i];
    else if (bias) for (int64_t i = 0; i < n; ++i) o[i] = (xp[i] - m) * r + bias[i];
    else for (int64_t i = 0; i < n; ++i) o[i] = (xp[i] - m) * r;
  }
}

template <typename T>
void flush(Vector<T>& acc, double* out) {
  for (size_t j = 0; j < acc.size(); ++j) out[j] += acc[j], acc[j] = T(0);
}

template <typename T>
void rows_column_sums_t(const T* g, const T* x, int64_t n, const T* mean, const T* rstd, double* gw,
                        double* gb, int64_t begin, int64_t end) {
  Vector<T> aw(n), ab(n);
  for (int64_t p0 = begin; p0 < end; p0 += kRowBlock) {
    for (int64_t p = p0; p < std::min(end, p0 + kRowBlock); ++p) {
      const T m = mean[p], r = rstd[p];
      const T* __restrict gp = g + p * n;
      const T* __restrict xp = x + p * n;
      T* __restrict w_ = aw.data();
      T* __restrict b_ = ab.data();
      for (int64_t j = 0; j < n; ++j) w_[j] += gp[j] * ((xp[j] - m) * r), b_[j] += gp[j];
    }
    flush(aw, gw);
    flush(ab, gb);
  }
}

template <typename T>
void cl_moments_t(const T* x, int64_t C, const T* pivot, double* s1, double* s2, int64_t begin, int64_t end) {
  Vector<T> a1(C), a2(C);
  for (int64_t r0 = begin; r0 < end; r0 += kRowBlock) {
    for (int64_t r = r0; r < std::min(end, r0 + kRowBlock); ++r) {
      const T* __restrict xr = x + r * C;
      T* __restrict p1 = a1.data();
      T* __restrict p2 = a2.data();
      for (int64_t c = 0; c < C; ++c) {
        T d = xr[c] - pivot[c];
        p1[c] += d, p2[c] += d * d;
      }
    }
    flush(a1, s1);
    flush(a2, s2);
  }
}

template <typename T>
void cl_grad_sums_t(const T* g, const T* x, int64_t C, const T* center, double* sg, double* sgx,
                    int64_t begin, int64_t end) {
  Vector<T> a1(C), a2(C);
  for (int64_t r0 = begin; r0 < end; r0 += kRowBlock) {
    for (int64_t r = r0; r < std::min(end, r0 + kRowBlock); ++r) {
      const T* __restrict gr = g + r * C;
      const T* __restrict xr = x + r * C;
      T* __restrict p1 = a1.data();
      T* __restrict p2 = a2.data();
      for (int64_t c = 0; c < C; ++c) p1[c] += gr[c], p2[c] += gr[c] * (xr[c] - center[c]);
    }
    flush(a1, sg);
    flush(a2, sgx);
  }
}

template <typename T>
void cl_affine_t(const T* g, const T* x, T* out, int64_t C, const T* a, const T* b, const T* d,
                 int64_t begin, int64_t end) {
  for (int64_t r = begin; r < end; ++r) {
    const T* __restrict xr = x + r * C;
    T* __restrict o = out + r * C;
    if (g) {
      const T* __restrict gr = g + r * C;
      for (int64_t c = 0; c < C; ++c) o[c] = gr[c] * a[c] + xr[c] * b[c] + d[c];
    } else {
      for (int64_t c = 0; c < C; ++c) o[c] = xr[c] * b[c] + d[c];
    }
  }
}

// Untyped entry points: float32 or float64.
#define TZ_NORM_DISPATCH(dtype, call) \
  (dtype == DType::Float64 ? call(double) : call(float))

void plane_moments(DType dt, const void* x, int64_t n, const double* c, double* s1, double* s2, int64_t b, int64_t e) {
#define CALL(T) plane_moments_t<T>(static_cast<const T*>(x), n, c, s1, s2, b, e)
  TZ_NORM_DISPATCH(dt, CALL);
#undef CALL
}
void plane_grad_sums(DType dt, const void* g, const void* x, const void* w, int64_t n, const double* c,
                     double* sg, double* sgx, int64_t b, int64_t e) {
#define CALL(T) plane_grad_sums_t<T>(static_cast<const T*>(g), static_cast<const T*>(x), static_cast<const T*>(w), n, c, sg, sgx, b, e)
  TZ_NORM_DISPATCH(dt, CALL);
#undef CALL
}
void plane_affine(DType dt, const void* g, const void* x, const void* w, void* out, int64_t n, int64_t period,
                  const void* a, const void* b, const void* d, int64_t begin, int64_t end) {
#define CALL(T) plane_affine_t<T>(static_cast<const T*>(g), static_cast<const T*>(x), static_cast<const T*>(w), static_cast<T*>(out), n, period, static_cast<const T*>(a), static_cast<const T*>(b), static_cast<const T*>(d), begin, end)
  TZ_NORM_DISPATCH(dt, CALL);
#undef CALL
}
void rows_normalize(DType dt, const void* x, void* y, int64_t n, const void* mean, const void* rstd,
                    const void* w, const void* bias, int64_t begin, int64_t end) {
#define CALL(T) rows_normalize_t<T>(static_cast<const T*>(x), static_cast<T*>(y), n, static_cast<const T*>(mean), static_cast<const T*>(rstd), static_cast<const T*>(w), static_cast<const T*>(bias), begin, end)
  TZ_NORM_DISPATCH(dt, CALL);
#undef CALL
}
void rows_column_sums(DType dt, const void* g, const void* x, int64_t n, const void* mean, const void* rstd,
                      double* gw, double* gb, int64_t begin, int64_t end) {
#define CALL(T) rows_column_sums_t<T>(static_cast<const T*>(g), static_cast<const T*>(x), n, static_cast<const T*>(mean), static_cast<const T*>(rstd), gw, gb, begin, end)
  TZ_NORM_DISPATCH(dt, CALL);
#undef CALL
}
void cl_moments(DType dt, const void* x, int64_t C, const void* pivot, double* s1, double* s2, int64_t b, int64_t e) {
#define CALL(T) cl_moments_t<T>(static_cast<const T*>(x), C, static_cast<const T*>(pivot), s1, s2, b, e)
  TZ_NORM_DISPATCH(dt, CALL);
#undef CALL
}
void cl_grad_sums(DType dt, const void* g, const void* x, int64_t C, const void* center, double* sg, double* sgx,
                  int64_t b, int64_t e) {
#define CALL(T) cl_grad_sums_t<T>(static_cast<const T*>(g), static_cast<const T*>(x), C, static_cast<const T*>(center), sg, sgx, b, e)
  TZ_NORM_DISPATCH(dt, CALL);
#undef CALL
}
void cl_affine(DType dt, const void* g, const void* x, void* out, int64_t C, const void* a, const void* b,
               const void* d, int64_t begin, int64_t end) {
#define CALL(T) cl_affine_t<T>(static_cast<const T*>(g), static_cast<const T*>(x), static_cast<T*>(out), C, static_cast<const T*>(a), static_cast<const T*>(b), static_cast<const T*>(d), begin, end)
  TZ_NORM_DISPATCH(dt, CALL);
#undef CALL
}
#undef TZ_NORM_DISPATCH

}  // namespace
TZ_REGISTER_KERNEL(plane_moments_stub, &plane_moments);
TZ_REGISTER_KERNEL(plane_grad_sums_stub, &plane_grad_sums);
TZ_REGISTER_KERNEL(plane_affine_stub, &plane_affine);
TZ_REGISTER_KERNEL(rows_normalize_stub, &rows_normalize);
TZ_REGISTER_KERNEL(rows_column_sums_stub, &rows_column_sums);
TZ_REGISTER_KERNEL(cl_moments_stub, &cl_moments);
TZ_REGISTER_KERNEL(cl_grad_sums_stub, &cl_grad_sums);
TZ_REGISTER_KERNEL(cl_affine_stub, &cl_affine);
}  // namespace TZ_CPU_CAPABILITY
}  // namespace tz
