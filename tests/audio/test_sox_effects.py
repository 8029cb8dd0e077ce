"""audio.sox_effects against the real sox program on the same input: shape, sample rate and
values within the tolerance stated per effect. sox works on 32-bit integers internally, so
"exact" here means within float32 rounding (2e-7); effects that keep 24-bit samples inside
(echo, echos, chorus) within 5e-7."""
import io
import math

import numpy as np
import pytest

import audio
import core
from audio.sox_effects import apply_effects_file, apply_effects_tensor, effect_names
from audio.sox_effects._parse import EffectError
from sox_cli import SOX, run_sox, make_signal

needs_sox = pytest.mark.skipif(SOX is None, reason="the sox program is not installed (.ci/run installs it)")

EXACT, TRUNCATED_24BIT = 2e-7, 5e-7

# (effect and its options, tolerance); "@rate" and "#channels" prefixes choose the input.
CASES = [
    ("gain -3", EXACT), ("gain -n", EXACT), ("gain -n -6", EXACT), ("gain -e", EXACT), ("gain -en", EXACT),
    ("gain -B", EXACT), ("gain -b 3", EXACT), ("gain -l 6", EXACT), ("norm", EXACT), ("norm -3", EXACT),
    ("vol 0.5", EXACT), ("vol -6dB", EXACT), ("vol 2 power", EXACT), ("vol 2 amplitude 0.05", EXACT),
    ("lowpass 1000", EXACT), ("lowpass -1 1000", EXACT), ("lowpass 2k 2o", EXACT), ("highpass 500 0.5q", EXACT),
    ("highpass -1 300", EXACT), ("bandpass 1000 200", EXACT), ("bandpass -c 1000 2o", EXACT),
    ("bandreject 1000 1q", EXACT), ("allpass 1000 100h", EXACT), ("band 1000", EXACT), ("band -n 1000 300", EXACT),
    ("bass 6", EXACT), ("bass -3 200 0.8", EXACT), ("treble 5 2k 1q", EXACT), ("treble -4 4000 200h", EXACT),
    ("equalizer 1000 2q 6", EXACT), ("equalizer 3k 1o -8", EXACT), ("biquad 0.3 0.2 0.1 1 -0.5 0.2", EXACT),
    ("@44100 deemph", EXACT), ("@48000 deemph", EXACT), ("@44100 riaa", EXACT), ("@96000 riaa", EXACT),
    ("dcshift 0.2", EXACT), ("dcshift -0.3 0.05", EXACT), ("contrast", EXACT), ("contrast 30", EXACT),
    ("overdrive", EXACT), ("overdrive 10 40", EXACT),
    ("channels 1", EXACT), ("#1 channels 2", EXACT), ("#3 channels 2", EXACT), ("remix 2 1", EXACT),
    ("remix 1,2", EXACT), ("remix -m 1,2 2v0.5", EXACT), ("remix 1p-3 0", EXACT), ("#3 remix -a 1,2 3,1v0.8", EXACT),
    ("#3 remix -p 1-3 2i", EXACT), ("remix -", EXACT),
    ("trim 0.1 0.2", EXACT), ("trim 800s =0.3 -0.05", EXACT), ("trim 0 0:0.1 +0.05", EXACT),
    ("pad 0.1 0.05", EXACT), ("pad 100s@0.2", EXACT), ("pad 0 0.02@0.1 200s", EXACT), ("reverse", EXACT),
    ("fade 0.1", EXACT), ("fade q 0.1 0.4 0.1", EXACT), ("fade h 0.05 -0.1", EXACT), ("fade t 0.1 0.6 0.2", EXACT),
    ("fade p 0.1 0 0.1", EXACT),
    ("silence 1 100 1%", EXACT), ("silence 1 0.02t 2%", EXACT), ("#1 silence 1 100 1%", EXACT),
    ("silence 1 100 1% 1 0.02t 1%", EXACT), ("silence 0 1 0.02t 1%", EXACT), ("silence 0 1 400 0.5%", EXACT),
    ("silence 1 50 -40d -1 0.02t -40d", EXACT), ("silence -l 1 50 1% -1 0.02t 2%", EXACT),
    ("tremolo 6", EXACT), ("tremolo 3 70", EXACT),
    ("echo 0.8 0.9 50 0.3", TRUNCATED_24BIT), ("echo 0.8 0.7 30 0.4 70 0.2", TRUNCATED_24BIT),
    ("echos 0.8 0.7 30 0.25 50 0.3", TRUNCATED_24BIT),
    ("chorus 0.7 0.9 55 0.4 0.25 2 -t", TRUNCATED_24BIT),
    ("chorus 0.6 0.9 50 0.4 0.25 2 -t 60 0.32 0.4 1.3 -s", TRUNCATED_24BIT),
    ("flanger", EXACT), ("flanger 1 3 20 60 1 triangle 50 quadratic", EXACT), ("#4 flanger 0 2 -40", EXACT),
    ("phaser", EXACT), ("phaser 0.6 0.66 3 0.6 2 -t", EXACT),
    ("reverb", EXACT), ("reverb 80 30 60 50 20 3", EXACT), ("reverb -w", EXACT), ("reverb 50 50 100 0", EXACT),
    ("#1 reverb", EXACT), ("#1 reverb 40 60 70 0", EXACT), ("#3 reverb 60", EXACT),
    ("tempo 1.2", EXACT), ("tempo 0.8", EXACT), ("tempo -s 1.25", EXACT), ("tempo -m 0.9", EXACT),
    ("tempo -l 1.1", EXACT), ("tempo 1.1 40 10 8", EXACT),
]


