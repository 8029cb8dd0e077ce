// The (channel, time) float waveforms the effect kernels take.
#pragma once
#include "ops/conversion.h"
#include "tensor/errors.h"

namespace tz::audio {

// `w` checked to be a 2-D float32/float64 waveform, as a contiguous tensor of dtype `as`.
inline Tensor checked_rows(const Tensor& w, DType as) {
  TZ_CHECK(w.dim() == 2, Value, "waveform must be (channel, time), got ", w.dim(), " dims");
  TZ_CHECK(w.dtype() == DType::Float32 || w.dtype() == DType::Float64, Type,
           "waveform must be float32 or float64, got ", dtype_name(w.dtype()));
  return contiguous(to_dtype(w, as));
}

}  // namespace tz::audio
