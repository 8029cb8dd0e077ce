// Voice activity detection (sox's vad, as torchaudio.functional.vad ports it): trims the
// audio before the first detected voice, judged by a cepstral power measure on smoothed,
// noise-reduced spectra of overlapping windows.
#pragma once
#include "tensor/tensor.h"

namespace tz::audio {

struct VadOptions {
  double trigger_level, trigger_time, search_time, allowed_gap, pre_trigger_time, boot_time;
  double noise_up_time, noise_down_time, noise_reduction_amount, measure_freq, measure_duration;
  double measure_smooth_time, hp_filter_freq, lp_filter_freq, hp_lifter_freq, lp_lifter_freq;
};

// waveform (channel, time): the earliest activity in any channel decides the cut.
Tensor vad(const Tensor& waveform, double sample_rate, const VadOptions& o);

}  // namespace tz::audio
