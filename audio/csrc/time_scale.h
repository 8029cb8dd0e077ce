// Resampling and tempo change of (channel, time) float waveforms.
#pragma once
#include "tensor/tensor.h"

namespace tz::audio {

// Band-limited resampling from in_rate to out_rate (any positive rates): a linear-phase
// Kaiser-windowed sinc whose -3 dB point is `bandwidth` (a fraction, e.g. 0.95) of the lower
// Nyquist frequency, stop band from that Nyquist on with `rejection_db` of attenuation.
// The output has round(length * out_rate / in_rate) samples, aligned with the input.
Tensor resample(const Tensor& waveform, double in_rate, double out_rate, double bandwidth, double rejection_db);

// sox's tempo: WSOLA time stretching by `factor` (> 1 is faster) with the given segment,
// search and overlap lengths in ms; quick = hierarchical instead of linear search. The output
// has round(length / factor) samples.
Tensor tempo(const Tensor& waveform, double sample_rate, double factor, double segment_ms, double search_ms,
             double overlap_ms, bool quick);

}  // namespace tz::audio
