"""transforms.Vad, and functional.vad against the real `sox` program's vad effect: on a quiet
lead-in (noise at -50 dBFS, sometimes a short burst of voice before the speech) the trimmed
audio must be the same samples.

functional.vad follows torchaudio, which differs from sox (14.4.2 here) where seen: channels
whose voice starts at different times (sox keeps less than torchaudio's look-back over every
channel), and a trigger within the first second (sox keeps the zeros its buffer starts with;
torchaudio starts at the first sample). The recordings here avoid both."""
import os
import shutil
import subprocess
import tempfile

import numpy as np
import pytest
import soundfile

import core
import audio.functional as F
import audio.transforms as T

SR = 16000
SOX = shutil.which("sox")


def _recording(seed, lead, burst, channels=1):
    """`lead` seconds of faint noise, then 1.2 s of a 140 Hz voice (quieter in the second
    channel); with `burst`, 0.1 s of voice half a second before. Quantised to 16 bits, as sox
    reads it."""
    rng = np.random.default_rng(seed)
    t = np.arange(int(SR * (lead + 1.2))) / SR
    voice = 0.25 * sum(np.sin(2 * np.pi * 140 * k * t) / k for k in range(1, 10))
    rows = []
    for c in range(channels):
        x = 0.003 * rng.standard_normal(t.size) + np.where(t >= lead, voice * (1.0 - 0.4 * c), 0.0)
        if burst:
            x += np.where((t > lead - 0.5) & (t < lead - 0.4), 0.6 * voice, 0.0)
        rows.append(np.round(np.clip(x, -1, 1) * 32767) / 32768)
    return np.stack(rows).astype(np.float32) if channels > 1 else rows[0].astype(np.float32)


def _sox_vad(x, args):
    with tempfile.TemporaryDirectory() as tmp:
        src, dst = os.path.join(tmp, "in.wav"), os.path.join(tmp, "out.wav")
        soundfile.write(src, x.T, SR, subtype="PCM_16")
        subprocess.run([SOX, "-D", "-V1", src, dst, "vad", *args], check=True, capture_output=True, timeout=60)
        y, _ = soundfile.read(dst, dtype="float32", always_2d=True)
    return y.T if x.ndim == 2 else y[:, 0]


# sox's option letters and the same options by name
OPTIONS = [((), {}), (("-p", "0.1"), dict(pre_trigger_time=0.1)),
           (("-t", "5", "-g", "0.1"), dict(trigger_level=5.0, allowed_gap=0.1)),
           (("-s", "0.5", "-T", "0.1"), dict(search_time=0.5, trigger_time=0.1)),
           (("-r", "1.0", "-M", "0.3", "-H", "120", "-L", "2500"),
            dict(noise_reduction_amount=1.0, measure_smooth_time=0.3, hp_lifter_freq=120.0, lp_lifter_freq=2500.0)),
           (("-b", "0.2", "-N", "0.2", "-n", "0.02", "-f", "25", "-m", "0.08", "-h", "80", "-l", "5000"),
            dict(boot_time=0.2, noise_up_time=0.2, noise_down_time=0.02, measure_freq=25.0, measure_duration=0.08,
                 hp_filter_freq=80.0, lp_filter_freq=5000.0))]


@pytest.mark.skipif(SOX is None, reason="the sox program is not installed")
@pytest.mark.parametrize("seed,lead,burst,channels", [(0, 1.2, False, 1), (1, 1.5, True, 1), (2, 1.8, True, 2),
                                                     (3, 1.4, False, 2)])
def test_vad_trims_as_sox_does(seed, lead, burst, channels):
    x = _recording(seed, lead, burst, channels)
    for args, kwargs in OPTIONS:
        expected = _sox_vad(x, args)
        ours = F.vad(core.tensor(x), SR, **kwargs).numpy()
        assert ours.shape == expected.shape, (args, ours.shape, expected.shape)
        np.testing.assert_array_equal(ours, expected)


@pytest.mark.skipif(SOX is None, reason="the sox program is not installed")
def test_vad_on_noise_alone_keeps_nothing():
    noise = (np.round(0.003 * np.random.default_rng(5).standard_normal(SR * 2) * 32767) / 32768).astype(np.float32)
    assert _sox_vad(noise, ()).shape == (0,)
    assert F.vad(core.tensor(noise), SR).shape == (0,)


def test_transform_is_the_functional():
    x = core.tensor(_recording(3, 1.3, True, channels=2))
    for _, kwargs in OPTIONS:
        np.testing.assert_array_equal(T.Vad(SR, **kwargs)(x).numpy(), F.vad(x, SR, **kwargs).numpy())
    assert T.Vad(SR, measure_duration=0.05).options["measure_duration"] == 0.05
