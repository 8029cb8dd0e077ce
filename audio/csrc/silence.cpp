#include "silence.h"

#include <cmath>
#include <vector>

#include "waveform.h"

namespace tz::audio {

namespace {

// The running mean square over the last `size` interleaved samples.
class Rms {
 public:
  explicit Rms(int64_t size) : window_(std::max<int64_t>(size, 1), 0.0) {}
  void clear() { std::fill(window_.begin(), window_.end(), 0.0), pos_ = 0, sum_ = 0; }
  // The RMS if `v` replaced the oldest sample (sox tests every channel against the same slot).
  double with(double v) const {
    return std::sqrt(std::max(0.0, sum_ - window_[pos_] + v * v) / static_cast<double>(window_.size()));
  }
  void push(double v) {
    sum_ += v * v - window_[pos_];
    window_[pos_] = v * v;
    pos_ = (pos_ + 1) % window_.size();
  }

 private:
  std::vector<double> window_;
  size_t pos_ = 0;
  double sum_ = 0;
};

}  // namespace

Tensor silence(const Tensor& waveform, double sample_rate, int64_t start_periods, int64_t start_duration,
               double start_threshold, int64_t stop_periods, int64_t stop_duration, double stop_threshold,
               bool leave_silence) {
  Tensor x = checked_rows(waveform, DType::Float64);
  const int64_t ch = x.sizes()[0], n = x.sizes()[1];
  const double* in = x.data<double>();
  auto sample = [&](int64_t t, int64_t c) { return in[c * n + t]; };
  const bool restart = stop_periods < 0;
  stop_periods = std::llabs(stop_periods);
  Rms rms(static_cast<int64_t>(sample_rate / 50) * ch);
  std::vector<int64_t> kept;        // frames copied to the output, in order
  std::vector<int64_t> start_hold;  // frames above the start threshold, not yet confirmed
  std::vector<int64_t> stop_hold;   // frames below the stop threshold, not yet judged
  enum { Trim, Copy, Stop } mode = start_periods > 0 ? Trim : Copy;
  int64_t start_found = 0, stop_found = 0;
  for (int64_t t = 0; t < n && mode != Stop; ++t) {
    if (mode == Trim) {
      bool above = false;
      for (int64_t c = 0; c < ch; ++c) above |= rms.with(sample(t, c)) >= start_threshold;
      for (int64_t c = 0; c < ch; ++c) rms.push(sample(t, c));
      if (!above) {
        start_hold.clear();
        continue;
      }
      start_hold.push_back(t);
      if (static_cast<int64_t>(start_hold.size()) >= start_duration) {
        if (++start_found >= start_periods) {
          kept.insert(kept.end(), start_hold.begin(), start_hold.end());
          mode = Copy;
        }
        start_hold.clear();
      }
      continue;
    }
    if (stop_periods == 0) {
      kept.push_back(t);
      continue;
    }
    bool above = true;
    for (int64_t c = 0; c < ch; ++c) above &= rms.with(sample(t, c)) >= stop_threshold;
    for (int64_t c = 0; c < ch; ++c) rms.push(sample(t, c));
    if (above) {  // sound again: the held silence was short enough to keep
      kept.insert(kept.end(), stop_hold.begin(), stop_hold.end());
      stop_hold.clear();
      kept.push_back(t);
      continue;
    }
    stop_hold.push_back(t);
    if (static_cast<int64_t>(stop_hold.size()) < stop_duration) continue;
    if (++stop_found < stop_periods) {  // a silence to keep: flush it and look again
      kept.insert(kept.end(), stop_hold.begin(), stop_hold.end());
      stop_hold.clear();
      continue;
    }
    if (leave_silence) kept.insert(kept.end(), stop_hold.begin(), stop_hold.end());
    stop_hold.clear();
    if (!restart) {
      mode = Stop;
    } else {  // drop this silence and trim until sound comes back
      stop_found = start_found = 0;
      start_hold.clear();
      rms.clear();
      mode = start_periods > 0 ? Trim : Copy;
    }
  }
  if (mode == Copy) kept.insert(kept.end(), stop_hold.begin(), stop_hold.end());  // sox drains the holdoff
  const auto m = static_cast<int64_t>(kept.size());
  Tensor y = Tensor::empty({ch, m}, DType::Float64);
  for (int64_t c = 0; c < ch; ++c)
    for (int64_t i = 0; i < m; ++i) y.data<double>()[c * m + i] = sample(kept[i], c);
  return to_dtype(y, waveform.dtype());
}

}  // namespace tz::audio
