"""audio.transforms (torchaudio.transforms 0.8): nn.Modules over audio.functional.
Windows are buffers (they follow .to() and land in the state_dict, as in torchaudio)."""
import math
from typing import Callable, Optional

import core
from core import nn

from audio import functional  # for vad, which lives with the filters (audio/functional/filtering.py)
from audio.functional import codec
from audio.functional import functional as AF
from audio.compliance import kaldi

__all__ = ["Spectrogram", "GriffinLim", "AmplitudeToDB", "MelScale", "InverseMelScale", "MelSpectrogram",
           "MFCC", "MuLawEncoding", "MuLawDecoding", "Resample", "ComplexNorm", "TimeStretch", "Fade",
           "FrequencyMasking", "TimeMasking", "SlidingWindowCmn", "Vad", "SpectralCentroid", "ComputeDeltas", "Vol"]


def _window(window_fn, length, wkwargs):
    return window_fn(length) if wkwargs is None else window_fn(length, **wkwargs)


class Spectrogram(nn.Module):
    """(..., time) -> (..., n_fft // 2 + 1, frames): |STFT|^power (power None: complex as (..., 2))."""

    def __init__(self, n_fft: int = 400, win_length: Optional[int] = None, hop_length: Optional[int] = None,
                 pad: int = 0, window_fn: Callable = core.hann_window, power: Optional[float] = 2.0,
                 normalized: bool = False, wkwargs: Optional[dict] = None, center: bool = True,
                 pad_mode: str = "reflect", onesided: bool = True):
        super().__init__()
        self.n_fft = n_fft
        self.win_length = win_length if win_length is not None else n_fft
        self.hop_length = hop_length if hop_length is not None else self.win_length // 2
        self.register_buffer("window", _window(window_fn, self.win_length, wkwargs))
        self.pad, self.power, self.normalized = pad, power, normalized
        self.center, self.pad_mode, self.onesided = center, pad_mode, onesided

    def forward(self, waveform):
        return AF.spectrogram(waveform, self.pad, self.window, self.n_fft, self.hop_length, self.win_length,
                              self.power, self.normalized, self.center, self.pad_mode, self.onesided)


class GriffinLim(nn.Module):
    """A waveform from a magnitude spectrogram by fast Griffin-Lim."""

    def __init__(self, n_fft: int = 400, n_iter: int = 32, win_length: Optional[int] = None,
                 hop_length: Optional[int] = None, window_fn: Callable = core.hann_window, power: float = 2.0,
                 normalized: bool = False, wkwargs: Optional[dict] = None, momentum: float = 0.99,
                 length: Optional[int] = None, rand_init: bool = True):
        super().__init__()
        if not 0 <= momentum < 1:
            raise ValueError(f"momentum={momentum} < 1 can be unstable; momentum must be in [0, 1)")
        self.n_fft, self.n_iter = n_fft, n_iter
        self.win_length = win_length if win_length is not None else n_fft
        self.hop_length = hop_length if hop_length is not None else self.win_length // 2
        self.register_buffer("window", _window(window_fn, self.win_length, wkwargs))
        self.normalized, self.length, self.power = normalized, length, power
        self.momentum, self.rand_init = momentum, rand_init

    def forward(self, specgram):
        return AF.griffinlim(specgram, self.window, self.n_fft, self.hop_length, self.win_length, self.power,
                             self.normalized, self.n_iter, self.momentum, self.length, self.rand_init)


class AmplitudeToDB(nn.Module):
    """Power (stype 'power', x10) or magnitude ('magnitude', x20) to decibels, floored at
    max - top_db."""

    def __init__(self, stype: str = "power", top_db: Optional[float] = None):
        super().__init__()
        if top_db is not None and top_db < 0:
            raise ValueError("top_db must be positive value")
        self.stype, self.top_db = stype, top_db
        self.multiplier = 10.0 if stype == "power" else 20.0
        self.amin, self.ref_value = 1e-10, 1.0
        self.db_multiplier = math.log10(max(self.amin, self.ref_value))

    def forward(self, x):
        return AF.amplitude_to_DB(x, self.multiplier, self.amin, self.db_multiplier, self.top_db)


