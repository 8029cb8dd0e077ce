"""interpolate / upsample output sizes and source indices (scale given vs recomputed), errors,
grid_sample / affine_grid / pixel shuffles, channels-last, gradients."""
import warnings

import numpy as np
import pytest

import core
import core.nn.functional as F
from core import autograd

_rng = np.random.default_rng(4)


def _t(shape, dtype=np.float64, grad=False):
    t = core.tensor(_rng.standard_normal(shape).astype(dtype))
    return t.requires_grad_() if grad else t


@pytest.mark.parametrize("n,scale,size", [(800, 0.75, 600), (1066, 0.75, 799), (427, 800 / 427, 800), (7, 1.5, 10),
                                          (5, 0.3, 1), (13, 1.33, 17)])
def test_output_size_is_floor_of_in_times_scale(n, scale, size):
    x = core.zeros(1, 1, n)
    for recompute in (None, True, False):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert F.interpolate(x, scale_factor=scale, recompute_scale_factor=recompute).shape[-1] == size


def test_scale_used_directly_unless_recomputed():
    # Values from PyTorch: with the scale given, source x = (dst + 0.5) / 0.75 - 0.5; recomputed, in/out.
    x = core.arange(10.).view(1, 1, 10)
    direct = F.interpolate(x, scale_factor=0.75, mode="linear", align_corners=False)
    recomputed = F.interpolate(x, scale_factor=0.75, mode="linear", align_corners=False, recompute_scale_factor=True)
    np.testing.assert_allclose(direct.numpy()[0, 0], [0.1667, 1.5, 2.8333, 4.1667, 5.5, 6.8333, 8.1667], atol=1e-4)
    np.testing.assert_allclose(recomputed.numpy()[0, 0], [0.2143, 1.6429, 3.0714, 4.5, 5.9286, 7.3571, 8.7857],
                               atol=1e-4)
    near = F.interpolate(x, scale_factor=1.7)
    assert near.numpy()[0, 0].tolist() == [0, 0, 1, 1, 2, 2, 3, 4, 4, 5, 5, 6, 7, 7, 8, 8, 9]


def test_float_scale_warns_only_without_recompute():
    x = core.zeros(1, 1, 4)
    with pytest.warns(UserWarning, match="recompute_scale_factor"):
        F.interpolate(x, scale_factor=1.5)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        F.interpolate(x, scale_factor=2)
        F.interpolate(x, scale_factor=1.5, recompute_scale_factor=False)


