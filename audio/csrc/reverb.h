// sox's reverb: a Freeverb-style network (8 damped combs into 4 all-passes) per channel.
#pragma once
#include "tensor/tensor.h"

namespace tz::audio {

// waveform (channel, time), 1 or more channels. Mono with stereo_depth > 0 becomes stereo
// (a second network with longer delays), as in sox. The output keeps the input's length;
// percentages as sox takes them (reverberance, hf_damping, room_scale, stereo_depth).
Tensor reverb(const Tensor& waveform, double sample_rate, double reverberance, double hf_damping,
              double room_scale, double stereo_depth, double pre_delay_ms, double wet_gain_db, bool wet_only);

}  // namespace tz::audio
