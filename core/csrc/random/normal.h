// normal_: PyTorch's CPU normal sampling, all three paths.
#pragma once
#include "random/generator.h"
#include "tensor/tensor.h"

namespace tz {

// Fills a floating tensor with N(mean, std^2) samples, holding g's lock while drawing.
// Contiguous tensors of 16 or more elements use Box-Muller over blocks of 16 uniforms
// (the last, partial block is redrawn and overwrites the tail); anything else draws one
// cached-pair Box-Muller double per element, in memory order.
void normal_kernel(const Tensor& self, double mean, double std, Generator& g);

}  // namespace tz
