"""compute_kaldi_pitch (torchaudio 0.8): Kaldi's pitch tracker, as Kaldi's ComputeKaldiPitch
computes it (Ghahremani et al., "A pitch extraction algorithm tuned for automatic speech
recognition", ICASSP 2014; Kaldi's feat/pitch-functions.cc for the details), in float64:

1. the signal is low-passed and resampled to `resample_frequency` (Kaldi's LinearResample:
   a Hann-windowed sinc of `lowpass_filter_width` zeros at `lowpass_cutoff`);
2. each frame (window `frame_length`, hop `frame_shift`, extended by the longest lag) gets the
   normalised cross-correlation (NCCF) between its window and the window shifted by every lag
   from 1/max_f0 to 1/min_f0, twice: with a ballast term in the denominator (quiet frames get
   lower values; for the pitch search) and without (the reported NCCF);
3. both are resampled from the integer lags to log-spaced lags (ratio 1 + delta_pitch) by a
   windowed sinc of `upsample_filter_width` zeros (Kaldi's ArbitraryResample);
4. a Viterbi search over frames and lags minimises the local cost 1 - NCCF (1 - soft_min_f0 lag)
   plus penalty_factor log(1 + delta_pitch)^2 times the squared lag-index jump between frames;
5. the best path gives each frame (NCCF at its lag, 1 / lag).

The input arrives in chunks of `frames_per_chunk` frames when that is positive, as in online
decoding: frames are processed once enough signal is in, the ballast uses the signal seen so
far, and once `recompute_frame` frames are in (or at the end) the search is redone for them if
the signal's energy estimate moved. `simulate_first_pass_online` returns what an online decoder
would see: each frame as soon as the traceback leaves at most `max_frames_latency` frames
undecided, never revised.

Output: (..., frames, 2) of (NCCF, pitch in Hz), the column order of Kaldi's matrix, which
torchaudio 0.8's C++ returns as is (its docstring says "pitch and NCCF").
"""
import bisect
import math
from dataclasses import dataclass

import core
from audio.functional.functional import _sinc_resample

__all__ = ["compute_kaldi_pitch"]

_NCCF_FRAMES_PER_BATCH = 256  # frames whose lag products are formed at once (bounds the memory)


@dataclass
class _Options:
    sample_rate: int
    resample_rate: int
    window: int              # NCCF window, in resampled samples
    shift: int
    first_lag: int           # integer lags measured, in resampled samples
    last_lag: int
    lags: core.Tensor        # log-spaced lags (seconds) of the Viterbi states
    lag_weights: core.Tensor  # (measured lags, states): the NCCF resampler
    soft_min_f0: float
    transition_cost: float
    nccf_ballast: float
    lowpass_cutoff: float
    lowpass_filter_width: int
    max_frames_latency: int
    frames_per_chunk: int
    simulate_first_pass_online: bool
    recompute_frame: int
    snip_edges: bool
    samples_per_chunk: int


def _sinc_weights(times, rate, cutoff, zeros, count):
    """(count, len(times)) weights giving a signal sampled at `rate` (samples 0 .. count - 1)
    at `times` (seconds): Kaldi's ArbitraryResample, a sinc cut off at `cutoff` under a Hann
    window `zeros` zero crossings wide on each side, over the samples the window reaches."""
    half_width = zeros / (2.0 * cutoff)
    sample_times = core.arange(count, dtype=core.float64).unsqueeze(1) / rate
    t = times.unsqueeze(0) - sample_times                                   # (count, len(times))
    window = core.where(t.abs() < half_width, 0.5 * (1.0 + core.cos(t * (2 * math.pi * cutoff / zeros))),
                        core.zeros([], dtype=core.float64))
    safe_t = core.where(t == 0, core.ones([], dtype=core.float64), t)
    sinc = core.where(t == 0, core.full([], 2.0 * cutoff, dtype=core.float64),
                      core.sin(safe_t * (2 * math.pi * cutoff)) / (safe_t * math.pi))
    return sinc * window / rate


