"""audio.functional.compute_kaldi_pitch by the properties one can check without Kaldi:
torchaudio 2.9 no longer ships it and no Kaldi build is at hand, so nothing here compares
numbers with Kaldi's. Checked: pitch of tones and glides (within 1 % where the signal is steady,
the lag grid being 0.5 % apart), voicing (NCCF) high on tones and low on noise, the frame counts
and shapes Kaldi's framing gives, the options' effects, the online (chunked, first-pass)
variants, and bad input."""
import numpy as np
import pytest

import core
import audio.functional as F

SR = 16000


def _tone(f0, seconds=1.0, harmonics=3, noise=0.0, seed=0, rate=SR):
    t = np.arange(int(rate * seconds)) / rate
    phase = 2 * np.pi * np.cumsum(np.broadcast_to(f0, t.shape)) / rate
    x = sum(0.4 / k * np.sin(k * phase) for k in range(1, harmonics + 1))
    return (x + noise * np.random.default_rng(seed).standard_normal(t.size)).astype(np.float32)


def _pitch(x, **kwargs):
    return F.compute_kaldi_pitch(core.tensor(x), kwargs.pop("sample_rate", SR), **kwargs).numpy()


@pytest.mark.parametrize("f0", [60.0, 100.0, 180.0, 260.0, 390.0])
def test_tone_pitch_and_voicing(f0):
    out = _pitch(_tone(f0, noise=0.01))[:-3]  # the last frames' longest lags reach past the end
    nccf, pitch = out[:, 0], out[:, 1]
    assert np.all(np.abs(pitch / f0 - 1) < 0.01), (pitch.min(), pitch.max())
    assert np.all(nccf > 0.9)


def test_glide_is_tracked():
    """A voice gliding 110 -> 220 Hz over 2 s: each frame's pitch within 1.5 % of the
    frequency at the middle of its analysis window."""
    seconds = 2.0
    n = int(SR * seconds)
    f0 = 110.0 * 2.0 ** (np.arange(n) / n)
    out = _pitch(_tone(f0, seconds, noise=0.01))
    centre = (np.arange(out.shape[0]) * 0.010 + 0.0125 + 0.5 / out[:, 1]) * SR  # window + half the lag
    expected = f0[np.minimum(centre.astype(int), n - 1)]
    assert np.all(np.abs(out[:, 1] / expected - 1) < 0.015)


