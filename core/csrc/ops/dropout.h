// Dropout's one-pass apply (kernels/dropout.h) of a mask the caller has drawn: core/_dropout.py
// draws it with bernoulli_ (PyTorch's random stream), in the input's shape or, for feature
// dropout, one value per (sample, channel) broadcast over the rest.
#pragma once
#include "kernels/dropout.h"
#include "tensor/tensor.h"

namespace tz {

Tensor dropout_apply(const Tensor& x, const Tensor& mask, const DropoutArgs& args);
const Tensor& dropout_apply_(const Tensor& x, const Tensor& mask, const DropoutArgs& args);

}  // namespace tz
