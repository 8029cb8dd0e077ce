#include "autograd/storage_space.h"

#include <algorithm>
#include <limits>

#include "autograd/functions.h"
#include "tensor/size_math.h"

namespace tz {

namespace {

IntList ints(const Shape& s) { return IntList(s.begin(), s.end()); }

bool dense_row_major(const TensorGeometry& geo) {
  int64_t expected = 1;
  for (int64_t d = static_cast<int64_t>(geo.sizes.size()) - 1; d >= 0; --d) {
    if (geo.sizes[d] != 1 && geo.strides[d] != expected) return false;
    expected *= geo.sizes[d];
  }
  return true;
}

}  // namespace

Tensor strided_scatter(const Tensor& g, const Shape& base_sizes, const Shape& size, const Shape& stride, int64_t offset) {
  return F::tensor_call(TZ_OP("_view_scatter_add"), {g, ints(base_sizes), ints(size), ints(stride), offset});
}

StorageSpan storage_span(std::initializer_list<const TensorGeometry*> geometries) {
  int64_t lo = std::numeric_limits<int64_t>::max(), hi = -1;
  for (const TensorGeometry* g : geometries) {
    if (numel_of(g->sizes) == 0) continue;
    const int64_t last = g->offset + strided_extent(g->sizes, g->strides, "storage_span").highest;
    lo = std::min(lo, g->offset);
    hi = std::max(hi, last);
  }
  return hi < 0 ? StorageSpan{} : StorageSpan{lo, hi - lo + 1};
}

Tensor to_storage(const Tensor& t, const TensorGeometry& geo, const StorageSpan& span) {
  if (geo.offset == span.min_offset && numel_of(geo.sizes) == span.extent && dense_row_major(geo))
    return F::reshape(t, {span.extent});
  return strided_scatter(t, {span.extent}, geo.sizes, geo.strides, geo.offset - span.min_offset);
}

Tensor from_storage(const Tensor& buf, const TensorGeometry& geo, const StorageSpan& span) {
  if (geo.offset == span.min_offset && numel_of(geo.sizes) == span.extent && dense_row_major(geo))
    return F::reshape(buf, geo.sizes);
  // The geometry indexes a dense buffer; an incoming gradient may be an expanded (stride-0) one.
  const Tensor dense = F::tensor_call(TZ_OP("contiguous"), {buf});
  return F::tensor_call(TZ_OP("as_strided"),
                        {dense, ints(geo.sizes), ints(geo.strides), dense.offset() + geo.offset - span.min_offset});
}

}  // namespace tz
