// Linear recursive filtering (torchaudio's lfilter core): Direct Form I over every row.
#pragma once
#include "tensor/tensor.h"

namespace tz::audio {

// y[n, f, t] = sum_k b[f, k] x[n, f, t-k] - sum_{k>=1} a[f, k] y[n, f, t-k], zero initial
// state. waveform (N, F, T); a_coeffs and b_coeffs (F, K) of the waveform's float dtype.
// a_coeffs[:, 0] is taken as 1: callers divide both by it first.
Tensor lfilter(const Tensor& waveform, const Tensor& a_coeffs, const Tensor& b_coeffs);

}  // namespace tz::audio
