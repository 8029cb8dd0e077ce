#include "iter/tensor_iter.h"

#include <algorithm>
#include <numeric>

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

TensorIter::TensorIter(const std::vector<Tensor>& operands, const Shape& shape) {
  nops_ = static_cast<int>(operands.size());
  TZ_CHECK(nops_ <= kMaxOperands, Runtime, "TensorIter: too many operands");
  TZ_CHECK(shape.size() <= 16, Runtime, "tensors with more than 16 dimensions are not supported");
  numel_ = numel_of(shape);
  const int nd = static_cast<int>(shape.size());

  // Byte strides of each operand in the broadcast shape (0 along broadcast dims).
  std::vector<std::vector<int64_t>> st(nops_, std::vector<int64_t>(nd, 0));
  for (int k = 0; k < nops_; ++k) {
    const Tensor& t = operands[k];
    base_[k] = static_cast<char*>(t.raw_data());
    int off = nd - static_cast<int>(t.dim());
    TZ_CHECK(off >= 0, Runtime, "TensorIter: operand has more dims than the iteration shape");
    for (int d = 0; d < t.dim(); ++d) {
      int64_t sz = t.sizes()[d];
      TZ_CHECK(sz == shape[d + off] || sz == 1, Runtime, "TensorIter: operand of shape ",
               shape_str(t.sizes()), " does not broadcast to ", shape_str(shape));
      st[k][d + off] = sz == 1 ? 0 : t.strides()[d] * t.itemsize();
    }
  }

  // Order dims fastest-first by the first operand's strides (ties: keep the natural order).
  std::vector<int> perm(nd);
  std::iota(perm.begin(), perm.end(), 0);
  std::reverse(perm.begin(), perm.end());
  std::stable_sort(perm.begin(), perm.end(), [&](int x, int y) {
    for (int k = 0; k < nops_; ++k) {
      int64_t sx = std::abs(st[k][x]), sy = std::abs(st[k][y]);
      if (sx == 0 || sy == 0) continue;
      if (sx != sy) return sx < sy;
    }
    return false;
  });

  // Coalesce neighbours that every operand walks contiguously; drop size-1 dims.
  shape_.clear();
  for (int k = 0; k < nops_; ++k) strides_[k].clear();
  for (int d : perm) {
    if (shape[d] == 1) continue;
    if (!shape_.empty()) {
      bool mergeable = true;
      for (int k = 0; k < nops_ && mergeable; ++k)
        mergeable = st[k][d] == strides_[k].back() * shape_.back();
      if (mergeable) {
        shape_.back() *= shape[d];
        continue;
      }
    }
    shape_.push_back(shape[d]);
    for (int k = 0; k < nops_; ++k) strides_[k].push_back(st[k][d]);
  }
  if (shape_.empty() && numel_ == 1) {
    shape_.push_back(1);
    for (int k = 0; k < nops_; ++k) strides_[k].push_back(0);
  }
  if (numel_ == 0) shape_.assign(1, 0);
}

}  // namespace tz