def test_noise_and_silence_are_unvoiced():
    noise = _pitch(np.random.default_rng(1).standard_normal(SR).astype(np.float32))
    assert np.median(noise[:, 0]) < 0.4 and np.all(noise[:, 1] >= 50) and np.all(noise[:, 1] <= 400 * 1.005)
    silence = _pitch(np.zeros(SR, np.float32))
    assert np.all(silence[:, 0] == 0.0)
    # voiced speech-like stretch after silence: the NCCF says which frames are voiced
    x = np.concatenate([np.zeros(SR // 2, np.float32), _tone(140.0, 0.5, noise=0.001)])
    out = _pitch(x)
    assert np.all(out[5:40, 0] < 0.05) and np.all(out[60:, 0] > 0.9)
    assert np.all(np.abs(out[60:, 1] / 140 - 1) < 0.01)


@pytest.mark.parametrize("seconds,shift,length,snip_edges", [
    (1.0, 10.0, 25.0, True), (1.0, 10.0, 25.0, False), (0.5, 5.0, 20.0, True), (0.51, 7.0, 30.0, False),
    (0.02, 10.0, 25.0, True),  # shorter than one window: no frames
])
def test_frame_counts(seconds, shift, length, snip_edges):
    """Frames of the signal resampled to 4 kHz: (samples - window) // shift + 1 with
    snip_edges, else samples / shift rounded."""
    x = _tone(150.0, seconds)
    out = _pitch(x, frame_shift=shift, frame_length=length, snip_edges=snip_edges)
    samples, window, hop = int(np.ceil(x.size * 4000 / SR)), int(4 * length), int(4 * shift)
    if snip_edges:
        expected = (samples - window) // hop + 1 if samples >= window else 0
    else:
        expected = int(samples / hop + 0.5)
    assert out.shape == (expected, 2)


def test_shapes_dtypes_and_channels():
    x = np.stack([_tone(120.0, 0.5), _tone(240.0, 0.5)])
    batched = F.compute_kaldi_pitch(core.tensor(np.stack([x, x[::-1]])), SR)
    assert batched.shape == (2, 2, 48, 2) and batched.dtype == core.float32
    assert np.abs(batched.numpy()[0, 0, :, 1] / 120 - 1).max() < 0.01
    assert np.abs(batched.numpy()[0, 1, :, 1] / 240 - 1).max() < 0.01
    np.testing.assert_array_equal(batched.numpy()[1, 0], batched.numpy()[0, 1])  # rows are independent
    single = F.compute_kaldi_pitch(core.tensor(x[0].astype(np.float64)), SR)
    assert single.dtype == core.float64 and single.shape == (48, 2)
    np.testing.assert_allclose(single.numpy(), batched.numpy()[0, 0], rtol=1e-5)


def test_options_change_what_they_should():
    x = _tone(150.0, 1.0, noise=0.01)
    base = _pitch(x)
    # the search range: a 150 Hz voice searched in [200, 400] Hz ends at the range's longest lag
    high = _pitch(x, min_f0=200.0, max_f0=400.0)
    assert np.all((high[:, 1] >= 200 * 0.995) & (high[:, 1] <= 400 * 1.005))
    assert np.abs(np.median(high[:, 1]) / 200 - 1) < 0.01
    # other sample and resample rates and a finer lag grid find the same pitch
    x8 = _tone(150.0, 1.0, noise=0.01, rate=8000)
    for out in (_pitch(x8, sample_rate=8000), _pitch(x, resample_frequency=8000, lowpass_cutoff=1500),
                _pitch(x, delta_pitch=0.002), _pitch(x, upsample_filter_width=3, lowpass_filter_width=2)):
        assert np.abs(out[:, 1] / 150 - 1).max() < 0.01
    # input scale does not matter (the NCCF and its ballast scale alike)
    np.testing.assert_allclose(_pitch(x * 100), base, rtol=1e-4)


def test_transition_penalty_smooths_the_track():
    """A noisy voice: a higher penalty_factor gives fewer pitch jumps."""
    x = _tone(130.0, 1.0, harmonics=6, noise=0.3, seed=4)
    jumps = [np.abs(np.diff(np.log(_pitch(x, penalty_factor=p)[:, 1]))).sum() for p in (0.0, 0.1, 10.0)]
    assert jumps[0] >= jumps[1] >= jumps[2] and jumps[0] > jumps[2]


def test_online_variants():
    """Chunked input and the simulated first pass follow the one-shot track (the ballast uses
    the energy seen so far, so at the jump a frame may land a lag step away)."""
    x = np.concatenate([_tone(150.0, 0.6, noise=0.01), _tone(210.0, 0.6, noise=0.01, seed=2)])
    one_shot = _pitch(x)
    chunked = _pitch(x, frames_per_chunk=7, recompute_frame=30)
    assert chunked.shape == one_shot.shape
    np.testing.assert_allclose(chunked[:, 1], one_shot[:, 1], rtol=0.011)
    assert np.mean(chunked[:, 1] == one_shot[:, 1]) > 0.95
    same = chunked[:, 1] == one_shot[:, 1]
    np.testing.assert_allclose(chunked[same, 0], one_shot[same, 0], atol=1e-7)  # the reported NCCF has no ballast
    first_pass = _pitch(x, frames_per_chunk=7, simulate_first_pass_online=True, max_frames_latency=20)
    assert first_pass.shape == one_shot.shape
    np.testing.assert_allclose(first_pass[:, 1], one_shot[:, 1], rtol=0.01)
    assert _pitch(x, frames_per_chunk=7, simulate_first_pass_online=True, max_frames_latency=0).shape == one_shot.shape


def test_recompute_after_a_quiet_start():
    """Chunks start with near silence, so the early frames' ballast comes from a tiny energy
    estimate; recomputing them once recompute_frame frames are in brings back the one-shot
    track (here frame for frame), which recompute_frame=0 (never) does not."""
    x = np.concatenate([_tone(150.0, 0.3, noise=0.0) * 1e-3, _tone(150.0, 0.8, noise=0.01)])
    one_shot = _pitch(x)
    recomputed = _pitch(x, frames_per_chunk=4, recompute_frame=60)
    never = _pitch(x, frames_per_chunk=4, recompute_frame=0)
    assert np.mean(recomputed[:, 1] == one_shot[:, 1]) > 0.98
    assert np.sum(never[:, 1] != one_shot[:, 1]) >= 10


@pytest.mark.parametrize("kwargs,message", [
    (dict(min_f0=400.0, max_f0=100.0), "min_f0"),
    (dict(lowpass_cutoff=3000.0), "lowpass_cutoff"),
    (dict(sample_rate=16000.5), "sample_rate"),
    (dict(simulate_first_pass_online=True), "frames_per_chunk"),
    (dict(delta_pitch=0.0), "delta_pitch"),
    (dict(frame_shift=0.0), "frame_shift"),
])
def test_bad_options(kwargs, message):
    with pytest.raises(ValueError, match=message):
        F.compute_kaldi_pitch(core.tensor(_tone(100.0, 0.2)), kwargs.pop("sample_rate", SR), **kwargs)
    with pytest.raises(TypeError, match="floating-point"):
        F.compute_kaldi_pitch(core.tensor([1, 2, 3]), SR)