def _split(case):
    words, rate, channels = case.split(), 16000, 2
    while words[0][0] in "@#":
        head = words.pop(0)
        rate, channels = (int(head[1:]), channels) if head[0] == "@" else (rate, int(head[1:]))
    return words, rate, channels


def _ours(x, rate, effects):
    y, out_rate = apply_effects_tensor(core.from_numpy(x), rate, effects)
    return y.numpy().astype(np.float64), out_rate


@needs_sox
@pytest.mark.parametrize("case,tolerance", CASES, ids=[c for c, _ in CASES])
def test_matches_sox(case, tolerance):
    effect, rate, channels = _split(case)
    x = make_signal(channels, rate)
    out_channels = 2 if effect[0] == "reverb" and channels == 1 and effect[-1] != "0" else None
    expected, expected_rate = run_sox(x, rate, [effect], output_channels=out_channels)
    got, got_rate = _ours(x, rate, [effect])
    assert got_rate == expected_rate
    assert got.shape == expected.shape
    assert got.size == 0 or np.abs(got - expected).max() <= tolerance


# Resampling: sox's multi-stage design and our single Kaiser-windowed sinc differ in the
# transition band, so the match is to -60 dB RMS (and 5e-3 at worst) on band-limited input.
RATE_CASES = [("rate 8000", 16000), ("rate 44100", 16000), ("rate 16000", 44100), ("rate -v 22050", 16000),
              ("rate -m 12k", 16000), ("speed 0.8", 16000), ("speed 1.1", 16000), ("speed 200c", 16000),
              ("pitch 200", 16000), ("pitch -300", 16000)]


@needs_sox
@pytest.mark.parametrize("case,rate", RATE_CASES, ids=[c for c, _ in RATE_CASES])
def test_resampling_matches_sox(case, rate):
    effect = case.split()
    x = make_signal(2, rate, noise=0.0)
    expected, expected_rate = run_sox(x, rate, [effect])
    # the sox program resamples speed and pitch back to the file's rate by itself
    chain = [effect] + ([["rate", str(rate)]] if effect[0] in ("speed", "pitch") else [])
    got, got_rate = _ours(x, rate, chain)
    assert got_rate == expected_rate and got.shape == expected.shape
    assert np.abs(got - expected).max() < 5e-3
    assert np.sqrt(np.mean((got - expected) ** 2)) < 1e-3


@needs_sox
def test_quick_tempo_search_is_close_to_sox():
    """tempo -q: the hierarchical search can pick other overlap points than sox 14.4's, so the
    check is the length and the energy of every 20 ms within 1.5 dB."""
    x = make_signal(2, 16000)
    expected, _ = run_sox(x, 16000, [["tempo", "-q", "1.3"]])
    got, _ = _ours(x, 16000, [["tempo", "-q", "1.3"]])
    assert got.shape == expected.shape
    frames = got.shape[1] // 320 * 320
    energy = [np.sqrt((a[:, :frames].reshape(2, -1, 320) ** 2).mean(axis=(0, 2))) for a in (got, expected)]
    loud = energy[1] > 0.02
    assert np.abs(20 * np.log10(energy[0][loud] / energy[1][loud])).max() < 1.5


