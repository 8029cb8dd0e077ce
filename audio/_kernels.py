"""The C++ kernels of audio._C: entries of core's op table, called like core's own ops."""
import core

from audio import _C  # noqa: F401 - loading it registers the kernels

_op = core._C._op

lfilter = _op("audio_lfilter")        # (N, F, T), a (F, K), b (F, K); a[:, 0] taken as 1
overdrive = _op("audio_overdrive")
phaser = _op("audio_phaser")
flanger = _op("audio_flanger")
chorus = _op("audio_chorus")
echo = _op("audio_echo")
resample = _op("audio_resample")
tempo = _op("audio_tempo")
reverb = _op("audio_reverb")
silence = _op("audio_silence")
vad = _op("audio_vad")
