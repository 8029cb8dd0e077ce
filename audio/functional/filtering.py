"""Filters and sox-style effects on waveforms (..., time): torchaudio.functional's filtering
module. The biquads are the RBJ cookbook designs sox uses; lfilter runs in C++ over every
channel at once and is differentiable w.r.t. the waveform and both coefficient vectors."""
import math
from typing import Optional

import core

from audio import _kernels


def _check_waveform(op, waveform):
    if not isinstance(waveform, core.Tensor):
        raise TypeError(f"{op}(): waveform must be a tensor, got {type(waveform).__name__}")
    if not waveform.is_floating_point() or waveform.dtype not in (core.float32, core.float64):
        raise TypeError(f"{op}(): waveform must be float32 or float64, got {waveform.dtype}")
    if waveform.dim() < 1:
        raise ValueError(f"{op}(): waveform must have a time dimension")


def _dB2Linear(x: float) -> float:
    return math.exp(x * math.log(10) / 20.0)


def lfilter(waveform, a_coeffs, b_coeffs, clamp: bool = True, batching: bool = True):
    """IIR filter y[t] = (sum_k b[k] x[t-k] - sum_{k>=1} a[k] y[t-k]) / a[0] over the last dim.

    a_coeffs, b_coeffs: (order,) or (num_filters, order), equal shapes. With 2-D coefficients
    and batching=True, filter i runs on waveform[..., i, :]; with batching=False every filter
    runs on the whole waveform, adding a filter dim before time. clamp limits the output to
    [-1, 1]."""
    _check_waveform("lfilter", waveform)
    if a_coeffs.shape != b_coeffs.shape or a_coeffs.dim() not in (1, 2) or a_coeffs.shape[-1] == 0:
        raise ValueError(f"lfilter(): a_coeffs and b_coeffs must be (order,) or (filters, order) of one shape, "
                         f"got {tuple(a_coeffs.shape)} and {tuple(b_coeffs.shape)}")
    if a_coeffs.dtype != waveform.dtype or b_coeffs.dtype != waveform.dtype:
        raise TypeError(f"lfilter(): the coefficients must have the waveform's dtype ({waveform.dtype}), "
                        f"got {a_coeffs.dtype} and {b_coeffs.dtype}")
    shape = waveform.shape
    a = a_coeffs.reshape(-1, a_coeffs.shape[-1])
    b = b_coeffs.reshape(-1, b_coeffs.shape[-1])
    filters = a.shape[0]
    a0 = a[:, :1]
    if bool((a0 == 0).any()):
        raise ValueError("lfilter(): a_coeffs[..., 0] must not be zero (the output's own coefficient)")
    a, b = a / a0, b / a0  # normalised here so that a[0] stays differentiable
    if a_coeffs.dim() == 1:
        x = waveform.reshape(-1, 1, shape[-1])
        out_shape = shape
    elif batching:
        if waveform.dim() < 2 or shape[-2] != filters:
            raise ValueError(f"lfilter(): with {filters} filters and batching=True the waveform needs "
                             f"{filters} rows before time, got shape {tuple(shape)}")
        x = waveform.reshape(-1, filters, shape[-1])
        out_shape = shape
    else:
        x = waveform.reshape(-1, 1, shape[-1]).expand(-1, filters, shape[-1])
        out_shape = tuple(shape[:-1]) + (filters, shape[-1])
    y = _kernels.lfilter(x, a, b).reshape(out_shape)
    return y.clamp(-1.0, 1.0) if clamp else y


def filtfilt(waveform, a_coeffs, b_coeffs, clamp: bool = True):
    """Zero-phase filtering: lfilter forwards, then backwards over the result."""
    forward = lfilter(waveform, a_coeffs, b_coeffs, clamp=False, batching=True)
    backward = lfilter(forward.flip(-1), a_coeffs, b_coeffs, clamp=clamp, batching=True)
    return backward.flip(-1)


