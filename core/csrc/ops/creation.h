// Factories.
#pragma once
#include <optional>

#include "ops/value.h"

namespace tz {

Tensor empty(const Shape& size, std::optional<DType> dtype = std::nullopt,
             MemoryFormat format = MemoryFormat::Contiguous);
Tensor full(const Shape& size, const Scalar& value, std::optional<DType> dtype = std::nullopt);
Tensor zeros(const Shape& size, std::optional<DType> dtype = std::nullopt);
Tensor ones(const Shape& size, std::optional<DType> dtype = std::nullopt);
Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step,
              std::optional<DType> dtype = std::nullopt);
// Fills every element of t with value (in place).
const Tensor& fill_(const Tensor& t, const Scalar& value);

// The n x m identity (m defaults to n).
Tensor eye(int64_t n, std::optional<int64_t> m = std::nullopt, std::optional<DType> dtype = std::nullopt);
// `steps` evenly spaced values from start to end (both included), computed from both ends
// towards the middle like PyTorch; integer dtypes step in double and truncate.
Tensor linspace(const Scalar& start, const Scalar& end, int64_t steps, std::optional<DType> dtype = std::nullopt);
// base ** linspace(start, end, steps), with the exponents computed in double.
Tensor logspace(const Scalar& start, const Scalar& end, int64_t steps, double base = 10.0,
                std::optional<DType> dtype = std::nullopt);

// *_like factories: t's shape, t's dtype unless given, and t's strides when t is
// non-overlapping and dense (PyTorch's preserve_format), contiguous otherwise.
Tensor empty_like(const Tensor& t, std::optional<DType> dtype = std::nullopt,
                  MemoryFormat format = MemoryFormat::Preserve);
Tensor full_like(const Tensor& t, const Scalar& value, std::optional<DType> dtype = std::nullopt,
                 MemoryFormat format = MemoryFormat::Preserve);
Tensor zeros_like(const Tensor& t, std::optional<DType> dtype = std::nullopt,
                  MemoryFormat format = MemoryFormat::Preserve);
Tensor ones_like(const Tensor& t, std::optional<DType> dtype = std::nullopt,
                 MemoryFormat format = MemoryFormat::Preserve);

}  // namespace tz
