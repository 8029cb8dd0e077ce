// Per-sample sox effect loops on (channel, time) float tensors; each returns a new tensor of
// the input's dtype (and, except where said, its shape), computing in double. The loops
// follow sox 14.4's definitions (and torchaudio's ports of them).
#pragma once
#include "tensor/tensor.h"

namespace tz::audio {

// overdrive: soft clipping of (x*gain + colour) then a DC-blocking first-order filter;
// out = 0.5*x + 0.75*filtered, clipped to [-1, 1]. gain is linear, colour already /200.
Tensor overdrive(const Tensor& waveform, double gain, double colour);

// phaser: a feedback delay whose length a sine/triangle LFO sweeps over 1..delay samples.
Tensor phaser(const Tensor& waveform, int64_t sample_rate, double gain_in, double gain_out, double delay_ms,
              double decay, double mod_speed, bool sinusoidal);

// flanger: a swept, interpolated delay with feedback, mixed with the input; channels are
// phase-shifted by `phase` percent of a sweep. At most 4 channels (sox's limit).
Tensor flanger(const Tensor& waveform, int64_t sample_rate, double delay_ms, double depth_ms, double regen,
               double width, double speed, bool sinusoidal, double phase, bool quadratic);

// chorus: gain_in*x plus, per voice, decay * x delayed by delay_ms swept by depth_ms at
// speed_hz; scaled by gain_out. Output has the input's length.
Tensor chorus(const Tensor& waveform, int64_t sample_rate, double gain_in, double gain_out,
              const std::vector<double>& delays_ms, const std::vector<double>& decays,
              const std::vector<double>& speeds_hz, const std::vector<double>& depths_ms,
              const std::vector<bool>& sinusoidal);

// echo (sequential=false) and echos (true): delayed copies of the input (echos: of the
// input plus the earlier echoes); the output runs on until the last echo has faded
// (`tail` extra samples, which the caller computes as sox does).
Tensor echo(const Tensor& waveform, int64_t sample_rate, double gain_in, double gain_out,
            const std::vector<double>& delays_ms, const std::vector<double>& decays, bool sequential,
            int64_t tail);

}  // namespace tz::audio
