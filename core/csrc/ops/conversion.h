// Copies and dtype conversion.
#pragma once
#include <optional>

#include "tensor/tensor.h"

namespace tz {

// dst <- src, broadcasting src to dst's shape and converting dtype. Bumps dst's version.
const Tensor& copy_(const Tensor& dst, const Tensor& src);
Tensor clone(const Tensor& t);
Tensor contiguous(const Tensor& t);
// Same tensor when nothing changes (dtype equal and copy false), else a converted copy.
Tensor to_dtype(const Tensor& t, DType dtype, bool copy = false);
// A 0-dim tensor holding a Python number (flagged for type promotion).
Tensor scalar_to_tensor(const Scalar& s, std::optional<DType> dtype = std::nullopt);
// The single value of a one-element tensor.
Scalar item(const Tensor& t);

}  // namespace tz
