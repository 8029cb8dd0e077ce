"""core.fft, stft/istft, windows, audio.functional/transforms and compliance.kaldi against
PyTorch 2.9 / torchaudio 2.9 (skipped when absent). torchaudio's later names stand in for
0.8's where they were renamed (melscale_fbanks for create_fb_matrix)."""
import numpy as np
import pytest

import core

torch = pytest.importorskip("torch")
torchaudio = pytest.importorskip("torchaudio")

import audio.functional as AF  # noqa: E402
import audio.transforms as T  # noqa: E402
from audio.compliance import kaldi  # noqa: E402

rng = np.random.default_rng(0)


def _close(ours, theirs, rtol=1e-4, atol=1e-4):
    theirs = theirs.detach().resolve_conj().numpy() if hasattr(theirs, "detach") else theirs
    np.testing.assert_allclose(ours.detach().numpy() if hasattr(ours, "detach") else ours.numpy(), theirs,
                               rtol=rtol, atol=atol)


@pytest.mark.parametrize("name", ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "rfft2",
                                  "irfft2", "fftn", "ifftn", "rfftn", "irfftn"])
@pytest.mark.parametrize("norm", [None, "ortho", "forward"])
def test_fft_functions(name, norm):
    real_input = name in ("rfft", "ihfft", "rfft2", "rfftn")
    x = rng.standard_normal((3, 6, 7))
    if not real_input:
        x = x + 1j * rng.standard_normal((3, 6, 7))
    ours = getattr(core.fft, name)(core.tensor(x), norm=norm)
    theirs = getattr(torch.fft, name)(torch.tensor(x), norm=norm)
    assert str(ours.dtype).split(".")[-1] == str(theirs.dtype).split(".")[-1]
    _close(ours, theirs, 1e-10, 1e-10)


def test_fft_gradients():
    x = rng.standard_normal((4, 9))
    ours_x = core.tensor(x).requires_grad_()
    theirs_x = torch.tensor(x, requires_grad=True)
    w = rng.standard_normal((4, 5))
    (core.fft.rfft(ours_x).abs() * core.tensor(w)).sum().backward()
    (torch.fft.rfft(theirs_x).abs() * torch.tensor(w)).sum().backward()
    _close(ours_x.grad, theirs_x.grad, 1e-10, 1e-10)
    z = rng.standard_normal((5, 4))
    ours_z = core.tensor(z).requires_grad_()
    theirs_z = torch.tensor(z, requires_grad=True)
    (core.fft.irfft(core.view_as_complex(core.stack([ours_z, ours_z * 0.5], -1)), n=7) * 2).sum().backward()
    (torch.fft.irfft(torch.view_as_complex(torch.stack([theirs_z, theirs_z * 0.5], -1)), n=7) * 2).sum().backward()
    _close(ours_z.grad, theirs_z.grad, 1e-10, 1e-10)


@pytest.mark.parametrize("name", ["hann_window", "hamming_window", "blackman_window", "bartlett_window", "kaiser_window"])
@pytest.mark.parametrize("periodic", [True, False])
def test_windows(name, periodic):
    for n in [1, 2, 5, 400]:
        _close(getattr(core, name)(n, periodic), getattr(torch, name)(n, periodic), 1e-6, 1e-6)


@pytest.mark.parametrize("center,pad_mode,normalized,onesided,window", [
    (True, "reflect", False, True, np.hanning(401)[:-1]),
    (False, "constant", True, False, np.hamming(401)[:-1]),  # uncentred: the window's ends must not vanish
    (True, "constant", False, None, np.hanning(401)[:-1])])
def test_stft_istft(center, pad_mode, normalized, onesided, window):
    x = rng.standard_normal((2, 2000))
    w = window
    kw = dict(n_fft=400, hop_length=160, win_length=400, center=center, normalized=normalized, onesided=onesided)
    ours = core.stft(core.tensor(x), window=core.tensor(w), pad_mode=pad_mode, return_complex=True, **kw)
    theirs = torch.stft(torch.tensor(x), window=torch.tensor(w), pad_mode=pad_mode, return_complex=True, **kw)
    _close(ours, theirs, 1e-9, 1e-9)
    back = core.istft(ours, window=core.tensor(w), length=2000, **kw)
    back_t = torch.istft(theirs, window=torch.tensor(w), length=2000, **kw)
    _close(back, back_t, 1e-9, 1e-9)


@pytest.fixture(scope="module")
def waveform():
    t = np.arange(16000) / 16000
    x = 0.5 * np.sin(2 * np.pi * 220 * t) + 0.1 * rng.standard_normal(16000)
    return np.stack([x, np.roll(x, 100)]).astype(np.float32)


def test_spectrogram_mel_mfcc(waveform):
    ours_x, theirs_x = core.tensor(waveform), torch.tensor(waveform)
    for power in [None, 1.0, 2.0]:
        theirs = torchaudio.transforms.Spectrogram(power=power, normalized=True)(theirs_x)
        theirs = torch.view_as_real(theirs) if theirs.is_complex() else theirs  # 0.8: the real view
        _close(T.Spectrogram(power=power, normalized=True)(ours_x), theirs, 1e-4, 1e-4)
    for norm, scale in [(None, "htk"), ("slaney", "slaney")]:
        kw = dict(sample_rate=16000, n_mels=40, norm=norm, mel_scale=scale)
        _close(T.MelSpectrogram(**kw)(ours_x), torchaudio.transforms.MelSpectrogram(**kw)(theirs_x), 1e-3, 1e-3)
        _close(AF.melscale_fbanks(201, 0.0, 8000.0, 40, 16000, norm, scale),
               torchaudio.functional.melscale_fbanks(201, 0.0, 8000.0, 40, 16000, norm, scale), 1e-4, 1e-5)
    melkw = {"n_mels": 40}
    for log_mels in [False, True]:
        _close(T.MFCC(16000, 13, log_mels=log_mels, melkwargs=melkw)(ours_x),
               torchaudio.transforms.MFCC(16000, 13, log_mels=log_mels, melkwargs=melkw)(theirs_x), 1e-3, 1e-3)
    _close(AF.create_dct(13, 40, "ortho"), torchaudio.functional.create_dct(13, 40, "ortho"), 1e-5, 1e-5)
    _close(AF.create_dct(13, 40, None), torchaudio.functional.create_dct(13, 40, None), 1e-5, 1e-5)


