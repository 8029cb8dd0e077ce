#include "kernels/gemm.h"

#include <cblas.h>

#include <algorithm>
#include <climits>
#include <mutex>
#include <type_traits>
#include <vector>

#include "iter/thread_pool.h"

namespace tz {

namespace {

// One thread pool per process (DESIGN.md): OpenBLAS runs single-threaded inside ours.
void init_blas_once() {
  static std::once_flag once;
  std::call_once(once, [] { scipy_openblas_set_num_threads(1); });
}

// Multiply-adds below which a product runs on the calling thread (~10 us of one core).
constexpr double kParallelWork = double(1 << 20);
// Row/column blocks of a split product are multiples of this (the BLAS micro-tile height).
constexpr int64_t kSplitAlign = 16;

bool fits_blasint(int64_t v) { return v >= 0 && v <= INT_MAX; }

// How BLAS sees a rows x cols matrix: row-major (trans=false) or its transpose stored
// row-major (trans=true), with leading dimension ld. Strides of size-1 dims are irrelevant.
struct BlasLayout {
  bool ok = false, trans = false;
  int64_t ld = 0;
};

BlasLayout blas_layout(int64_t rows, int64_t cols, int64_t rs, int64_t cs) {
  BlasLayout l;
  if ((cs == 1 || cols == 1) && (rows == 1 || rs >= std::max<int64_t>(1, cols))) {
    l.ok = true;
    l.ld = rows == 1 ? std::max<int64_t>(1, cols) : rs;
  } else if ((rs == 1 || rows == 1) && (cols == 1 || cs >= std::max<int64_t>(1, rows))) {
    l.ok = l.trans = true;
    l.ld = cols == 1 ? std::max<int64_t>(1, rows) : cs;
  }
  l.ok = l.ok && fits_blasint(l.ld);
  return l;
}

// Accumulator of the plain loop: integers wrap like PyTorch's (unsigned arithmetic keeps
// overflow defined), floating types accumulate in themselves.
template <typename T> struct Acc { using type = T; };
template <> struct Acc<uint8_t> { using type = uint32_t; };
template <> struct Acc<int8_t> { using type = uint32_t; };
template <> struct Acc<int16_t> { using type = uint32_t; };
template <> struct Acc<int32_t> { using type = uint32_t; };
template <> struct Acc<int64_t> { using type = uint64_t; };

template <typename A> A scalar_as(const Scalar& s) {
  if constexpr (std::is_same_v<A, complex64>) return s.to_complex();
  else if constexpr (std::is_integral_v<A>) return static_cast<A>(s.to_int());
  else return static_cast<A>(s.to_double());
}

// Calls f(T{}) with the element type of a dtype the products support.
template <typename F>
void visit_dtype(DType dtype, const char* what, const F& f) {
  switch (dtype) {
    case DType::UInt8: return f(uint8_t{});
    case DType::Int8: return f(int8_t{});
    case DType::Int16: return f(int16_t{});
    case DType::Int32: return f(int32_t{});
    case DType::Int64: return f(int64_t{});
    case DType::Float32: return f(float{});
    case DType::Float64: return f(double{});
    case DType::Complex64: return f(complex64{});
    default: fail(ErrorKind::NotImplemented, what, ": not implemented for dtype ", dtype_name(dtype));
  }
}

// A view of one m x n (sub)matrix of a GEMM: pointers already offset.
struct Block {
  int64_t m, n, k;
  const char* a; int64_t ars, acs;
  const char* b; int64_t brs, bcs;
  char* c; int64_t crs, ccs;
};

// The plain blocked loop: a tile of columns of c is accumulated in a small buffer while
// rows of b stream past it.
template <typename T>
void gemm_loop(const Block& blk, const Scalar& alpha_s, const Scalar& beta_s) {
  using A = typename Acc<T>::type;
  constexpr int64_t kTileN = 256;
  const A alpha = scalar_as<A>(alpha_s), beta = scalar_as<A>(beta_s);
  const bool use_beta = beta != A(0);
  const T* a = reinterpret_cast<const T*>(blk.a);
  const T* b = reinterpret_cast<const T*>(blk.b);
  T* c = reinterpret_cast<T*>(blk.c);
  A acc[kTileN];
  for (int64_t j0 = 0; j0 < blk.n; j0 += kTileN) {
    const int64_t nt = std::min(kTileN, blk.n - j0);
    for (int64_t i = 0; i < blk.m; ++i) {
      std::fill(acc, acc + nt, A(0));
      for (int64_t p = 0; p < blk.k; ++p) {
        const A av = A(a[i * blk.ars + p * blk.acs]);
        const T* brow = b + p * blk.brs + j0 * blk.bcs;
        if (blk.bcs == 1) {
          for (int64_t j = 0; j < nt; ++j) acc[j] += av * A(brow[j]);
        } else {
          for (int64_t j = 0; j < nt; ++j) acc[j] += av * A(brow[j * blk.bcs]);
        }
      }
      T* crow = c + i * blk.crs + j0 * blk.ccs;
      for (int64_t j = 0; j < nt; ++j) {
        A v = alpha * acc[j];
        if (use_beta) v += beta * A(crow[j * blk.ccs]);
        crow[j * blk.ccs] = T(v);
      }
    }
  }
}

// A product with one row or one column as a matrix-vector product (GEMM would pack the whole
// matrix for a single row: several times slower). False when the vector's stride doesn't fit.
bool run_gemv(DType dtype, const Block& blk, const BlasLayout& la, const BlasLayout& lb, const Scalar& alpha,
              const Scalar& beta) {
  // m == 1: c[0, :] = B^T a[0, :]; n == 1: c[:, 0] = A b[:, 0].
  const bool row = blk.m == 1;
  const BlasLayout& lm = row ? lb : la;  // the matrix operand
  const int64_t rows = row ? blk.k : blk.m, cols = row ? blk.n : blk.k;
  const void* mat = row ? blk.b : blk.a;
  const void* vec = row ? blk.a : blk.b;
  const int64_t incx = row ? blk.acs : blk.brs, incy = row ? blk.ccs : blk.crs;
  if (!fits_blasint(incx) || !fits_blasint(incy) || incx < 1 || incy < 1) return false;
  // y = op(M) x with M (rows x cols): row-major M for !lm.trans, else its transpose is.
  const bool want_transpose = row;  // m == 1 multiplies by B^T
  const bool trans = want_transpose != lm.trans;
  const int M = int(lm.trans ? cols : rows), N = int(lm.trans ? rows : cols), ld = int(lm.ld);
  const auto t = trans ? CblasTrans : CblasNoTrans;
  if (dtype == DType::Float32) {
    scipy_cblas_sgemv(CblasRowMajor, t, M, N, float(alpha.to_double()), static_cast<const float*>(mat), ld,
                      static_cast<const float*>(vec), int(incx), float(beta.to_double()), reinterpret_cast<float*>(blk.c),
                      int(incy));
  } else {
    scipy_cblas_dgemv(CblasRowMajor, t, M, N, alpha.to_double(), static_cast<const double*>(mat), ld,
                      static_cast<const double*>(vec), int(incx), beta.to_double(), reinterpret_cast<double*>(blk.c),
                      int(incy));
  }
  return true;
}

// Tries BLAS on one block; false when the layout or sizes do not fit it.
bool run_blas(DType dtype, Block blk, const Scalar& alpha, const Scalar& beta) {
  if (!is_blas_dtype(dtype)) return false;
  BlasLayout lc = blas_layout(blk.m, blk.n, blk.crs, blk.ccs);
  if (!lc.ok) return false;
  if (lc.trans) {
    // c is column-major: compute c^T = b^T a^T, which is row-major.
    std::swap(blk.m, blk.n);
    std::swap(blk.a, blk.b);
    std::swap(blk.ars, blk.bcs);
    std::swap(blk.acs, blk.brs);
    std::swap(blk.crs, blk.ccs);
    lc = blas_layout(blk.m, blk.n, blk.crs, blk.ccs);
  }
  const BlasLayout la = blas_layout(blk.m, blk.k, blk.ars, blk.acs);
  const BlasLayout lb = blas_layout(blk.k, blk.n, blk.brs, blk.bcs);
  if (!la.ok || !lb.ok || lc.trans || !fits_blasint(blk.m) || !fits_blasint(blk.n) ||
      !fits_blasint(blk.k))
    return false;
  init_blas_once();
  if ((blk.m == 1 || blk.n == 1) && dtype != DType::Complex64 && run_gemv(dtype, blk, la, lb, alpha, beta)) return true;
  const auto ta = la.trans ? CblasTrans : CblasNoTrans;
  const auto tb = lb.trans ? CblasTrans : CblasNoTrans;
  const int m = int(blk.m), n = int(blk.n), k = int(blk.k);
  const int lda = int(la.ld), ldb = int(lb.ld), ldc = int(lc.ld);
  switch (dtype) {
    case DType::Float32:
      scipy_cblas_sgemm(CblasRowMajor, ta, tb, m, n, k, float(alpha.to_double()),
                        reinterpret_cast<const float*>(blk.a), lda,
                        reinterpret_cast<const float*>(blk.b), ldb, float(beta.to_double()),
                        reinterpret_cast<float*>(blk.c), ldc);
      return true;
    case DType::Float64:
      scipy_cblas_dgemm(CblasRowMajor, ta, tb, m, n, k, alpha.to_double(),
                        reinterpret_cast<const double*>(blk.a), lda,
                        reinterpret_cast<const double*>(blk.b), ldb, beta.to_double(),
                        reinterpret_cast<double*>(blk.c), ldc);
      return true;
    default: {  // Complex64
      const complex64 al = alpha.to_complex(), be = beta.to_complex();
      scipy_cblas_cgemm(CblasRowMajor, ta, tb, m, n, k, &al, blk.a, lda, blk.b, ldb, &be,
                        blk.c, ldc);
      return true;
    }
  }
}

// c <- beta * c (or 0 when beta == 0): the whole product when k == 0.
template <typename T>
void scale_loop(const Block& blk, const Scalar& beta_s) {
  using A = typename Acc<T>::type;
  const A beta = scalar_as<A>(beta_s);
  T* c = reinterpret_cast<T*>(blk.c);
  for (int64_t i = 0; i < blk.m; ++i)
    for (int64_t j = 0; j < blk.n; ++j) {
      T& v = c[i * blk.crs + j * blk.ccs];
      v = beta == A(0) ? T(0) : T(beta * A(v));
    }
}

void run_block(DType dtype, const Block& blk, const Scalar& alpha, const Scalar& beta) {
  if (blk.m == 0 || blk.n == 0) return;
  if (blk.k == 0)
    return visit_dtype(dtype, "gemm", [&](auto tag) { scale_loop<decltype(tag)>(blk, beta); });
  if (!run_blas(dtype, blk, alpha, beta))
    visit_dtype(dtype, "gemm", [&](auto tag) { gemm_loop<decltype(tag)>(blk, alpha, beta); });
}

// Element offset of batch entry `index` for one operand.
int64_t batch_offset(int64_t index, const Shape& sizes, const Shape& strides) {
  int64_t off = 0;
  for (int64_t d = int64_t(sizes.size()) - 1; d >= 0; --d) {
    off += (index % sizes[d]) * strides[d];
    index /= sizes[d];
  }
  return off;
}

}  // namespace

bool is_blas_dtype(DType t) {
  return t == DType::Float32 || t == DType::Float64 || t == DType::Complex64;
}

bool blas_layout_ok(int64_t rows, int64_t cols, int64_t rs, int64_t cs) {
  return blas_layout(rows, cols, rs, cs).ok;
}

void gemm(const GemmProblem& p) {
  const int64_t nbatch = numel_of(p.batch);
  if (nbatch == 0 || p.m == 0 || p.n == 0) return;
  const int64_t isz = itemsize(p.dtype);
  // Block of batch entry `bi`, rows [r0, r1) and columns [c0, c1) of the result.
  auto block = [&](int64_t bi, int64_t r0, int64_t r1, int64_t c0, int64_t c1) {
    const int64_t oa = batch_offset(bi, p.batch, p.a.batch_strides) + r0 * p.a.rs;
    const int64_t ob = batch_offset(bi, p.batch, p.b.batch_strides) + c0 * p.b.cs;
    const int64_t oc = batch_offset(bi, p.batch, p.c.batch_strides) + r0 * p.c.rs + c0 * p.c.cs;
    return Block{r1 - r0, c1 - c0, p.k,
                 static_cast<const char*>(p.a.data) + oa * isz, p.a.rs, p.a.cs,
                 static_cast<const char*>(p.b.data) + ob * isz, p.b.rs, p.b.cs,
                 static_cast<char*>(p.c.data) + oc * isz, p.c.rs, p.c.cs};
  };
  const double work = double(nbatch) * double(p.m) * double(p.n) * double(std::max<int64_t>(p.k, 1));
  const int threads = in_parallel_region() ? 1 : get_num_threads();
  if (threads == 1 || work < kParallelWork) {
    for (int64_t bi = 0; bi < nbatch; ++bi) run_block(p.dtype, block(bi, 0, p.m, 0, p.n), p.alpha, p.beta);
    return;
  }
  // Enough tasks for every thread: whole batch entries, or each product cut into row
  // (or column) blocks, whichever dimension is longer.
  const int64_t parts = nbatch >= threads ? 1 : (threads + nbatch - 1) / nbatch;
  const bool split_rows = p.m >= p.n;
  const int64_t len = split_rows ? p.m : p.n;
  int64_t span = (len + parts - 1) / parts;
  span = std::min(len, (span + kSplitAlign - 1) / kSplitAlign * kSplitAlign);
  const int64_t nblocks = (len + span - 1) / span;
  parallel_for(0, nbatch * nblocks, 1, [&](int64_t begin, int64_t end) {
    for (int64_t t = begin; t < end; ++t) {
      const int64_t bi = t / nblocks, lo = (t % nblocks) * span, hi = std::min(len, lo + span);
      const Block blk = split_rows ? block(bi, lo, hi, 0, p.n) : block(bi, 0, p.m, lo, hi);
      run_block(p.dtype, blk, p.alpha, p.beta);
    }
  });
}

namespace {

template <typename T>
void dot_loop(int64_t n, const T* x, int64_t incx, const T* y, int64_t incy, bool conj_x, T* out) {
  using A = typename Acc<T>::type;
  A acc = A(0);
  for (int64_t i = 0; i < n; ++i) {
    A xv = A(x[i * incx]);
    if constexpr (std::is_same_v<T, complex64>) {
      if (conj_x) xv = std::conj(xv);
    }
    acc += xv * A(y[i * incy]);
  }
  *out = T(acc);
}

}  // namespace

void dot_kernel(DType dtype, int64_t n, const void* x, int64_t incx, const void* y, int64_t incy,
                bool conj_x, void* out) {
  // BLAS indexes negative increments from the far end; only positive ones map directly.
  const bool blas = is_blas_dtype(dtype) && fits_blasint(n) && incx > 0 && incy > 0 &&
                    fits_blasint(incx) && fits_blasint(incy);
  if (blas) {
    init_blas_once();
    const int nn = int(n), ix = int(incx), iy = int(incy);
    switch (dtype) {
      case DType::Float32:
        *static_cast<float*>(out) = scipy_cblas_sdot(nn, static_cast<const float*>(x), ix,
                                                     static_cast<const float*>(y), iy);
        return;
      case DType::Float64:
        *static_cast<double*>(out) = scipy_cblas_ddot(nn, static_cast<const double*>(x), ix,
                                                      static_cast<const double*>(y), iy);
        return;
      default:
        if (conj_x) scipy_cblas_cdotc_sub(nn, x, ix, y, iy, out);
        else scipy_cblas_cdotu_sub(nn, x, ix, y, iy, out);
        return;
    }
  }
  visit_dtype(dtype, "dot", [&](auto tag) {
    using T = decltype(tag);
    dot_loop<T>(n, static_cast<const T*>(x), incx, static_cast<const T*>(y), incy, conj_x,
                static_cast<T*>(out));
  });
}

}  // namespace tz
