// Views: new sizes/strides/offset over the same storage, sharing the version counter.
#pragma once
#include "ops/value.h"

namespace tz {

Tensor view(const Tensor& t, const IntList& size);
Tensor reshape(const Tensor& t, const IntList& size);
Tensor permute(const Tensor& t, const IntList& dims);
Tensor transpose(const Tensor& t, int64_t dim0, int64_t dim1);
Tensor expand(const Tensor& t, const IntList& size);
Tensor as_strided(const Tensor& t, const IntList& size, const IntList& stride,
                  std::optional<int64_t> storage_offset = std::nullopt);
// A view of `base`'s storage with its own dtype (view_as_real / view_as_complex).
Tensor view_with_dtype(const Tensor& base, Shape sizes, Shape strides, int64_t offset, DType dtype);
// A new tensor object viewing exactly what `t` views.
Tensor alias(const Tensor& t);

// ---- shape manipulation (views.cpp)
Tensor view_as(const Tensor& t, const Tensor& other);
Tensor reshape_as(const Tensor& t, const Tensor& other);
Tensor expand_as(const Tensor& t, const Tensor& other);
Tensor matrix_t(const Tensor& t);  // Tensor.t(): transpose of a <= 2-D tensor
Tensor squeeze(const Tensor& t);
Tensor squeeze(const Tensor& t, int64_t dim);
Tensor unsqueeze(const Tensor& t, int64_t dim);
Tensor flatten(const Tensor& t, int64_t start_dim = 0, int64_t end_dim = -1);
Tensor unflatten(const Tensor& t, int64_t dim, const IntList& sizes);
Tensor movedim(const Tensor& t, const IntList& source, const IntList& destination);
Tensor view_as_real(const Tensor& t);
Tensor view_as_complex(const Tensor& t);

// ---- slicing along one dim (views_slicing.cpp)
// Python-style slice [start:stop:step] of `dim`: bounds are clamped, step must be > 0.
Tensor slice(const Tensor& t, int64_t dim, int64_t start, int64_t stop, int64_t step = 1);
Tensor narrow(const Tensor& t, int64_t dim, int64_t start, int64_t length);
Tensor select(const Tensor& t, int64_t dim, int64_t index);
TensorList unbind(const Tensor& t, int64_t dim = 0);
TensorList split(const Tensor& t, int64_t split_size, int64_t dim = 0);
TensorList split_with_sizes(const Tensor& t, const IntList& split_sizes, int64_t dim = 0);
TensorList chunk(const Tensor& t, int64_t chunks, int64_t dim = 0);
TensorList tensor_split(const Tensor& t, int64_t sections, int64_t dim = 0);
TensorList tensor_split(const Tensor& t, const IntList& indices, int64_t dim = 0);
// Tensor.unfold: every `size`-long window of `dim` taken `step` apart, as a new last dim.
Tensor unfold(const Tensor& t, int64_t dim, int64_t size, int64_t step);

// Resolves a single -1 in a requested shape against numel (view/reshape rules).
Shape infer_size(const IntList& size, int64_t numel, const char* op);

}  // namespace tz
