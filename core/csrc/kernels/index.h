// Data movement for the indexing ops. Every op reduces to: a view of the indexed tensor
// shaped like the result (indexed dims get stride 0), plus an int64 tensor of element
// offsets (same shape, usually with stride-0 dims) that says where each element really is.
// Kernels move raw elements by size, so one instantiation serves every dtype of that size.
#pragma once
#include <cstdint>

#include "tensor/tensor.h"

namespace tz {

enum class ScatterMode : uint8_t { Assign, Add, Multiply };

// out[i] = element at (address of src[i]) + offsets[i] elements. All three share a shape.
void index_gather_kernel(const Tensor& out, const Tensor& src, const Tensor& offsets);
// element at (address of dst[i]) + offsets[i] <- values[i] (or += / *=, one at a time, in
// order, so repeated offsets accumulate). values has dst's dtype.
void index_scatter_kernel(const Tensor& dst, const Tensor& values, const Tensor& offsets, ScatterMode mode);
// Along the last dim of contiguous tensors seen as rows (index: int64 [rows, k], src or dst:
// [rows, n]): out[r][j] = src[r][index[r][j]], or dst[r][index[r][j]] += src[r][j] in order
// (src like index, or one value repeated: all strides 0).
// They return false, having done nothing, when an index is outside [0, n): the general path
// then reports it.
bool gather_rows_kernel(const Tensor& out, const Tensor& src, const Tensor& index);
bool scatter_add_rows_kernel(const Tensor& dst, const Tensor& src, const Tensor& index);
// self[i] = *value wherever mask[i] (mask: bool or uint8, broadcast to self; value: 0-d, self's dtype).
void masked_fill_kernel(const Tensor& self, const Tensor& mask, const Tensor& value);
// out[i] = cond[i] ? a[i] : b[i] (cond: bool or uint8; a, b: out's dtype; all broadcast to out).
void where_kernel(const Tensor& out, const Tensor& cond, const Tensor& a, const Tensor& b);

}  // namespace tz
