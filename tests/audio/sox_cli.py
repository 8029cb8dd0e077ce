"""The real sox program as an oracle: runs an effects chain on a float32 WAV."""
import os
import shutil
import subprocess
import tempfile

import numpy as np
import soundfile

SOX = shutil.which("sox")


def run_sox(waveform, sample_rate, effects, output_channels=None):
    """(array [channel, time] float64, rate) that `sox` gives for the effects (no dither,
    32-bit float in and out; the output file's channels are the input's unless given)."""
    with tempfile.TemporaryDirectory() as tmp:
        src, dst = os.path.join(tmp, "in.wav"), os.path.join(tmp, "out.wav")
        soundfile.write(src, np.asarray(waveform, dtype=np.float32).T, sample_rate, subtype="FLOAT")
        channel_args = ["-c", str(output_channels)] if output_channels else []
        cmd = [SOX, "-D", "-V1", src, "-e", "floating-point", "-b", "32", *channel_args, dst]
        for effect in effects:
            cmd += effect
        subprocess.run(cmd, check=True, capture_output=True, timeout=60)
        data, rate = soundfile.read(dst, dtype="float64", always_2d=True)
    return data.T, rate


def make_signal(channels=2, sample_rate=16000, seconds=0.5, seed=0, noise=0.02):
    """Tones, a chirp and a little noise at about -10 dBFS, starting quiet and with a quiet
    stretch in the middle (for silence)."""
    rng = np.random.default_rng(seed)
    t = np.arange(int(sample_rate * seconds)) / sample_rate
    rows = []
    for c in range(channels):
        x = 0.2 * np.sin(2 * np.pi * (220 + 110 * c) * t) + 0.1 * np.sin(2 * np.pi * 1700 * t + c)
        x += 0.08 * np.sin(2 * np.pi * (300 + 2000 * t) * t) + noise * rng.standard_normal(t.size)
        x[(t > seconds * 0.4) & (t < seconds * 0.55)] *= 0.01
        x[t < seconds * 0.06] *= 0.003
        rows.append(x)
    return np.stack(rows).astype(np.float32)
