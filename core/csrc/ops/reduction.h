// Reductions over dims: sum, mean, prod, max/min, arg max/min, var/std, norms, logsumexp,
// all/any, count_nonzero. `dim` None (or an empty list) means every dim.
// Also pulls in the rest of the family for ops/ops.h: scans, softmax, sorting.
#pragma once
#include <optional>
#include <utility>

#include "ops/cumulative.h"
#include "ops/softmax.h"
#include "ops/sorting.h"
#include "ops/value.h"

namespace tz {

using OptDims = std::optional<IntList>;

Tensor sum(const Tensor& t, const OptDims& dim, bool keepdim, std::optional<DType> dtype);
Tensor nansum(const Tensor& t, const OptDims& dim, bool keepdim, std::optional<DType> dtype);
Tensor mean(const Tensor& t, const OptDims& dim, bool keepdim, std::optional<DType> dtype);
Tensor prod(const Tensor& t, std::optional<int64_t> dim, bool keepdim, std::optional<DType> dtype);

// max()/min() of every element; max(dim) -> (values, indices).
Tensor max_all(const Tensor& t, bool is_max);
std::pair<Tensor, Tensor> max_dim(const Tensor& t, int64_t dim, bool keepdim, bool is_max);
Tensor amax(const Tensor& t, const IntList& dim, bool keepdim, bool is_max);
Tensor argmax(const Tensor& t, std::optional<int64_t> dim, bool keepdim, bool is_max);

// Variance with Bessel-style correction (n - correction in the denominator).
Tensor var(const Tensor& t, const OptDims& dim, double correction, bool keepdim, bool take_sqrt);
// (var or std, mean)
std::pair<Tensor, Tensor> var_mean(const Tensor& t, const OptDims& dim, double correction,
                                   bool keepdim, bool take_sqrt);
// Correction from the `unbiased` / `correction` arguments (correction wins when given).
double var_correction(std::optional<bool> unbiased, const std::optional<Scalar>& correction);

// Vector p-norm (p = inf/-inf/0 included).
Tensor norm(const Tensor& t, double p, const OptDims& dim, bool keepdim, std::optional<DType> dtype);
// norm with p given as a string: "fro" (2-norm) or "nuc" (not supported).
Tensor norm_str(const Tensor& t, const std::string& p, const OptDims& dim, bool keepdim,
                std::optional<DType> dtype);
Tensor logsumexp(const Tensor& t, const IntList& dim, bool keepdim);

Tensor all(const Tensor& t, const OptDims& dim, bool keepdim);
Tensor any(const Tensor& t, const OptDims& dim, bool keepdim);
Tensor count_nonzero(const Tensor& t, const OptDims& dim);

}  // namespace tz
