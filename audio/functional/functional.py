"""Spectral functions of audio.functional (torchaudio.functional 0.8, plus resample and the
mel_scale option of later releases). Inputs are (..., time) waveforms or (..., freq, time)
spectrograms; leading dims are batched. Complex spectra in the torchaudio 0.8 layout are real
views (..., 2); phase_vocoder also takes complex tensors."""
import math
import warnings
from typing import Optional

import core
import core.nn.functional as F
from core._spectral import _bessel_i0

__all__ = ["spectrogram", "griffinlim", "amplitude_to_DB", "DB_to_amplitude", "create_fb_matrix",
           "melscale_fbanks", "create_dct", "complex_norm", "angle", "magphase", "phase_vocoder",
           "mask_along_axis", "mask_along_axis_iid", "compute_deltas", "detect_pitch_frequency",
           "sliding_window_cmn", "spectral_centroid", "resample"]


def _batched(x, keep):
    """x as (-1, *last `keep` dims), and a function restoring the leading dims."""
    lead = list(x.shape[:-keep]) if keep else list(x.shape)
    flat = x.reshape([-1] + list(x.shape[x.ndim - keep:]))
    return flat, lambda y, tail=None: y.reshape(lead + list(y.shape[1:] if tail is None else tail))


def spectrogram(waveform, pad: int, window, n_fft: int, hop_length: int, win_length: int,
                power: Optional[float], normalized: bool, center: bool = True, pad_mode: str = "reflect",
                onesided: bool = True):
    """|STFT|^power (power None: the complex STFT as a real view (..., freq, time, 2))."""
    if pad > 0:
        waveform = F.pad(waveform, (pad, pad), "constant")
    flat, restore = _batched(waveform, 1)
    spec = core.stft(flat, n_fft, hop_length, win_length, window, center, pad_mode, False, onesided,
                     return_complex=True)                   # (batch, freq, frames): a view of
    if power is None:                                        # (batch, frames, freq) memory
        if normalized:
            spec = spec / window.pow(2.0).sum().sqrt()
        return restore(core.view_as_real(spec))
    frames = spec.transpose(-1, -2)  # |z|^power in memory order, then back to (freq, frames)
    if power == 2.0:  # |z|^2 without the square root
        squares = core.view_as_real(frames).square()
        magnitude = squares[..., 0] + squares[..., 1]
    else:
        magnitude = frames.abs()
        if power != 1.0:
            magnitude = magnitude.pow(power)
    if normalized:  # |z / c|^p = |z|^p / c^p with c = the window's L2 norm
        magnitude = magnitude / window.pow(2.0).sum().pow(power / 2)
    return restore(magnitude.transpose(-1, -2))


def griffinlim(specgram, window, n_fft: int, hop_length: int, win_length: int, power: float,
               normalized: bool, n_iter: int, momentum: float, length: Optional[int], rand_init: bool):
    """A waveform whose spectrogram magnitude is `specgram` (..., freq, frames): fast
    Griffin-Lim (Perraudin et al. 2013) with `momentum`, from random or zero phases."""
    if not 0 <= momentum < 1:
        raise ValueError(f"griffinlim: momentum must be in the range [0, 1), got {momentum}")
    if normalized:
        warnings.warn("The argument normalized is not used in Griffin-Lim, and will be removed in v0.9.0 release. "
                      "To suppress this warning, please use `normalized=False`.")
    flat, _ = _batched(specgram, 2)
    magnitude = flat.pow(1.0 / power)
    if rand_init:
        phase = core.rand(list(flat.shape), dtype=flat.dtype) * (2 * math.pi)
    else:
        phase = core.zeros(list(flat.shape), dtype=flat.dtype)
    angles = core.view_as_complex(core.stack([phase.cos(), phase.sin()], -1))
    stft_args = dict(n_fft=n_fft, hop_length=hop_length, win_length=win_length, window=window)
    rebuilt = None
    for _ in range(n_iter):
        previous = rebuilt
        inverse = core.istft(magnitude * angles, length=length, **stft_args)
        rebuilt = core.stft(inverse, center=True, pad_mode="reflect", normalized=False, onesided=True,
                            return_complex=True, **stft_args)
        # The previous iterate weighted by momentum / (1 + momentum), as torchaudio does.
        angles = rebuilt if previous is None or not momentum else rebuilt - previous * (momentum / (1 + momentum))
        angles = angles / (angles.abs() + 1e-16)
    waveform = core.istft(magnitude * angles, length=length, **stft_args)
    return waveform.reshape(list(specgram.shape[:-2]) + [waveform.shape[-1]])


