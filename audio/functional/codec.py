"""Codecs as functions: mu-law companding and an in-memory encode/decode round trip."""
import io
import math

import core

_OPUS_RATES = (8000, 12000, 16000, 24000, 48000)


def _floating(op, name, x):
    if not isinstance(x, core.Tensor):
        raise TypeError(f"{op}(): {name} must be a tensor, got {type(x).__name__}")
    return x if x.is_floating_point() else x.to(core.float32)


def mu_law_encoding(x, quantization_channels: int):
    """mu-law companding of x in [-1, 1] to integers in [0, quantization_channels) (int64)."""
    x = _floating("mu_law_encoding", "x", x)
    mu = quantization_channels - 1.0
    companded = x.sign() * (x.abs() * mu).log1p() / math.log1p(mu)
    return ((companded + 1) / 2 * mu + 0.5).to(core.int64)


def mu_law_decoding(x_mu, quantization_channels: int):
    """The inverse of mu_law_encoding: integers back to floats in [-1, 1]."""
    x = _floating("mu_law_decoding", "x_mu", x_mu) / (quantization_channels - 1.0) * 2 - 1.0
    mu = quantization_channels - 1.0
    return x.sign() * ((x.abs() * math.log1p(mu)).exp() - 1.0) / mu


def apply_codec(waveform, sample_rate: int, format: str, channels_first: bool = True, compression=None,
                encoding=None, bits_per_sample=None):
    """The waveform encoded with `format` (and the save() options) in memory and decoded back,
    resampled to sample_rate if the codec changed it. Lossy codecs may change the length."""
    from audio.backend import soundfile_backend
    from audio.sox_effects import apply_effects_tensor

    rate = sample_rate
    if format.lower() == "opus" and sample_rate not in _OPUS_RATES:  # opus codes these rates only
        waveform, rate = apply_effects_tensor(waveform, sample_rate, [["rate", "48000"]], channels_first)
    buffer = io.BytesIO()
    soundfile_backend.save(buffer, waveform, rate, channels_first, compression, format, encoding, bits_per_sample)
    buffer.seek(0)
    decoded, decoded_rate = soundfile_backend.load(buffer, channels_first=channels_first, format=format)
    if decoded_rate != sample_rate:
        decoded, _ = apply_effects_tensor(decoded, decoded_rate, [["rate", str(sample_rate)]], channels_first)
    return decoded
