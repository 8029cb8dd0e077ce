// Storage space: a 1-D buffer covering the memory that several tensor geometries reach. The
// gradient of as_strided and of in-place ops on views (CopySlices) moves between geometries
// through it. Every function here is differentiable (it calls ops through the table).
#pragma once
#include <initializer_list>

#include "autograd/op_node.h"

namespace tz {

// zeros(base_sizes) with `g` added through the geometry (size, stride, offset) laid over it;
// elements the geometry visits twice accumulate.
Tensor strided_scatter(const Tensor& g, const Shape& base_sizes, const Shape& size, const Shape& stride, int64_t offset);

struct StorageSpan {
  int64_t min_offset = 0;
  int64_t extent = 0;
};
StorageSpan storage_span(std::initializer_list<const TensorGeometry*> geometries);
// `t`, laid out as `geo`, scattered (added) into a zero buffer covering `span`. Differentiable.
Tensor to_storage(const Tensor& t, const TensorGeometry& geo, const StorageSpan& span);
// The elements that `geo` lays out in buffer `buf` covering `span`. Differentiable.
Tensor from_storage(const Tensor& buf, const TensorGeometry& geo, const StorageSpan& span);

}  // namespace tz