def amplitude_to_DB(x, multiplier: float, amin: float, db_multiplier: float, top_db: Optional[float] = None):
    """multiplier * log10(max(x, amin)) - multiplier * db_multiplier, floored at max - top_db
    (the max taken per item over its last three dims: channel, freq, time)."""
    # log10 as ln / ln 10: equal to within an ulp or two, and core.log is vectorised.
    x_db = core.log(core.clamp(x, min=amin)) * (multiplier / math.log(10.0)) - multiplier * db_multiplier
    if top_db is not None:
        shape = list(x_db.shape)
        channels = shape[-3] if x_db.ndim > 2 else 1
        packed = x_db.reshape(-1, channels, shape[-2], shape[-1])
        floor = (packed.amax(dim=(-3, -2, -1)) - top_db).reshape(-1, 1, 1, 1)
        x_db = core.maximum(packed, floor).reshape(shape)
    return x_db


def DB_to_amplitude(x, ref: float, power: float):
    """ref * (10^(x / 10))^power: the inverse of amplitude_to_DB (without top_db)."""
    return core.pow(core.pow(core.full([], 10.0, dtype=x.dtype), x * 0.1), power) * ref


def _hz_to_mel(freq, mel_scale):
    if mel_scale == "htk":
        return 2595.0 * math.log10(1.0 + freq / 700.0)
    # Slaney: linear below 1 kHz, logarithmic above.
    mels = freq / (200.0 / 3)
    if freq >= 1000.0:
        mels = 15.0 + math.log(freq / 1000.0) / (math.log(6.4) / 27.0)
    return mels


def _mel_to_hz(mels, mel_scale):
    if mel_scale == "htk":
        return (core.pow(core.full([], 10.0, dtype=mels.dtype), mels / 2595.0) - 1.0) * 700.0
    linear = mels * (200.0 / 3)
    log_part = core.exp((mels - 15.0) * (math.log(6.4) / 27.0)) * 1000.0
    return core.where(mels >= 15.0, log_part, linear)


