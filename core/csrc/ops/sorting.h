// Sorting and selection along a dim: sort, argsort, msort, topk, kthvalue, median, mode,
// unique. NaN sorts as the largest value; sorts are stable.
#pragma once
#include <optional>
#include <utility>

#include "ops/value.h"

namespace tz {

std::pair<Tensor, Tensor> sort(const Tensor& t, int64_t dim, bool descending);
Tensor msort(const Tensor& t);
// topk/kthvalue/median/mode pick the same index among ties as PyTorch on CPU.
std::pair<Tensor, Tensor> topk(const Tensor& t, int64_t k, int64_t dim, bool largest, bool sorted);
std::pair<Tensor, Tensor> kthvalue(const Tensor& t, int64_t k, int64_t dim, bool keepdim);
// Lower median; NaN when a NaN is present unless ignore_nan (nanmedian).
Tensor median_all(const Tensor& t, bool ignore_nan);
std::pair<Tensor, Tensor> median_dim(const Tensor& t, int64_t dim, bool keepdim, bool ignore_nan);
std::pair<Tensor, Tensor> mode(const Tensor& t, int64_t dim, bool keepdim);
// The unique values (sorted), plus the inverse indices and counts when asked; a Tensor when
// neither is asked, else a tuple. With `dim`, unique slices along that dim.
Value unique(const Tensor& t, bool sorted, bool return_inverse, bool return_counts,
             std::optional<int64_t> dim);

}  // namespace tz