def test_db_deltas_centroid_pitch_cmn(waveform):
    ours_x, theirs_x = core.tensor(waveform), torch.tensor(waveform)
    spec = T.Spectrogram()(ours_x)
    spec_t = torchaudio.transforms.Spectrogram()(theirs_x)
    for stype, top_db in [("power", None), ("magnitude", 60.0)]:
        _close(T.AmplitudeToDB(stype, top_db)(spec), torchaudio.transforms.AmplitudeToDB(stype, top_db)(spec_t), 1e-3, 1e-3)
    db = core.tensor(rng.uniform(-40, 0, (3, 5)).astype(np.float32))
    _close(AF.DB_to_amplitude(db, 1.0, 0.5), torchaudio.functional.DB_to_amplitude(torch.tensor(db.numpy()), 1.0, 0.5))
    _close(AF.compute_deltas(spec, 7), torchaudio.functional.compute_deltas(spec_t, 7), 1e-3, 1e-3)
    _close(T.SpectralCentroid(16000)(ours_x), torchaudio.transforms.SpectralCentroid(16000)(theirs_x), 1e-3, 1e-2)
    _close(AF.detect_pitch_frequency(ours_x, 16000), torchaudio.functional.detect_pitch_frequency(theirs_x, 16000))
    feats = rng.standard_normal((2, 300, 13)).astype(np.float32)
    for center, norm_vars in [(False, False), (True, True), (False, True)]:
        kw = dict(cmn_window=60, min_cmn_window=20, center=center, norm_vars=norm_vars)
        _close(AF.sliding_window_cmn(core.tensor(feats), **kw),
               torchaudio.functional.sliding_window_cmn(torch.tensor(feats), **kw), 1e-4, 1e-4)


def test_phase_vocoder_and_griffinlim(waveform):
    ours_x, theirs_x = core.tensor(waveform), torch.tensor(waveform)
    spec = T.Spectrogram(power=None)(ours_x)
    spec_t = torchaudio.transforms.Spectrogram(power=None)(theirs_x)
    advance = torch.linspace(0, np.pi * 200, 201)[..., None]
    theirs = torch.view_as_real(torchaudio.functional.phase_vocoder(spec_t, 1.3, advance))
    ours = AF.phase_vocoder(spec, 1.3, core.tensor(advance.numpy()))
    # Phases accumulate over frames in float32 (torch sums in order, core in double): compare
    # magnitudes tightly, the complex values loosely.
    _close(AF.complex_norm(ours), theirs.pow(2).sum(-1).sqrt(), 1e-2, 1e-2)
    _close(ours, theirs, 1e-2, 1e-2)
    mag = T.Spectrogram()(ours_x)
    ours_g = T.GriffinLim(n_iter=5, rand_init=False, length=16000)(mag)
    theirs_g = torchaudio.transforms.GriffinLim(n_iter=5, rand_init=False, length=16000)(
        torchaudio.transforms.Spectrogram()(theirs_x))
    _close(ours_g, theirs_g, 1e-2, 1e-2)  # float32 iterations drift apart slowly


@pytest.mark.parametrize("orig,new,method", [(44100, 16000, "sinc_interpolation"), (16000, 22050, "kaiser_window"),
                                             (8000, 16000, "sinc_interpolation")])
def test_resample(waveform, orig, new, method):
    method_t = {"sinc_interpolation": "sinc_interp_hann", "kaiser_window": "sinc_interp_kaiser"}[method]
    ours = AF.resample(core.tensor(waveform), orig, new, resampling_method=method)
    theirs = torchaudio.functional.resample(torch.tensor(waveform), orig, new, resampling_method=method_t)
    _close(ours, theirs, 1e-4, 1e-5)


@pytest.mark.parametrize("kwargs", [{}, {"window_type": "hamming", "snip_edges": False, "use_energy": True},
                                    {"htk_compat": True, "use_energy": True, "num_mel_bins": 40, "low_freq": 60.0},
                                    {"vtln_warp": 0.9, "window_type": "blackman", "subtract_mean": True}])
def test_kaldi(waveform, kwargs):
    kaldi_t = pytest.importorskip("torchaudio.compliance.kaldi")
    ours_x, theirs_x = core.tensor(waveform), torch.tensor(waveform)
    _close(kaldi.fbank(ours_x, **kwargs), kaldi_t.fbank(theirs_x, **kwargs), 1e-3, 1e-3)
    mfcc_kwargs = {k: v for k, v in kwargs.items()}
    _close(kaldi.mfcc(ours_x, **mfcc_kwargs), kaldi_t.mfcc(theirs_x, **mfcc_kwargs), 1e-3, 1e-3)
    spec_kwargs = {k: v for k, v in kwargs.items() if k in ("window_type", "snip_edges", "subtract_mean")}
    _close(kaldi.spectrogram(ours_x, **spec_kwargs), kaldi_t.spectrogram(theirs_x, **spec_kwargs), 1e-3, 1e-3)
