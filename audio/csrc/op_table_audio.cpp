// The audio package's entries in core's op table (registered when audio._C loads). Python
// reaches them through core._C._op("audio_<name>"); like core's ops they record autograd, and
// an entry without a formula raises when a gradient is asked through it.
#include "effect_kernels.h"
#include "lfilter.h"
#include "reverb.h"
#include "silence.h"
#include "vad.h"
#include "time_scale.h"
#include "ops/conversion.h"
#include "ops/creation.h"
#include "op_table/util.h"

namespace tz {
namespace {

using namespace op_table;

Tensor call_lfilter(const Tensor& x, const Tensor& a, const Tensor& b) {
  return F::tensor_call(TZ_OP("audio_lfilter"), {x, a, b});
}

Tensor flip_time(const Tensor& t) { return F::tensor_call(TZ_OP("flip"), {t, IntList{2}}); }

Tensor narrow_time(const Tensor& t, int64_t start, int64_t length) {
  return F::tensor_call(TZ_OP("narrow"), {t, int64_t{2}, start, length});
}

// The (F, K) coefficients of a pure recursion (b = [1, 0, ...]): a constant.
Tensor unit_impulse(const Tensor& like) {
  Tensor e = zeros(like.sizes(), like.dtype());
  const int64_t filters = like.sizes()[0], order = like.sizes()[1];
  for (int64_t f = 0; f < filters; ++f) {
    if (like.dtype() == DType::Float32) e.data<float>()[f * order] = 1.0f;
    else e.data<double>()[f * order] = 1.0;
  }
  return e;
}

// out[f, k] = sum over batch and t of g[., f, t] * s[., f, t - k], for k in [first, K), zero
// for k < first: the gradient of a coefficient that multiplies s delayed by k.
Tensor lag_products(const Tensor& g, const Tensor& s, int64_t order, int64_t first) {
  const int64_t filters = g.sizes()[1], length = g.sizes()[2];
  TensorList columns;
  for (int64_t k = 0; k < order; ++k) {
    if (k < first || k >= length) {
      columns.push_back(zeros({filters}, g.dtype()));
      continue;
    }
    Tensor prod = F::mul(narrow_time(g, k, length - k), narrow_time(s, 0, length - k));
    columns.push_back(F::tensor_call(TZ_OP("sum"), {prod, IntList{0, 2}}));
  }
  return F::tensor_call(TZ_OP("stack"), {columns, int64_t{1}});
}

// The adjoint of a causal filter is the same filter run backwards in time. With v the
// feed-forward part's output, dL/dv runs the recursion alone backwards; b's gradient pairs it
// with the delayed input, a's (k >= 1) with the delayed output, negated.
TensorList lfilter_grad(BackwardContext& c) {
  const Tensor& a = c.input("a_coeffs");
  const Tensor& b = c.input("b_coeffs");
  const int64_t order = a.sizes()[1];
  const Tensor reversed = flip_time(c.grad());
  Tensor gx, ga, gb;
  if (c.needs_grad("waveform")) gx = flip_time(call_lfilter(reversed, a, b));
  if (c.needs_grad("a_coeffs") || c.needs_grad("b_coeffs")) {
    const Tensor gv = flip_time(call_lfilter(reversed, a, unit_impulse(b)));
    if (c.needs_grad("a_coeffs")) ga = F::neg(lag_products(gv, c.result(), order, 1));
    if (c.needs_grad("b_coeffs")) gb = lag_products(gv, c.input("waveform"), order, 0);
  }
  return {gx, ga, gb};
}

// A (rows, columns) float64 tensor of per-voice parameters as columns of doubles.
std::vector<std::vector<double>> columns(const Tensor& table, int64_t expected, const char* what) {
  TZ_CHECK(table.dim() == 2 && table.sizes()[1] == expected && table.sizes()[0] >= 1, Value, what,
           ": expected a (voices, ", expected, ") parameter table");
  Tensor t = contiguous(to_dtype(table, DType::Float64));
  std::vector<std::vector<double>> cols(expected, std::vector<double>(t.sizes()[0]));
  for (int64_t r = 0; r < t.sizes()[0]; ++r)
    for (int64_t c = 0; c < expected; ++c) cols[c][r] = t.data<double>()[r * expected + c];
  return cols;
}

Value chorus_op(Stack& a) {
  auto v = columns(a[4].tensor(), 5, "chorus");
  std::vector<bool> sine(v[4].begin(), v[4].end());
  return audio::chorus(a[0].tensor(), a[1].to_int(), a[2].to_double(), a[3].to_double(), v[0], v[1], v[2], v[3],
                       sine);
}

Value echo_op(Stack& a) {
  auto v = columns(a[4].tensor(), 2, "echo");
  return audio::echo(a[0].tensor(), a[1].to_int(), a[2].to_double(), a[3].to_double(), v[0], v[1], a[5].to_bool(),
                     a[6].to_int());
}

// Every entry maps a (channel, time) waveform to one: its names carry over (the time length may change).
const OpDef kAudioOps[] = {
    {"audio_lfilter(Tensor waveform, Tensor a_coeffs, Tensor b_coeffs) -> Tensor", kInternal, N::Keep,
     OP { return audio::lfilter(a[0].tensor(), a[1].tensor(), a[2].tensor()); }, "",
     "waveform a_coeffs b_coeffs result", &lfilter_grad},
    // The sox effect loops (effect_kernels.h): (channel, time) in, no derivative formulas.
    {"audio_overdrive(Tensor waveform, float gain, float colour) -> Tensor", kInternal, N::Keep,
     OP { return audio::overdrive(a[0].tensor(), a[1].to_double(), a[2].to_double()); }, ""},
    {"audio_phaser(Tensor waveform, int sample_rate, float gain_in, float gain_out, float delay_ms, float decay, "
     "float mod_speed, bool sinusoidal) -> Tensor", kInternal, N::Keep,
     OP {
       return audio::phaser(a[0].tensor(), a[1].to_int(), a[2].to_double(), a[3].to_double(), a[4].to_double(),
                            a[5].to_double(), a[6].to_double(), a[7].to_bool());
     }, ""},
    {"audio_flanger(Tensor waveform, int sample_rate, float delay, float depth, float regen, float width, "
     "float speed, bool sinusoidal, float phase, bool quadratic) -> Tensor", kInternal, N::Keep,
     OP {
       return audio::flanger(a[0].tensor(), a[1].to_int(), a[2].to_double(), a[3].to_double(), a[4].to_double(),
                             a[5].to_double(), a[6].to_double(), a[7].to_bool(), a[8].to_double(), a[9].to_bool());
     }, ""},
    // voices: (n, 5) rows of delay_ms, decay, speed_hz, depth_ms, sinusoidal (1/0)
    {"audio_chorus(Tensor waveform, int sample_rate, float gain_in, float gain_out, Tensor voices) -> Tensor",
     kInternal, N::Keep, &chorus_op, ""},
    // echoes: (n, 2) rows of delay_ms, decay; tail: samples appended while the echoes drain
    {"audio_echo(Tensor waveform, int sample_rate, float gain_in, float gain_out, Tensor echoes, bool sequential, "
     "int tail) -> Tensor", kInternal, N::Keep, &echo_op, ""},
    {"audio_resample(Tensor waveform, float in_rate, float out_rate, float bandwidth, float rejection_db) -> Tensor",
     kInternal, N::Keep,
     OP { return audio::resample(a[0].tensor(), a[1].to_double(), a[2].to_double(), a[3].to_double(), a[4].to_double()); },
     ""},
    {"audio_tempo(Tensor waveform, float sample_rate, float factor, float segment_ms, float search_ms, "
     "float overlap_ms, bool quick) -> Tensor", kInternal, N::Keep,
     OP {
       return audio::tempo(a[0].tensor(), a[1].to_double(), a[2].to_double(), a[3].to_double(), a[4].to_double(),
                           a[5].to_double(), a[6].to_bool());
     }, ""},
    {"audio_reverb(Tensor waveform, float sample_rate, float reverberance, float hf_damping, float room_scale, "
     "float stereo_depth, float pre_delay_ms, float wet_gain_db, bool wet_only) -> Tensor", kInternal, N::Keep,
     OP {
       return audio::reverb(a[0].tensor(), a[1].to_double(), a[2].to_double(), a[3].to_double(), a[4].to_double(),
                            a[5].to_double(), a[6].to_double(), a[7].to_double(), a[8].to_bool());
     }, ""},
    {"audio_silence(Tensor waveform, float sample_rate, int start_periods, int start_duration, "
     "float start_threshold, int stop_periods, int stop_duration, float stop_threshold, bool leave_silence) -> Tensor",
     kInternal, N::Keep,
     OP {
       return audio::silence(a[0].tensor(), a[1].to_double(), a[2].to_int(), a[3].to_int(), a[4].to_double(),
                             a[5].to_int(), a[6].to_int(), a[7].to_double(), a[8].to_bool());
     }, ""},
    {"audio_vad(Tensor waveform, float sample_rate, float trigger_level, float trigger_time, float search_time, "
     "float allowed_gap, float pre_trigger_time, float boot_time, float noise_up_time, float noise_down_time, "
     "float noise_reduction_amount, float measure_freq, float measure_duration, float measure_smooth_time, "
     "float hp_filter_freq, float lp_filter_freq, float hp_lifter_freq, float lp_lifter_freq) -> Tensor",
     kInternal, N::Keep,
     OP {
       audio::VadOptions o{};
       double* fields[] = {&o.trigger_level, &o.trigger_time, &o.search_time, &o.allowed_gap, &o.pre_trigger_time,
                           &o.boot_time, &o.noise_up_time, &o.noise_down_time, &o.noise_reduction_amount,
                           &o.measure_freq, &o.measure_duration, &o.measure_smooth_time, &o.hp_filter_freq,
                           &o.lp_filter_freq, &o.hp_lifter_freq, &o.lp_lifter_freq};
       for (size_t i = 0; i < std::size(fields); ++i) *fields[i] = a[2 + i].to_double();
       return audio::vad(a[0].tensor(), a[1].to_double(), o);
     }, ""},
};

const OpTableRegistrar registrar(kAudioOps);

}  // namespace
}  // namespace tz
