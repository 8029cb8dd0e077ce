"""audio.functional and audio.sox_effects against torchaudio (skipped when torchaudio is not
installed; it needs torch 2.9.1 + torchaudio 2.9): filters forward and gradients, the sox-style
effects torchaudio implements in Python, mu-law, and vad."""
import numpy as np
import pytest

import core
import audio.functional as F

torch = pytest.importorskip("torch")
torchaudio = pytest.importorskip("torchaudio")
TAF = torchaudio.functional

SR = 16000
_rng = np.random.default_rng(3)


def _wave(shape=(2, 3, 1200), scale=0.6):
    return (_rng.uniform(-scale, scale, shape)).astype(np.float64)


def _both(x, dtype=np.float32):
    return core.tensor(x.astype(dtype)), torch.tensor(x.astype(dtype))


def _close(ours, theirs, atol):
    np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(), atol=atol, rtol=0)


BIQUADS = [
    ("allpass_biquad", (SR, 1200.0, 0.9)), ("band_biquad", (SR, 1000.0, 0.7, False)),
    ("band_biquad", (SR, 1000.0, 0.7, True)), ("bandpass_biquad", (SR, 1500.0, 1.2, False)),
    ("bandpass_biquad", (SR, 1500.0, 1.2, True)), ("bandreject_biquad", (SR, 900.0, 0.6)),
    ("bass_biquad", (SR, 4.0, 150.0, 0.6)), ("treble_biquad", (SR, -5.0, 2500.0, 0.8)),
    ("equalizer_biquad", (SR, 2000.0, 3.0, 1.1)), ("highpass_biquad", (SR, 400.0, 0.707)),
    ("lowpass_biquad", (SR, 3000.0, 0.5)), ("deemph_biquad", (44100,)), ("riaa_biquad", (48000,)),
]


@pytest.mark.parametrize("name,args", BIQUADS, ids=[f"{n}{a}" for n, a in BIQUADS])
def test_biquads(name, args):
    ours, theirs = _both(_wave(scale=0.3))
    _close(getattr(F, name)(ours, *args), getattr(TAF, name)(theirs, *args), 2e-5)


@pytest.mark.parametrize("clamp", [True, False])
def test_lfilter_forward_and_gradients(clamp):
    x = _wave((2, 400))
    a = np.array([1.2, -0.5, 0.25])
    b = np.array([0.4, 0.3, 0.1])
    xc, xt = (t.requires_grad_() for t in _both(x, np.float64))
    ac, at = (t.requires_grad_() for t in _both(a, np.float64))
    bc, bt = (t.requires_grad_() for t in _both(b, np.float64))
    yc, yt = F.lfilter(xc, ac, bc, clamp=clamp), TAF.lfilter(xt, at, bt, clamp=clamp)
    _close(yc, yt, 1e-12)
    g = _rng.standard_normal(yc.shape)
    core.autograd.backward(yc, core.tensor(g))
    yt.backward(torch.tensor(g))
    for ours, theirs in [(xc, xt), (ac, at), (bc, bt)]:
        _close(ours.grad, theirs.grad, 1e-9)


def test_lfilter_filter_banks_and_filtfilt():
    x = _wave((2, 3, 500), scale=0.4)
    a = np.array([[1.0, -0.4], [1.0, 0.2], [1.5, 0.3]])
    b = np.array([[0.5, 0.2], [0.7, -0.1], [1.0, 0.0]])
    (xc, xt), (ac, at), (bc, bt) = _both(x), _both(a), _both(b)
    for batching in (True, False):
        _close(F.lfilter(xc, ac, bc, batching=batching), TAF.lfilter(xt, at, bt, batching=batching), 2e-6)
    _close(F.filtfilt(xc, ac, bc), TAF.filtfilt(xt, at, bt), 2e-6)


def test_sox_style_effects():
    ours, theirs = _both(_wave((2, 4000), scale=0.5))
    _close(F.contrast(ours, 60), TAF.contrast(theirs, 60), 1e-6)
    _close(F.dcshift(ours, 0.3), TAF.dcshift(theirs, 0.3), 1e-6)
    _close(F.dcshift(ours, -0.4, 0.05), TAF.dcshift(theirs.clone(), -0.4, 0.05), 1e-6)
    _close(F.gain(ours, -4.0), TAF.gain(theirs, -4.0), 1e-6)
    _close(F.overdrive(ours, 15, 30), TAF.overdrive(theirs, 15, 30), 1e-5)
    _close(F.phaser(ours, SR, 0.5, 0.8, 2.0, 0.5, 1.0, False), TAF.phaser(theirs, SR, 0.5, 0.8, 2.0, 0.5, 1.0, False),
           1e-5)
    for modulation, interpolation in [("sinusoidal", "linear"), ("triangular", "quadratic")]:
        _close(F.flanger(ours, SR, 1.0, 3.0, 30.0, 60.0, 1.0, 40.0, modulation, interpolation),
               TAF.flanger(theirs, SR, 1.0, 3.0, 30.0, 60.0, 1.0, 40.0, modulation, interpolation), 1e-5)


def test_dither_tpdf_is_deterministic_and_matches():
    ours, theirs = _both(_wave((2, 3000), scale=0.5))
    _close(F.dither(ours), TAF.dither(theirs), 1e-6)
    _close(F.dither(ours, noise_shaping=True), TAF.dither(theirs, noise_shaping=True), 1e-6)


def test_mu_law():
    ours, theirs = _both(_wave((1000,), scale=1.0))
    assert np.array_equal(F.mu_law_encoding(ours, 256).numpy(), TAF.mu_law_encoding(theirs, 256).numpy())
    codes = np.arange(256)
    _close(F.mu_law_decoding(core.tensor(codes), 256), TAF.mu_law_decoding(torch.tensor(codes), 256), 1e-6)


def test_vad():
    t = np.arange(SR * 2) / SR
    x = 0.002 * _rng.standard_normal(t.size)
    voiced = t > 0.7
    x[voiced] += 0.5 * sum(np.sin(2 * np.pi * 150 * h * t[voiced]) / h for h in range(1, 18))
    ours, theirs = _both(np.stack([x, 0.7 * x]))
    got, expected = F.vad(ours, SR), TAF.vad(theirs, SR)
    assert got.shape == tuple(expected.shape)
    _close(got, expected, 0)
