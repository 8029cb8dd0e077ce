// sox's silence: trims leading silence, and stops at (or, with restart, skips) later silence,
// judging silence by the RMS over a 20 ms window of all channels.
#pragma once
#include "tensor/tensor.h"

namespace tz::audio {

// start_periods: how many non-silent stretches of start_duration frames to wait for before
// copying (0: no trimming at the start). stop_periods: after how many silent stretches of
// stop_duration frames to stop; negative: drop those stretches and start trimming again.
// Thresholds are linear amplitudes (fractions of full scale). leave_silence keeps
// stop_duration of each dropped silence.
Tensor silence(const Tensor& waveform, double sample_rate, int64_t start_periods, int64_t start_duration,
               double start_threshold, int64_t stop_periods, int64_t stop_duration, double stop_threshold,
               bool leave_silence);

}  // namespace tz::audio
