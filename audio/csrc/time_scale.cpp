#include "time_scale.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "iter/thread_pool.h"
#include "waveform.h"

namespace tz::audio {

namespace {


// I0, the modified Bessel function of order 0 (its series converges fast for the betas used).
double bessel_i0(double x) {
  double sum = 1, term = 1;
  for (int k = 1; k < 200 && term > sum * 1e-17; ++k) {
    term *= (x / (2 * k)) * (x / (2 * k));
    sum += term;
  }
  return sum;
}

constexpr int kPhases = 1024;  // table resolution between input samples (linear in between)

}  // namespace

Tensor resample(const Tensor& waveform, double in_rate, double out_rate, double bandwidth, double rejection_db) {
  TZ_CHECK(in_rate > 0 && out_rate > 0, Value, "rate: sample rates must be positive");
  Tensor x = checked_rows(waveform, DType::Float64);
  const int64_t channels = x.sizes()[0], n_in = x.sizes()[1];
  const double ratio = out_rate / in_rate;
  const auto n_out = static_cast<int64_t>(std::llround(n_in * ratio));
  Tensor y = Tensor::empty({channels, n_out}, DType::Float64);
  if (n_out == 0 || n_in == 0) {
    std::fill(y.data<double>(), y.data<double>() + y.numel(), 0.0);
    return to_dtype(y, waveform.dtype());
  }
  // Design in units of the lower rate: pass band to `bandwidth`, stop band from 1 (Nyquist).
  const double scale = std::min(1.0, ratio);  // lower Nyquist / input Nyquist
  const double transition = 1.0 - bandwidth;  // the -3 dB point sits near mid-transition
  const double cutoff = scale * (1.0 - transition / 2);  // -6 dB point, as a fraction of input Nyquist
  const double beta = rejection_db > 50 ? 0.1102 * (rejection_db - 8.7)
                                        : 0.5842 * std::pow(rejection_db - 21, 0.4) + 0.07886 * (rejection_db - 21);
  // Kaiser's length estimate, in lower-rate samples, then in input samples
  const double taps_low = (rejection_db - 7.95) / (2.285 * M_PI * transition) + 1;
  const auto half = static_cast<int64_t>(std::ceil(taps_low / 2 / scale)) + 1;
  const int64_t width = 2 * half;
  const double i0_beta = bessel_i0(beta);
  std::vector<double> table((kPhases + 1) * width);
  for (int p = 0; p <= kPhases; ++p)
    for (int64_t m = 0; m < width; ++m) {
      const double d = static_cast<double>(m - half + 1) - static_cast<double>(p) / kPhases;  // x - t
      const double arg = M_PI * cutoff * d;
      const double sinc = d == 0 ? 1.0 : std::sin(arg) / arg;
      const double r = d / half;
      const double window = std::fabs(r) >= 1 ? 0.0 : bessel_i0(beta * std::sqrt(1 - r * r)) / i0_beta;
      table[p * width + m] = cutoff * sinc * window;
    }
  const double* in = x.data<double>();
  double* out = y.data<double>();
  auto body = [&](int64_t begin, int64_t end) {
    std::vector<double> kernel(width);
    for (int64_t n = begin; n < end; ++n) {
      const double t = n / ratio;
      const auto i0 = static_cast<int64_t>(std::floor(t));
      const double phase = (t - i0) * kPhases;
      const auto p = static_cast<int64_t>(phase);
      const double w = phase - p;
      const double* lo = table.data() + p * width;
      const double* hi = lo + width;
      for (int64_t m = 0; m < width; ++m) kernel[m] = lo[m] + (hi[m] - lo[m]) * w;
      const int64_t first = i0 - half + 1;
      const int64_t m0 = std::max<int64_t>(0, -first), m1 = std::min<int64_t>(width, n_in - first);
      for (int64_t c = 0; c < channels; ++c) {
        const double* row = in + c * n_in + first;
        double acc = 0;
        for (int64_t m = m0; m < m1; ++m) acc += row[m] * kernel[m];
        out[c * n_out + n] = acc;
      }
    }
  };
  if (n_out * width * channels >= 1 << 20 && get_num_threads() > 1 && !in_parallel_region())
    parallel_for(0, n_out, 4096, body);
  else
    body(0, n_out);
  return to_dtype(y, waveform.dtype());
}

namespace {

// WSOLA on interleaved single-precision frames, following sox's tempo effect step by step
// (its FIFO semantics, its float sums and its flush with zeros) so that the choices of
// overlap position come out the same.
class Wsola {
 public:
  Wsola(int64_t channels, double rate, double factor, double segment_ms, double search_ms, double overlap_ms,
        bool quick)
      : ch_(channels), factor_(factor), quick_(quick) {
    segment_ = static_cast<int64_t>(rate * segment_ms / 1000 + .5);
    search_ = static_cast<int64_t>(rate * search_ms / 1000 + .5);
    overlap_ = std::max<int64_t>(static_cast<int64_t>(rate * overlap_ms / 1000 + 4.5), 16);
    overlap_ &= ~int64_t{7};  // a multiple of 8, like sox's unrolled difference loop
    const auto max_skip = static_cast<int64_t>(std::ceil(factor * (segment_ - overlap_)));
    process_size_ = std::max(max_skip + overlap_, segment_) + search_;
    overlap_buf_.assign(overlap_ * ch_, 0.0f);
  }

