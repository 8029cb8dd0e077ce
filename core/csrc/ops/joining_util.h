// Helpers shared by the joining family's files: copies into outputs under construction
// and sub-views along one dimension.
#pragma once
#include "tensor/tensor.h"

namespace tz::joining {

// dst <- src (same shape), converting dtype. memcpy (split over the thread pool when large)
// when both are contiguous with one dtype, else the strided copy kernel. Does not bump
// dst's version: dst is (a view of) an output still being built.
void copy_into(const Tensor& dst, const Tensor& src);

// memcpy of nbytes, split over the thread pool when large.
void parallel_memcpy(void* dst, const void* src, int64_t nbytes);

// The view of `length` elements along `dim` starting at index `start`, walking `step`
// (negative: reversed, 0: the one element repeated). No bounds checks: callers validate.
Tensor slice_dim(const Tensor& t, int64_t dim, int64_t start, int64_t length, int64_t step = 1);

// t with a new size-1 dimension at `dim` (already wrapped to [0, t.dim()]), as a view.
Tensor unsqueeze_view(const Tensor& t, int64_t dim);

// Product of sizes[begin:end).
int64_t prod_range(const Shape& sizes, int64_t begin, int64_t end);

}  // namespace tz::joining
