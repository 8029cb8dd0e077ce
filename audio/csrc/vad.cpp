#include "vad.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <vector>

#include "ops/views.h"
#include "waveform.h"

namespace tz::audio {

namespace {

using cplx = std::complex<double>;

// In-place iterative radix-2 FFT (n a power of two).
void fft(std::vector<cplx>& a) {
  const size_t n = a.size();
  for (size_t i = 1, j = 0; i < n; ++i) {
    size_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) std::swap(a[i], a[j]);
  }
  for (size_t len = 2; len <= n; len <<= 1) {
    const cplx step = std::polar(1.0, -2 * M_PI / static_cast<double>(len));
    for (size_t i = 0; i < n; i += len) {
      cplx w = 1;
      for (size_t k = 0; k < len / 2; ++k, w *= step) {
        const cplx u = a[i + k], v = a[i + k + len / 2] * w;
        a[i + k] = u + v;
        a[i + k + len / 2] = u - v;
      }
    }
  }
}

// |rfft(x)| of a real buffer: the magnitudes of bins [0, n/2].
std::vector<double> rfft_abs(const std::vector<double>& x) {
  std::vector<cplx> a(x.begin(), x.end());
  fft(a);
  std::vector<double> out(x.size() / 2 + 1);
  for (size_t k = 0; k < out.size(); ++k) out[k] = std::abs(a[k]);
  return out;
}

// A periodic Hann window scaled by 2/sqrt(n) (torch.hann_window's default).
std::vector<double> scaled_hann(int64_t n) {
  std::vector<double> w(n);
  for (int64_t i = 0; i < n; ++i)
    w[i] = 2.0 / std::sqrt(static_cast<double>(n)) * (0.5 - 0.5 * std::cos(2 * M_PI * i / static_cast<double>(n)));
  return w;
}

struct Channel {
  std::vector<double> spectrum, noise, measures;
  double mean = 0;
};

}  // namespace

