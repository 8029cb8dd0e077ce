"""The real sox program as an oracle: runs an effects chain on a float32 WAV."""
import os
import shutil
import subprocess
import tempfile

import numpy as np
import soundfile

SOX = shutil.which("sox")


def run_sox(waveform, sample_rate, effects, output_rate=None):
    """(array [channel, time] float64, rate) that `sox` gives for the effects (no dither,
    32-bit float in and out)."""
    with tempfile.TemporaryDirectory() as tmp:
        src, dst = os.path.join(tmp, "in.wav"), os.path.join(tmp, "out.wav")
        soundfile.write(src, np.asarray(waveform, dtype=np.float32).T, sample_rate, subtype="FLOAT")
        rate_args = ["-r", str(output_rate)] if output_rate else []
        cmd = [SOX, "-D", "-V1", src, "-e", "floating-point", "-b", "32", *rate_args, dst]
        for effect in effects:
            cmd += effect
        subprocess.run(cmd, check=True, capture_output=True, timeout=60)
        data, rate = soundfile.read(dst, dtype="float64", always_2d=True)
    return data.T, rate


def test_signal(channels=2, sample_rate=16000, seconds=0.5, seed=0):
    """Tones, a chirp and a little noise at about -10 dBFS, with a quiet stretch in the middle."""
    rng = np.random.default_rng(seed)
    t = np.arange(int(sample_rate * seconds)) / sample_rate
    rows = []
    for c in range(channels):
        x = 0.2 * np.sin(2 * np.pi * (220 + 110 * c) * t) + 0.1 * np.sin(2 * np.pi * 1700 * t + c)
        x += 0.08 * np.sin(2 * np.pi * (300 + 2000 * t) * t) + 0.02 * rng.standard_normal(t.size)
        quiet = (t > seconds * 0.4) & (t < seconds * 0.55)
        x[quiet] *= 0.01
        rows.append(x)
    return np.stack(rows).astype(np.float32)