@pytest.mark.parametrize("call,kind,fragment", [
    (lambda: F.interpolate(core.zeros(1, 1, 4), size=2, scale_factor=2.0), ValueError, "only one of size or scale_factor"),
    (lambda: F.interpolate(core.zeros(1, 1, 4)), ValueError, "either size or scale_factor"),
    (lambda: F.interpolate(core.zeros(1, 1, 4), size=2, align_corners=True), ValueError, "align_corners option"),
    (lambda: F.interpolate(core.zeros(1, 1, 4), size=(2, 2)), ValueError, "size shape must match input shape"),
    (lambda: F.interpolate(core.zeros(1, 1, 4, 4), scale_factor=(2.0,)), ValueError, "scale_factor shape must match"),
    (lambda: F.interpolate(core.zeros(1, 1, 4), size=2, recompute_scale_factor=True), ValueError,
     "recompute_scale_factor is not meaningful"),
    (lambda: F.interpolate(core.zeros(1, 1, 4), size=2, mode="bilinear", align_corners=False), NotImplementedError,
     "Got 3D input, but bilinear mode needs 4D input"),
    (lambda: F.interpolate(core.zeros(1, 1, 4, 4), size=2, mode="linear", align_corners=False), NotImplementedError,
     "Got 4D input, but linear mode needs 3D input"),
    (lambda: F.interpolate(core.zeros(1, 4), size=2), NotImplementedError, "Only 3D, 4D and 5D input"),
    (lambda: F.interpolate(core.zeros(1, 1, 4, 4, dtype=core.int32), size=2, mode="bilinear", align_corners=False),
     RuntimeError, "upsample_bilinear2d"),
    (lambda: F.interpolate(core.zeros(1, 1, 4, 4), size=(0, 2)), RuntimeError, "upsample_nearest2d"),
    (lambda: F.grid_sample(core.zeros(1, 1, 4, 4), core.zeros(1, 2, 2, 2), mode="box"), ValueError,
     "expected mode to be 'bilinear', 'nearest' or 'bicubic'"),
    (lambda: F.grid_sample(core.zeros(1, 1, 4, 4), core.zeros(1, 2, 2, 2), padding_mode="wrap"), ValueError,
     "expected padding_mode"),
    (lambda: F.grid_sample(core.zeros(1, 1, 4, 4), core.zeros(1, 2, 2, 2, dtype=core.float64), align_corners=False),
     RuntimeError, "grid_sampler_2d.*same dtype"),
    (lambda: F.grid_sample(core.zeros(1, 1, 4, 4), core.zeros(2, 2, 2, 2), align_corners=False), RuntimeError,
     "same batch size"),
    (lambda: F.grid_sample(core.zeros(1, 1, 4, 4), core.zeros(1, 2, 2, 3), align_corners=False), RuntimeError,
     "size 2 in last dimension"),
    (lambda: F.affine_grid(core.zeros(1, 2, 3), (1, 1, 4), align_corners=False), NotImplementedError,
     "affine_grid only supports 4D and 5D sizes"),
    (lambda: F.affine_grid(core.zeros(1, 3, 3), (1, 1, 4, 4), align_corners=False), ValueError,
     "Expected a batch of 2D affine matrices of shape Nx2x3"),
    (lambda: F.affine_grid(core.zeros(1, 2, 3, dtype=core.int64), (1, 1, 4, 4), align_corners=False), ValueError,
     "floating point type"),
    (lambda: F.affine_grid(core.zeros(1, 2, 3), (1, 1, 0, 4), align_corners=False), ValueError, "positive output size"),
    (lambda: F.pixel_shuffle(core.zeros(1, 3, 2, 2), 2), RuntimeError, "divisible by the square of upscale_factor"),
    (lambda: F.pixel_unshuffle(core.zeros(1, 3, 3, 2), 2), RuntimeError, "height to be divisible"),
    (lambda: F.pixel_shuffle(core.zeros(3, 2), 1), RuntimeError, "at least 3 dimensions"),
])
def test_errors(call, kind, fragment):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(kind, match=fragment):
            call()


def test_area_is_adaptive_avg_pool():
    x = _t((1, 2, 9, 7))
    np.testing.assert_allclose(F.interpolate(x, size=(4, 3), mode="area").numpy(),
                               F.adaptive_avg_pool2d(x, (4, 3)).numpy())
    np.testing.assert_allclose(F.interpolate(x, scale_factor=0.5, mode="area").numpy(),
                               F.adaptive_avg_pool2d(x, (4, 3)).numpy())


def test_aliases():
    x = _t((1, 2, 3, 3))
    with pytest.warns(UserWarning, match="deprecated"):
        y = F.upsample_bilinear(x, scale_factor=2)
    np.testing.assert_allclose(y.numpy(), F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=True).numpy())
    with pytest.warns(UserWarning, match="deprecated"):
        assert F.upsample_nearest(x, size=5).shape == (1, 2, 5, 5)
    with pytest.warns(UserWarning, match="deprecated"):
        assert F.upsample(x, size=4).shape == (1, 2, 4, 4)


@pytest.mark.parametrize("mode,align", [("nearest", None), ("bilinear", False), ("bicubic", True)])
def test_channels_last_layout(mode, align):
    x = _t((2, 3, 5, 4), np.float32)
    xc = core.tensor(np.ascontiguousarray(x.numpy().transpose(0, 2, 3, 1))).permute(0, 3, 1, 2)
    out = F.interpolate(xc, size=(7, 6), mode=mode, align_corners=align)
    assert out.stride() == (7 * 6 * 3, 1, 6 * 3, 3)
    np.testing.assert_allclose(out.numpy(), F.interpolate(x, size=(7, 6), mode=mode, align_corners=align).numpy(),
                               rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("mode", ["bilinear", "bicubic"])
@pytest.mark.parametrize("size", [(61, 83), (4, 3)])  # up: input rows shared by output rows; down
def test_nchw_rows_cache_matches_the_nhwc_kernel(mode, size):
    # NCHW caches each input row interpolated along w; tasks span plane boundaries at 2 threads
    x = _t((3, 7, 9, 11), np.float32)
    xc = core.tensor(np.ascontiguousarray(x.numpy().transpose(0, 2, 3, 1))).permute(0, 3, 1, 2)
    expected = F.interpolate(xc, size=size, mode=mode, align_corners=False).numpy()
    before = core.get_num_threads()
    try:
        for threads in (1, 2):
            core.set_num_threads(threads)
            out = F.interpolate(x, size=size, mode=mode, align_corners=False).numpy()
            np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-6)
    finally:
        core.set_num_threads(before)