Tensor vad(const Tensor& waveform, double sample_rate, const VadOptions& o) {
  Tensor x = checked_rows(waveform, DType::Float64);
  const int64_t channels = x.sizes()[0], n = x.sizes()[1];
  const double measure_duration = o.measure_duration > 0 ? o.measure_duration : 2.0 / o.measure_freq;
  const auto measure_len = static_cast<int64_t>(sample_rate * measure_duration + 0.5);
  int64_t dft_len = 16;
  while (dft_len < measure_len) dft_len *= 2;
  const auto period = static_cast<int64_t>(sample_rate / o.measure_freq + 0.5);
  const auto measures_len = static_cast<int64_t>(std::ceil(o.search_time * o.measure_freq));
  const int64_t search_pre_trigger = measures_len * period;
  const auto gap_len = static_cast<int64_t>(o.allowed_gap * o.measure_freq + 0.5);
  const auto fixed_pre_trigger = static_cast<int64_t>(o.pre_trigger_time * sample_rate + 0.5);
  const int64_t samples_len = fixed_pre_trigger + search_pre_trigger + measure_len;
  const int64_t spectrum_start = std::max<int64_t>(static_cast<int64_t>(o.hp_filter_freq / sample_rate * dft_len + 0.5), 1);
  const int64_t spectrum_end = std::min<int64_t>(static_cast<int64_t>(o.lp_filter_freq / sample_rate * dft_len + 0.5), dft_len / 2);
  const auto cepstrum_start = static_cast<int64_t>(std::ceil(sample_rate * 0.5 / o.lp_lifter_freq));
  const int64_t cepstrum_end = std::min<int64_t>(static_cast<int64_t>(std::floor(sample_rate * 0.5 / o.hp_lifter_freq)), dft_len / 4);
  TZ_CHECK(cepstrum_end > cepstrum_start, Value, "vad: the lifter band is empty (cepstrum ", cepstrum_start, " to ",
           cepstrum_end, "): check the lifter frequencies against the sample rate");
  TZ_CHECK(spectrum_end > spectrum_start, Value, "vad: the filter band is empty: check the filter frequencies");
  TZ_CHECK(measures_len >= 1 && period >= 1, Value, "vad: search_time and measure_freq give no measurements");
  const auto spectrum_window = scaled_hann(measure_len);
  const auto cepstrum_window = scaled_hann(spectrum_end - spectrum_start);
  const double noise_up = std::exp(-1.0 / (o.noise_up_time * o.measure_freq));
  const double noise_down = std::exp(-1.0 / (o.noise_down_time * o.measure_freq));
  const double smooth = std::exp(-1.0 / (o.measure_smooth_time * o.measure_freq));
  const double trigger_mult = std::exp(-1.0 / (o.trigger_time * o.measure_freq));
  const auto boot_count_max = static_cast<int64_t>(o.boot_time * o.measure_freq - 0.5);
  int64_t boot_count = 0, index = 0, flushed = 0, to_flush = 0, pos = 0;
  bool triggered = false;
  std::vector<Channel> state(channels);
  for (auto& s : state) s.spectrum.assign(dft_len, 0.0), s.noise.assign(dft_len, 0.0), s.measures.assign(measures_len, 0.0);
  const double* in = x.data<double>();
  std::vector<double> buf(dft_len), cep(dft_len / 2);
  for (pos = measure_len; pos < n; pos += period) {
    for (int64_t c = 0; c < channels; ++c) {
      Channel& s = state[c];
      std::fill(buf.begin(), buf.end(), 0.0);
      for (int64_t i = 0; i < measure_len; ++i) buf[i] = in[c * n + pos - measure_len + i] * spectrum_window[i];
      const auto mag = rfft_abs(buf);
      const double mult = boot_count >= 0 ? boot_count / (1.0 + boot_count) : smooth;
      std::fill(cep.begin(), cep.end(), 0.0);
      for (int64_t k = spectrum_start; k < spectrum_end; ++k) {
        s.spectrum[k] = s.spectrum[k] * mult + mag[k] * (1 - mult);
        const double d = s.spectrum[k] * s.spectrum[k];
        const double nm = boot_count >= 0 ? 0.0 : d > s.noise[k] ? noise_up : noise_down;
        s.noise[k] = s.noise[k] * nm + d * (1 - nm);
        cep[k] = std::sqrt(std::max(0.0, d - o.noise_reduction_amount * s.noise[k])) *
                 cepstrum_window[k - spectrum_start];
      }
      const auto cmag = rfft_abs(cep);
      double power = 0;
      for (int64_t k = cepstrum_start; k < cepstrum_end; ++k) power += cmag[k] * cmag[k];
      const double level = power > 0 ? std::log(power / static_cast<double>(cepstrum_end - cepstrum_start)) : -INFINITY;
      const double meas = std::max(0.0, 21 + level);
      s.measures[index] = meas;
      s.mean = s.mean * trigger_mult + meas * (1.0 - trigger_mult);
      triggered = triggered || s.mean >= o.trigger_level;
      if (triggered) {  // look back for quieter bursts not more than gap_len measures apart
        int64_t k = index, j_trigger = measures_len, j_zero = measures_len, j = 0;
        for (j = 0; j < measures_len; ++j) {
          if (s.measures[k] >= o.trigger_level && j <= j_trigger + gap_len) j_zero = j_trigger = j;
          else if (s.measures[k] == 0 && j_trigger >= j_zero) j_zero = j;
          k = (k + measures_len - 1) % measures_len;
        }
        j = std::min(j - 1, j_zero);  // the loop's last index, as Python's range leaves it
        to_flush = std::min(std::max(to_flush, j), measures_len);
      }
    }
    index = (index + 1) % measures_len;
    if (boot_count >= 0) boot_count = boot_count == boot_count_max ? -1 : boot_count + 1;
    if (triggered) {
      flushed = (measures_len - to_flush) * period;
      break;
    }
  }
  if (!triggered) {  // no voice: only the fixed pre-trigger length is kept
    const int64_t keep = std::min(n, fixed_pre_trigger);
    return contiguous(narrow(waveform, 1, 0, keep));
  }
  const int64_t start = std::max<int64_t>(pos - samples_len + flushed, 0);
  return contiguous(narrow(waveform, 1, start, n - start));
}

}  // namespace tz::audio
