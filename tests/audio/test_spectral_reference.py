"""audio's spectral functions and transforms against numpy reimplementations written here
from the definitions (no torchaudio needed; tests/parity compares with torchaudio itself).

Inputs are float32 (what the transforms see in practice); references run in float64 on the
same float32 values. Tolerances are relative to the largest magnitude of the expected output
(`_close`): 2e-5 for spectra and filterbanks (the float32 FFT's error is about 3e-7 of the
largest bin, squared powers double it), 1e-4 where a log or a phase accumulates it (dB, MFCC,
phase vocoder), and stated per test otherwise.
"""
import math

import numpy as np
import pytest

import core
import audio.functional as AF
import audio.transforms as T
from audio.compliance import kaldi

SR = 16000


def _close(ours, expected, tol, what=""):
    ours = ours.numpy() if isinstance(ours, core.Tensor) else np.asarray(ours)
    expected = np.asarray(expected)
    assert ours.shape == expected.shape, f"{what}: shape {ours.shape} != {expected.shape}"
    scale = max(float(np.abs(expected).max()), 1e-30) if expected.size else 1.0
    err = float(np.abs(ours.astype(np.complex128) - expected).max()) / scale if expected.size else 0.0
    assert err < tol, f"{what}: relative error {err:.3g} >= {tol}"


def _speech(rng, n, channels=None):
    """Harmonics of a gliding 120-180 Hz voice, a formant-like band and some noise."""
    t = np.arange(n) / SR
    f0 = 120 + 60 * t / max(t[-1], 1e-9)
    phase = 2 * np.pi * np.cumsum(f0) / SR
    x = sum(np.sin(k * phase) / k for k in range(1, 12)) * 0.2 + 0.01 * rng.standard_normal(n)
    if channels:
        x = np.stack([x * (0.5 + c) + 0.01 * rng.standard_normal(n) for c in range(channels)])
    return x.astype(np.float32)


# ---------------------------------------------------------------- numpy references

def _hann(n, periodic=True):
    if n == 1:
        return np.ones(1)
    return 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(n) / (n if periodic else n - 1))