  void input(const float* frames, int64_t n) {
    in_.insert(in_.end(), frames, frames + n * ch_);
    samples_in_ += n;
    process();
  }

  std::vector<float> finish() {
    const auto target = static_cast<int64_t>(samples_in_ / factor_ + .5);
    const std::vector<float> zeros(128 * ch_, 0.0f);
    while (static_cast<int64_t>(out_.size()) / ch_ < target) input(zeros.data(), 128);
    out_.resize(target * ch_);
    return std::move(out_);
  }

 private:
  int64_t occupancy() const { return static_cast<int64_t>(in_.size()) / ch_ - read_; }
  const float* at(int64_t frame) const { return in_.data() + (read_ + frame) * ch_; }

  float difference(const float* a, const float* b) const {
    float diff = 0;
    for (int64_t i = 0; i < ch_ * overlap_; ++i) diff += (a[i] - b[i]) * (a[i] - b[i]);
    return diff;
  }

  int64_t best_overlap_position() const {
    const float* f = overlap_buf_.data();
    int64_t prev_best = (search_ + 1) >> 1;
    int64_t best = quick_ ? prev_best : 0;
    float least = difference(at(best), f);
    if (quick_) {
      for (int64_t step = 64; step; step >>= 2) {  // hierarchical search
        for (int k = -1; k <= 1; k += 2)
          for (int64_t j = 1; j < 4 || step == 64; ++j) {
            const int64_t i = prev_best + k * j * step;
            if (i < 0 || i > search_) break;
            const float diff = difference(at(i), f);
            if (diff < least) least = diff, best = i;
          }
        prev_best = best;
      }
    } else {
      for (int64_t i = 1; i <= search_; ++i) {  // sox 14.4 tries search + 1 positions
        const float diff = difference(at(i), f);
        if (diff < least) least = diff, best = i;
      }
    }
    return best;
  }

  void process() {
    while (occupancy() >= process_size_) {
      int64_t offset = 0;
      if (segments_ == 0) {
        out_.insert(out_.end(), at(0), at(overlap_));
      } else {
        offset = best_overlap_position();
        const float step = 1.0f / static_cast<float>(overlap_);
        const float* next = at(offset);
        for (int64_t i = 0; i < overlap_; ++i) {  // cross-fade
          const float fade_in = step * static_cast<float>(i), fade_out = 1.0f - fade_in;
          for (int64_t c = 0; c < ch_; ++c)
            out_.push_back(overlap_buf_[i * ch_ + c] * fade_out + next[i * ch_ + c] * fade_in);
        }
      }
      if (segment_ > 2 * overlap_) out_.insert(out_.end(), at(offset + overlap_), at(offset + segment_ - overlap_));
      std::copy(at(offset + segment_ - overlap_), at(offset + segment_), overlap_buf_.begin());
      // advance so that the search window straddles the nominal skip point
      auto skip = static_cast<int64_t>(factor_ * (++segments_ * (segment_ - overlap_)) + 0.5);
      skip -= (search_ + 1) >> 1;
      skip -= skip_total_;
      skip_total_ += skip;
      read_ += skip;
      if (read_ > 1 << 20) {  // drop consumed frames now and then
        in_.erase(in_.begin(), in_.begin() + read_ * ch_);
        read_ = 0;
      }
    }
  }

  int64_t ch_;
  double factor_;
  bool quick_;
  int64_t segment_ = 0, search_ = 0, overlap_ = 0, process_size_ = 0;
  std::vector<float> in_, out_, overlap_buf_;
  int64_t read_ = 0, samples_in_ = 0, segments_ = 0, skip_total_ = 0;
};

}  // namespace

Tensor tempo(const Tensor& waveform, double sample_rate, double factor, double segment_ms, double search_ms,
             double overlap_ms, bool quick) {
  TZ_CHECK(factor > 0, Value, "tempo: factor must be positive, got ", factor);
  Tensor x = checked_rows(waveform, DType::Float64);
  const int64_t channels = x.sizes()[0], n = x.sizes()[1];
  std::vector<float> frames(channels * n);
  for (int64_t c = 0; c < channels; ++c)
    for (int64_t t = 0; t < n; ++t) frames[t * channels + c] = static_cast<float>(x.data<double>()[c * n + t]);
  Wsola wsola(channels, sample_rate, factor, segment_ms, search_ms, overlap_ms, quick);
  wsola.input(frames.data(), n);
  const std::vector<float> out = wsola.finish();
  const int64_t m = static_cast<int64_t>(out.size()) / std::max<int64_t>(channels, 1);
  Tensor y = Tensor::empty({channels, m}, DType::Float64);
  for (int64_t c = 0; c < channels; ++c)
    for (int64_t t = 0; t < m; ++t) y.data<double>()[c * m + t] = out[t * channels + c];
  return to_dtype(y, waveform.dtype());
}

}  // namespace tz::audio
