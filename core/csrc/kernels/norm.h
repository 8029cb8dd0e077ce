// Normalization kernels (batch, layer, group norm). Data are "planes": contiguous runs of
// n elements, plane p at x + p * n; or channels-last "rows" of C channels. dtype is the
// compute dtype (Float32 or Float64); coefficient arrays have that dtype, sums are double.
// Every kernel handles planes (or rows) [begin, end): the front-end runs them in parallel.
#pragma once
#include <cstdint>

#include "kernels/dispatch.h"
#include "tensor/dtype.h"

namespace tz {

// s1[p] = sum(x - c[p]), s2[p] = sum((x - c[p])^2) over plane p (c: a pivot near the mean).
using PlaneMomentsFn = void (*)(DType dtype, const void* x, int64_t n, const double* c,
                                double* s1, double* s2, int64_t begin, int64_t end);
extern DispatchStub<PlaneMomentsFn> plane_moments_stub;

// sg[p] = sum(w * g), sgx[p] = sum(w * g * (x - c[p])) over plane p; w: n weights or null.
using PlaneGradSumsFn = void (*)(DType dtype, const void* g, const void* x, const void* w,
                                 int64_t n, const double* c, double* sg, double* sgx,
                                 int64_t begin, int64_t end);
extern DispatchStub<PlaneGradSumsFn> plane_grad_sums_stub;

// out = [g * w * a[q]] + x * b[q] + d[q] over plane p, q = p % period; the bracket only when
// g is non-null (w: n weights or null for ones). Forward affine: g null.
using PlaneAffineFn = void (*)(DType dtype, const void* g, const void* x, const void* w,
                               void* out, int64_t n, int64_t period, const void* a,
                               const void* b, const void* d, int64_t begin, int64_t end);
extern DispatchStub<PlaneAffineFn> plane_affine_stub;

// Layer norm forward, row p: y = (x - mean[p]) * rstd[p] * w + bias (w, bias: n or null).
using RowsNormalizeFn = void (*)(DType dtype, const void* x, void* y, int64_t n,
                                 const void* mean, const void* rstd, const void* w,
                                 const void* bias, int64_t begin, int64_t end);
extern DispatchStub<RowsNormalizeFn> rows_normalize_stub;

// Layer norm weight/bias gradients, rows [begin, end): gw[j] += sum g * (x - mean) * rstd,
// gb[j] += sum g (double accumulators of n elements).
using RowsColumnSumsFn = void (*)(DType dtype, const void* g, const void* x, int64_t n,
                                  const void* mean, const void* rstd, double* gw, double* gb,
                                  int64_t begin, int64_t end);
extern DispatchStub<RowsColumnSumsFn> rows_column_sums_stub;

// Channels-last rows [begin, end) of C channels: s1[c] += sum(x - pivot[c]),
// s2[c] += sum((x - pivot[c])^2) (double accumulators of C).
using ClMomentsFn = void (*)(DType dtype, const void* x, int64_t C, const void* pivot,
                             double* s1, double* s2, int64_t begin, int64_t end);
extern DispatchStub<ClMomentsFn> cl_moments_stub;
// sg[c] += sum(g), sgx[c] += sum(g * (x - center[c])).
using ClGradSumsFn = void (*)(DType dtype, const void* g, const void* x, int64_t C,
                              const void* center, double* sg, double* sgx, int64_t begin,
                              int64_t end);
extern DispatchStub<ClGradSumsFn> cl_grad_sums_stub;
// out = [g * a[c]] + x * b[c] + d[c] (g may be null).
using ClAffineFn = void (*)(DType dtype, const void* g, const void* x, void* out, int64_t C,
                            const void* a, const void* b, const void* d, int64_t begin,
                            int64_t end);
extern DispatchStub<ClAffineFn> cl_affine_stub;

}  // namespace tz
