#include "iter/tensor_iter.h"

#include <algorithm>

namespace tz {

Shape broadcast_shapes(const Shape& a, const Shape& b, const char* op) {
  size_t n = std::max(a.size(), b.size());
  Shape out(n);
  for (size_t i = 0; i < n; ++i) {
    int64_t da = i < n - a.size() ? 1 : a[i - (n - a.size())];
    int64_t db = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (da != db && da != 1 && db != 1)
      fail(ErrorKind::Runtime, op, "(): the size of tensor a (", da,
           ") must match the size of tensor b (", db, ") at non-singleton dimension ", i);
    out[i] = da == 1 ? db : da;
  }
  return out;
}

TensorIter::TensorIter(const Tensor* operands, int num_operands, const Shape& shape) {
  nops_ = num_operands;
  TZ_CHECK(nops_ <= kMaxOperands, Runtime, "TensorIter: too many operands");
  TZ_CHECK(shape.size() <= kMaxDims, Runtime, "tensors with more than 16 dimensions are not supported");
  numel_ = numel_of(shape);
  const int nd = static_cast<int>(shape.size());

  // Byte strides of each operand in the broadcast shape (0 along broadcast dims).
  std::array<std::array<int64_t, kMaxDims>, kMaxOperands> st;
  for (int k = 0; k < nops_; ++k) {
    const Tensor& t = operands[k];
    base_[k] = static_cast<char*>(t.raw_data());
    int off = nd - static_cast<int>(t.dim());
    TZ_CHECK(off >= 0, Runtime, "TensorIter: operand has more dims than the iteration shape");
    for (int d = 0; d < off; ++d) st[k][d] = 0;
    for (int d = 0; d < t.dim(); ++d) {
      int64_t sz = t.sizes()[d];
      TZ_CHECK(sz == shape[d + off] || sz == 1, Runtime, "TensorIter: operand of shape ",
               shape_str(t.sizes()), " does not broadcast to ", shape_str(shape));
      st[k][d + off] = sz == 1 ? 0 : t.strides()[d] * t.itemsize();
    }
  }

  // Order dims fastest-first by the first operand's strides (ties: keep the natural order).
  // A stable insertion sort: at most 16 dims.
  auto faster = [&](int x, int y) {
    for (int k = 0; k < nops_; ++k) {
      int64_t sx = std::abs(st[k][x]), sy = std::abs(st[k][y]);
      if (sx == 0 || sy == 0) continue;
      if (sx != sy) return sx < sy;
    }
    return false;
  };
  std::array<int, kMaxDims> perm;
  for (int i = 0; i < nd; ++i) {
    int d = nd - 1 - i, j = i;
    for (; j > 0 && faster(d, perm[j - 1]); --j) perm[j] = perm[j - 1];
    perm[j] = d;
  }

  // Coalesce neighbours that every operand walks contiguously; drop size-1 dims.
  ndim_ = 0;
  for (int i = 0; i < nd; ++i) {
    const int d = perm[i];
    if (shape[d] == 1) continue;
    if (ndim_ > 0) {
      bool mergeable = true;
      for (int k = 0; k < nops_ && mergeable; ++k)
        mergeable = st[k][d] == strides_[k][ndim_ - 1] * shape_[ndim_ - 1];
      if (mergeable) {
        shape_[ndim_ - 1] *= shape[d];
        continue;
      }
    }
    shape_[ndim_] = shape[d];
    for (int k = 0; k < nops_; ++k) strides_[k][ndim_] = st[k][d];
    ++ndim_;
  }
  if (ndim_ == 0 && numel_ == 1) {
    shape_[0] = 1;
    for (int k = 0; k < nops_; ++k) strides_[k][0] = 0;
    ndim_ = 1;
  }
  if (numel_ == 0) {
    shape_[0] = 0;
    for (int k = 0; k < nops_; ++k) strides_[k][0] = 0;
    ndim_ = 1;
  }
  // An input stepping more than a cache line along dim 0 but less along dim 1 (a transposed
  // view): for_each goes by tiles.
  if (ndim_ >= 2 && shape_[0] >= kTile && shape_[1] >= 2)
    for (int k = 1; k < nops_; ++k) {
      const int64_t s0 = std::abs(strides_[k][0]), s1 = std::abs(strides_[k][1]);
      if (s0 > 64 && s1 != 0 && s1 < s0) tiled_ = true;
    }
}

}  // namespace tz
