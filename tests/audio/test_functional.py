"""audio.functional: lfilter against a scalar recursion and its gradients (float64 gradcheck
w.r.t. the waveform and both coefficient vectors), the filter designs, codecs and effects."""
import math

import numpy as np
import pytest

import core
import audio.functional as F
from core.autograd import gradcheck, gradgradcheck


def _reference_lfilter(x, a, b):
    """y[t] = (sum_k b[k] x[t-k] - sum_{k>=1} a[k] y[t-k]) / a[0], one row at a time."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    b, a = b / a[0], a / a[0]
    x = np.asarray(x, dtype=np.float64)
    y = np.zeros_like(x)
    for t in range(x.shape[-1]):
        acc = sum(b[k] * x[..., t - k] for k in range(len(b)) if t - k >= 0)
        acc = acc - sum(a[k] * y[..., t - k] for k in range(1, len(a)) if t - k >= 0)
        y[..., t] = acc
    return y


@pytest.mark.parametrize("order", [1, 2, 3, 5])
@pytest.mark.parametrize("dtype", [core.float32, core.float64])
def test_lfilter_matches_the_recursion(rng, order, dtype):
    x = rng.uniform(-0.5, 0.5, (3, 2, 300))
    roots = rng.uniform(0.2, 0.8, order - 1) * rng.choice([-1, 1], order - 1)  # a stable filter
    a = np.poly(roots) * 1.7 if order > 1 else np.array([1.7])
    b = rng.uniform(-1, 1, order)
    got = F.lfilter(core.tensor(x, dtype=dtype), core.tensor(a, dtype=dtype), core.tensor(b, dtype=dtype),
                    clamp=False)
    tol = 1e-12 if dtype == core.float64 else 2e-6
    assert tuple(got.shape) == x.shape and got.dtype == dtype
    np.testing.assert_allclose(got.numpy(), _reference_lfilter(x, a, b), atol=tol)


def test_lfilter_filter_banks_and_clamp(rng):
    x = rng.uniform(-1, 1, (2, 3, 200))
    a = np.array([[1.0, -0.5, 0.1], [1.0, 0.3, 0.0], [2.0, -1.0, 0.3]])
    b = np.array([[2.0, 1.0, 0.5], [0.5, 0.5, 0.0], [1.0, 0.0, -1.0]])
    xt, at, bt = (core.tensor(v, dtype=core.float64) for v in (x, a, b))
    batched = F.lfilter(xt, at, bt, clamp=False)  # filter i on row i
    for i in range(3):
        np.testing.assert_allclose(batched.numpy()[:, i], _reference_lfilter(x[:, i], a[i], b[i]), atol=1e-12)
    every = F.lfilter(xt, at, bt, clamp=False, batching=False)  # every filter on every row
    assert tuple(every.shape) == (2, 3, 3, 200)
    np.testing.assert_allclose(every.numpy()[1, 0, 2], _reference_lfilter(x[1, 0], a[2], b[2]), atol=1e-12)
    clamped = F.lfilter(xt, at, bt)
    assert float(clamped.abs().max()) <= 1.0 and float(batched.abs().max()) > 1.0


def test_lfilter_gradients():
    g = core.Generator().manual_seed(0)
    x = core.rand(2, 1, 40, dtype=core.float64, generator=g).requires_grad_()
    a = core.tensor([1.3, -0.4, 0.2], dtype=core.float64).requires_grad_()
    b = core.tensor([0.5, 0.3, -0.2], dtype=core.float64).requires_grad_()

    def fn(x, a, b):
        return F.lfilter(x, a, b, clamp=False)

    assert gradcheck(fn, (x, a, b))
    assert gradgradcheck(fn, (x, a, b))
    banks = (core.rand(3, 2, 25, dtype=core.float64, generator=g).requires_grad_(),
             core.tensor([[1.0, -0.5], [0.8, 0.2]], dtype=core.float64).requires_grad_(),
             core.tensor([[0.4, 0.1], [1.0, -0.3]], dtype=core.float64).requires_grad_())
    assert gradcheck(fn, banks)
    assert gradcheck(lambda x, a, b: F.filtfilt(x, a, b, clamp=False), (x, a, b))
    assert F.lfilter(x, a, b).grad_fn is not None


def test_lfilter_rejects_bad_input():
    x = core.zeros(2, 10)
    with pytest.raises(ValueError, match="same shape|one shape"):
        F.lfilter(x, core.tensor([1.0, 0.5]), core.tensor([1.0]))
    with pytest.raises(TypeError, match="dtype"):
        F.lfilter(x, core.tensor([1.0, 0.5], dtype=core.float64), core.tensor([1.0, 0.5], dtype=core.float64))
    with pytest.raises(ValueError, match="rows before time"):
        F.lfilter(x, core.ones(3, 2), core.ones(3, 2))
    with pytest.raises(ValueError, match="must not be zero"):
        F.lfilter(x, core.tensor([0.0, 0.5]), core.tensor([1.0, 0.5]))
    with pytest.raises(TypeError, match="float32 or float64"):
        F.lfilter(core.zeros(2, 10, dtype=core.int32), core.tensor([1.0]), core.tensor([1.0]))


def _response(b, a, freq, rate):
    z = np.exp(-1j * 2 * np.pi * freq / rate * np.arange(3))
    return abs(np.dot(b, z) / np.dot(a, z))


def test_biquad_designs_have_their_responses():
    """Each design's gain at its defining frequencies (the RBJ cookbook's promises)."""
    rate = 16000
    impulse = core.zeros(1, 4096, dtype=core.float64)
    impulse[0, 0] = 0.1  # small enough that the clamp to [-1, 1] never acts

    def gain_at(y, freq):
        spectrum = np.fft.rfft(y.numpy()[0]) / 0.1
        return abs(spectrum[int(round(freq / rate * 4096))])

    cases = [
        (F.lowpass_biquad(impulse, rate, 1000), [(1000, 1 / math.sqrt(2)), (20, 1.0)]),
        (F.highpass_biquad(impulse, rate, 1000), [(1000, 1 / math.sqrt(2)), (7900, 1.0)]),
        (F.bandpass_biquad(impulse, rate, 2000, Q=2), [(2000, 1.0)]),
        (F.bandreject_biquad(impulse, rate, 2000, Q=2), [(2000, 0.0), (20, 1.0)]),
        (F.allpass_biquad(impulse, rate, 2000), [(500, 1.0), (2000, 1.0), (6000, 1.0)]),
        (F.equalizer_biquad(impulse, rate, 2000, 6.0), [(2000, 10 ** (6 / 20)), (20, 1.0)]),
        (F.bass_biquad(impulse, rate, 6.0), [(4, 10 ** (6 / 20)), (7000, 1.0)]),
        (F.treble_biquad(impulse, rate, -6.0), [(7990, 10 ** (-6 / 20)), (10, 1.0)]),
    ]
    for y, checks in cases:
        for freq, expected in checks:
            assert abs(gain_at(y, freq) - expected) < 0.03, (freq, expected)
    riaa = F.riaa_biquad(core.zeros(1, 4096, dtype=core.float64).index_fill_(1, core.tensor([0]), 1.0), 44100)
    assert abs(abs(np.fft.rfft(riaa.numpy()[0])[int(round(1000 / 44100 * 4096))]) - 1.0) < 0.02  # 0 dB at 1 kHz
    with pytest.raises(ValueError, match="44100"):
        F.deemph_biquad(impulse, 16000)


def test_mu_law_round_trip(rng):
    x = core.tensor(rng.uniform(-1, 1, 1000), dtype=core.float32)
    encoded = F.mu_law_encoding(x, 256)
    assert encoded.dtype == core.int64 and int(encoded.min()) >= 0 and int(encoded.max()) <= 255
    decoded = F.mu_law_decoding(encoded, 256)
    assert float((decoded - x).abs().max()) < 0.04  # one step of the coarsest mu-law bin
    assert int(F.mu_law_encoding(core.tensor([0.0]), 256)[0]) == 128


def test_apply_codec_round_trips(rng):
    t = np.arange(8000) / 8000
    x = core.tensor(np.stack([0.5 * np.sin(2 * np.pi * 440 * t), 0.3 * np.sin(2 * np.pi * 660 * t)]),
                    dtype=core.float32)
    lossless = F.apply_codec(x, 8000, "wav", encoding="PCM_S", bits_per_sample=16)
    assert tuple(lossless.shape) == (2, 8000) and float((lossless - x).abs().max()) < 1e-4
    ulaw = F.apply_codec(x, 8000, "wav", encoding="ULAW")
    assert float((ulaw - x).abs().max()) < 0.02
    vorbis = F.apply_codec(x, 8000, "ogg", compression=5)
    assert vorbis.shape[0] == 2 and abs(vorbis.shape[1] - 8000) < 2000
    opus = F.apply_codec(x, 44100, "opus")  # opus needs 48 kHz: resampled there and back
    assert opus.shape[0] == 2 and abs(opus.shape[1] - 8000) < 1000


def test_level_effects(rng):
    x = core.tensor(rng.uniform(-0.6, 0.6, (2, 500)), dtype=core.float64)
    assert np.allclose(F.gain(x, 6.0).numpy(), x.numpy() * 10 ** 0.3)
    assert np.allclose(F.dcshift(x, 0.5).numpy(), np.clip(x.numpy() + 0.5, -1, 1))
    limited = F.dcshift(x, 0.5, limiter_gain=0.05).numpy()
    assert limited.max() <= 1.0 and np.allclose(limited[x.numpy() < 0.4], x.numpy()[x.numpy() < 0.4] + 0.5)
    c = F.contrast(x, 75.0).numpy()
    assert np.allclose(c, np.sin(x.numpy() * np.pi / 2 + 0.1 * np.sin(x.numpy() * 2 * np.pi)))
    with pytest.raises(ValueError, match="enhancement_amount"):
        F.contrast(x, 101)


def test_overdrive_matches_its_recursion(rng):
    x = rng.uniform(-0.5, 0.5, (1, 300))
    g, colour = 10 ** (20 / 20), 20 / 200
    v = x * g + colour
    v = np.where(v < -1, -2 / 3, np.where(v > 1, 2 / 3, v - v ** 3 / 3))
    out, last_in, last_out = np.zeros_like(x), 0.0, 0.0
    for t in range(x.shape[1]):
        last_out = v[0, t] - last_in + 0.995 * last_out
        last_in = v[0, t]
        out[0, t] = x[0, t] * 0.5 + last_out * 0.75
    np.testing.assert_allclose(F.overdrive(core.tensor(x), 20, 20).numpy(), np.clip(out, -1, 1), atol=1e-12)


def test_modulation_effects_shapes_and_errors(rng):
    x = core.tensor(rng.uniform(-0.5, 0.5, (3, 2, 800)), dtype=core.float32)
    assert F.flanger(x, 8000).shape == x.shape and F.flanger(x, 8000).dtype == core.float32
    assert F.phaser(x, 8000).shape == x.shape
    with pytest.raises(ValueError, match="modulation"):
        F.flanger(x, 8000, modulation="square")
    with pytest.raises(ValueError, match="at most 4 channels"):
        F.flanger(core.zeros(5, 100), 8000)
    with pytest.raises(RuntimeError, match="derivative|differentiable|grad"):
        F.phaser(core.zeros(1, 100, requires_grad=True), 8000).sum().backward()


def test_dither_quantises_to_16_bits(rng):
    x = core.tensor(rng.uniform(-0.5, 0.5, (2, 1000)), dtype=core.float64)
    for density in ["TPDF", "RPDF", "GPDF"]:
        y = F.dither(x, density)
        assert np.allclose(y.numpy() * 2 ** 15, np.round(y.numpy() * 2 ** 15))
        assert float((y - x).abs().max()) < 2e-3
    shaped = F.dither(x, noise_shaping=True)
    assert shaped.shape == x.shape
    with pytest.raises(ValueError, match="density_function"):
        F.dither(x, "XPDF")


def test_vad_trims_the_leading_noise(rng):
    rate = 16000
    t = np.arange(rate * 2) / rate
    x = 0.002 * rng.standard_normal(t.size)
    voiced = t > 0.9
    x[voiced] += 0.5 * sum(np.sin(2 * np.pi * 140 * h * t[voiced]) / h for h in range(1, 20))
    y = F.vad(core.tensor(x, dtype=core.float32), rate)
    start = x.size - y.shape[-1]
    assert 0.3 * rate < start < 0.9 * rate  # cut before the voice, with the search margin
    assert F.vad(core.tensor(0.001 * rng.standard_normal(rate), dtype=core.float32), rate).shape[-1] == 0


def test_effect_kernels_keep_a_named_waveforms_names():
    # The op-table entries of audio._C map (channel, time) to (channel, time): names carry over.
    from audio import _kernels

    wave = core.randn(2, 400, names=("C", "T"))
    assert _kernels.overdrive(wave, 20.0, 20.0).names == ("C", "T")
    resampled = _kernels.resample(wave, 16000.0, 8000.0, 0.95, 100.0)
    assert resampled.names == ("C", "T") and resampled.shape[1] < 400
    filtered = _kernels.lfilter(core.randn(1, 2, 50, names=("N", "C", "T")), core.tensor([[1.0, -0.5]] * 2),
                                core.tensor([[0.5, 0.5]] * 2))
    assert filtered.names == ("N", "C", "T")
