"""tensorzoo audio: load/save/info, sox effects and spectral transforms (mirrors torchaudio 0.8).

    import audio
    waveform, sample_rate = audio.load("speech.flac")                 # float32 [channel, time]
    audio.save("out.wav", waveform, sample_rate, encoding="PCM_S", bits_per_sample=16)
    y, sr = audio.sox_effects.apply_effects_tensor(waveform, sample_rate,
                                                   [["gain", "-n"], ["speed", "0.8"], ["rate", "16000"]])
    y = audio.functional.lowpass_biquad(waveform, sample_rate, cutoff_freq=3000.0)

I/O runs on libsndfile (through soundfile): paths, os.PathLike and binary file-like objects
(seekable or not), the formats the installed libsndfile has (audio.utils.sox_utils
.list_read_formats()). The sox effects and filters are tensorzoo's own (C++ kernels in
audio._C, registered in core's op table).
"""
import core  # noqa: F401 - core._C first: audio._C adds to its op table

from audio import _C  # noqa: F401, E402
from audio import compliance, functional, sox_effects, transforms, utils  # noqa: F401, E402
from audio.backend import AudioMetaData  # noqa: F401, E402
from audio.backend.utils import (  # noqa: E402
    _init_audio_backend,
    get_audio_backend,
    list_audio_backends,
    set_audio_backend,
)

__version__ = "0.8.1"
USE_SOUNDFILE_LEGACY_INTERFACE = None  # torchaudio's switch: only the new interface exists here

_init_audio_backend()  # binds audio.load / save / info / load_wav