@pytest.mark.parametrize("kw", [dict(mode="nearest", scale_factor=1.7), dict(mode="bilinear", size=(4, 7), align_corners=False),
                                dict(mode="bilinear", scale_factor=0.6, align_corners=True),
                                dict(mode="bicubic", size=(6, 2), align_corners=False), dict(mode="area", size=(2, 2))])
def test_interpolate_gradients(kw):
    x = _t((1, 2, 4, 5), grad=True)
    assert autograd.gradcheck(lambda t: F.interpolate(t, **kw), (x,))
    assert autograd.gradgradcheck(lambda t: F.interpolate(t, **kw), (x,))


@pytest.mark.parametrize("mode", ["bilinear", "nearest", "bicubic"])
@pytest.mark.parametrize("padding_mode", ["zeros", "border", "reflection"])
def test_grid_sample_gradients(mode, padding_mode):
    x = _t((1, 2, 4, 5), grad=True)
    g = core.tensor(_rng.uniform(-1.2, 1.2, (1, 3, 2, 2))).requires_grad_()
    for align in (False, True):
        assert autograd.gradcheck(
            lambda a, b: F.grid_sample(a, b, mode=mode, padding_mode=padding_mode, align_corners=align), (x, g))


def test_affine_grid_identity_and_gradients():
    theta = core.tensor([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]], dtype=core.float64)
    x = _t((1, 2, 5, 6))
    grid = F.affine_grid(theta, (1, 2, 5, 6), align_corners=False)
    np.testing.assert_allclose(F.grid_sample(x, grid, align_corners=False).numpy(), x.numpy(), atol=1e-12)
    t = core.tensor(_rng.standard_normal((2, 2, 3))).requires_grad_()
    assert autograd.gradcheck(lambda a: F.affine_grid(a, (2, 1, 3, 4), align_corners=False), (t,))
    assert autograd.gradgradcheck(lambda a: F.affine_grid(a, (2, 1, 3, 4), align_corners=True), (t,))
    t3 = core.tensor(_rng.standard_normal((1, 3, 4))).requires_grad_()
    assert autograd.gradcheck(lambda a: F.affine_grid(a, (1, 1, 2, 3, 2), align_corners=False), (t3,))


def test_pixel_shuffle_inverse_and_gradients():
    x = _t((2, 8, 3, 3), grad=True)
    np.testing.assert_array_equal(F.pixel_unshuffle(F.pixel_shuffle(x, 2), 2).detach().numpy(), x.detach().numpy())
    assert autograd.gradgradcheck(lambda t: F.pixel_shuffle(t, 2), (x,))


# ---------------------------------------------------------------- modules

import core.nn as nn  # noqa: E402


def test_modules():
    assert repr(nn.Upsample(scale_factor=2)) == "Upsample(scale_factor=2.0, mode=nearest)"
    assert repr(nn.Upsample(size=(3, 4), mode="bilinear")) == "Upsample(size=(3, 4), mode=bilinear)"
    assert repr(nn.UpsamplingNearest2d(scale_factor=(2, 3))) == "UpsamplingNearest2d(scale_factor=(2.0, 3.0), mode=nearest)"
    assert repr(nn.UpsamplingBilinear2d(size=4)) == "UpsamplingBilinear2d(size=4, mode=bilinear)"
    assert repr(nn.PixelShuffle(2)) == "PixelShuffle(upscale_factor=2)"
    assert repr(nn.PixelUnshuffle(3)) == "PixelUnshuffle(downscale_factor=3)"
    x = _t((1, 4, 3, 3))
    np.testing.assert_array_equal(nn.UpsamplingBilinear2d(scale_factor=2)(x).numpy(),
                                  F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=True).numpy())
    np.testing.assert_array_equal(nn.PixelUnshuffle(1)(nn.PixelShuffle(2)(x)).numpy(), F.pixel_shuffle(x, 2).numpy())
    assert list(nn.Upsample(size=2).state_dict()) == []