def biquad(waveform, b0: float, b1: float, b2: float, a0: float, a1: float, a2: float):
    """A second-order IIR filter with the given coefficients (output clamped to [-1, 1])."""
    _check_waveform("biquad", waveform)
    options = dict(dtype=waveform.dtype)
    return lfilter(waveform, core.tensor([a0, a1, a2], **options), core.tensor([b0, b1, b2], **options))


def _omega_alpha(sample_rate, freq, Q):
    w0 = 2 * math.pi * freq / sample_rate
    return w0, math.sin(w0) / 2 / Q


def allpass_biquad(waveform, sample_rate: int, central_freq: float, Q: float = 0.707):
    w0, alpha = _omega_alpha(sample_rate, central_freq, Q)
    c = math.cos(w0)
    return biquad(waveform, 1 - alpha, -2 * c, 1 + alpha, 1 + alpha, -2 * c, 1 - alpha)


def band_biquad(waveform, sample_rate: int, central_freq: float, Q: float = 0.707, noise: bool = False):
    """sox's `band`: a resonator whose response falls off logarithmically around the centre;
    noise=True is the mode for unpitched audio."""
    w0 = 2 * math.pi * central_freq / sample_rate
    bw_Hz = central_freq / Q
    a0 = 1.0
    a2 = math.exp(-2 * math.pi * bw_Hz / sample_rate)
    a1 = -4 * a2 / (1 + a2) * math.cos(w0)
    b0 = math.sqrt(1 - a1 * a1 / (4 * a2)) * (1 - a2)
    if noise:
        b0 *= math.sqrt(((1 + a2) * (1 + a2) - a1 * a1) * (1 - a2) / (1 + a2)) / b0
    return biquad(waveform, b0, 0.0, 0.0, a0, a1, a2)


def bandpass_biquad(waveform, sample_rate: int, central_freq: float, Q: float = 0.707,
                    const_skirt_gain: bool = False):
    """Two-pole band-pass: 0 dB peak gain, or peak gain Q with const_skirt_gain."""
    w0, alpha = _omega_alpha(sample_rate, central_freq, Q)
    temp = math.sin(w0) / 2 if const_skirt_gain else alpha
    c = math.cos(w0)
    return biquad(waveform, temp, 0.0, -temp, 1 + alpha, -2 * c, 1 - alpha)


def bandreject_biquad(waveform, sample_rate: int, central_freq: float, Q: float = 0.707):
    w0, alpha = _omega_alpha(sample_rate, central_freq, Q)
    c = math.cos(w0)
    return biquad(waveform, 1.0, -2 * c, 1.0, 1 + alpha, -2 * c, 1 - alpha)


def _shelf(sample_rate, gain, central_freq, alpha_of, low):
    """RBJ shelving coefficients (b0, b1, b2, a0, a1, a2); alpha_of(w0, A) gives the width."""
    w0 = 2 * math.pi * central_freq / sample_rate
    A = math.exp(gain / 40 * math.log(10))
    alpha = alpha_of(w0, A)
    c = math.cos(w0)
    t1, t2, t3 = 2 * math.sqrt(A) * alpha, (A - 1) * c, (A + 1) * c
    s = 1 if low else -1  # the high shelf mirrors the signs of the cosine terms
    return (A * ((A + 1) - s * t2 + t1), s * 2 * A * ((A - 1) - s * t3), A * ((A + 1) - s * t2 - t1),
            (A + 1) + s * t2 + t1, -s * 2 * ((A - 1) + s * t3), (A + 1) + s * t2 - t1)


def bass_biquad(waveform, sample_rate: int, gain: float, central_freq: float = 100, Q: float = 0.707):
    """Low shelf: `gain` dB at 0 Hz, turning over around central_freq."""
    coeffs = _shelf(sample_rate, gain, central_freq, lambda w0, A: math.sin(w0) / 2 / Q, low=True)
    return biquad(waveform, *coeffs)


