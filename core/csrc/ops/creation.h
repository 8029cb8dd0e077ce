// Factories.
#pragma once
#include <optional>

#include "ops/value.h"

namespace tz {

Tensor empty(const Shape& size, std::optional<DType> dtype = std::nullopt);
Tensor full(const Shape& size, const Scalar& value, std::optional<DType> dtype = std::nullopt);
Tensor zeros(const Shape& size, std::optional<DType> dtype = std::nullopt);
Tensor ones(const Shape& size, std::optional<DType> dtype = std::nullopt);
Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step,
              std::optional<DType> dtype = std::nullopt);
// Fills every element of t with value (in place).
const Tensor& fill_(const Tensor& t, const Scalar& value);

}  // namespace tz