def _log_lags(min_f0, max_f0, delta_pitch):
    """Kaldi's SelectLags: 1/max_f0, then times (1 + delta_pitch) while <= 1/min_f0."""
    lags, lag = [], 1.0 / max_f0
    while lag <= 1.0 / min_f0:
        lags.append(lag)
        lag *= 1.0 + delta_pitch
    return core.tensor(lags, dtype=core.float64)


def _options(sample_rate, frame_length, frame_shift, min_f0, max_f0, soft_min_f0, penalty_factor, lowpass_cutoff,
             resample_frequency, delta_pitch, nccf_ballast, lowpass_filter_width, upsample_filter_width,
             max_frames_latency, frames_per_chunk, simulate_first_pass_online, recompute_frame, snip_edges):
    def need(ok, message):
        if not ok:
            raise ValueError(f"compute_kaldi_pitch: {message}")

    need(sample_rate > 0 and float(sample_rate).is_integer(), f"sample_rate must be a positive integer, got {sample_rate}")
    need(resample_frequency > 0 and float(resample_frequency).is_integer(),
         f"resample_frequency must be a positive integer, got {resample_frequency}")
    need(frame_length > 0 and frame_shift > 0, "frame_length and frame_shift must be positive")
    need(0 < min_f0 < max_f0, f"expected 0 < min_f0 < max_f0, got {min_f0} and {max_f0}")
    need(delta_pitch > 0 and soft_min_f0 >= 0 and penalty_factor >= 0 and nccf_ballast >= 0,
         "delta_pitch must be positive; soft_min_f0, penalty_factor and nccf_ballast non-negative")
    need(lowpass_cutoff > 0 and 2 * lowpass_cutoff <= min(sample_rate, resample_frequency),
         f"lowpass_cutoff must be positive and at most half of sample_rate and resample_frequency, got {lowpass_cutoff}")
    need(lowpass_filter_width > 0 and upsample_filter_width > 0, "the filter widths must be positive")
    need(frames_per_chunk >= 0 and recompute_frame >= 0 and max_frames_latency >= 0,
         "frames_per_chunk, recompute_frame and max_frames_latency must be non-negative")
    need(not simulate_first_pass_online or frames_per_chunk > 0,
         "simulate_first_pass_online needs frames_per_chunk > 0")
    rate, new_rate = int(sample_rate), int(resample_frequency)
    window, shift = int(new_rate * frame_length / 1000.0), int(new_rate * frame_shift / 1000.0)
    need(window > 0 and shift > 0, "frame_length and frame_shift are shorter than one resampled sample")
    reach = upsample_filter_width / (2.0 * new_rate)  # the upsampling filter's half width (s)
    first_lag = math.ceil(new_rate * (1.0 / max_f0 - reach))
    last_lag = math.floor(new_rate * (1.0 / min_f0 + reach))
    need(first_lag >= 0, "max_f0 is too high for resample_frequency and upsample_filter_width")
    lags = _log_lags(min_f0, max_f0, delta_pitch)
    weights = _sinc_weights(lags - first_lag / new_rate, new_rate, new_rate / 2.0, upsample_filter_width,
                            last_lag + 1 - first_lag)
    samples_per_chunk = int(frames_per_chunk * rate * 1.0e-3 * frame_shift)
    need(frames_per_chunk == 0 or samples_per_chunk > 0, "frames_per_chunk gives chunks of no samples")
    return _Options(rate, new_rate, window, shift, first_lag, last_lag, lags, weights, float(soft_min_f0),
                    math.log(1.0 + delta_pitch) ** 2 * penalty_factor, float(nccf_ballast), float(lowpass_cutoff),
                    int(lowpass_filter_width), int(max_frames_latency), int(frames_per_chunk),
                    bool(simulate_first_pass_online), int(recompute_frame), bool(snip_edges), samples_per_chunk)


