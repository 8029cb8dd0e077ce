// Cumulative sums and products along a dim.
#pragma once
#include <optional>

#include "tensor/tensor.h"

namespace tz {

// Integral and bool inputs give int64 unless `dtype` is given (the input is cast to it).
Tensor cumsum(const Tensor& t, int64_t dim, std::optional<DType> dtype);
Tensor cumprod(const Tensor& t, int64_t dim, std::optional<DType> dtype);

}  // namespace tz
