"""FFT and audio feature benchmarks: ours against torch.fft / torchaudio and numpy.fft:

    python benchmarks/bench_fft.py [--threads 1 2]

fft of 2^20 and of the prime 1000003 (complex64), rfft of 64 x 4096 and of 4801 x 400 (the
frames of a 60 s STFT; float32), and on 60 s of audio: MelSpectrogram and MFCC at 16 kHz
(torchaudio's defaults), Resample 44.1 kHz -> 16 kHz, a magnitude Spectrogram; Vad on 10 s
with 3 s of quiet lead-in; compute_kaldi_pitch on 10 s (torchaudio 2.9 no longer has it: ours
only). The audio cases compare with torchaudio only (numpy has none; outputs unchecked).
"""
import argparse

import numpy as np

import _paths  # noqa: E402,F401  (an in-place build wins over an installed one)

import harness  # noqa: E402
from harness import Bench, run_bench  # noqa: E402

import core  # noqa: E402
import audio.functional as AF  # noqa: E402
import audio.transforms as T  # noqa: E402

try:
    import torch
except ImportError:  # numpy only
    torch = None
try:
    import torchaudio
except ImportError:  # the audio cases then time ours only
    torchaudio = None


def fft_cases(rng):
    for name, n in [("fft 2^20 c64", 1 << 20), ("fft 1000003 (prime) c64", 1000003)]:
        x = (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(np.complex64)
        yield Bench(name, {
            "ours": lambda x=x: (lambda t=core.tensor(x): lambda: core.fft.fft(t))(),
            "pytorch": lambda x=x: (lambda t=torch.tensor(x): lambda: torch.fft.fft(t))() if torch else None,
            "numpy": lambda x=x: lambda: np.fft.fft(x).astype(np.complex64),
        })
    for shape in [(64, 4096), (4801, 400)]:
        x = rng.standard_normal(shape).astype(np.float32)
        yield Bench(f"rfft {shape[0]}x{shape[1]} f32", {
            "ours": lambda x=x: (lambda t=core.tensor(x): lambda: core.fft.rfft(t))(),
            "pytorch": lambda x=x: (lambda t=torch.tensor(x): lambda: torch.fft.rfft(t))() if torch else None,
            "numpy": lambda x=x: lambda: np.fft.rfft(x).astype(np.complex64),
        })


def audio_cases(rng):
    speech = rng.standard_normal(60 * 16000).astype(np.float32) * 0.1
    music = rng.standard_normal(60 * 44100).astype(np.float32) * 0.1
    signal = _recording(rng)
    for name, ours, theirs, wave in [
        ("MelSpectrogram 60 s @16k", lambda: T.MelSpectrogram(), lambda: torchaudio.transforms.MelSpectrogram(), speech),
        ("MFCC 60 s @16k", lambda: T.MFCC(), lambda: torchaudio.transforms.MFCC(), speech),
        ("Resample 44.1k->16k 60 s", lambda: T.Resample(44100, 16000),
         lambda: torchaudio.transforms.Resample(44100, 16000), music),
        ("Spectrogram power=1 60 s", lambda: T.Spectrogram(power=1.0),
         lambda: torchaudio.transforms.Spectrogram(power=1.0), speech),
        ("Vad 10 s (3 s lead-in)", lambda: T.Vad(16000), lambda: torchaudio.transforms.Vad(16000), signal),
    ]:
        yield Bench(name, {
            "ours": lambda ours=ours, s=wave: (lambda m=ours(), t=core.tensor(s): lambda: m(t))(),
            "pytorch": (lambda theirs=theirs, s=wave: (lambda m=theirs(), t=torch.tensor(s): lambda: m(t))())
            if torchaudio else (lambda: None),
        }, check=False)
    yield Bench("compute_kaldi_pitch 10 s", {
        "ours": lambda: (lambda t=core.tensor(signal): lambda: AF.compute_kaldi_pitch(t, 16000))(),
        "pytorch": lambda: None,  # removed from torchaudio after 2.0
    }, check=False)


def _recording(rng):
    """10 s at 16 kHz: 3 s of faint noise, then a 140 Hz voice with harmonics."""
    t = np.arange(160000) / 16000
    voice = 0.25 * sum(np.sin(2 * np.pi * 140 * k * t) / k for k in range(1, 10))
    return (0.003 * rng.standard_normal(t.size) + np.where(t >= 3.0, voice, 0.0)).astype(np.float32)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    for threads in args.threads:
        harness.set_threads(threads)
        print(harness.header(threads))
        results = [run_bench(b) for b in list(fft_cases(rng)) + list(audio_cases(rng))]
        print(harness.format_table(results))
        print()


if __name__ == "__main__":
    main()