def treble_biquad(waveform, sample_rate: int, gain: float, central_freq: float = 3000, Q: float = 0.707):
    """High shelf: `gain` dB towards Nyquist, turning over around central_freq."""
    coeffs = _shelf(sample_rate, gain, central_freq, lambda w0, A: math.sin(w0) / 2 / Q, low=False)
    return biquad(waveform, *coeffs)


def deemph_biquad(waveform, sample_rate: int):
    """Compact Disc (IEC 60908) de-emphasis: a high shelf at 44.1 or 48 kHz."""
    designs = {44100: (5283, 0.4845, -9.477), 48000: (5356, 0.479, -9.62)}
    if sample_rate not in designs:
        raise ValueError(f"deemph_biquad(): sample_rate must be 44100 (audio CD) or 48000 (DAT), got {sample_rate}")
    central_freq, slope, gain = designs[sample_rate]

    def alpha_of(w0, A):
        return math.sin(w0) / 2 * math.sqrt((A + 1 / A) * (1 / slope - 1) + 2)

    return biquad(waveform, *_shelf(sample_rate, gain, central_freq, alpha_of, low=False))


def equalizer_biquad(waveform, sample_rate: int, center_freq: float, gain: float, Q: float = 0.707):
    """Peaking EQ: `gain` dB at center_freq, bandwidth given by Q."""
    w0, alpha = _omega_alpha(sample_rate, center_freq, Q)
    A = math.exp(gain / 40.0 * math.log(10))
    c = math.cos(w0)
    return biquad(waveform, 1 + alpha * A, -2 * c, 1 - alpha * A, 1 + alpha / A, -2 * c, 1 - alpha / A)


def highpass_biquad(waveform, sample_rate: int, cutoff_freq: float, Q: float = 0.707):
    w0, alpha = _omega_alpha(sample_rate, cutoff_freq, Q)
    c = math.cos(w0)
    return biquad(waveform, (1 + c) / 2, -1 - c, (1 + c) / 2, 1 + alpha, -2 * c, 1 - alpha)


def lowpass_biquad(waveform, sample_rate: int, cutoff_freq: float, Q: float = 0.707):
    w0, alpha = _omega_alpha(sample_rate, cutoff_freq, Q)
    c = math.cos(w0)
    return biquad(waveform, (1 - c) / 2, 1 - c, (1 - c) / 2, 1 + alpha, -2 * c, 1 - alpha)


# RIAA playback equalisation: the zeros and poles sox tabulates per sample rate.
_RIAA = {
    44100: ((-0.2014898, 0.9233820), (0.7083149, 0.9924091)),
    48000: ((-0.1766069, 0.9321590), (0.7396325, 0.9931330)),
    88200: ((-0.1168735, 0.9648312), (0.8590646, 0.9964002)),
    96000: ((-0.1141486, 0.9676817), (0.8699137, 0.9966946)),
}


def riaa_biquad(waveform, sample_rate: int):
    """RIAA vinyl playback equalisation, normalised to 0 dB at 1 kHz."""
    if sample_rate not in _RIAA:
        raise ValueError(f"riaa_biquad(): sample_rate must be 44100, 48000, 88200 or 96000, got {sample_rate}")
    (z0, z1), (p0, p1) = _RIAA[sample_rate]
    b = [1.0, -(z0 + z1), z0 * z1]
    a = [1.0, -(p0 + p1), p0 * p1]
    w = 2 * math.pi * 1000 / sample_rate  # the response at 1 kHz, e^{-jw} powers
    num = complex(sum(bk * math.cos(-k * w) for k, bk in enumerate(b)), sum(bk * math.sin(-k * w) for k, bk in enumerate(b)))
    den = complex(sum(ak * math.cos(-k * w) for k, ak in enumerate(a)), sum(ak * math.sin(-k * w) for k, ak in enumerate(a)))
    g = abs(den) / abs(num)
    return biquad(waveform, b[0] * g, b[1] * g, b[2] * g, *a)


