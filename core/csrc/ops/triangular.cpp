// tril/triu, diag, diag_embed, diagonal (a view) and trace.
#include <cstring>
#include <type_traits>

#include "iter/thread_pool.h"
#include "ops/conversion.h"
#include "ops/creation.h"
#include "ops/joining.h"
#include "ops/joining_util.h"

namespace tz {

using joining::copy_into;

namespace {

constexpr int64_t kRowGrain = 256;

// Zeroes the part of every trailing matrix of a contiguous tensor that tril (lower) or
// triu keeps out. All-zero bytes are zero in every dtype.
void zero_outside_triangle(const Tensor& x, int64_t k, bool lower) {
  const int64_t rows = x.sizes()[x.dim() - 2], cols = x.sizes()[x.dim() - 1];
  if (x.numel() == 0) return;
  const int64_t isz = x.itemsize(), nrows = x.numel() / cols;
  char* base = static_cast<char*>(x.raw_data());
  parallel_for(0, nrows, kRowGrain, [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      const int64_t i = r % rows;
      char* row = base + r * cols * isz;
      if (lower) {
        int64_t start = std::clamp<int64_t>(i + k + 1, 0, cols);
        std::memset(row + start * isz, 0, (cols - start) * isz);
      } else {
        int64_t stop = std::clamp<int64_t>(i + k, 0, cols);
        std::memset(row, 0, stop * isz);
      }
    }
  });
}

void check_matrix_batch(const Tensor& t) {
  TZ_CHECK(t.dim() >= 2, Runtime, "input tensor must have at least 2 dimensions");
}

Tensor triangular(const Tensor& t, int64_t k, bool lower) {
  check_matrix_batch(t);
  Tensor out = Tensor::empty(t.sizes(), t.dtype());
  copy_into(out, t);
  zero_outside_triangle(out, k, lower);
  return out;
}

const Tensor& triangular_(const Tensor& t, int64_t k, bool lower) {
  check_matrix_batch(t);
  if (t.is_contiguous()) {
    zero_outside_triangle(t, k, lower);
    t.bump_version();
  } else {
    copy_(t, triangular(t, k, lower));  // bumps the version
  }
  return t;
}

// The sum of n elements `stride` apart, accumulated in int64, double or complex<double>.
template <typename T>
Scalar strided_sum(const T* p, int64_t n, int64_t stride) {
  if constexpr (is_complex_v<T>) {
    complex128 acc = 0;
    for (int64_t i = 0; i < n; ++i) acc += complex128(p[i * stride]);
    return Scalar(acc);
  } else if constexpr (std::is_integral_v<T>) {
    int64_t acc = 0;
    for (int64_t i = 0; i < n; ++i) acc += static_cast<int64_t>(p[i * stride]);
    return Scalar(acc);
  } else {
    double acc = 0;
    // Half types convert through float; float and double directly.
    using via = std::conditional_t<std::is_floating_point_v<T>, T, float>;
    for (int64_t i = 0; i < n; ++i) acc += static_cast<double>(static_cast<via>(p[i * stride]));
    return Scalar(acc);
  }
}

}  // namespace

Tensor tril(const Tensor& t, int64_t diagonal) { return triangular(t, diagonal, true); }
Tensor triu(const Tensor& t, int64_t diagonal) { return triangular(t, diagonal, false); }
const Tensor& tril_(const Tensor& t, int64_t diagonal) { return triangular_(t, diagonal, true); }
const Tensor& triu_(const Tensor& t, int64_t diagonal) { return triangular_(t, diagonal, false); }

Tensor diagonal(const Tensor& t, int64_t offset, int64_t dim1, int64_t dim2) {
  const int64_t nd = t.dim();
  const int64_t d1 = wrap_dim(dim1, nd, "diagonal"), d2 = wrap_dim(dim2, nd, "diagonal");
  TZ_CHECK(d1 != d2, Runtime, "diagonal dimensions cannot be identical ", dim1, ", ", dim2);
  const int64_t s1 = t.sizes()[d1], s2 = t.sizes()[d2];
  const int64_t st1 = t.strides()[d1], st2 = t.strides()[d2];
  int64_t size, start = t.offset();
  if (offset >= 0) {
    size = std::max<int64_t>(std::min(s1, s2 - offset), 0);
    start += offset * st2;
  } else {
    size = std::max<int64_t>(std::min(s1 + offset, s2), 0);
    start -= offset * st1;
  }
  if (size == 0) start = t.offset();  // an empty view must not point past the storage
  Shape sizes, strides;
  for (int64_t d = 0; d < nd; ++d)
    if (d != d1 && d != d2) sizes.push_back(t.sizes()[d]), strides.push_back(t.strides()[d]);
  sizes.push_back(size);
  strides.push_back(st1 + st2);
  return Tensor::view_of(t, std::move(sizes), std::move(strides), start);
}

Tensor diag_embed(const Tensor& t, int64_t offset, int64_t dim1, int64_t dim2) {
  const int64_t nd = t.dim() + 1;
  const int64_t d1 = wrap_dim(dim1, nd, "diag_embed"), d2 = wrap_dim(dim2, nd, "diag_embed");
  TZ_CHECK(d1 != d2, Runtime, "diagonal dimensions cannot be identical ", dim1, ", ", dim2);
  const int64_t n = t.sizes().back() + std::abs(offset);
  Shape shape(t.sizes().begin(), t.sizes().end() - 1);
  shape.insert(shape.begin() + std::min(d1, d2), n);
  shape.insert(shape.begin() + std::max(d1, d2), n);
  Tensor out = zeros(shape, t.dtype());
  copy_into(diagonal(out, offset, d1, d2), t);
  return out;
}

Tensor diag(const Tensor& t, int64_t k) {
  TZ_CHECK(t.dim() == 1 || t.dim() == 2, Runtime, "diag(): Supports 1D or 2D tensors. Got ", t.dim(), "D");
  if (t.dim() == 1) {
    const int64_t n = t.sizes()[0] + std::abs(k);
    Tensor out = zeros({n, n}, t.dtype());
    copy_into(diagonal(out, k), t);
    return out;
  }
  Tensor d = diagonal(t, k);
  Tensor out = Tensor::empty(d.sizes(), t.dtype());
  copy_into(out, d);
  return out;
}

Tensor trace(const Tensor& t) {
  TZ_CHECK(t.dim() == 2, Runtime, "expected a matrix, but got tensor with dim ", t.dim());
  TZ_CHECK(t.dtype() != DType::Bool, NotImplemented, "\"trace\" not implemented for 'Bool'");
  const DType out_dtype = is_integral(t.dtype(), false) ? DType::Int64 : t.dtype();
  const Tensor d = diagonal(t);
  const int64_t n = d.numel(), stride = n ? d.strides()[0] : 0;
  Scalar sum;
  TZ_DISPATCH_ALL(t.dtype(), "trace", [&] { sum = strided_sum(d.data<scalar_t>(), n, stride); });
  return scalar_to_tensor(sum, out_dtype);
}

}  // namespace tz