def _stft(x, n_fft, hop, window, center=True, pad_mode="reflect", onesided=True):
    """(..., freq, frames) of x (..., time) with `window` centred in n_fft points."""
    x = np.asarray(x, np.float64)
    w = np.zeros(n_fft)
    left = (n_fft - len(window)) // 2
    w[left:left + len(window)] = window
    if center:
        pad = [(0, 0)] * (x.ndim - 1) + [(n_fft // 2, n_fft // 2)]
        x = np.pad(x, pad, mode=pad_mode)
    frames = 1 + (x.shape[-1] - n_fft) // hop
    idx = hop * np.arange(frames)[:, None] + np.arange(n_fft)
    spec = (np.fft.rfft if onesided else np.fft.fft)(x[..., idx] * w)
    return np.swapaxes(spec, -1, -2)


def _hz_to_mel(f, scale):
    f = np.asarray(f, np.float64)
    if scale == "htk":
        return 2595.0 * np.log10(1.0 + f / 700.0)
    return np.where(f >= 1000.0, 15.0 + np.log(np.maximum(f, 1e-9) / 1000.0) * 27.0 / np.log(6.4), 3.0 * f / 200.0)


def _mel_to_hz(m, scale):
    if scale == "htk":
        return 700.0 * (10.0 ** (m / 2595.0) - 1.0)
    return np.where(m >= 15.0, 1000.0 * np.exp((m - 15.0) * np.log(6.4) / 27.0), 200.0 * m / 3.0)


def _mel_filters(n_freqs, f_min, f_max, n_mels, sample_rate, norm=None, scale="htk"):
    """(n_freqs, n_mels): triangles between neighbouring points equally spaced in mel,
    evaluated at the bin frequencies; slaney norm divides each by its width in Hz / 2."""
    freqs = np.linspace(0, sample_rate // 2, n_freqs)
    points = _mel_to_hz(np.linspace(_hz_to_mel(f_min, scale), _hz_to_mel(f_max, scale), n_mels + 2), scale)
    fb = np.zeros((n_freqs, n_mels))
    for m in range(n_mels):
        lo, mid, hi = points[m:m + 3]
        rising = (freqs - lo) / (mid - lo)
        falling = (hi - freqs) / (hi - mid)
        fb[:, m] = np.clip(np.minimum(rising, falling), 0, None)
        if norm == "slaney":
            fb[:, m] *= 2.0 / (hi - lo)
    return fb


def _dct_ortho(n_mfcc, n_mels):
    """(n_mels, n_mfcc): the orthonormal DCT-II."""
    n, k = np.arange(n_mels), np.arange(n_mfcc)[:, None]
    dct = np.cos(np.pi / n_mels * (n + 0.5) * k) * np.sqrt(2.0 / n_mels)
    dct[0] /= np.sqrt(2.0)
    return dct.T


def _to_db(x, multiplier, amin=1e-10, ref=1.0, top_db=None):
    """dB of x, floored at max - top_db with the max per item of (..., channel, freq, time)
    (over everything for fewer than three dims)."""
    db = multiplier * np.log10(np.maximum(x, amin)) - multiplier * np.log10(max(amin, ref))
    if top_db is None:
        return db
    items = db.reshape((-1,) + db.shape[-3:]) if db.ndim >= 3 else db.reshape(1, -1)
    floor = items.max(axis=tuple(range(1, items.ndim)), keepdims=True) - top_db
    return np.maximum(items, floor).reshape(db.shape)


# ---------------------------------------------------------------- spectrograms

@pytest.mark.parametrize("kwargs", [
    dict(),
    dict(n_fft=256, hop_length=64, power=1.0),
    dict(n_fft=400, win_length=300, hop_length=100, power=None, normalized=True),
    dict(n_fft=128, pad=7, power=2.0, normalized=True, center=False),
    dict(n_fft=200, power=0.5, pad_mode="constant", onesided=True),
    dict(n_fft=100, power=2.0, window_fn=core.hamming_window),
])
def test_spectrogram(kwargs, rng):
    x = _speech(rng, 4000, channels=2)
    ours = T.Spectrogram(**kwargs)(core.tensor(x))
    n_fft = kwargs.get("n_fft", 400)
    win_length = kwargs.get("win_length", n_fft)
    hop = kwargs.get("hop_length", win_length // 2)
    power = kwargs.get("power", 2.0)
    window = _hann(win_length) if "window_fn" not in kwargs else 0.54 - 0.46 * np.cos(2 * np.pi * np.arange(win_length) / win_length)
    padded = np.pad(x, [(0, 0), (kwargs.get("pad", 0),) * 2]).astype(np.float64)
    spec = _stft(padded, n_fft, hop, window, kwargs.get("center", True), kwargs.get("pad_mode", "reflect"))
    if kwargs.get("normalized"):
        spec = spec / np.sqrt((window ** 2).sum())
    if power is None:
        _close(ours, np.stack([spec.real, spec.imag], -1), 2e-5, "complex")
    else:
        _close(ours, np.abs(spec) ** power, 2e-5, f"power {power}")


@pytest.mark.parametrize("scale,norm,f_min,f_max", [("htk", None, 0.0, None), ("htk", "slaney", 50.0, 7000.0),
                                                    ("slaney", None, 0.0, None), ("slaney", "slaney", 300.0, 5000.0)])
def test_mel_filterbanks(scale, norm, f_min, f_max):
    f_max = SR / 2 if f_max is None else f_max
    fb = AF.melscale_fbanks(201, f_min, f_max, 40, SR, norm, scale)
    _close(fb, _mel_filters(201, f_min, f_max, 40, SR, norm, scale), 2e-6, "filterbank")
    if scale == "htk":  # torchaudio 0.8's name, HTK only
        _close(AF.create_fb_matrix(201, f_min, f_max, 40, SR, norm), fb.numpy(), 1e-7, "create_fb_matrix")


def test_mel_spectrogram_and_scale(rng):
    x = _speech(rng, 6000)
    ours = T.MelSpectrogram(sample_rate=SR, n_fft=512, hop_length=160, n_mels=64, f_min=20.0, norm="slaney")(core.tensor(x))
    power = np.abs(_stft(x, 512, 160, _hann(512))) ** 2
    expected = _mel_filters(257, 20.0, SR / 2, 64, SR, "slaney").T @ power
    _close(ours, expected, 2e-5, "MelSpectrogram")
    lazy = T.MelScale(n_mels=64, sample_rate=SR, f_min=20.0, norm="slaney")  # filters built from the input
    _close(lazy(core.tensor(power.astype(np.float32))), expected, 2e-6, "MelScale")


@pytest.mark.parametrize("log_mels", [False, True])
def test_mfcc(log_mels, rng):
    x = _speech(rng, 8000, channels=2)
    mfcc = T.MFCC(sample_rate=SR, n_mfcc=20, log_mels=log_mels, melkwargs=dict(n_fft=400, hop_length=200, n_mels=48))
    mel = np.einsum("fm,cft->cmt", _mel_filters(201, 0.0, SR / 2, 48, SR), np.abs(_stft(x, 400, 200, _hann(400))) ** 2)
    mel = np.log(mel + 1e-6) if log_mels else _to_db(mel[None], 10.0, top_db=80.0)[0]
    expected = np.einsum("cmt,mk->ckt", mel, _dct_ortho(20, 48))
    _close(mfcc(core.tensor(x)), expected, 1e-4, "MFCC")


@pytest.mark.parametrize("stype,top_db", [("power", None), ("power", 80.0), ("magnitude", 40.0)])
def test_amplitude_to_db(stype, top_db, rng):
    x = (rng.random((2, 3, 16, 20)) ** 6 * 100).astype(np.float32)  # a wide range of levels
    x[0, 1, 2, 3] = 0.0
    ours = T.AmplitudeToDB(stype, top_db)(core.tensor(x))
    _close(ours, _to_db(x.astype(np.float64), 10.0 if stype == "power" else 20.0, top_db=top_db), 1e-5, "dB")
    back = AF.DB_to_amplitude(ours, 1.0, 1.0 if stype == "power" else 0.5)
    floor = ours.numpy().max(axis=(1, 2, 3), keepdims=True) - (top_db or 1e9)
    keep = (ours.numpy() > floor + 1e-3) & (x > 1e-9)  # neither clamped at top_db nor at amin
    np.testing.assert_allclose(back.numpy()[keep], x[keep], rtol=2e-5)


def test_spectral_centroid(rng):
    x = _speech(rng, 5000, channels=2)
    ours = T.SpectralCentroid(SR, n_fft=512, hop_length=128)(core.tensor(x))
    magnitude = np.abs(_stft(x, 512, 128, _hann(512)))
    freqs = np.linspace(0, SR // 2, 257)[:, None]
    _close(ours, (freqs * magnitude).sum(-2) / magnitude.sum(-2), 1e-5, "centroid")


# ---------------------------------------------------------------- phase

def _phase_vocoder(spec, rate, phase_advance):
    """Frames at t = 0, rate, 2 rate, ...: magnitudes interpolated between frames floor(t)
    and floor(t) + 1 (zeros past the end), phase accumulated from frame 0's by the
    neighbouring frames' phase difference, unwrapped around the expected advance."""
    steps = np.arange(0, spec.shape[-1], rate)
    padded = np.concatenate([spec, np.zeros(spec.shape[:-1] + (2,))], -1)
    s0, s1 = padded[..., steps.astype(int)], padded[..., steps.astype(int) + 1]
    alpha = steps % 1.0
    delta = np.angle(s1) - np.angle(s0) - phase_advance
    delta = delta - 2 * np.pi * np.round(delta / (2 * np.pi)) + phase_advance
    phase = np.concatenate([np.angle(spec[..., :1]), delta[..., :-1]], -1).cumsum(-1)
    return (alpha * np.abs(s1) + (1 - alpha) * np.abs(s0)) * np.exp(1j * phase)


@pytest.mark.parametrize("rate", [1.3, 0.8])
def test_time_stretch_and_phase_vocoder(rate, rng):
    x = _speech(rng, 4000, channels=2)
    spec = _stft(x, 256, 64, _hann(256))                          # (2, 129, frames)
    advance = np.linspace(0, np.pi * 64, 129)[:, None]
    expected = _phase_vocoder(spec, rate, advance)
    z = core.tensor(spec.astype(np.complex64))
    stretch = T.TimeStretch(hop_length=64, n_freq=129, fixed_rate=rate)
    _close(stretch(core.view_as_real(z)), np.stack([expected.real, expected.imag], -1), 1e-4, "real view")
    _close(AF.phase_vocoder(z, rate, core.tensor(advance.astype(np.float32))), expected, 1e-4, "complex")
    assert stretch(core.view_as_real(z), 1.0).shape == core.view_as_real(z).shape


def test_griffinlim_converges(rng):
    """Spectral convergence ||S - |STFT(y)|^2|| / ||S|| of the reconstruction falls with the
    iterations (deterministic start: zero phases), faster with momentum (fast Griffin-Lim)."""
    x = _speech(rng, 8000)
    n_fft, hop = 512, 128
    target = np.abs(_stft(x, n_fft, hop, _hann(n_fft))) ** 2

    def error(n_iter, momentum=0.99):
        y = T.GriffinLim(n_fft=n_fft, hop_length=hop, n_iter=n_iter, rand_init=False, length=len(x),
                         momentum=momentum)(core.tensor(target.astype(np.float32))).numpy()
        assert y.shape == x.shape
        return np.linalg.norm(np.abs(_stft(y, n_fft, hop, _hann(n_fft))) ** 2 - target) / np.linalg.norm(target)

    errors = [error(n) for n in (1, 8, 32)]
    assert errors[2] < errors[1] < errors[0] and errors[2] < 0.16, errors  # 0.69, 0.30, 0.13 seen
    assert error(32, momentum=0.0) > 1.5 * errors[2]


# ---------------------------------------------------------------- resampling

def _resample(x, orig, new, width=6, rolloff=0.99, beta=None):
    """Output sample n at time n / new: sum over input k of x[k] h(n / new - k / orig), with
    h the sinc cut off at rolloff * min(orig, new) / 2, windowed (Hann, or Kaiser with beta)
    over `width` of its zero crossings on each side."""
    cutoff = rolloff * min(orig, new)
    n_out = int(math.ceil(len(x) * new / orig))
    t = (np.arange(n_out)[:, None] / new - np.arange(len(x))[None, :] / orig) * cutoff
    inside = np.abs(t) < width
    if beta is None:
        window = np.cos(np.pi * np.clip(t, -width, width) / (2 * width)) ** 2
    else:
        window = np.i0(beta * np.sqrt(np.clip(1 - (t / width) ** 2, 0, None))) / np.i0(beta)
    h = np.where(inside, np.sinc(t) * window, 0.0) * cutoff / orig
    return h @ x.astype(np.float64)


@pytest.mark.parametrize("orig,new,method", [(16000, 8000, "sinc_interpolation"), (8000, 16000, "sinc_interpolation"),
                                             (44100, 16000, "sinc_interpolation"), (16000, 12000, "kaiser_window")])
def test_resample(orig, new, method, rng):
    x = _speech(rng, 1500)
    beta = 14.769656459379492 if method == "kaiser_window" else None
    ours = AF.resample(core.tensor(x), orig, new, resampling_method=method)
    _close(ours, _resample(x, orig, new, beta=beta), 2e-5, "resample")
    if method == "sinc_interpolation":  # the transform's only method in torchaudio 0.8
        _close(T.Resample(orig, new, method)(core.tensor(x[None])), ours.numpy()[None], 1e-6, "Resample")


@pytest.mark.parametrize("orig,new,width,beta", [(48000, 44100, 6, None), (22050, 8000, 6, 14.769656459379492),
                                                  (16000, 44100, 2, None), (44100, 16000, 16, None)])
def test_resample_in_blocks_of_phases_float64(orig, new, width, beta, rng):
    # Many phases (new / gcd > 16) go through several products, each over the taps its block of
    # filters reaches: the blocks' edges must lose nothing the full filters hold.
    x = rng.standard_normal(2300)
    method = "sinc_interpolation" if beta is None else "kaiser_window"
    ours = AF.resample(core.tensor(x), orig, new, lowpass_filter_width=width, resampling_method=method)
    np.testing.assert_allclose(ours.numpy(), _resample(x, orig, new, width=width, beta=beta), rtol=0, atol=1e-11)


def test_resample_keeps_a_band_limited_tone(rng):
    t = np.arange(16000) / 16000
    tone = np.sin(2 * np.pi * 440 * t).astype(np.float32)
    out = AF.resample(core.tensor(tone), 16000, 11025).numpy()
    expected = np.sin(2 * np.pi * 440 * np.arange(len(out)) / 11025)
    assert np.abs(out - expected)[200:-200].max() < 1e-3  # away from the zero-padded ends


# ---------------------------------------------------------------- features over time

@pytest.mark.parametrize("win_length", [3, 5, 9])
def test_compute_deltas(win_length, rng):
    x = rng.standard_normal((2, 4, 30)).astype(np.float32)
    n = (win_length - 1) // 2
    padded = np.pad(x.astype(np.float64), [(0, 0), (0, 0), (n, n)], mode="edge")
    expected = sum(k * (padded[..., n + k:n + k + 30] - padded[..., n - k:n - k + 30]) for k in range(1, n + 1))
    expected /= 2 * sum(k * k for k in range(1, n + 1))
    _close(T.ComputeDeltas(win_length)(core.tensor(x)), expected, 1e-6, "deltas")


def _cmn(x, cmn_window, min_cmn_window, center, norm_vars):
    """Kaldi's sliding CMN over the frames (second-last dim) of x, window by window."""
    frames = x.shape[-2]
    out = np.empty_like(x, dtype=np.float64)
    for t in range(frames):
        start, end = (t - cmn_window // 2, t - cmn_window // 2 + cmn_window) if center else (t - cmn_window, t + 1)
        if start < 0:  # shift the window right, keeping its length
            start, end = 0, end - start
        if not center and end > t:  # causal windows grow to at least min_cmn_window
            end = max(t + 1, min_cmn_window)
        if end > frames:  # shift left at the end
            start, end = max(start - (end - frames), 0), frames
        part = x[..., start:end, :].astype(np.float64)
        out[..., t, :] = x[..., t, :] - part.mean(-2)
        if norm_vars:
            out[..., t, :] = 0.0 if end - start == 1 else out[..., t, :] / np.sqrt(part.var(-2))
    return out


@pytest.mark.parametrize("cmn_window,min_cmn_window,center,norm_vars", [
    (600, 100, False, False), (10, 4, False, True), (10, 4, True, False), (7, 3, True, True), (50, 60, False, False),
])
def test_sliding_window_cmn(cmn_window, min_cmn_window, center, norm_vars, rng):
    x = rng.standard_normal((2, 40, 5)).astype(np.float32) + 3.0
    ours = T.SlidingWindowCmn(cmn_window, min_cmn_window, center, norm_vars)(core.tensor(x))
    _close(ours, _cmn(x, cmn_window, min_cmn_window, center, norm_vars), 5e-5, "cmn")


# ---------------------------------------------------------------- Kaldi features

def _kaldi_fbank(x, *, frame_length=25.0, frame_shift=10.0, snip_edges=True, preemph=0.97, window="povey",
                 num_mel_bins=23, low_freq=20.0, high_freq=0.0, use_energy=False, raw_energy=True,
                 round_to_power_of_two=True, energy_floor=1.0, num_ceps=None, cepstral_lifter=22.0):
    """Kaldi's fbank (and mfcc with num_ceps) of a 1-d signal, step by step."""
    x = x.astype(np.float64)
    size, shift = int(SR * frame_length / 1000), int(SR * frame_shift / 1000)
    if snip_edges:
        starts = shift * np.arange(1 + (len(x) - size) // shift)
        frames = x[starts[:, None] + np.arange(size)]
    else:  # frames centred on multiples of the shift, the signal mirrored at both ends
        count = (len(x) + shift // 2) // shift
        first = shift // 2 - size // 2
        idx = first + shift * np.arange(count)[:, None] + np.arange(size)
        idx = np.where(idx < 0, -idx - 1, idx)
        idx = np.where(idx >= len(x), 2 * len(x) - 1 - idx, idx)
        frames = x[idx]
    eps = np.finfo(np.float32).eps
    frames = frames - frames.mean(1, keepdims=True)
    energy_of = lambda f: np.maximum(np.log(np.maximum((f ** 2).sum(1), eps)), math.log(energy_floor) if energy_floor else -np.inf)  # noqa: E731
    energy = energy_of(frames)
    frames = frames - preemph * np.concatenate([frames[:, :1], frames[:, :-1]], 1)
    hann = 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(size) / (size - 1))
    frames = frames * {"povey": hann ** 0.85, "hanning": hann, "rectangular": np.ones(size),
                       "hamming": 0.54 - 0.46 * np.cos(2 * np.pi * np.arange(size) / (size - 1))}[window]
    padded = 1 << (size - 1).bit_length() if round_to_power_of_two else size
    frames = np.pad(frames, [(0, 0), (0, padded - size)])
    if not raw_energy:
        energy = energy_of(frames)
    power = np.abs(np.fft.rfft(frames)) ** 2
    mel = lambda f: 1127.0 * np.log(1.0 + f / 700.0)  # noqa: E731
    high = high_freq if high_freq > 0 else SR / 2 + high_freq
    edges = np.linspace(mel(low_freq), mel(high), num_mel_bins + 2)
    bin_mel = mel(np.arange(padded // 2) * SR / padded)  # the Nyquist bin gets no weight
    banks = np.zeros((num_mel_bins, padded // 2 + 1))
    for m in range(num_mel_bins):
        left, centre, right = edges[m:m + 3]
        banks[m, :-1] = np.clip(np.minimum((bin_mel - left) / (centre - left), (right - bin_mel) / (right - centre)), 0, None)
    feats = np.log(np.maximum(power @ banks.T, eps))
    if num_ceps is not None:
        feats = feats @ _dct_ortho(num_mel_bins, num_mel_bins)[:, :num_ceps]
        if cepstral_lifter:
            feats *= 1.0 + 0.5 * cepstral_lifter * np.sin(np.pi * np.arange(num_ceps) / cepstral_lifter)
        if use_energy:
            feats[:, 0] = energy
        return feats
    return np.concatenate([energy[:, None], feats], 1) if use_energy else feats


@pytest.mark.parametrize("kwargs", [
    dict(),
    dict(snip_edges=False, num_mel_bins=40, low_freq=60.0, high_freq=-400.0),
    dict(use_energy=True, raw_energy=False, window="hamming", preemph=0.0),
    dict(frame_length=20.0, frame_shift=5.0, round_to_power_of_two=False, window="rectangular", energy_floor=0.0),
])
def test_kaldi_fbank(kwargs, rng):
    x = _speech(rng, 5000)
    names = dict(preemph="preemphasis_coefficient", window="window_type")
    ours = kaldi.fbank(core.tensor(x[None]), **{names.get(k, k): v for k, v in kwargs.items()})
    _close(ours, _kaldi_fbank(x, **kwargs), 2e-5, "fbank")


@pytest.mark.parametrize("kwargs", [dict(), dict(use_energy=True, num_ceps=20, num_mel_bins=30, cepstral_lifter=0.0),
                                    dict(snip_edges=False, cepstral_lifter=10.0, window="hanning")])
def test_kaldi_mfcc(kwargs, rng):
    x = _speech(rng, 5000)
    kwargs = {"num_ceps": 13, **kwargs}
    names = dict(window="window_type")
    ours = kaldi.mfcc(core.tensor(x[None]), **{names.get(k, k): v for k, v in kwargs.items()})
    _close(ours, _kaldi_fbank(x, **kwargs), 1e-4, "mfcc")
