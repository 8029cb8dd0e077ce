// softmax and log_softmax along one dim (fused, numerically stable).
#pragma once
#include <optional>

#include "tensor/tensor.h"

namespace tz {

// `dtype`: the input is cast to it first (and it is the result dtype).
Tensor softmax(const Tensor& t, int64_t dim, std::optional<DType> dtype, bool log);

// The gradient of softmax (log=false) or log_softmax (log=true) given the op's output:
// y * (g - sum(g * y)) or g - exp(y) * sum(g), in one pass per line.
Tensor softmax_backward_data(const Tensor& grad, const Tensor& output, int64_t dim, bool log);

// exp of a float32 tensor by the kernels' vectorised exp (exposed to test its accuracy).
Tensor vec_exp(const Tensor& t);

}  // namespace tz
