// Helpers shared by the indexing ops (internal to ops/advanced_index.cpp, index_dim.cpp,
// scatter_gather.cpp, masked.cpp): index values -> element offsets, with bounds checks.
#pragma once
#include "ops/value.h"

namespace tz {

// How an op bounds-checks index values, and what it says when one is out of range.
struct IndexBounds {
  enum class Message : uint8_t {
    Dim,     // "index 5 is out of bounds for dimension 0 with size 3"
    InSelf,  // "index out of range in self"
    Flat,    // "out of range: tried to access index 9 on a tensor of 6 elements."
  };
  bool allow_negative;  // -n <= i < 0 counts from the end
  ErrorKind kind;
  Message message;
  int64_t dim = -1;  // the dimension Message::Dim names; -1: the index's position in the list
  bool check_unused = false;  // check indices even when the result is empty (index_select)
};

// offsets = sum_k wrap(indices[k]) * strides[k], with the indices broadcast to `shape`, as a
// new contiguous int64 tensor. sizes[k] bounds indices[k]; errors name dimension k.
// Index tensors must be int64 or int32.
Tensor index_offsets(const TensorList& indices, const Shape& shape, const Shape& sizes,
                     const Shape& strides, const IndexBounds& bounds);

// `offsets` (shape = result_shape[first, first + offsets.dim())) as a view of the whole
// result shape, constant along the other dims.
Tensor spread_offsets(const Tensor& offsets, const Shape& result_shape, int64_t first);

// The indexing result of `self[indices]` as views: `view` is self restrided to the result
// shape (indexed dims have stride 0) and `offsets` says where each element really lives.
// indices are int64/int32, aligned with self's dims (undefined: the whole dim).
struct IndexedView {
  Tensor view;
  Tensor offsets;
};
IndexedView indexed_view(const Tensor& self, const TensorList& indices, const IndexBounds& bounds);

// Bool/uint8 masks in `indices` become one int64 index tensor per mask dim (their nonzero
// coordinates); the result is aligned with self's dims. Other dtypes are an IndexError.
TensorList expand_index_masks(const Tensor& self, const TensorList& indices);

// Writes through `t` would hit some elements twice (an expanded tensor): refuse, as PyTorch does.
void check_no_internal_overlap(const Tensor& t, const char* op);
// `src` as the values written into `dst`: copied first when the two share memory.
Tensor unaliased(const Tensor& src, const Tensor& dst);
// A freshly computed result starts at version 0, however many writes made it.
inline Tensor fresh(Tensor t) {
  t.impl()->version->version = 0;
  return t;
}
// Checks `index` is int64 (or int32 when `allow_int32`).
void check_index_dtype(const Tensor& index, bool allow_int32, const char* op);

}  // namespace tz