def melscale_fbanks(n_freqs: int, f_min: float, f_max: float, n_mels: int, sample_rate: int,
                    norm: Optional[str] = None, mel_scale: str = "htk"):
    """Triangular mel filters (n_freqs, n_mels) over the bins of a onesided spectrogram."""
    if norm is not None and norm != "slaney":
        raise ValueError("norm must be one of None or 'slaney'")
    if mel_scale not in ("htk", "slaney"):
        raise ValueError('mel_scale should be one of "htk" or "slaney".')
    all_freqs = core.linspace(0, sample_rate // 2, n_freqs, dtype=core.float64)
    m_pts = core.linspace(_hz_to_mel(f_min, mel_scale), _hz_to_mel(f_max, mel_scale), n_mels + 2,
                          dtype=core.float64)
    f_pts = _mel_to_hz(m_pts, mel_scale)
    f_diff = f_pts[1:] - f_pts[:-1]
    slopes = f_pts.unsqueeze(0) - all_freqs.unsqueeze(1)              # (n_freqs, n_mels + 2)
    down = -slopes[:, :-2] / f_diff[:-1]
    up = slopes[:, 2:] / f_diff[1:]
    fb = core.clamp(core.minimum(down, up), min=0.0)
    if norm == "slaney":
        fb = fb * (2.0 / (f_pts[2:n_mels + 2] - f_pts[:n_mels])).unsqueeze(0)
    if bool((fb.amax(dim=0) == 0.0).any()):
        warnings.warn("At least one mel filterbank has all zero values. The value for `n_mels` "
                      f"({n_mels}) may be set too high. Or, the value for `n_freqs` ({n_freqs}) may be set too low.")
    return fb.to(core.float32)


def create_fb_matrix(n_freqs: int, f_min: float, f_max: float, n_mels: int, sample_rate: int,
                     norm: Optional[str] = None, mel_scale: str = "htk"):
    """torchaudio 0.8's name for melscale_fbanks (HTK mel scale by default)."""
    return melscale_fbanks(n_freqs, f_min, f_max, n_mels, sample_rate, norm, mel_scale)


def create_dct(n_mfcc: int, n_mels: int, norm: Optional[str]):
    """The DCT-II matrix (n_mels, n_mfcc) (orthonormal with norm='ortho', else scaled by 2)."""
    if norm is not None and norm != "ortho":
        raise ValueError("create_dct: norm must be None or 'ortho'")
    n = core.arange(float(n_mels), dtype=core.float64)
    k = core.arange(float(n_mfcc), dtype=core.float64).unsqueeze(1)
    dct = core.cos((n + 0.5) * k * (math.pi / n_mels))                  # (n_mfcc, n_mels)
    if norm is None:
        dct = dct * 2.0
    else:
        first = core.ones([n_mfcc, 1], dtype=core.float64)
        first[0] = 1.0 / math.sqrt(2.0)
        dct = dct * first * math.sqrt(2.0 / n_mels)
    return dct.t().to(core.float32)


def complex_norm(complex_tensor, power: float = 1.0):
    """|z|^power of a real view (..., 2)."""
    return complex_tensor.pow(2.0).sum(-1).pow(0.5 * power)


def angle(complex_tensor):
    """The phase of a real view (..., 2)."""
    return core.atan2(complex_tensor[..., 1], complex_tensor[..., 0])


def magphase(complex_tensor, power: float = 1.0):
    """(|z|^power, angle) of a real view (..., 2)."""
    return complex_norm(complex_tensor, power), angle(complex_tensor)


def phase_vocoder(complex_specgrams, rate: float, phase_advance):
    """Time-stretches (..., freq, time, 2) (or complex (..., freq, time)) by `rate` without
    changing pitch: ceil(time / rate) frames, magnitudes interpolated, phases advanced by
    phase_advance (freq, 1) plus each bin's measured deviation."""
    if rate == 1.0:
        return complex_specgrams
    is_complex = complex_specgrams.dtype.is_complex
    pairs = core.view_as_real(complex_specgrams) if is_complex else complex_specgrams
    flat, _ = _batched(pairs, 3)
    time_steps = core.arange(0, flat.shape[-2], rate, dtype=flat.dtype)
    alphas = time_steps % 1.0
    phase_0 = angle(flat[..., :1, :])
    flat = F.pad(flat, [0, 0, 0, 2])
    spec_0 = flat.index_select(-2, time_steps.long())
    spec_1 = flat.index_select(-2, (time_steps + 1).long())
    angle_0, angle_1 = angle(spec_0), angle(spec_1)
    norm_0, norm_1 = complex_norm(spec_0), complex_norm(spec_1)
    phase = angle_1 - angle_0 - phase_advance
    phase = phase - 2 * math.pi * core.round(phase / (2 * math.pi)) + phase_advance
    phase_acc = core.cumsum(core.cat([phase_0, phase[..., :-1]], -1), -1)
    mag = alphas * norm_1 + (1 - alphas) * norm_0
    stretched = core.stack([mag * core.cos(phase_acc), mag * core.sin(phase_acc)], -1)
    stretched = stretched.reshape(list(pairs.shape[:-3]) + list(stretched.shape[1:]))
    return core.view_as_complex(stretched.contiguous()) if is_complex else stretched


def mask_along_axis(specgram, mask_param: int, mask_value: float, axis: int):
    """Sets [start, start + v) along axis (1 freq, 2 time) of (channel, freq, time) to
    mask_value, v = rand * mask_param, start = rand * (size - v): one mask for all channels."""
    if axis not in (1, 2):
        raise ValueError("Only Frequency and Time masking are supported")
    flat, restore = _batched(specgram, 2)
    value = float(core.rand(1)) * mask_param
    min_value = float(core.rand(1)) * (flat.shape[axis] - value)
    start, end = int(min_value), int(min_value) + int(value)
    positions = core.arange(flat.shape[axis])
    mask = (positions >= start) & (positions < end)
    mask = mask.reshape(-1, 1) if axis == 1 else mask.reshape(1, -1)
    return restore(flat.masked_fill(mask, mask_value))


def mask_along_axis_iid(specgrams, mask_param: int, mask_value: float, axis: int):
    """mask_along_axis with an independent mask per example and channel of (batch, channel,
    freq, time); axis 2 (freq) or 3 (time)."""
    if axis not in (2, 3):
        raise ValueError("Only Frequency and Time masking are supported")
    value = core.rand(list(specgrams.shape[:2]), dtype=specgrams.dtype) * mask_param
    min_value = core.rand(list(specgrams.shape[:2]), dtype=specgrams.dtype) * (specgrams.shape[axis] - value)
    start = min_value[..., None, None]
    end = (min_value + value)[..., None, None]
    positions = core.arange(specgrams.shape[axis], dtype=specgrams.dtype)
    moved = specgrams.transpose(axis, -1)
    moved = moved.masked_fill((positions >= start) & (positions < end), mask_value)
    return moved.transpose(axis, -1)


def compute_deltas(specgram, win_length: int = 5, mode: str = "replicate"):
    """Delta coefficients along time: sum_n n (c[t+n] - c[t-n]) / (2 sum_n n^2), n = 1..N,
    N = (win_length - 1) // 2, the edges padded with `mode`."""
    if win_length < 3:
        raise ValueError(f"compute_deltas: win_length must be at least 3, got {win_length}")
    n = (win_length - 1) // 2
    denom = n * (n + 1) * (2 * n + 1) / 3
    flat = specgram.reshape(1, -1, specgram.shape[-1])
    padded = F.pad(flat, (n, n), mode=mode)
    taps = core.arange(-n, n + 1, dtype=specgram.dtype)
    out = core.matmul(padded.unfold(-1, 2 * n + 1, 1), taps) / denom
    return out.reshape(specgram.shape)


# ---------------------------------------------------------------- pitch

def _compute_nccf(waveform, sample_rate, frame_time, freq_low):
    """Normalised cross-correlation (batch, frames, lags) for lags 1..ceil(sr / freq_low)."""
    eps = 1e-9
    lags = int(math.ceil(sample_rate / freq_low))
    frame_size = int(math.ceil(sample_rate * frame_time))
    length = waveform.shape[-1]
    frames = int(math.ceil(length / frame_size))
    waveform = F.pad(waveform, (0, lags + frames * frame_size - length))
    s1 = waveform[..., :frames * frame_size].reshape(waveform.shape[0], frames, frame_size)
    e1 = (eps + s1.pow(2).sum(-1).sqrt()).pow(2)
    out = []
    for lag in range(1, lags + 1):
        s2 = waveform[..., lag:lag + frames * frame_size].reshape(waveform.shape[0], frames, frame_size)
        out.append((s1 * s2).sum(-1) / e1 / (eps + s2.pow(2).sum(-1).sqrt()).pow(2))
    return core.stack(out, -1)


def _find_max_per_frame(nccf, sample_rate, freq_high):
    """The lag of the best correlation (preferring the first half when within 1%), +1."""
    lag_min = int(math.ceil(sample_rate / freq_high))
    best_values, best_indices = core.max(nccf[..., lag_min:], -1)
    half_values, half_indices = core.max(nccf[..., lag_min:nccf.shape[-1] // 2], -1)
    take_half = half_values > 0.99 * best_values
    return core.where(take_half, half_indices, best_indices) + lag_min + 1


def _median_smoothing(indices, win_length):
    pad = (win_length - 1) // 2
    padded = core.cat([indices[..., :1].expand(list(indices.shape[:-1]) + [pad]), indices], -1)
    values, _ = core.median(padded.unfold(-1, win_length, 1), -1)
    return values


def detect_pitch_frequency(waveform, sample_rate: int, frame_time: float = 10 ** (-2), win_length: int = 30,
                           freq_low: int = 85, freq_high: int = 3400):
    """Pitch (Hz) per 10 ms frame: the lag maximising the normalised cross-correlation,
    median-smoothed over win_length frames."""
    flat, restore = _batched(waveform, 1)
    nccf = _compute_nccf(flat, sample_rate, frame_time, freq_low)
    indices = _median_smoothing(_find_max_per_frame(nccf, sample_rate, freq_high), win_length)
    return restore(sample_rate / (1e-9 + indices.to(core.float32)))


# ---------------------------------------------------------------- CMN, centroid

def _cmn_windows(num_frames, cmn_window, min_cmn_window, center):
    """Kaldi's sliding window [start, end) for every frame."""
    starts, ends = [], []
    for t in range(num_frames):
        if center:
            start = t - cmn_window // 2
            end = start + cmn_window
        else:
            start, end = t - cmn_window, t + 1
        if start < 0:
            end -= start
            start = 0
        if not center and end > t:
            end = max(t + 1, min_cmn_window)
        if end > num_frames:
            start -= end - num_frames
            end = num_frames
            start = max(start, 0)
        starts.append(start)
        ends.append(end)
    return starts, ends


def sliding_window_cmn(waveform, cmn_window: int = 600, min_cmn_window: int = 100, center: bool = False,
                       norm_vars: bool = False):
    """Kaldi's sliding-window cepstral mean (and variance) normalisation of (..., time, feats)."""
    num_frames, num_feats = waveform.shape[-2:]
    flat = waveform.reshape(-1, num_frames, num_feats)
    starts, ends = _cmn_windows(num_frames, cmn_window, min_cmn_window, center)
    start_idx, end_idx = core.tensor(starts), core.tensor(ends)
    counts = (end_idx - start_idx).to(flat.dtype).reshape(1, -1, 1)

    def window_sums(x):  # sums over each frame's window, through a prefix sum
        prefix = core.cat([core.zeros([x.shape[0], 1, num_feats], dtype=x.dtype), core.cumsum(x, 1)], 1)
        return prefix.index_select(1, end_idx) - prefix.index_select(1, start_idx)

    sums = window_sums(flat)
    out = flat - sums / counts
    if norm_vars:
        variance = window_sums(flat * flat) / counts - (sums / counts).pow(2)
        out = core.where(counts == 1, core.zeros([], dtype=flat.dtype), out * variance.pow(-0.5))
    return out.reshape(waveform.shape)


def spectral_centroid(waveform, sample_rate: int, pad: int, window, n_fft: int, hop_length: int, win_length: int):
    """sum(freq * |S|) / sum(|S|) over the bins of each frame: (..., time)."""
    specgram = spectrogram(waveform, pad=pad, window=window, n_fft=n_fft, hop_length=hop_length,
                           win_length=win_length, power=1.0, normalized=False)
    freqs = core.linspace(0, sample_rate // 2, 1 + n_fft // 2, dtype=specgram.dtype).reshape(-1, 1)
    return (freqs * specgram).sum(-2) / specgram.sum(-2)


# ---------------------------------------------------------------- resampling

def _sinc_resample_kernel(orig_freq, new_freq, lowpass_filter_width, rolloff, resampling_method, beta, dtype):
    """The (new_freq, 2 * width + orig_freq) polyphase filters of a windowed-sinc resampler
    (frequencies already divided by their gcd), and the width."""
    if lowpass_filter_width <= 0:
        raise ValueError("resample: lowpass_filter_width must be positive")
    if resampling_method not in ("sinc_interpolation", "kaiser_window", "sinc_interp_hann", "sinc_interp_kaiser"):
        raise ValueError(f"Invalid resampling method: {resampling_method}")
    base_freq = min(orig_freq, new_freq) * rolloff
    width = math.ceil(lowpass_filter_width * orig_freq / base_freq)
    idx = core.arange(-width, width + orig_freq, dtype=core.float64)
    phases = core.arange(new_freq, dtype=core.float64).unsqueeze(1)
    t = (idx / orig_freq - phases / new_freq) * base_freq
    t = core.clamp(t, -lowpass_filter_width, lowpass_filter_width)
    if resampling_method in ("sinc_interpolation", "sinc_interp_hann"):
        window = core.cos(t * (math.pi / lowpass_filter_width / 2)).pow(2)
    else:
        beta = 14.769656459379492 if beta is None else float(beta)
        window = _bessel_i0(core.sqrt(1 - (t / lowpass_filter_width).pow(2)) * beta) / \
            _bessel_i0(core.full([1], beta, dtype=core.float64))
    t = t * math.pi
    sinc = core.where(t == 0, core.ones([], dtype=core.float64), core.sin(t) / t)
    return (sinc * window * (base_freq / orig_freq)).to(dtype), width


def resample(waveform, orig_freq: float, new_freq: float, lowpass_filter_width: int = 6, rolloff: float = 0.99,
             resampling_method: str = "sinc_interpolation", beta: Optional[float] = None):
    """Band-limited resampling of (..., time) from orig_freq to new_freq (integers):
    a Hann- (or Kaiser-) windowed sinc of lowpass_filter_width zero crossings, cut off at
    rolloff times the lower Nyquist frequency; ceil(time * new / orig) samples out."""
    if orig_freq <= 0.0 or new_freq <= 0.0:
        raise ValueError("resample: orig_freq and new_freq must be positive")
    if orig_freq == new_freq:
        return waveform
    return _sinc_resample(waveform, orig_freq, new_freq, lowpass_filter_width, rolloff, resampling_method, beta)


def _sinc_resample(waveform, orig_freq, new_freq, lowpass_filter_width, rolloff, resampling_method, beta):
    """resample's filter, applied also when the rates are equal (then it only low-passes)."""
    if int(orig_freq) != orig_freq or int(new_freq) != new_freq:
        raise ValueError("resample: frequencies must be integers")
    gcd = math.gcd(int(orig_freq), int(new_freq))
    orig, new = int(orig_freq) // gcd, int(new_freq) // gcd
    dtype = waveform.dtype if waveform.dtype.is_floating_point else core.float32
    kernel, width = _sinc_resample_kernel(orig, new, lowpass_filter_width, rolloff, resampling_method, beta, dtype)
    flat, restore = _batched(waveform.to(dtype), 1)
    length = flat.shape[-1]
    padded = F.pad(flat, (width, width + orig))
    frames = padded.unfold(-1, kernel.shape[-1], orig)                    # (batch, frames, taps)
    reach = lowpass_filter_width * orig / (min(orig, new) * rolloff)
    out = _polyphase_apply(frames, kernel, orig, new, reach, width).reshape(flat.shape[0], -1)  # phases interleaved
    return restore(out[..., :int(math.ceil(new * length / orig))])


# Phases per product in _polyphase_apply: fewer products against narrower spans of taps.
_PHASES_PER_BLOCK = 16


def _polyphase_apply(frames, kernel, orig, new, reach, width):
    """frames (batch, n, taps) @ kernel (new, taps)^T. Phase p's filter is zero (sinc at its window's
    edge) beyond `reach` input samples of its centre orig * p / new, a small part of the taps when
    orig is large (44.1k -> 16k: 35 of 475), so each block of phases multiplies only the span of
    taps its filters reach."""
    taps = kernel.shape[-1]
    blocks = []
    for p0 in range(0, new, _PHASES_PER_BLOCK):
        p1 = min(new, p0 + _PHASES_PER_BLOCK)
        lo = max(0, math.floor(orig * p0 / new - reach) + width - 1)
        hi = min(taps, math.ceil(orig * (p1 - 1) / new + reach) + width + 2)
        blocks.append(core.matmul(frames[..., lo:hi], kernel[p0:p1, lo:hi].t()))
    return blocks[0] if len(blocks) == 1 else core.cat(blocks, -1)