@needs_sox
def test_dither_adds_tpdf_noise_like_sox():
    """Random, so the statistics: rounding to 16 bits with triangular noise of one step leaves an
    error of variance 1/4 step^2 (1/12 from rounding, 1/6 from the noise)."""
    x = make_signal(1, 16000, seconds=1.0)
    step = 2.0 ** -15
    expected, _ = run_sox(x, 16000, [["dither", "-p", "16"]])
    audio.utils.sox_utils.set_seed(1)
    got, _ = _ours(x, 16000, [["dither", "-p", "16"]])
    for y in (got, expected):
        error = (y - x) / step
        assert abs(error.var() - 0.25) < 0.03 and abs(error.mean()) < 0.02
    assert np.allclose(got * 2 ** 15, np.round(got * 2 ** 15))  # on the 16-bit grid


def test_chains_and_dtypes():
    x = core.from_numpy(make_signal(2, 16000))
    y, rate = apply_effects_tensor(x, 16000, [["gain", "-n"], ["speed", "0.8"], ["rate", "16000"]])
    assert rate == 16000 and y.dtype == core.float32 and abs(y.shape[1] - 10000) <= 1
    y, rate = apply_effects_tensor(x, 16000, [["speed", "0.8"]])  # only the rate changes
    assert rate == 12800 and bool((y == x).all())
    pcm = (x * 32767).to(core.int16)
    y, _ = apply_effects_tensor(pcm, 16000, [["vol", "0.5"]])
    assert y.dtype == core.int16 and np.abs(y.numpy() - pcm.numpy() * 0.5).max() <= 1
    t, _ = apply_effects_tensor(x.t().contiguous(), 16000, [["trim", "0", "100s"]], channels_first=False)
    assert tuple(t.shape) == (100, 2)
    assert {"gain", "rate", "reverb", "vad", "silence", "tempo"} <= set(effect_names())


def test_apply_effects_file(tmp_path):
    x = core.from_numpy(make_signal(2, 16000))
    path = tmp_path / "in.wav"
    audio.save(path, x, 16000, bits_per_sample=16)
    y, rate = apply_effects_file(path, [["rate", "8000"]])
    assert rate == 8000 and y.dtype == core.float32 and tuple(y.shape) == (2, 4000)
    z, _ = apply_effects_file(str(path), [["reverse"]], normalize=False)
    assert z.dtype == core.int16
    buffer = io.BytesIO(path.read_bytes())
    w, _ = apply_effects_file(buffer, [["channels", "1"]], channels_first=False)
    assert tuple(w.shape) == (8000, 1)
    with pytest.raises(FileNotFoundError):
        apply_effects_file(tmp_path / "none.wav", [])


@pytest.mark.parametrize("effects,message", [
    ([["nosuch"]], "'nosuch' is not available"),
    ([["gain", "loud"]], "gain.*number"),
    ([["lowpass"]], "lowpass.*arguments"),
    ([["lowpass", "9000"]], "half the sample rate"),
    ([["bandpass", "1000", "3x"]], "width"),
    ([["rate", "-M", "8000"]], "linear phase"),
    ([["tempo", "200"]], "factor"),
    ([["fade", "q", "0.4", "0.5", "0.3"]], "fade-in must end"),
    ([["trim", "0.3", "=0.1"]], "backwards"),
    ([["remix", "3"]], "not among the 2 input channels"),
    ([["silence", "1", "100"]], "duration and a threshold"),
    ([["vad", "-x", "1"]], "invalid option"),
    ([["gain", "-h"]], "not supported"),
    ([["echo", "0.8", "0.9", "50"]], "gain-in gain-out delay decay"),
    ([["deemph"]], "44100 or 48000"),
])
def test_bad_effects_raise_naming_them(effects, message):
    x = core.zeros(2, 1000)
    with pytest.raises(EffectError, match=message):
        apply_effects_tensor(x, 16000, effects)


def test_bad_chain_arguments():
    x = core.zeros(2, 100)
    with pytest.raises(TypeError, match="list of strings"):
        apply_effects_tensor(x, 16000, [["gain", 3]])
    with pytest.raises(ValueError, match="2-D"):
        apply_effects_tensor(x[0], 16000, [])
    with pytest.raises(ValueError, match="sample_rate"):
        apply_effects_tensor(x, 0, [])


def test_init_and_shutdown_are_kept_for_compatibility():
    audio.sox_effects.init_sox_effects()  # again: fine before shutdown
    assert math.isfinite(float(apply_effects_tensor(core.ones(1, 10) * 0.1, 8000, [["gain", "-1"]])[0].sum()))
