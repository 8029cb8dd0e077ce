// multinomial: PyTorch's two CPU algorithms.
#pragma once
#include <cstdint>

#include "random/generator.h"
#include "tensor/tensor.h"

namespace tz {

// With replacement (n_sample > 1): per row of `probs` (1-D or 2-D, floating), a
// normalised running sum, then a binary search per 53-bit uniform. Checks each entry as it
// goes, like PyTorch. Writes int64 indices into `out` ([n_sample] or [rows, n_sample]).
void multinomial_with_replacement_kernel(const Tensor& probs, int64_t n_sample, const Tensor& out,
                                         Generator& g);

// Without replacement (and for a single sample): PyTorch draws keys ~ Exp(1) in probs'
// dtype and ranks probs / keys; `out` gets the n_sample largest per row, largest first.
void multinomial_top_keys(const Tensor& probs, const Tensor& keys, int64_t n_sample, const Tensor& out);

}  // namespace tz
