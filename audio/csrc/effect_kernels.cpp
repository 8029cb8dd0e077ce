#include "effect_kernels.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "iter/thread_pool.h"
#include "ops/conversion.h"
#include "tensor/errors.h"
#include "wave_table.h"
#include "waveform.h"

namespace tz::audio {

namespace {

// A (channel, time) float waveform read as double rows, and an output of its dtype.
struct Rows {
  Tensor in;
  int64_t channels, length;
  explicit Rows(const Tensor& w) {
    in = checked_rows(w, DType::Float64);
    channels = w.sizes()[0];
    length = w.sizes()[1];
  }
  const double* row(int64_t c) const { return in.data<double>() + c * length; }
};

// Runs fn(channel) over the channels in parallel when there is enough work.
template <typename Fn>
void each_channel(int64_t channels, int64_t length, Fn fn) {
  auto body = [&](int64_t b, int64_t e) {
    for (int64_t c = b; c < e; ++c) fn(c);
  };
  if (channels > 1 && channels * length >= 32768 && get_num_threads() > 1 && !in_parallel_region())
    parallel_for(0, channels, 1, body);
  else
    body(0, channels);
}

double clip(double v) { return std::min(1.0, std::max(-1.0, v)); }

Tensor finish(const std::vector<double>& out, int64_t channels, int64_t length, DType dtype) {
  Tensor t = Tensor::empty({channels, length}, DType::Float64);
  std::copy(out.begin(), out.end(), t.data<double>());
  return to_dtype(t, dtype);
}

}  // namespace

Tensor overdrive(const Tensor& waveform, double gain, double colour) {
  Rows w(waveform);
  std::vector<double> out(w.channels * w.length);
  each_channel(w.channels, w.length, [&](int64_t c) {
    const double* x = w.row(c);
    double* y = out.data() + c * w.length;
    double last_in = 0, last_out = 0;
    for (int64_t t = 0; t < w.length; ++t) {
      double v = x[t] * gain + colour;
      v = v < -1 ? -2.0 / 3 : v > 1 ? 2.0 / 3 : v - v * v * v / 3;  // cubic soft clip
      last_out = v - last_in + 0.995 * last_out;                     // DC blocker
      last_in = v;
      y[t] = clip(x[t] * 0.5 + last_out * 0.75);
    }
  });
  return finish(out, w.channels, w.length, waveform.dtype());
}

Tensor phaser(const Tensor& waveform, int64_t sample_rate, double gain_in, double gain_out, double delay_ms,
              double decay, double mod_speed, bool sinusoidal) {
  Rows w(waveform);
  const auto delay_len = static_cast<int64_t>(delay_ms * 0.001 * sample_rate + 0.5);
  const auto mod_len = static_cast<int64_t>(sample_rate / mod_speed + 0.5);
  TZ_CHECK(delay_len >= 1, Value, "phaser: the delay (", delay_ms, " ms) is under one sample");
  TZ_CHECK(mod_len >= 1, Value, "phaser: the modulation speed ", mod_speed, " Hz is too fast");
  const auto mod = wave_table(sinusoidal ? Wave::Sine : Wave::Triangle, mod_len, 1.0,
                              static_cast<double>(delay_len), M_PI / 2, true);
  std::vector<double> out(w.channels * w.length);
  each_channel(w.channels, w.length, [&](int64_t c) {
    const double* x = w.row(c);
    double* y = out.data() + c * w.length;
    std::vector<double> delay(delay_len, 0.0);
    int64_t delay_pos = 0, mod_pos = 0;
    for (int64_t t = 0; t < w.length; ++t) {
      const double v = x[t] * gain_in + delay[(delay_pos + static_cast<int64_t>(mod[mod_pos])) % delay_len] * decay;
      mod_pos = (mod_pos + 1) % mod_len;
      delay_pos = (delay_pos + 1) % delay_len;
      delay[delay_pos] = v;
      y[t] = clip(v * gain_out);
    }
  });
  return finish(out, w.channels, w.length, waveform.dtype());
}

Tensor flanger(const Tensor& waveform, int64_t sample_rate, double delay_ms, double depth_ms, double regen,
               double width, double speed, bool sinusoidal, double phase, bool quadratic) {
  Rows w(waveform);
  TZ_CHECK(w.channels <= 4, Value, "flanger: at most 4 channels, got ", w.channels);
  const double feedback = regen / 100, channel_phase = phase / 100;
  double delay_gain = width / 100;
  const double in_gain = 1 / (1 + delay_gain);  // balance the output
  delay_gain = delay_gain / (1 + delay_gain) * (1 - std::fabs(feedback));  // and the feedback loop
  const int64_t buf_len = static_cast<int64_t>((delay_ms + depth_ms) / 1000 * sample_rate + 0.5) + 2;
  const auto lfo_len = static_cast<int64_t>(sample_rate / speed);
  TZ_CHECK(lfo_len >= 1, Value, "flanger: the sweep speed ", speed, " Hz is too fast");
  const auto lfo = wave_table(sinusoidal ? Wave::Sine : Wave::Triangle, lfo_len,
                              std::floor(delay_ms / 1000 * sample_rate + 0.5), static_cast<double>(buf_len - 2),
                              3 * M_PI / 2, false);  // the sweep starts at the minimum delay
  std::vector<double> out(w.channels * w.length);
  each_channel(w.channels, w.length, [&](int64_t c) {
    const double* x = w.row(c);
    double* y = out.data() + c * w.length;
    std::vector<double> buf(buf_len, 0.0);
    double last = 0;
    int64_t pos = 0, lfo_pos = 0;
    const auto shift = static_cast<int64_t>(c * lfo_len * channel_phase + 0.5);
    for (int64_t t = 0; t < w.length; ++t) {
      pos = (pos + buf_len - 1) % buf_len;
      double whole;
      const double frac = std::modf(lfo[(lfo_pos + shift) % lfo_len], &whole);
      const auto d = static_cast<int64_t>(whole);
      buf[pos] = x[t] + last * feedback;
      const double d0 = buf[(pos + d) % buf_len], d1 = buf[(pos + d + 1) % buf_len];
      double delayed;
      if (quadratic) {
        const double e2 = buf[(pos + d + 2) % buf_len] - d0, e1 = d1 - d0;
        const double a = e2 * 0.5 - e1, b = e1 * 2 - e2 * 0.5;
        delayed = d0 + (a * frac + b) * frac;
      } else {
        delayed = d0 + (d1 - d0) * frac;
      }
      last = delayed;
      y[t] = clip(x[t] * in_gain + delayed * delay_gain);
      lfo_pos = (lfo_pos + 1) % lfo_len;
    }
  });
  return finish(out, w.channels, w.length, waveform.dtype());
}

Tensor chorus(const Tensor& waveform, int64_t sample_rate, double gain_in, double gain_out,
              const std::vector<double>& delays_ms, const std::vector<double>& decays,
              const std::vector<double>& speeds_hz, const std::vector<double>& depths_ms,
              const std::vector<bool>& sinusoidal) {
  Rows w(waveform);
  const size_t voices = delays_ms.size();
  std::vector<std::vector<double>> tables(voices);
  int64_t max_samples = 0;
  for (size_t i = 0; i < voices; ++i) {
    const auto samples = static_cast<int64_t>((delays_ms[i] + depths_ms[i]) * sample_rate / 1000.0);
    const auto depth = static_cast<int64_t>(depths_ms[i] * sample_rate / 1000.0);
    const auto len = static_cast<int64_t>(sample_rate / speeds_hz[i]);
    TZ_CHECK(len >= 1 && samples >= 1, Value, "chorus: voice ", i, " has no delay or too fast a sweep");
    // sox sweeps a sine voice over [0, depth] and a triangle voice over the delay's last 2*depth samples
    tables[i] = sinusoidal[i] ? wave_table(Wave::Sine, len, 0.0, static_cast<double>(depth), 0.0, true)
                              : wave_table(Wave::Triangle, len, static_cast<double>(samples - 1 - 2 * depth),
                                           static_cast<double>(samples - 1), 3 * M_PI / 2, true);
    max_samples = std::max(max_samples, samples);
  }
  const int64_t out_len = w.length + max_samples;  // sox drains the delay line
  std::vector<double> out(w.channels * out_len);
  each_channel(w.channels, out_len, [&](int64_t c) {
    const double* x = w.row(c);
    double* y = out.data() + c * out_len;
    std::vector<float> buf(max_samples, 0.0f);  // sox's chorus keeps single-precision samples
    std::vector<int64_t> phase(voices, 0);
    int64_t counter = 0;
    for (int64_t t = 0; t < out_len; ++t) {
      const float in = t < w.length ? static_cast<float>(x[t]) : 0.0f;
      float v = in * static_cast<float>(gain_in);
      for (size_t i = 0; i < voices; ++i)
        v += buf[(max_samples + counter - static_cast<int64_t>(tables[i][phase[i]])) % max_samples] *
             static_cast<float>(decays[i]);
      y[t] = clip(v * static_cast<float>(gain_out));
      buf[counter] = in;
      counter = (counter + 1) % max_samples;
      for (size_t i = 0; i < voices; ++i) phase[i] = (phase[i] + 1) % static_cast<int64_t>(tables[i].size());
    }
  });
  return finish(out, w.channels, out_len, waveform.dtype());
}

Tensor echo(const Tensor& waveform, int64_t sample_rate, double gain_in, double gain_out,
            const std::vector<double>& delays_ms, const std::vector<double>& decays, bool sequential,
            int64_t tail) {
  Rows w(waveform);
  const size_t n = delays_ms.size();
  std::vector<int64_t> samples(n);
  for (size_t i = 0; i < n; ++i) {
    samples[i] = static_cast<int64_t>(delays_ms[i] * sample_rate / 1000.0);
    TZ_CHECK(samples[i] >= 1, Value, "echo: delay ", delays_ms[i], " ms is under one sample");
  }
  const int64_t out_len = w.length + tail;
  std::vector<double> out(w.channels * out_len);
  each_channel(w.channels, out_len, [&](int64_t c) {
    const double* x = w.row(c);
    double* y = out.data() + c * out_len;
    // echo: one line as long as the longest delay; echos: a line per echo, each fed the one before
    std::vector<std::vector<double>> lines(sequential ? n : 1);
    if (sequential)
      for (size_t i = 0; i < n; ++i) lines[i].assign(samples[i], 0.0);
    else
      lines[0].assign(*std::max_element(samples.begin(), samples.end()), 0.0);
    std::vector<int64_t> counters(lines.size(), 0);
    for (int64_t t = 0; t < out_len; ++t) {
      const bool draining = t >= w.length;
      const double in = draining ? 0.0 : x[t];
      double v = in * gain_in;
      if (sequential) {
        for (size_t i = 0; i < n; ++i) v += lines[i][counters[i]] * decays[i];
        for (size_t i = 0; i < n; ++i)  // sox's echos: line i takes line i-1's new cell (+ the input)
          lines[i][counters[i]] = i == 0 ? in : lines[i - 1][counters[i - 1]] + (draining ? 0.0 : in);
        for (size_t i = 0; i < n; ++i) counters[i] = (counters[i] + 1) % samples[i];
      } else {
        const auto size = static_cast<int64_t>(lines[0].size());
        for (size_t i = 0; i < n; ++i) v += lines[0][(counters[0] + size - samples[i]) % size] * decays[i];
        lines[0][counters[0]] = in;
        counters[0] = (counters[0] + 1) % size;
      }
      y[t] = clip(v * gain_out);
    }
  });
  return finish(out, w.channels, out_len, waveform.dtype());
}

}  // namespace tz::audio
