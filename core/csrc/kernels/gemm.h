// Matrix products on strided memory: the only code that calls BLAS (OpenBLAS, scipy_ prefix).
// Float32/Float64/Complex64 go to BLAS when the layout allows it (one unit stride per
// matrix); everything else, and integer dtypes, run a plain blocked loop. Large products are
// split over tz::parallel_for, each block calling single-threaded BLAS.
#pragma once
#include <cstdint>
#include <type_traits>

#include "tensor/tensor.h"

namespace tz {

// One operand of a (batched) GEMM: element (i, j) of batch entry `b` lives at
// data + (offset_of(b) + i * rs + j * cs) elements, where offset_of sums
// index_d * batch_strides[d] over the batch dims (stride 0 = broadcast).
struct GemmOperand {
  void* data;
  int64_t rs, cs;
  Shape batch_strides;
};

// c[b] = alpha * a[b] @ b[b] + beta * c[b] for every batch index b; a is m x k, b is k x n,
// c is m x n. With beta == 0, c is write-only (NaNs there do not propagate). c must not
// alias a or b, and must not repeat elements (no zero strides).
struct GemmProblem {
  DType dtype;  // Float32, Float64, Complex64 or an integer type; all three share it
  int64_t m, n, k;
  Shape batch;  // batch sizes; empty for a single product
  GemmOperand a, b, c;
  Scalar alpha = Scalar(int64_t(1));
  Scalar beta = Scalar(int64_t(0));
};

void gemm(const GemmProblem& p);

// c (m x n) = a (m x k) @ b (k x n) (+ c when accumulate) for float or double, strides in
// elements: the plain product of the convolution paths.
template <typename T>
void mm(int64_t m, int64_t n, int64_t k, const T* a, int64_t ars, int64_t acs, const T* b, int64_t brs,
        int64_t bcs, T* c, int64_t crs, int64_t ccs, bool accumulate) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>, "mm: float or double");
  GemmProblem p;
  p.dtype = std::is_same_v<T, double> ? DType::Float64 : DType::Float32;
  p.m = m, p.n = n, p.k = k;
  p.a = {const_cast<T*>(a), ars, acs, {}};
  p.b = {const_cast<T*>(b), brs, bcs, {}};
  p.c = {c, crs, ccs, {}};
  p.beta = Scalar(accumulate ? 1.0 : 0.0);
  gemm(p);
}

// Whether a rows x cols matrix with these strides can be handed to BLAS as is.
bool blas_layout_ok(int64_t rows, int64_t cols, int64_t rs, int64_t cs);
// Whether gemm() runs this dtype through BLAS.
bool is_blas_dtype(DType t);

// out <- sum_i x[i * incx] * y[i * incy] (conjugating x when conj_x), written to `out`,
// a pointer to one element of `dtype`.
void dot_kernel(DType dtype, int64_t n, const void* x, int64_t incx, const void* y, int64_t incy,
                bool conj_x, void* out);

}  // namespace tz
