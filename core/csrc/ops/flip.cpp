// flip, roll, rot90: strided copies through reversed or shifted views of the input.
#include "ops/conversion.h"
#include "ops/joining.h"
#include "ops/joining_util.h"
#include "ops/views.h"

namespace tz {

using joining::copy_into;
using joining::slice_dim;

Tensor flip(const Tensor& t, const IntList& dims) {
  const int64_t nd = t.dim();
  Shape strides = t.strides();
  int64_t offset = t.offset();
  std::vector<bool> seen(std::max<int64_t>(nd, 1), false);
  for (int64_t d : dims) {
    int64_t w = wrap_dim(d, nd, "flip");
    TZ_CHECK(!seen[w], Runtime, "dim ", w, " appears multiple times in the list of dims");
    seen[w] = true;
    if (nd == 0 || t.sizes()[w] == 0) continue;
    // Walk the dim backwards: start at its last element with a negated stride.
    offset += (t.sizes()[w] - 1) * strides[w];
    strides[w] = -strides[w];
  }
  Tensor out = Tensor::empty(t.sizes(), t.dtype());
  copy_into(out, Tensor::view_of(t, t.sizes(), strides, offset));
  return out;
}

Tensor fliplr(const Tensor& t) {
  TZ_CHECK(t.dim() >= 2, Runtime, "Input must be >= 2-d.");
  return flip(t, {1});
}

Tensor flipud(const Tensor& t) {
  TZ_CHECK(t.dim() >= 1, Runtime, "Input must be >= 1-d.");
  return flip(t, {0});
}

Tensor roll(const Tensor& t, const IntList& shifts, const IntList& dims) {
  if (dims.empty()) {
    TZ_CHECK(shifts.size() == 1, Runtime, "shifts and dimensions must align. shifts: ", shifts.size(),
             ", dims:", 0);
    Tensor flat = roll(reshape(t, {-1}), shifts, {0});
    return view(flat, IntList(t.sizes().begin(), t.sizes().end()));
  }
  TZ_CHECK(shifts.size() == dims.size(), Runtime, "shifts and dimensions must align. shifts: ",
           shifts.size(), ", dims:", dims.size());
  const int64_t nd = t.dim();
  TZ_CHECK(nd > 0, Index, "Dimension specified as ", dims[0], " but tensor has no dimensions");
  // Net shift per dim in [0, size): repeated dims add up.
  Shape shift(nd, 0);
  for (size_t i = 0; i < dims.size(); ++i) {
    int64_t d = wrap_dim(dims[i], nd, "roll");
    int64_t n = t.sizes()[d];
    if (n > 0) shift[d] = ((shift[d] + shifts[i]) % n + n) % n;
  }
  Tensor out = Tensor::empty(t.sizes(), t.dtype());
  if (out.numel() == 0) return out;
  std::vector<int64_t> rolled;
  for (int64_t d = 0; d < nd; ++d)
    if (shift[d] != 0) rolled.push_back(d);
  // Each rolled dim splits into two pieces: out[s:] <- in[:n-s] and out[:s] <- in[n-s:].
  const size_t k = rolled.size();
  for (uint64_t mask = 0; mask < (uint64_t(1) << k); ++mask) {
    Tensor dst = out, src = t;
    for (size_t j = 0; j < k; ++j) {
      int64_t d = rolled[j], n = t.sizes()[d], s = shift[d];
      bool tail = (mask >> j) & 1;
      dst = tail ? slice_dim(dst, d, 0, s) : slice_dim(dst, d, s, n - s);
      src = tail ? slice_dim(src, d, n - s, s) : slice_dim(src, d, 0, n - s);
    }
    copy_into(dst, src);
  }
  return out;
}

Tensor rot90(const Tensor& t, int64_t k, const IntList& dims) {
  TZ_CHECK(dims.size() == 2, Runtime, "expected total rotation dims == 2, but got dims = ", dims.size());
  TZ_CHECK(t.dim() >= 2, Runtime, "expected total dims >= 2, but got total dims = ", t.dim());
  int64_t d0 = wrap_dim(dims[0], t.dim(), "rot90"), d1 = wrap_dim(dims[1], t.dim(), "rot90");
  TZ_CHECK(d0 != d1, Runtime, "expected rotation dims to be different, but got dim0 = ", d0,
           " and dim1 = ", d1);
  switch (((k % 4) + 4) % 4) {
    case 1: return transpose(flip(t, {d1}), d0, d1);
    case 2: return flip(t, {d0, d1});
    case 3: return transpose(flip(t, {d0}), d0, d1);
    default: return clone(t);
  }
}

}  // namespace tz
