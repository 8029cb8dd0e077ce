"""Windows against numpy, stft against a numpy reference written here, istft round trips,
and the bad-input errors."""
import numpy as np
import pytest

import core

rng = np.random.default_rng(0)


def _periodic(fn, n):
    return fn(n + 1)[:-1]


@pytest.mark.parametrize("n", [0, 1, 2, 7, 400])
def test_windows_match_numpy(n):
    def both(ours, symmetric_ref, **kw):
        periodic = ours(n, **kw).numpy()
        symmetric = ours(n, periodic=False, **kw).numpy()
        ref_p = _periodic(symmetric_ref, n) if n > 1 else np.ones(n)
        ref_s = symmetric_ref(n) if n > 1 else np.ones(n)
        np.testing.assert_allclose(periodic, ref_p, atol=1e-6)
        np.testing.assert_allclose(symmetric, ref_s, atol=1e-6)

    both(core.hann_window, np.hanning)
    both(core.hamming_window, np.hamming)
    both(core.blackman_window, np.blackman)
    both(core.bartlett_window, np.bartlett)
    both(core.kaiser_window, lambda m: np.kaiser(m, 12.0))
    both(core.kaiser_window, lambda m: np.kaiser(m, 5.0), beta=5.0)


def test_window_dtype_and_errors():
    assert core.hann_window(4, dtype=core.float64).dtype == core.float64
    assert core.hann_window(4).dtype == core.float32
    assert core.hann_window(4, requires_grad=True).requires_grad
    with pytest.raises(RuntimeError, match="non-negative window_length"):
        core.hann_window(-1)
    with pytest.raises(RuntimeError, match="floating point"):
        core.hann_window(4, dtype=core.int64)


def _numpy_stft(x, n_fft, hop, window, center, pad_mode, normalized, onesided):
    if center:
        x = np.pad(x, [(0, 0)] * (x.ndim - 1) + [(n_fft // 2, n_fft // 2)], mode=pad_mode)
    count = 1 + (x.shape[-1] - n_fft) // hop
    frames = np.stack([x[..., i * hop:i * hop + n_fft] * window for i in range(count)], axis=-2)
    spec = np.fft.rfft(frames) if onesided else np.fft.fft(frames)
    if normalized:
        spec = spec / np.sqrt(n_fft)
    return np.swapaxes(spec, -1, -2)


@pytest.mark.parametrize("n_fft,hop,win_length,center,pad_mode,normalized,onesided", [
    (16, 4, None, True, "reflect", False, True),
    (15, 5, 11, True, "constant", True, True),
    (16, 16, 8, False, "reflect", False, False),
    (400, 160, None, True, "reflect", False, True),
])
def test_stft_matches_numpy(n_fft, hop, win_length, center, pad_mode, normalized, onesided):
    x = rng.standard_normal((2, 1000))
    win_length = win_length or n_fft
    window = np.hanning(win_length + 1)[:-1]
    padded = np.zeros(n_fft)
    left = (n_fft - win_length) // 2
    padded[left:left + win_length] = window
    ours = core.stft(core.tensor(x), n_fft, hop, win_length, core.tensor(window), center, pad_mode,
                     normalized, onesided, return_complex=True)
    ref = _numpy_stft(x, n_fft, hop, padded, center, pad_mode, normalized, onesided)
    assert ours.shape == ref.shape and ours.dtype == core.complex128
    np.testing.assert_allclose(ours.numpy(), ref, atol=1e-10)
    single = core.tensor(x[0]).stft(n_fft, hop, win_length, core.tensor(window), center, pad_mode, normalized,
                                    onesided, return_complex=True)
    np.testing.assert_allclose(single.numpy(), ref[0], atol=1e-10)


def test_stft_defaults_and_real_view():
    x = core.tensor(rng.standard_normal(64).astype(np.float32))
    with pytest.warns(UserWarning, match="return_complex"):
        real_view = core.stft(x, 16)
    assert real_view.shape == (9, 17, 2)  # hop n_fft // 4, rectangular window
    spec = core.stft(x, 16, return_complex=True)
    np.testing.assert_allclose(core.view_as_real(spec).numpy(), real_view.numpy())
    z = core.stft(x.to(core.complex64), 16, return_complex=True)
    assert z.shape == (16, 17)  # complex input: two-sided


@pytest.mark.parametrize("n_fft,hop,window_fn,center,length", [
    (16, 4, core.hann_window, True, None),
    (400, 100, core.hann_window, True, 1000),
    (32, 8, core.hamming_window, False, None),
    (31, 10, core.blackman_window, True, 997),
])
def test_istft_round_trip(n_fft, hop, window_fn, center, length):
    x = core.tensor(rng.standard_normal((3, 1000)))
    window = window_fn(n_fft, dtype=core.float64)
    spec = core.stft(x, n_fft, hop, window=window, center=center, return_complex=True)
    y = core.istft(spec, n_fft, hop, window=window, center=center, length=length)
    n = y.shape[-1]
    if length is not None:
        assert n == length
    start = 0 if center else n_fft  # without centring, the first frame's edge is not covered
    np.testing.assert_allclose(y.numpy()[:, start:n - start], x.numpy()[:, start:n - start], atol=1e-9)


def test_istft_two_sided_and_longer_length():
    x = core.tensor(rng.standard_normal(200))
    window = core.hann_window(20, dtype=core.float64)
    spec = core.stft(x, 20, 5, window=window, onesided=False, return_complex=True)
    # 41 frames cover 220 samples of the centred signal: 210 after dropping the first 10;
    # beyond that the output is zero-padded.
    y = core.istft(spec, 20, 5, window=window, onesided=False, length=215)
    assert y.shape == (215,)
    np.testing.assert_allclose(y.numpy()[:200], x.numpy(), atol=1e-9)
    np.testing.assert_array_equal(y.numpy()[210:], 0.0)


def test_bad_input():
    x = core.randn(100)
    w = core.hann_window(16)
    with pytest.raises(RuntimeError, match="hop_length > 0"):
        core.stft(x, 16, 0, window=w, return_complex=True)
    with pytest.raises(RuntimeError, match="n_fft > 0"):
        core.stft(x, 0, return_complex=True)
    with pytest.raises(RuntimeError, match="n_fft <= 100"):
        core.stft(x, 200, window=core.hann_window(200), return_complex=True, center=False)
    with pytest.raises(RuntimeError, match="reflect padding"):
        core.stft(core.randn(5), 16, window=w, return_complex=True)
    with pytest.raises(RuntimeError, match="window tensor of size equal to win_length=16"):
        core.stft(x, 16, window=core.hann_window(15), return_complex=True)
    with pytest.raises(RuntimeError, match="win_length <= n_fft"):
        core.stft(x, 16, win_length=17, return_complex=True)
    with pytest.raises(RuntimeError, match="1D or 2D"):
        core.stft(core.randn(2, 2, 100), 16, return_complex=True)
    spec = core.stft(x, 16, window=w, return_complex=True)
    with pytest.raises(RuntimeError, match="hop_length > 0"):
        core.istft(spec, 16, 0, window=w)
    with pytest.raises(RuntimeError, match="window tensor of size"):
        core.istft(spec, 16, window=core.hann_window(8))
    with pytest.raises(RuntimeError, match="frequency dimension"):
        core.istft(spec, 32, window=core.hann_window(32), onesided=True)
    with pytest.raises(RuntimeError, match="NOLA"):
        core.istft(spec, 16, 16, window=core.hann_window(16, periodic=False), center=False)