def contrast(waveform, enhancement_amount: float = 75.0):
    """sox's contrast: sin(x*pi/2 + amount/750 * sin(x*2*pi)), a loudness-raising distortion."""
    _check_waveform("contrast", waveform)
    if not 0 <= enhancement_amount <= 100:
        raise ValueError(f"contrast(): enhancement_amount must be in [0, 100], got {enhancement_amount}")
    phase = waveform * (math.pi / 2)
    return (phase + (phase * 4).sin() * (enhancement_amount / 750.0)).sin()


def dcshift(waveform, shift: float, limiter_gain: Optional[float] = None):
    """Adds `shift` (in [-2, 2]); with limiter_gain, samples beyond 1 - (|shift| - limiter_gain)
    are compressed towards the limit instead of clipped."""
    _check_waveform("dcshift", waveform)
    if not -2 <= shift <= 2:
        raise ValueError(f"dcshift(): shift must be in [-2, 2], got {shift}")
    if limiter_gain is None or shift == 0:
        return (waveform + shift).clamp(-1.0, 1.0)
    threshold = 1.0 - (abs(shift) - limiter_gain)
    sign = 1.0 if shift > 0 else -1.0
    over = waveform * sign > threshold  # peaks on the side the shift pushes towards
    squeezed = ((waveform * sign - threshold) * limiter_gain / (1 - threshold) + threshold + abs(shift))
    squeezed = squeezed.clamp(max=threshold) * sign
    return core.where(over, squeezed, (waveform + shift).clamp(-1.0, 1.0))


def gain(waveform, gain_db: float = 1.0):
    """Multiplies by 10**(gain_db/20) (no clipping)."""
    _check_waveform("gain", waveform)
    return waveform if gain_db == 0 else waveform * (10 ** (gain_db / 20))


def _rows(waveform):
    return waveform.reshape(-1, waveform.shape[-1])


def overdrive(waveform, gain: float = 20, colour: float = 20):
    """sox's overdrive: soft clipping at `gain` dB with `colour` (0-100) of even harmonics."""
    _check_waveform("overdrive", waveform)
    out = _kernels.overdrive(_rows(waveform), _dB2Linear(gain), colour / 200)
    return out.reshape(waveform.shape)


def phaser(waveform, sample_rate: int, gain_in: float = 0.4, gain_out: float = 0.74, delay_ms: float = 3.0,
           decay: float = 0.4, mod_speed: float = 0.5, sinusoidal: bool = True):
    """sox's phaser: a feedback delay swept by a sine (or triangle) oscillator."""
    _check_waveform("phaser", waveform)
    out = _kernels.phaser(_rows(waveform), sample_rate, gain_in, gain_out, delay_ms, decay, mod_speed, sinusoidal)
    return out.reshape(waveform.shape)


def flanger(waveform, sample_rate: int, delay: float = 0.0, depth: float = 2.0, regen: float = 0.0,
            width: float = 71.0, speed: float = 0.5, phase: float = 25.0, modulation: str = "sinusoidal",
            interpolation: str = "linear"):
    """sox's flanger on (..., channel, time), at most 4 channels: a swept delay (delay..delay+depth
    ms) with `regen` % feedback, mixed in at `width` %, channels `phase` % apart."""
    _check_waveform("flanger", waveform)
    if modulation not in ("sinusoidal", "triangular"):
        raise ValueError(f'flanger(): modulation must be "sinusoidal" or "triangular", got {modulation!r}')
    if interpolation not in ("linear", "quadratic"):
        raise ValueError(f'flanger(): interpolation must be "linear" or "quadratic", got {interpolation!r}')
    if waveform.dim() < 2 or waveform.shape[-2] > 4:
        raise ValueError(f"flanger(): expected (..., channel, time) with at most 4 channels, got {tuple(waveform.shape)}")
    rows = waveform.reshape(-1, waveform.shape[-2], waveform.shape[-1])
    out = [_kernels.flanger(item, sample_rate, delay, depth, regen, width, speed, modulation == "sinusoidal",
                            phase, interpolation == "quadratic") for item in rows.unbind(0)]
    return core.stack(out).reshape(waveform.shape)


