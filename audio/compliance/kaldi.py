"""Kaldi-compatible features (torchaudio.compliance.kaldi): spectrogram, fbank, mfcc and
resample_waveform with Kaldi's defaults, plus its mel helpers. Input is (channel, time);
`channel=-1` means channel 0. Output is (frames, features)."""
import math
from typing import Tuple

import core
import core.nn.functional as F

from audio.functional.functional import create_dct, resample

__all__ = ["get_mel_banks", "inverse_mel_scale", "inverse_mel_scale_scalar", "mel_scale", "mel_scale_scalar",
           "spectrogram", "fbank", "mfcc", "vtln_warp_freq", "vtln_warp_mel_freq", "resample_waveform"]

MILLISECONDS_TO_SECONDS = 0.001
HAMMING, HANNING, POVEY, RECTANGULAR, BLACKMAN = "hamming", "hanning", "povey", "rectangular", "blackman"
WINDOWS = [HAMMING, HANNING, POVEY, RECTANGULAR, BLACKMAN]


def _epsilon(dtype):
    return core.finfo(core.float32).eps  # Kaldi floors with float's epsilon whatever the dtype


def _next_power_of_2(x: int) -> int:
    return 1 if x == 0 else 2 ** (x - 1).bit_length()


def _get_strided(waveform, window_size, window_shift, snip_edges):
    """Frames (m, window_size) of a 1-d waveform; without snip_edges the signal is extended
    by reflection so frames centre on multiples of the shift."""
    num_samples = waveform.shape[0]
    if snip_edges:
        if num_samples < window_size:
            return core.empty([0, 0], dtype=waveform.dtype)
        m = 1 + (num_samples - window_size) // window_shift
    else:
        reversed_waveform = waveform.flip(0)
        m = (num_samples + window_shift // 2) // window_shift
        pad = window_size // 2 - window_shift // 2
        if pad > 0:
            waveform = core.cat([reversed_waveform[-pad:], waveform, reversed_waveform])
        else:
            waveform = core.cat([waveform[-pad:], reversed_waveform])
    return waveform.contiguous().as_strided([m, window_size], [window_shift, 1])


def _feature_window_function(window_type, window_size, blackman_coeff, dtype):
    if window_type == HANNING:
        return core.hann_window(window_size, periodic=False, dtype=dtype)
    if window_type == HAMMING:
        return core.hamming_window(window_size, periodic=False, alpha=0.54, beta=0.46, dtype=dtype)
    if window_type == POVEY:  # a Hann window raised to 0.85: Kaldi's default
        return core.hann_window(window_size, periodic=False, dtype=dtype).pow(0.85)
    if window_type == RECTANGULAR:
        return core.ones([window_size], dtype=dtype)
    if window_type == BLACKMAN:
        a = 2 * math.pi / (window_size - 1)
        k = core.arange(window_size, dtype=dtype)
        return blackman_coeff - 0.5 * core.cos(a * k) + (0.5 - blackman_coeff) * core.cos(2 * a * k)
    raise ValueError(f"Invalid window type {window_type}")


def _get_log_energy(frames, epsilon, energy_floor):
    log_energy = core.clamp(frames.pow(2).sum(1), min=epsilon).log()
    if energy_floor == 0.0:
        return log_energy
    return core.clamp(log_energy, min=math.log(energy_floor))


def _get_waveform_and_window_properties(waveform, channel, sample_frequency, frame_shift, frame_length,
                                        round_to_power_of_two, preemphasis_coefficient):
    channel = max(channel, 0)
    if waveform.ndim != 2 or channel >= waveform.shape[0]:
        raise ValueError(f"Invalid channel {channel} for size {list(waveform.shape)}")
    waveform = waveform[channel, :]
    window_shift = int(sample_frequency * frame_shift * MILLISECONDS_TO_SECONDS)
    window_size = int(sample_frequency * frame_length * MILLISECONDS_TO_SECONDS)
    padded_window_size = _next_power_of_2(window_size) if round_to_power_of_two else window_size
    if not 2 <= window_size <= waveform.shape[0]:
        raise ValueError(f"choose a window size {window_size} that is [2, {waveform.shape[0]}]")
    if window_shift <= 0:
        raise ValueError("`window_shift` must be greater than 0")
    if padded_window_size % 2:
        raise ValueError("the padded `window_size` must be divisible by two. use `round_to_power_of_two` "
                         "or change `frame_length`")
    if not 0.0 <= preemphasis_coefficient <= 1.0:
        raise ValueError("`preemphasis_coefficient` must be between [0,1]")
    if sample_frequency <= 0:
        raise ValueError("`sample_frequency` must be greater than zero")
    return waveform, window_shift, window_size, padded_window_size


def _get_window(waveform, padded_window_size, window_size, window_shift, window_type, blackman_coeff,
                snip_edges, raw_energy, energy_floor, dither, remove_dc_offset, preemphasis_coefficient):
    """Windowed frames (m, padded_window_size) and their log energy (m)."""
    epsilon = _epsilon(waveform.dtype)
    frames = _get_strided(waveform, window_size, window_shift, snip_edges)
    if dither != 0.0:
        x = core.clamp(core.rand(list(frames.shape), dtype=frames.dtype), min=epsilon)
        frames = frames + core.sqrt(-2 * x.log()) * core.cos(2 * math.pi * x) * dither
    if remove_dc_offset:
        frames = frames - frames.mean(1, keepdim=True)
    if raw_energy:
        log_energy = _get_log_energy(frames, epsilon, energy_floor)
    if preemphasis_coefficient != 0.0:
        previous = F.pad(frames.unsqueeze(0), (1, 0), mode="replicate").squeeze(0)[:, :-1]
        frames = frames - preemphasis_coefficient * previous
    frames = frames * _feature_window_function(window_type, window_size, blackman_coeff, frames.dtype).unsqueeze(0)
    if padded_window_size != window_size:
        frames = F.pad(frames, (0, padded_window_size - window_size), mode="constant", value=0.0)
    if not raw_energy:
        log_energy = _get_log_energy(frames, epsilon, energy_floor)
    return frames, log_energy


def _subtract_column_mean(x, subtract_mean):
    return x - x.mean(0, keepdim=True) if subtract_mean else x


def spectrogram(waveform, blackman_coeff: float = 0.42, channel: int = -1, dither: float = 0.0,
                energy_floor: float = 1.0, frame_length: float = 25.0, frame_shift: float = 10.0,
                min_duration: float = 0.0, preemphasis_coefficient: float = 0.97, raw_energy: bool = True,
                remove_dc_offset: bool = True, round_to_power_of_two: bool = True,
                sample_frequency: float = 16000.0, snip_edges: bool = True, subtract_mean: bool = False,
                window_type: str = POVEY):
    """Kaldi's compute-spectrogram-feats: log power spectrum (m, padded // 2 + 1), bin 0
    replaced by the frame's log energy."""
    waveform, shift, size, padded = _get_waveform_and_window_properties(
        waveform, channel, sample_frequency, frame_shift, frame_length, round_to_power_of_two, preemphasis_coefficient)
    if waveform.shape[0] < min_duration * sample_frequency:
        return core.empty([0])
    frames, log_energy = _get_window(waveform, padded, size, shift, window_type, blackman_coeff, snip_edges,
                                     raw_energy, energy_floor, dither, remove_dc_offset, preemphasis_coefficient)
    power = core.clamp(core.fft.rfft(frames).abs().pow(2.0), min=_epsilon(frames.dtype)).log()
    power = core.cat([log_energy.unsqueeze(1), power[:, 1:]], 1)
    return _subtract_column_mean(power, subtract_mean)


def inverse_mel_scale_scalar(mel_freq: float) -> float:
    return 700.0 * (math.exp(mel_freq / 1127.0) - 1.0)


def inverse_mel_scale(mel_freq):
    return 700.0 * ((mel_freq / 1127.0).exp() - 1.0)


def mel_scale_scalar(freq: float) -> float:
    return 1127.0 * math.log(1.0 + freq / 700.0)


def mel_scale(freq):
    return 1127.0 * (1.0 + freq / 700.0).log()


def vtln_warp_freq(vtln_low_cutoff: float, vtln_high_cutoff: float, low_freq: float, high_freq: float,
                   vtln_warp_factor: float, freq):
    """Kaldi's piecewise-linear VTLN frequency warp."""
    if not vtln_low_cutoff > low_freq:
        raise ValueError("be sure to set the vtln_low option higher than low_freq")
    if not vtln_high_cutoff < high_freq:
        raise ValueError("be sure to set the vtln_high option lower than high_freq [or negative]")
    low = vtln_low_cutoff * max(1.0, vtln_warp_factor)
    high = vtln_high_cutoff * min(1.0, vtln_warp_factor)
    scale = 1.0 / vtln_warp_factor
    f_low, f_high = scale * low, scale * high
    scale_left = (f_low - low_freq) / (low - low_freq)
    scale_right = (high_freq - f_high) / (high_freq - high)
    res = high_freq + scale_right * (freq - high_freq)
    res = core.where(freq < high, scale * freq, res)
    res = core.where(freq < low, low_freq + scale_left * (freq - low_freq), res)
    return core.where((freq < low_freq) | (freq > high_freq), freq, res)


def vtln_warp_mel_freq(vtln_low_cutoff: float, vtln_high_cutoff: float, low_freq: float, high_freq: float,
                       vtln_warp_factor: float, mel_freq):
    return mel_scale(vtln_warp_freq(vtln_low_cutoff, vtln_high_cutoff, low_freq, high_freq, vtln_warp_factor,
                                    inverse_mel_scale(mel_freq)))


def get_mel_banks(num_bins: int, window_length_padded: int, sample_freq: float, low_freq: float,
                  high_freq: float, vtln_low: float, vtln_high: float, vtln_warp_factor: float) -> Tuple:
    """Kaldi's triangular mel bins (num_bins, padded // 2) on the natural-log mel scale, and
    their centre frequencies (num_bins)."""
    if num_bins <= 3:
        raise ValueError("Must have at least 3 mel bins")
    if window_length_padded % 2:
        raise ValueError("window_length_padded must be even")
    num_fft_bins = window_length_padded // 2
    nyquist = 0.5 * sample_freq
    if high_freq <= 0.0:
        high_freq += nyquist
    if not (0.0 <= low_freq < nyquist and 0.0 < high_freq <= nyquist and low_freq < high_freq):
        raise ValueError(f"Bad values in options: low-freq {low_freq} and high-freq {high_freq} vs. nyquist {nyquist}")
    fft_bin_width = sample_freq / window_length_padded
    mel_low, mel_high = mel_scale_scalar(low_freq), mel_scale_scalar(high_freq)
    delta = (mel_high - mel_low) / (num_bins + 1)
    if vtln_high < 0.0:
        vtln_high += nyquist
    if vtln_warp_factor != 1.0 and not (low_freq < vtln_low < high_freq and 0.0 < vtln_high < high_freq
                                        and vtln_low < vtln_high):
        raise ValueError(f"Bad values in options: vtln-low {vtln_low} and vtln-high {vtln_high}, versus "
                         f"low-freq {low_freq} and high-freq {high_freq}")
    b = core.arange(num_bins, dtype=core.float32).unsqueeze(1)
    left, center, right = mel_low + b * delta, mel_low + (b + 1.0) * delta, mel_low + (b + 2.0) * delta
    if vtln_warp_factor != 1.0:
        warp = lambda m: vtln_warp_mel_freq(vtln_low, vtln_high, low_freq, high_freq, vtln_warp_factor, m)  # noqa: E731
        left, center, right = warp(left), warp(center), warp(right)
    center_freqs = inverse_mel_scale(center)
    mel = mel_scale(fft_bin_width * core.arange(num_fft_bins, dtype=core.float32)).unsqueeze(0)
    up = (mel - left) / (center - left)
    down = (right - mel) / (right - center)
    if vtln_warp_factor == 1.0:
        bins = core.clamp(core.minimum(up, down), min=0.0)
    else:
        zero = core.zeros([], dtype=up.dtype)
        bins = core.where((mel > left) & (mel <= center), up, zero)
        bins = core.where((mel > center) & (mel < right), down, bins)
    return bins, center_freqs.squeeze(1)


def fbank(waveform, blackman_coeff: float = 0.42, channel: int = -1, dither: float = 0.0,
          energy_floor: float = 1.0, frame_length: float = 25.0, frame_shift: float = 10.0,
          high_freq: float = 0.0, htk_compat: bool = False, low_freq: float = 20.0, min_duration: float = 0.0,
          num_mel_bins: int = 23, preemphasis_coefficient: float = 0.97, raw_energy: bool = True,
          remove_dc_offset: bool = True, round_to_power_of_two: bool = True, sample_frequency: float = 16000.0,
          snip_edges: bool = True, subtract_mean: bool = False, use_energy: bool = False,
          use_log_fbank: bool = True, use_power: bool = True, vtln_high: float = -500.0, vtln_low: float = 100.0,
          vtln_warp: float = 1.0, window_type: str = POVEY):
    """Kaldi's compute-fbank-feats: (m, num_mel_bins (+1 with use_energy))."""
    dtype = waveform.dtype
    waveform, shift, size, padded = _get_waveform_and_window_properties(
        waveform, channel, sample_frequency, frame_shift, frame_length, round_to_power_of_two, preemphasis_coefficient)
    if waveform.shape[0] < min_duration * sample_frequency:
        return core.empty([0], dtype=dtype)
    frames, log_energy = _get_window(waveform, padded, size, shift, window_type, blackman_coeff, snip_edges,
                                     raw_energy, energy_floor, dither, remove_dc_offset, preemphasis_coefficient)
    spectrum = core.fft.rfft(frames).abs()
    if use_power:
        spectrum = spectrum.pow(2.0)
    banks, _ = get_mel_banks(num_mel_bins, padded, sample_frequency, low_freq, high_freq, vtln_low, vtln_high,
                             vtln_warp)
    banks = F.pad(banks.to(dtype), (0, 1), mode="constant", value=0.0)  # the Nyquist bin has no weight
    energies = core.matmul(spectrum, banks.t())
    if use_log_fbank:
        energies = core.clamp(energies, min=_epsilon(dtype)).log()
    if use_energy:
        energy = log_energy.unsqueeze(1)
        energies = core.cat([energies, energy] if htk_compat else [energy, energies], 1)
    return _subtract_column_mean(energies, subtract_mean)


def _get_dct_matrix(num_ceps, num_mel_bins):
    dct = create_dct(num_mel_bins, num_mel_bins, "ortho")
    dct[:, 0] = math.sqrt(1 / float(num_mel_bins))
    return dct[:, :num_ceps]


def _get_lifter_coeffs(num_ceps, cepstral_lifter):
    i = core.arange(num_ceps, dtype=core.float32)
    return 1.0 + 0.5 * cepstral_lifter * core.sin(math.pi * i / cepstral_lifter)


def mfcc(waveform, blackman_coeff: float = 0.42, cepstral_lifter: float = 22.0, channel: int = -1,
         dither: float = 0.0, energy_floor: float = 1.0, frame_length: float = 25.0, frame_shift: float = 10.0,
         high_freq: float = 0.0, htk_compat: bool = False, low_freq: float = 20.0, num_ceps: int = 13,
         min_duration: float = 0.0, num_mel_bins: int = 23, preemphasis_coefficient: float = 0.97,
         raw_energy: bool = True, remove_dc_offset: bool = True, round_to_power_of_two: bool = True,
         sample_frequency: float = 16000.0, snip_edges: bool = True, subtract_mean: bool = False,
         use_energy: bool = False, vtln_high: float = -500.0, vtln_low: float = 100.0, vtln_warp: float = 1.0,
         window_type: str = POVEY):
    """Kaldi's compute-mfcc-feats: (m, num_ceps), liftered; C0 is the log energy with use_energy."""
    if num_ceps > num_mel_bins:
        raise ValueError(f"num_ceps cannot be larger than num_mel_bins: {num_ceps} vs {num_mel_bins}")
    dtype = waveform.dtype
    feature = fbank(waveform, blackman_coeff=blackman_coeff, channel=channel, dither=dither,
                    energy_floor=energy_floor, frame_length=frame_length, frame_shift=frame_shift,
                    high_freq=high_freq, htk_compat=htk_compat, low_freq=low_freq, min_duration=min_duration,
                    num_mel_bins=num_mel_bins, preemphasis_coefficient=preemphasis_coefficient,
                    raw_energy=raw_energy, remove_dc_offset=remove_dc_offset,
                    round_to_power_of_two=round_to_power_of_two, sample_frequency=sample_frequency,
                    snip_edges=snip_edges, subtract_mean=False, use_energy=use_energy, use_log_fbank=True,
                    use_power=True, vtln_high=vtln_high, vtln_low=vtln_low, vtln_warp=vtln_warp,
                    window_type=window_type)
    if feature.numel() == 0:
        return feature
    if use_energy:
        energy = feature[:, num_mel_bins if htk_compat else 0]
        offset = int(not htk_compat)
        feature = feature[:, offset:num_mel_bins + offset]
    feature = core.matmul(feature, _get_dct_matrix(num_ceps, num_mel_bins).to(dtype))
    if cepstral_lifter != 0.0:
        feature = feature * _get_lifter_coeffs(num_ceps, cepstral_lifter).unsqueeze(0).to(dtype)
    if use_energy:
        feature = core.cat([energy.unsqueeze(1), feature[:, 1:]], 1)
    if htk_compat:
        c0 = feature[:, :1] if use_energy else feature[:, :1] * math.sqrt(2)
        feature = core.cat([feature[:, 1:], c0], 1)
    return _subtract_column_mean(feature, subtract_mean)


def resample_waveform(waveform, orig_freq: float, new_freq: float, lowpass_filter_width: int = 6,
                      rolloff: float = 0.99, resampling_method: str = "sinc_interpolation", beta=None):
    """Windowed-sinc resampling of (..., time) (audio.functional.resample)."""
    return resample(waveform, orig_freq, new_freq, lowpass_filter_width, rolloff, resampling_method, beta)
