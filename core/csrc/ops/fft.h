// The FFT primitives behind core.fft, core.stft and their gradients (PyTorch's _fft_c2c,
// _fft_r2c, _fft_c2r). `dim` lists the transformed dims; `normalization` is 0 (none),
// 1 (divide by sqrt(n)) or 2 (divide by n), n being the product of the signal sizes.
#pragma once
#include "ops/value.h"

namespace tz {

// Complex -> complex over dims, forward (exp(-2 pi i jk/n)) or backward.
Tensor fft_c2c(const Tensor& self, const IntList& dim, int64_t normalization, bool forward);
// Real -> complex (forward) over dims; the last listed dim keeps n/2 + 1 bins if onesided.
Tensor fft_r2c(const Tensor& self, const IntList& dim, int64_t normalization, bool onesided);
// Complex (Hermitian, n/2 + 1 bins in the last listed dim) -> real of last_dim_size there (backward).
Tensor fft_c2r(const Tensor& self, const IntList& dim, int64_t normalization, int64_t last_dim_size);

}  // namespace tz
