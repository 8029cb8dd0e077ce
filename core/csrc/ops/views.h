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
// Resolves a single -1 in a requested shape against numel (view/reshape rules).
Shape infer_size(const IntList& size, int64_t numel, const char* op);

}  // namespace tz
