// Indexing ops: advanced indexing (t[idx], t[idx] = v), index_select/add/copy/fill,
// gather/scatter, take/put, masked ops, where and nonzero. Results of reads are copies;
// writes (`_` ops) bump the version counter.
#pragma once
#include <optional>
#include <string>

#include "kernels/index.h"
#include "ops/value.h"

namespace tz {

// ---- advanced indexing (advanced_index.cpp)
// self[indices]: indices[d] indexes dim d (undefined: the whole dim); bool/uint8 masks
// cover as many dims as they have. Integer indices broadcast together; when the indexed
// dims are not adjacent, the broadcast index dims come first in the result (numpy rules).
Tensor index(const Tensor& self, const TensorList& indices);
const Tensor& index_put_(const Tensor& self, const TensorList& indices, const Tensor& values,
                         bool accumulate = false);
Tensor index_put(const Tensor& self, const TensorList& indices, const Tensor& values,
                 bool accumulate = false);
// Flat indices into self (as if it were contiguous and 1-D); negative ones count from the end.
Tensor take(const Tensor& self, const Tensor& index);
const Tensor& put_(const Tensor& self, const Tensor& index, const Tensor& source, bool accumulate = false);
Tensor put(const Tensor& self, const Tensor& index, const Tensor& source, bool accumulate = false);

// ---- along one dim with a vector of indices (index_dim.cpp)
Tensor index_select(const Tensor& self, int64_t dim, const Tensor& index);
const Tensor& index_add_(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source,
                         const Scalar& alpha = Scalar(int64_t(1)));
Tensor index_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source,
                 const Scalar& alpha = Scalar(int64_t(1)));
const Tensor& index_copy_(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source);
Tensor index_copy(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source);
const Tensor& index_fill_(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value);
Tensor index_fill(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value);

// ---- elementwise along one dim (scatter_gather.cpp)
Tensor gather(const Tensor& self, int64_t dim, const Tensor& index);
// reduce: none (assign), "add" or "multiply".
const Tensor& scatter_(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                       const std::optional<std::string>& reduce = std::nullopt);
const Tensor& scatter_(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value,
                       const std::optional<std::string>& reduce = std::nullopt);
Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
               const std::optional<std::string>& reduce = std::nullopt);
Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value,
               const std::optional<std::string>& reduce = std::nullopt);
const Tensor& scatter_add_(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src);
Tensor scatter_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src);

// ---- masks (masked.cpp)
const Tensor& masked_fill_(const Tensor& self, const Tensor& mask, const Scalar& value);
Tensor masked_fill(const Tensor& self, const Tensor& mask, const Scalar& value);
Tensor masked_select(const Tensor& self, const Tensor& mask);
const Tensor& masked_scatter_(const Tensor& self, const Tensor& mask, const Tensor& source);
Tensor masked_scatter(const Tensor& self, const Tensor& mask, const Tensor& source);
// A fill value given as a tensor (masked_fill, index_fill): it must be 0-d.
Scalar zero_dim_value(const Tensor& value, const char* op);
// cond ? a : b, broadcast; the result dtype is the promotion of a and b.
Tensor where(const Tensor& cond, const Tensor& a, const Tensor& b);
// Coordinates of the nonzero elements: int64 of shape (count, self.dim()).
Tensor nonzero(const Tensor& self);
// nonzero(as_tuple=True): one 1-D tensor per dim (a 0-d input counts as 1-D).
TensorList nonzero_numpy(const Tensor& self);

}  // namespace tz
