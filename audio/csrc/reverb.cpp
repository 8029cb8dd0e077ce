#include "reverb.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "waveform.h"

namespace tz::audio {

namespace {

// Freeverb's delay lengths at 44.1 kHz; the second (stereo) network is offset by 12 per unit.
constexpr size_t kCombLengths[] = {1116, 1188, 1277, 1356, 1422, 1491, 1557, 1617};
constexpr size_t kAllpassLengths[] = {225, 341, 441, 556};
constexpr double kStereoAdjust = 12;

// A delay line read and written at one point that walks backwards (sox's filter_t).
struct Line {
  std::vector<float> buffer;
  size_t pos = 0;
  float store = 0;  // the comb's low-pass state
  explicit Line(size_t size) : buffer(std::max<size_t>(size, 1), 0.0f) {}
  float& here() { return buffer[pos]; }
  void advance() { pos = pos == 0 ? buffer.size() - 1 : pos - 1; }
};

struct Network {
  std::vector<Line> combs, allpasses;
  Network(double rate, double scale, double offset) {
    const double r = rate / 44100.0;
    // the stereo offset alternates in sign from one filter to the next
    for (size_t len : kCombLengths) {
      combs.emplace_back(static_cast<size_t>(scale * r * (len + kStereoAdjust * offset) + .5));
      offset = -offset;
    }
    for (size_t len : kAllpassLengths) {
      allpasses.emplace_back(static_cast<size_t>(r * (len + kStereoAdjust * offset) + .5));
      offset = -offset;
    }
  }
  float process(float in, float feedback, float damping, float gain) {
    float out = 0;
    for (size_t i = combs.size(); i-- > 0;) {
      Line& c = combs[i];
      const float o = c.here();
      c.store = o + (c.store - o) * damping;
      c.here() = in + c.store * feedback;
      c.advance();
      out += o;
    }
    for (size_t i = allpasses.size(); i-- > 0;) {
      Line& a = allpasses[i];
      const float o = a.here();
      a.here() = out + o * 0.5f;
      a.advance();
      out = o - out;
    }
    return out * gain;
  }
};

}  // namespace

Tensor reverb(const Tensor& waveform, double sample_rate, double reverberance, double hf_damping,
              double room_scale, double stereo_depth, double pre_delay_ms, double wet_gain_db, bool wet_only) {
  Tensor x = checked_rows(waveform, DType::Float32);
  const int64_t in_ch = x.sizes()[0], n = x.sizes()[1];
  if (in_ch > 2) stereo_depth = 0;  // sox: stereo depth applies to mono and stereo only
  // Stereo with depth mixes both channels' networks; otherwise each channel runs alone
  // (mono with depth gains a second, offset network: a stereo output).
  const bool joint = in_ch == 2 && stereo_depth > 0;
  const int64_t out_ch = in_ch == 1 && stereo_depth > 0 ? 2 : in_ch;
  const auto delay = static_cast<int64_t>(pre_delay_ms / 1000 * sample_rate + .5);
  const double scale = room_scale / 100 * .9 + .1, depth = stereo_depth / 100;
  const double a = -1 / std::log(1 - .3), b = 100 / (std::log(1 - .98) * a + 1);  // feedback range .3 .. .98
  const auto feedback = static_cast<float>(1 - std::exp((reverberance - b) / (a * b)));
  const auto damping = static_cast<float>(hf_damping / 100 * .3 + .2);
  const auto gain = static_cast<float>(std::exp(wet_gain_db * std::log(10.0) / 20) * .015);
  const int networks = stereo_depth > 0 ? static_cast<int>(std::ceil(depth)) + 1 : 1;
  const float* in = x.data<float>();
  // wet[c][w]: channel c's network w (w = 1 is the stereo partner) over the pre-delayed input
  std::vector<std::vector<std::vector<float>>> wet(in_ch, std::vector<std::vector<float>>(networks));
  for (int64_t c = 0; c < in_ch; ++c)
    for (int w = 0; w < networks; ++w) {
      Network net(sample_rate, scale, w * depth);
      auto& out = wet[c][w];
      out.resize(n);
      for (int64_t t = 0; t < n; ++t)
        out[t] = net.process(t >= delay ? in[c * n + t - delay] : 0.0f, feedback, damping, gain);
    }
  const float dry_gain = wet_only ? 0.0f : 1.0f;
  Tensor y = Tensor::empty({out_ch, n}, DType::Float32);
  float* out = y.data<float>();
  for (int64_t t = 0; t < n; ++t)
    for (int64_t w = 0; w < out_ch; ++w) {
      float v;
      if (joint)  // each side hears both channels' networks of its own side
        v = dry_gain * in[w * n + t] + .5f * (wet[0][w][t] + wet[1][w][t]);
      else if (in_ch == 1)
        v = dry_gain * in[t] + wet[0][std::min<int64_t>(w, networks - 1)][t];
      else
        v = dry_gain * in[w * n + t] + wet[w][0][t];
      out[w * n + t] = std::fmin(1.0f, std::fmax(-1.0f, v));
    }
  return to_dtype(y, waveform.dtype());
}

}  // namespace tz::audio