def _resampled_count(o: _Options, num_samples, flush):
    """How many resampled samples Kaldi's LinearResample has given after num_samples inputs:
    all before the input's end if flushed, else those whose filter window is fully in."""
    tick_rate = o.sample_rate * o.resample_rate // math.gcd(o.sample_rate, o.resample_rate)
    ticks = num_samples * (tick_rate // o.sample_rate)
    if not flush:
        ticks -= math.floor(o.lowpass_filter_width / (2.0 * o.lowpass_cutoff) * tick_rate)
    if ticks <= 0:
        return 0
    per_output = tick_rate // o.resample_rate
    last = ticks // per_output
    return last if last * per_output == ticks else last + 1


def _frames_available(o: _Options, num_samples, finished):
    """Kaldi's NumFramesAvailable: frames whose extended window is in (the plain window once
    the input is finished; then without snip_edges, samples / shift rounded)."""
    length = o.window if finished else o.window + o.last_lag
    if num_samples < length:
        return 0
    if finished and not o.snip_edges:
        return int(num_samples / o.shift + 0.5)
    return (num_samples - length) // o.shift + 1


def _nccf(o: _Options, signal, first, end, ballast):
    """(NCCF with ballast, NCCF without, mean of the energy products) of frames first .. end - 1:
    the window at frame * shift against the windows first_lag .. last_lag later, after removing
    the first window's mean from the extended frame (zeros past the end of `signal`)."""
    full = o.window + o.last_lag
    start, need = first * o.shift, (end - 1 - first) * o.shift + full
    part = signal[start:start + need]
    if part.shape[0] < need:
        part = core.cat([part, core.zeros([need - part.shape[0]], dtype=core.float64)])
    pitch_rows, pov_rows, products = [], [], []
    rows = part.unfold(0, full, o.shift)                                   # (frames, full)
    zero = core.zeros([], dtype=core.float64)
    size = 1 << (full - 1).bit_length()
    for b in range(0, rows.shape[0], _NCCF_FRAMES_PER_BATCH):
        x = rows[b:b + _NCCF_FRAMES_PER_BATCH]
        x = x - x[:, :o.window].mean(1, keepdim=True)
        head = x[:, :o.window]
        # sum_i head[i] x[i + lag] for every lag at once, by FFT (no wrap-around: size >= full)
        spectra = core.fft.rfft(x, n=size) * core.fft.rfft(head, n=size).conj()
        inner = core.fft.irfft(spectra, n=size)[:, o.first_lag:o.last_lag + 1]
        squares = core.cat([core.zeros([x.shape[0], 1], dtype=core.float64), core.cumsum(x * x, 1)], 1)
        e2 = squares[:, o.first_lag + o.window:o.last_lag + o.window + 1] - squares[:, o.first_lag:o.last_lag + 1]
        norm = (head * head).sum(1, keepdim=True) * e2
        pitch_rows.append(core.where(norm + ballast > 0, inner / (norm + ballast).sqrt(), zero))
        pov_rows.append(core.where(norm > 0, inner / norm.sqrt(), zero))
        products.append(norm.mean(1))
    return core.cat(pitch_rows), core.cat(pov_rows), core.cat(products)


def _approx_equal(a, b, tolerance):
    return a == b or abs(a - b) <= tolerance * (abs(a) + abs(b))


class _Frames:
    """Per-frame rows of `states` values, appended as (frames, states) blocks."""

    def __init__(self):
        self.blocks, self.starts, self.count = [], [], 0

    def append(self, block):
        self.blocks.append(block)
        self.starts.append(self.count)
        self.count += block.shape[0]

    def replace_head(self, block):
        """`block` in place of the first block.shape[0] frames (a whole number of blocks)."""
        keep = bisect.bisect_left(self.starts, block.shape[0])
        rest = self.blocks[keep:]
        self.blocks, self.starts, self.count = [], [], 0
        for b in [block] + rest:
            self.append(b)

    def row(self, frame):
        i = bisect.bisect_right(self.starts, frame) - 1
        return self.blocks[i][frame - self.starts[i]]


class _Tracker:
    """One channel through Kaldi's OnlinePitchFeatureImpl: frames as the input allows, the
    Viterbi search over them, tracebacks."""

    def __init__(self, o: _Options, signal):
        self.o, self.signal = o, signal
        zero = core.zeros([1], dtype=core.float64)
        self.sums = core.cat([zero, core.cumsum(signal, 0)])  # running sums for the energy estimate
        self.square_sums = core.cat([zero, core.cumsum(signal * signal, 0)])
        self.states = o.lags.shape[0]
        self.cost = core.zeros([self.states], dtype=core.float64)  # the forward cost after the last frame
        self.backpointers = _Frames()  # each state's best predecessor state
        self.pov_nccf = _Frames()      # the NCCF without ballast, reported
        self.early = None              # frames before recompute_frame: (pitch NCCF, energy products, mean squares)
        self.path, self.traced = [], 0  # the last traceback, and how many frames it still holds good for
        self.samples = 0               # resampled samples in so far
        self.finished = False

    @property
    def num_frames(self):
        return self.backpointers.count

    def _mean_square(self):
        n = self.samples
        mean = float(self.sums[n]) / n
        return float(self.square_sums[n]) / n - mean * mean

    def _search(self, pitch_nccf, cost):
        """Backpointers (frames, states) and the final cost of the search over these frames."""
        o = self.o
        local = 1.0 - pitch_nccf + o.soft_min_f0 * pitch_nccf * o.lags
        return core._viterbi_quadratic(local, cost, o.transition_cost)

    def _keep_early(self, pitch, products, mean_square):
        ms = core.full([pitch.shape[0]], mean_square, dtype=core.float64)
        parts = (pitch, products, ms)
        self.early = parts if self.early is None else tuple(core.cat([a, b]) for a, b in zip(self.early, parts))

    def accept(self, samples, finished):
        """The input has reached `samples` resampled samples (all of them once finished)."""
        o = self.o
        self.samples, self.finished = samples, finished
        first, end = self.num_frames, _frames_available(o, samples, finished)
        if end > first:
            mean_square = self._mean_square()
            ballast = (mean_square * o.window) ** 2 * o.nccf_ballast
            pitch, pov, products = _nccf(o, self.signal[:samples], first, end, ballast)
            pitch = core.matmul(pitch, o.lag_weights)
            self.pov_nccf.append(core.matmul(pov, o.lag_weights))
            split = min(max(o.recompute_frame - first, 0), end - first)  # frames before recompute_frame
            if split > 0:
                self._keep_early(pitch[:split], products[:split], mean_square)
            for lo, hi in ((0, split), (split, end - first)):
                if hi > lo:
                    back, self.cost = self._search(pitch[lo:hi], self.cost)
                    self.backpointers.append(back)
                    if self.num_frames == o.recompute_frame:
                        self.recompute()
        if finished and self.num_frames < o.recompute_frame:
            self.recompute()

    def recompute(self):
        """Kaldi's RecomputeBacktraces (once): if the energy behind the early frames' ballast
        moved by more than 1 %, rescale their pitch NCCF by the ballast change (with the frame's
        mean energy product) and search them again from the start."""
        o, early, self.early = self.o, self.early, None
        if early is None:
            return
        pitch, products, old = early
        mean_square = self._mean_square()
        if all(_approx_equal(m, mean_square, 0.01) for m in old.tolist()):
            return
        old_ballast = (old * o.window).pow(2) * o.nccf_ballast
        new_ballast = (mean_square * o.window) ** 2 * o.nccf_ballast
        pitch = pitch * ((old_ballast + products) / (new_ballast + products)).sqrt().unsqueeze(1)
        back, self.cost = self._search(pitch, core.zeros([self.states], dtype=core.float64))
        self.backpointers.replace_head(back)
        self.traced = 0

    def traceback(self):
        """The best path's state for every frame, from the cheapest final state; as Kaldi's
        SetBestState it stops where it meets the previous traceback."""
        self.path += [0] * (self.num_frames - len(self.path))
        state = int(self.cost.argmin())
        for frame in range(self.num_frames - 1, -1, -1):
            if frame < self.traced and self.path[frame] == state:
                break  # the rest of the path is what it was
            self.path[frame] = state
            state = int(self.backpointers.row(frame)[state])
        self.traced = self.num_frames
        return self.path

    def latency(self):
        """Kaldi's ComputeLatency: the final frames the traceback has not settled yet (the paths
        from the lowest and the highest state still differ there), at most max_frames_latency."""
        if self.finished or self.o.max_frames_latency <= 0:
            return 0
        low, high, latency = 0, self.states - 1, 0
        for frame in range(self.num_frames - 1, -1, -1):
            back = self.backpointers.row(frame)
            low, high = int(back[low]), int(back[high])
            if low == high:
                return latency
            latency += 1  # frame `frame` is undecided
            if latency >= self.o.max_frames_latency:
                return latency
        return latency  # back to before the first frame, where every path starts

    def rows(self, path, frames):
        """(NCCF, pitch) of the frames along `path`."""
        return [(float(self.pov_nccf.row(f)[path[f]]), 1.0 / float(self.o.lags[path[f]])) for f in frames]


def _track(o: _Options, waveform):
    """(frames, 2) float64 for one channel."""
    signal = _sinc_resample(waveform, o.sample_rate, o.resample_rate, o.lowpass_filter_width,
                            2.0 * o.lowpass_cutoff / min(o.sample_rate, o.resample_rate), "sinc_interpolation", None)
    tracker = _Tracker(o, signal)
    n = waveform.shape[0]
    chunk_ends = range(o.samples_per_chunk, n, o.samples_per_chunk) if o.frames_per_chunk else []
    out = []
    for end in list(chunk_ends) + [n]:
        tracker.accept(_resampled_count(o, end, False), False)
        if o.simulate_first_pass_online and end < n:  # frames an online decoder takes now, for good
            ready = tracker.num_frames - tracker.latency()
            out += tracker.rows(tracker.traceback(), range(len(out), ready))
    tracker.accept(signal.shape[0], True)
    out += tracker.rows(tracker.traceback(), range(len(out), tracker.num_frames))
    return core.tensor(out, dtype=core.float64).reshape(-1, 2)


def compute_kaldi_pitch(waveform, sample_rate: float, frame_length: float = 25.0, frame_shift: float = 10.0,
                        min_f0: float = 50, max_f0: float = 400, soft_min_f0: float = 10.0,
                        penalty_factor: float = 0.1, lowpass_cutoff: float = 1000, resample_frequency: float = 4000,
                        delta_pitch: float = 0.005, nccf_ballast: float = 7000, lowpass_filter_width: int = 1,
                        upsample_filter_width: int = 5, max_frames_latency: int = 0, frames_per_chunk: int = 0,
                        simulate_first_pass_online: bool = False, recompute_frame: int = 500,
                        snip_edges: bool = True):
    """Kaldi's pitch and NCCF of (..., time): (..., frames, 2) with (NCCF, pitch in Hz) per
    frame (see the module's description)."""
    if not waveform.dtype.is_floating_point:
        raise TypeError(f"compute_kaldi_pitch: expected a floating-point waveform, got {waveform.dtype}")
    if waveform.ndim < 1:
        raise ValueError("compute_kaldi_pitch: expected a waveform of shape (..., time)")
    o = _options(sample_rate, frame_length, frame_shift, min_f0, max_f0, soft_min_f0, penalty_factor,
                 lowpass_cutoff, resample_frequency, delta_pitch, nccf_ballast, lowpass_filter_width,
                 upsample_filter_width, max_frames_latency, frames_per_chunk, simulate_first_pass_online,
                 recompute_frame, snip_edges)
    rows = waveform.detach().reshape(-1, waveform.shape[-1]).to(core.float64)
    tracks = [_track(o, row) for row in rows.unbind(0)]
    return core.stack(tracks).reshape(list(waveform.shape[:-1]) + list(tracks[0].shape)).to(waveform.dtype)
