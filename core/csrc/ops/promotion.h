// PyTorch's result_type: dimensioned tensors outrank 0-dim tensors, which outrank Python
// numbers, within each category (bool < integer < floating < complex).
#pragma once
#include <vector>

#include "tensor/tensor.h"

namespace tz {

DType result_type(const std::vector<Tensor>& tensors);
DType result_type(const Tensor& a, const Tensor& b);
// The dtype kernels compute in for a stored dtype: half types in float32, others as they are.
inline DType compute_dtype(DType t) {
  return t == DType::Float16 || t == DType::BFloat16 ? DType::Float32 : t;
}
// The dtype float ops compute in for an input dtype (ints and bool go to the default float).
DType to_floating(DType t);
// Whether a result of dtype `from` may be written into a tensor of dtype `to` (in-place ops).
bool can_cast(DType from, DType to);

}  // namespace tz
