// randperm: PyTorch's CPU shuffle.
#pragma once
#include "random/generator.h"
#include "tensor/tensor.h"

namespace tz {

// Writes a random permutation of 0..n-1 into the 1-D tensor `out` (n = out.numel(), any
// real dtype), holding g's lock. Below 2^32/20 elements: a Fisher-Yates pass on 32-bit
// draws (z = random() % (n - i)); above: the inside-out variant on 64-bit draws.
void randperm_kernel(const Tensor& out, Generator& g);

}  // namespace tz