class MelScale(nn.Module):
    """(..., n_stft, time) -> (..., n_mels, time) through triangular mel filters (built from
    the first input when n_stft is None)."""

    def __init__(self, n_mels: int = 128, sample_rate: int = 16000, f_min: float = 0.0,
                 f_max: Optional[float] = None, n_stft: Optional[int] = None, norm: Optional[str] = None,
                 mel_scale: str = "htk"):
        super().__init__()
        self.n_mels, self.sample_rate, self.f_min = n_mels, sample_rate, f_min
        self.f_max = f_max if f_max is not None else float(sample_rate // 2)
        self.norm, self.mel_scale = norm, mel_scale
        if f_min > self.f_max:
            raise ValueError(f"Require f_min: {f_min} < f_max: {self.f_max}")
        fb = core.empty([0]) if n_stft is None else self._filters(n_stft)
        self.register_buffer("fb", fb)

    def _filters(self, n_stft):
        return AF.create_fb_matrix(n_stft, self.f_min, self.f_max, self.n_mels, self.sample_rate, self.norm,
                                   self.mel_scale)

    def forward(self, specgram):
        flat = specgram.reshape(-1, specgram.shape[-2], specgram.shape[-1])
        if self.fb.numel() == 0:
            self.fb = self._filters(flat.shape[1]).to(flat.dtype)
        mel = core.matmul(flat.transpose(1, 2), self.fb.to(flat.dtype)).transpose(1, 2)
        return mel.reshape(list(specgram.shape[:-2]) + list(mel.shape[-2:]))


class InverseMelScale(nn.Module):
    """A linear spectrogram (..., n_stft, time) from a mel one, by SGD on ||fb^T x - mel||
    with x >= 0 (as torchaudio: lr 0.1, momentum 0.9 unless sgdargs)."""

    def __init__(self, n_stft: int, n_mels: int = 128, sample_rate: int = 16000, f_min: float = 0.0,
                 f_max: Optional[float] = None, max_iter: int = 100000, tolerance_loss: float = 1e-5,
                 tolerance_change: float = 1e-8, sgdargs: Optional[dict] = None, norm: Optional[str] = None,
                 mel_scale: str = "htk"):
        super().__init__()
        self.n_mels, self.sample_rate = n_mels, sample_rate
        self.f_max = f_max or float(sample_rate // 2)
        self.f_min, self.max_iter = f_min, max_iter
        self.tolerance_loss, self.tolerance_change = tolerance_loss, tolerance_change
        self.sgdargs = sgdargs or {"lr": 0.1, "momentum": 0.9}
        if f_min > self.f_max:
            raise ValueError(f"Require f_min: {f_min} < f_max: {self.f_max}")
        self.register_buffer("fb", AF.create_fb_matrix(n_stft, f_min, self.f_max, n_mels, sample_rate, norm, mel_scale))

    def forward(self, melspec):
        shape = list(melspec.shape)
        melspec = melspec.reshape(-1, shape[-2], shape[-1])
        n_mels, time = shape[-2], shape[-1]
        freq, _ = self.fb.shape
        if self.n_mels != n_mels:
            raise ValueError(f"InverseMelScale: expected {self.n_mels} mel bins, got {n_mels}")
        specgram = core.rand([melspec.shape[0], time, freq], dtype=melspec.dtype).requires_grad_(True)
        optim = core.optim.SGD([specgram], **self.sgdargs)
        mel_target = melspec.transpose(-1, -2)
        fb = self.fb.to(melspec.dtype)
        loss = float("inf")
        for _ in range(self.max_iter):
            optim.zero_grad()
            diff = mel_target - core.matmul(specgram, fb)
            new_loss = diff.pow(2).sum(dim=-1).mean()
            new_loss.backward()  # summed over mel bins, averaged over frames, as torchaudio
            optim.step()
            with core.no_grad():
                specgram.clamp_(min=0)
            new_loss = new_loss.item()
            if new_loss < self.tolerance_loss or abs(loss - new_loss) < self.tolerance_change:
                break
            loss = new_loss
        specgram = specgram.detach().clamp(min=0).transpose(-1, -2)
        return specgram.reshape(shape[:-2] + [freq, time])


class MelSpectrogram(nn.Module):
    """Spectrogram followed by MelScale: (..., time) -> (..., n_mels, frames)."""

    def __init__(self, sample_rate: int = 16000, n_fft: int = 400, win_length: Optional[int] = None,
                 hop_length: Optional[int] = None, f_min: float = 0.0, f_max: Optional[float] = None, pad: int = 0,
                 n_mels: int = 128, window_fn: Callable = core.hann_window, power: Optional[float] = 2.0,
                 normalized: bool = False, wkwargs: Optional[dict] = None, center: bool = True,
                 pad_mode: str = "reflect", onesided: bool = True, norm: Optional[str] = None,
                 mel_scale: str = "htk"):
        super().__init__()
        self.sample_rate, self.n_fft, self.n_mels = sample_rate, n_fft, n_mels
        self.win_length = win_length if win_length is not None else n_fft
        self.hop_length = hop_length if hop_length is not None else self.win_length // 2
        self.pad, self.power, self.normalized, self.f_min, self.f_max = pad, power, normalized, f_min, f_max
        self.spectrogram = Spectrogram(n_fft, self.win_length, self.hop_length, pad, window_fn, power, normalized,
                                       wkwargs, center, pad_mode, onesided)
        self.mel_scale = MelScale(n_mels, sample_rate, f_min, f_max, n_fft // 2 + 1, norm, mel_scale)

    def forward(self, waveform):
        return self.mel_scale(self.spectrogram(waveform))


class MFCC(nn.Module):
    """Mel-frequency cepstral coefficients: DCT-II of the dB (top_db 80) or log mel
    spectrogram, (..., time) -> (..., n_mfcc, frames)."""

    def __init__(self, sample_rate: int = 16000, n_mfcc: int = 40, dct_type: int = 2, norm: str = "ortho",
                 log_mels: bool = False, melkwargs: Optional[dict] = None):
        super().__init__()
        if dct_type != 2:
            raise ValueError(f"DCT type not supported: {dct_type}")
        self.sample_rate, self.n_mfcc, self.dct_type, self.norm = sample_rate, n_mfcc, dct_type, norm
        self.top_db = 80.0
        self.amplitude_to_DB = AmplitudeToDB("power", self.top_db)
        self.MelSpectrogram = MelSpectrogram(sample_rate=sample_rate, **(melkwargs or {}))
        if n_mfcc > self.MelSpectrogram.n_mels:
            raise ValueError("Cannot select more MFCC coefficients than # mel bins")
        self.register_buffer("dct_mat", AF.create_dct(n_mfcc, self.MelSpectrogram.n_mels, norm))
        self.log_mels = log_mels

    def forward(self, waveform):
        # (time, n_mels) is the mel spectrogram's memory order: the dB conversion runs along it
        # (its top_db max is over the last three dims, whichever way the last two are ordered).
        mel = self.MelSpectrogram(waveform).transpose(-1, -2)
        mel = core.log(mel + 1e-6) if self.log_mels else self.amplitude_to_DB(mel)
        return core.matmul(mel, self.dct_mat.to(mel.dtype)).transpose(-1, -2)


class MuLawEncoding(nn.Module):
    """[-1, 1] to mu-law codes 0..quantization_channels - 1 (int64)."""

    def __init__(self, quantization_channels: int = 256):
        super().__init__()
        self.quantization_channels = quantization_channels

    def forward(self, x):
        return codec.mu_law_encoding(x, self.quantization_channels)


class MuLawDecoding(nn.Module):
    """Mu-law codes back to [-1, 1]."""

    def __init__(self, quantization_channels: int = 256):
        super().__init__()
        self.quantization_channels = quantization_channels

    def forward(self, x_mu):
        return codec.mu_law_decoding(x_mu, self.quantization_channels)


class Resample(nn.Module):
    """Resampling from orig_freq to new_freq (windowed sinc, lowpass_filter_width 6)."""

    def __init__(self, orig_freq: int = 16000, new_freq: int = 16000, resampling_method: str = "sinc_interpolation"):
        super().__init__()
        if resampling_method != "sinc_interpolation":
            raise ValueError(f"Invalid resampling method: {resampling_method}")
        self.orig_freq, self.new_freq, self.resampling_method = orig_freq, new_freq, resampling_method

    def forward(self, waveform):
        flat = waveform.reshape(-1, waveform.shape[-1])
        out = kaldi.resample_waveform(flat, self.orig_freq, self.new_freq)
        return out.reshape(list(waveform.shape[:-1]) + [out.shape[-1]])


class ComplexNorm(nn.Module):
    """|z|^power of a real view (..., 2)."""

    def __init__(self, power: float = 1.0):
        super().__init__()
        self.power = power

    def forward(self, complex_tensor):
        return AF.complex_norm(complex_tensor, self.power)


class ComputeDeltas(nn.Module):
    """Delta coefficients along time (see functional.compute_deltas)."""

    def __init__(self, win_length: int = 5, mode: str = "replicate"):
        super().__init__()
        self.win_length, self.mode = win_length, mode

    def forward(self, specgram):
        return AF.compute_deltas(specgram, self.win_length, self.mode)


class TimeStretch(nn.Module):
    """Phase-vocoder time stretch of (..., freq, time, 2) by a fixed or per-call rate."""

    def __init__(self, hop_length: Optional[int] = None, n_freq: int = 201, fixed_rate: Optional[float] = None):
        super().__init__()
        self.fixed_rate = fixed_rate
        n_fft = (n_freq - 1) * 2
        hop_length = hop_length if hop_length is not None else n_fft // 2
        self.register_buffer("phase_advance", core.linspace(0, math.pi * hop_length, n_freq)[..., None])

    def forward(self, complex_specgrams, overriding_rate: Optional[float] = None):
        if overriding_rate is None:
            if self.fixed_rate is None:
                raise ValueError("If no fixed_rate is specified, must pass a valid rate to the forward method.")
            rate = self.fixed_rate
        else:
            rate = overriding_rate
        if rate == 1.0:
            return complex_specgrams
        return AF.phase_vocoder(complex_specgrams, rate, self.phase_advance.to(
            core.float64 if complex_specgrams.dtype in (core.float64, core.complex128) else core.float32))


class Fade(nn.Module):
    """Fades (..., time) in over fade_in_len and out over fade_out_len samples."""

    def __init__(self, fade_in_len: int = 0, fade_out_len: int = 0, fade_shape: str = "linear"):
        super().__init__()
        if fade_shape not in ("quarter_sine", "half_sine", "linear", "logarithmic", "exponential"):
            raise ValueError(f"Fade: unknown fade_shape {fade_shape!r}")
        self.fade_in_len, self.fade_out_len, self.fade_shape = fade_in_len, fade_out_len, fade_shape

    def forward(self, waveform):
        length = waveform.shape[-1]
        return self._fade_in(length).to(waveform.dtype) * self._fade_out(length).to(waveform.dtype) * waveform

    def _curve(self, ramp):
        shape = self.fade_shape
        if shape == "linear":
            return ramp
        if shape == "exponential":
            return core.pow(core.full([], 2.0), (ramp - 1) * 5)
        if shape == "logarithmic":
            return core.log10(0.1 + ramp) + 1
        if shape == "quarter_sine":
            return core.sin(ramp * math.pi / 2)
        return core.sin(ramp * math.pi - math.pi / 2) / 2 + 0.5  # half_sine

    def _fade_in(self, length):
        ramp = core.linspace(0, 1, self.fade_in_len)
        ones = core.ones([length - self.fade_in_len])
        return core.cat([self._curve(ramp), ones]).clamp(0, 1)

    def _fade_out(self, length):
        ramp = core.linspace(0, 1, self.fade_out_len)
        ones = core.ones([length - self.fade_out_len])
        if self.fade_shape in ("linear", "exponential", "logarithmic"):
            curve = self._curve(ramp.flip(0) if self.fade_shape == "linear" else ramp)
            if self.fade_shape == "exponential":
                curve = core.pow(core.full([], 2.0), -ramp * 5)
            elif self.fade_shape == "logarithmic":
                curve = core.log10(1.1 - ramp)
        elif self.fade_shape == "quarter_sine":
            curve = core.sin(ramp * math.pi / 2 + math.pi / 2)
        else:
            curve = core.sin(ramp * math.pi + math.pi / 2) / 2 + 0.5
        return core.cat([ones, curve]).clamp(0, 1)


class _AxisMasking(nn.Module):
    def __init__(self, mask_param: int, axis: int, iid_masks: bool):
        super().__init__()
        self.mask_param, self.axis, self.iid_masks = mask_param, axis, iid_masks

    def forward(self, specgram, mask_value: float = 0.0):
        if self.iid_masks and specgram.ndim == 4:
            return AF.mask_along_axis_iid(specgram, self.mask_param, mask_value, self.axis + 1)
        return AF.mask_along_axis(specgram, self.mask_param, mask_value, self.axis)


class FrequencyMasking(_AxisMasking):
    """SpecAugment frequency masking of (..., freq, time)."""

    def __init__(self, freq_mask_param: int, iid_masks: bool = False):
        super().__init__(freq_mask_param, 1, iid_masks)


class TimeMasking(_AxisMasking):
    """SpecAugment time masking of (..., freq, time)."""

    def __init__(self, time_mask_param: int, iid_masks: bool = False):
        super().__init__(time_mask_param, 2, iid_masks)


class Vol(nn.Module):
    """Gain in amplitude ratio, power ratio or dB; the output is clamped to [-1, 1]."""

    def __init__(self, gain: float, gain_type: str = "amplitude"):
        super().__init__()
        if gain_type not in ("amplitude", "power", "db"):
            raise ValueError(f"Vol: gain_type must be amplitude, power or db, got {gain_type!r}")
        if gain_type in ("amplitude", "power") and gain < 0:
            raise ValueError("If gain_type = amplitude or power, gain must be positive.")
        self.gain, self.gain_type = gain, gain_type

    def forward(self, waveform):
        if self.gain_type == "amplitude":
            waveform = waveform * self.gain
        elif self.gain_type == "db":
            waveform = waveform * (10 ** (self.gain / 20))
        else:
            waveform = waveform * (10 ** (10 * math.log10(self.gain) / 20))
        return core.clamp(waveform, -1, 1)


class SlidingWindowCmn(nn.Module):
    """Sliding-window cepstral mean (and variance) normalisation of (..., time, feats)."""

    def __init__(self, cmn_window: int = 600, min_cmn_window: int = 100, center: bool = False,
                 norm_vars: bool = False):
        super().__init__()
        self.cmn_window, self.min_cmn_window, self.center, self.norm_vars = cmn_window, min_cmn_window, center, norm_vars

    def forward(self, waveform):
        return AF.sliding_window_cmn(waveform, self.cmn_window, self.min_cmn_window, self.center, self.norm_vars)


class Vad(nn.Module):
    """Voice activity detection (sox's vad): trims the quiet start of (channel, time) or
    (time,) audio, the earliest activity of any channel deciding; the options are
    audio.functional.vad's."""

    def __init__(self, sample_rate: int, trigger_level: float = 7.0, trigger_time: float = 0.25,
                 search_time: float = 1.0, allowed_gap: float = 0.25, pre_trigger_time: float = 0.0,
                 boot_time: float = 0.35, noise_up_time: float = 0.1, noise_down_time: float = 0.01,
                 noise_reduction_amount: float = 1.35, measure_freq: float = 20.0,
                 measure_duration: Optional[float] = None, measure_smooth_time: float = 0.4,
                 hp_filter_freq: float = 50.0, lp_filter_freq: float = 6000.0, hp_lifter_freq: float = 150.0,
                 lp_lifter_freq: float = 2000.0):
        super().__init__()
        self.sample_rate = sample_rate
        self.options = dict(
            trigger_level=trigger_level, trigger_time=trigger_time, search_time=search_time, allowed_gap=allowed_gap,
            pre_trigger_time=pre_trigger_time, boot_time=boot_time, noise_up_time=noise_up_time,
            noise_down_time=noise_down_time, noise_reduction_amount=noise_reduction_amount,
            measure_freq=measure_freq, measure_duration=measure_duration, measure_smooth_time=measure_smooth_time,
            hp_filter_freq=hp_filter_freq, lp_filter_freq=lp_filter_freq, hp_lifter_freq=hp_lifter_freq,
            lp_lifter_freq=lp_lifter_freq)

    def forward(self, waveform):
        return functional.vad(waveform, self.sample_rate, **self.options)


class SpectralCentroid(nn.Module):
    """The spectral centroid (Hz) of each frame: (..., time) -> (..., frames)."""

    def __init__(self, sample_rate: int, n_fft: int = 400, win_length: Optional[int] = None,
                 hop_length: Optional[int] = None, pad: int = 0, window_fn: Callable = core.hann_window,
                 wkwargs: Optional[dict] = None):
        super().__init__()
        self.sample_rate, self.n_fft, self.pad = sample_rate, n_fft, pad
        self.win_length = win_length if win_length is not None else n_fft
        self.hop_length = hop_length if hop_length is not None else self.win_length // 2
        self.register_buffer("window", _window(window_fn, self.win_length, wkwargs))

    def forward(self, waveform):
        return AF.spectral_centroid(waveform, self.sample_rate, self.pad, self.window, self.n_fft,
                                    self.hop_length, self.win_length)
