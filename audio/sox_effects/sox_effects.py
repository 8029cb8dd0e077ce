"""torchaudio.sox_effects on tensorzoo's own effect implementations: the sox command-line
syntax ([["gain", "-n"], ["speed", "0.8"], ["rate", "16000"]]) with sox 14.4's semantics.

Like libsox, the chain carries samples at full scale and clips each effect's output to
[-1, 1]; `speed` and `pitch` only relabel the sample rate, which a following `rate` turns
into resampling."""
import os

import core

from audio.sox_effects import _edits, _filters, _levels, _space, _time
from audio.sox_effects._parse import EffectError

__all__ = ["init_sox_effects", "shutdown_sox_effects", "effect_names", "apply_effects_tensor",
           "apply_effects_file"]

_EFFECTS = {**_filters.EFFECTS, **_levels.EFFECTS, **_edits.EFFECTS, **_time.EFFECTS, **_space.EFFECTS}

_state = {"initialised": False, "shut_down": False}


def init_sox_effects():
    """Kept for compatibility: there is no libsox to initialise. Like torchaudio's, it may be
    called again before shutdown_sox_effects() and raises after it."""
    if _state["shut_down"]:
        raise RuntimeError("sox effects cannot be initialised again after shutdown_sox_effects()")
    _state["initialised"] = True


def shutdown_sox_effects():
    """Kept for compatibility (registered with atexit, as torchaudio does)."""
    _state["shut_down"] = True


def effect_names():
    """The names of the sox effects available here."""
    return sorted(_EFFECTS)


def _check_chain(effects):
    if not isinstance(effects, (list, tuple)):
        raise TypeError(f"apply_effects: effects must be a list of [name, arg, ...] lists, got {type(effects).__name__}")
    for item in effects:
        if not isinstance(item, (list, tuple)) or not item or not all(isinstance(a, str) for a in item):
            raise TypeError(f"apply_effects: each effect must be a non-empty list of strings, got {item!r}")
        if item[0] not in _EFFECTS:
            raise EffectError(f"sox effect '{item[0]}' is not available; available: {', '.join(effect_names())}")


def _run_chain(waveform, sample_rate, effects):
    """(waveform float64 (channel, time), rate) through the chain."""
    rate = sample_rate
    for name, *args in effects:
        waveform, rate = _EFFECTS[name](name, list(args), waveform, rate)
        if waveform.shape[0] == 0:
            raise EffectError(f"sox effect '{name}' left no channels")
    return waveform, rate


_SCALE = {core.int16: 32768.0, core.int32: 2147483648.0, core.uint8: 128.0}


def _to_float(tensor):
    if tensor.is_floating_point():
        return tensor.to(core.float64)
    if tensor.dtype not in _SCALE:
        raise TypeError(f"apply_effects_tensor(): unsupported dtype {tensor.dtype}")
    offset = 128.0 if tensor.dtype == core.uint8 else 0.0
    return (tensor.to(core.float64) - offset) / _SCALE[tensor.dtype]


def _from_float(waveform, dtype):
    if dtype in (core.float32, core.float64, core.float16, core.bfloat16):
        return waveform.to(dtype)
    scale = _SCALE[dtype]
    offset = 128.0 if dtype == core.uint8 else 0.0
    info = core.iinfo(dtype)
    return (waveform * scale + offset).round().clamp(info.min, info.max).to(dtype)


def apply_effects_tensor(tensor, sample_rate: int, effects, channels_first: bool = True):
    """(waveform, sample_rate) after the effects chain. tensor: 2-D, [channel, time] (or
    [time, channel]); float or integer PCM (int16/int32/uint8) whose dtype the result keeps."""
    if not isinstance(tensor, core.Tensor) or tensor.dim() != 2:
        raise ValueError("apply_effects_tensor(): tensor must be a 2-D tensor")
    if not isinstance(sample_rate, (int, float)) or sample_rate <= 0:
        raise ValueError(f"apply_effects_tensor(): sample_rate must be positive, got {sample_rate!r}")
    _check_chain(effects)
    waveform = _to_float(tensor if channels_first else tensor.t())
    waveform, rate = _run_chain(waveform.contiguous(), sample_rate, effects)
    out = _from_float(waveform, tensor.dtype)
    return (out if channels_first else out.t()).contiguous(), int(rate)


def apply_effects_file(path, effects, normalize: bool = True, channels_first: bool = True, format=None):
    """Loads `path` (a path or a file-like object) and applies the effects chain: float32 by
    default; normalize=False keeps integer WAV samples as integers (16-bit, 32-bit, 8-bit)."""
    from audio.backend import soundfile_backend

    _check_chain(effects)
    if isinstance(path, (str, os.PathLike)) and not os.path.exists(os.fspath(path)):
        raise FileNotFoundError(f"apply_effects_file(): no such file: {os.fspath(path)!r}")
    waveform, sample_rate = soundfile_backend.load(path, normalize=normalize, format=format)
    return apply_effects_tensor(waveform, sample_rate, effects, channels_first=True) if channels_first else \
        apply_effects_tensor(waveform.t().contiguous(), sample_rate, effects, channels_first=False)