def _dither_noise(rows, density_function):
    """torchaudio's dither noise, in units of 16-bit steps, for (rows, time) (broadcastable)."""
    channels, length = rows.shape
    # torchaudio draws a random sample position whatever the density
    pick_channel = int(core.randint(channels - 1, (1,)).item()) if channels > 1 else 0
    pick_time = int(core.randint(length - 1, (1,)).item()) if length > 1 else 0
    if density_function == "RPDF":
        return rows[pick_channel, pick_time] - 0.5
    if density_function == "GPDF":  # a sum of 7 samples of the signal itself
        total = rows[pick_channel, pick_time].clone()
        for _ in range(6):
            c = int(core.randint(channels - 1, (1,)).item()) if channels > 1 else 0
            total = total + rows[c, int(core.randint(length - 1, (1,)).item()) if length > 1 else 0]
        return total
    # TPDF: a (periodic) Bartlett window over the signal's length
    n = core.arange(length, dtype=rows.dtype)
    return 1 - (n * (2.0 / length) - 1).abs()


def dither(waveform, density_function: str = "TPDF", noise_shaping: bool = False):
    """torchaudio's dither: quantise to 16 bits after adding noise shaped by density_function
    ("TPDF", "RPDF" or "GPDF"); noise_shaping feeds each sample's quantisation error into
    the next."""
    _check_waveform("dither", waveform)
    if density_function not in ("TPDF", "RPDF", "GPDF"):
        raise ValueError(f'dither(): density_function must be "TPDF", "RPDF" or "GPDF", got {density_function!r}')
    rows = _rows(waveform)
    scaled = rows * (2 ** 15 - 2) + _dither_noise(rows, density_function)
    dithered = scaled.round() / 2 ** 15
    if noise_shaping:
        error = dithered - rows
        dithered = dithered + core.nn.functional.pad(error[:, :-1], (1, 0))
    return dithered.reshape(waveform.shape)


def vad(waveform, sample_rate: int, trigger_level: float = 7.0, trigger_time: float = 0.25,
        search_time: float = 1.0, allowed_gap: float = 0.25, pre_trigger_time: float = 0.0,
        boot_time: float = 0.35, noise_up_time: float = 0.1, noise_down_time: float = 0.01,
        noise_reduction_amount: float = 1.35, measure_freq: float = 20.0, measure_duration: Optional[float] = None,
        measure_smooth_time: float = 0.4, hp_filter_freq: float = 50.0, lp_filter_freq: float = 6000.0,
        hp_lifter_freq: float = 150.0, lp_lifter_freq: float = 2000.0):
    """Voice activity detection (sox's vad): the audio from just before the first voice on,
    (time,) or (channel, time) with the earliest activity of any channel deciding."""
    _check_waveform("vad", waveform)
    if waveform.dim() > 2:
        raise ValueError(f"vad(): expected (time,) or (channel, time), got {tuple(waveform.shape)}")
    rows = waveform.reshape(-1, waveform.shape[-1])
    out = _kernels.vad(rows, float(sample_rate), trigger_level, trigger_time, search_time, allowed_gap,
                       pre_trigger_time, boot_time, noise_up_time, noise_down_time, noise_reduction_amount,
                       measure_freq, measure_duration or 0.0, measure_smooth_time, hp_filter_freq, lp_filter_freq,
                       hp_lifter_freq, lp_lifter_freq)
    return out.reshape(tuple(waveform.shape[:-1]) + (out.shape[-1],))
