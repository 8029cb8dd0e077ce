"""Pooling functions: output sizes (ceil_mode corner cases), errors naming the op, channels-last
layouts, index semantics, gradients (first and second order)."""
import numpy as np
import pytest

import core
import core.nn.functional as F
from core import autograd

_rng = np.random.default_rng(3)


def _t(shape, dtype=np.float64, grad=False):
    t = core.tensor(_rng.standard_normal(shape).astype(dtype))
    return t.requires_grad_() if grad else t


def _channels_last(t):
    return core.tensor(np.ascontiguousarray(t.numpy().transpose(0, 2, 3, 1))).permute(0, 3, 1, 2)


# (n, kernel, stride, padding, dilation) -> (ceil_mode size, floor size), as PyTorch computes them:
# with ceil_mode the last window must start inside the input or its left padding.
CEIL_SIZES = [((7, 4, 3, 2, 1), (3, 3)), ((5, 2, 2, 1, 1), (3, 3)), ((4, 3, 3, 1, 1), (2, 2)),
              ((6, 3, 2, 1, 1), (4, 3)), ((8, 3, 3, 1, 2), (3, 2)), ((10, 3, 4, 1, 1), (3, 3))]


@pytest.mark.parametrize("args,expected", CEIL_SIZES)
def test_output_sizes(args, expected):
    n, k, s, p, d = args
    x = core.zeros(1, 1, 1, n)
    for ceil, size in zip((True, False), expected):
        assert F.max_pool2d(x, (1, k), (1, s), (0, p), (1, d), ceil_mode=ceil).shape[-1] == size
        assert F.max_pool1d(x[0], k, s, p, d, ceil_mode=ceil).shape[-1] == size
        if d == 1:
            assert F.avg_pool2d(x, (1, k), (1, s), (0, p), ceil_mode=ceil).shape[-1] == size


@pytest.mark.parametrize("call,kind,fragment", [
    (lambda: F.max_pool2d(core.zeros(1, 1, 4, 4), 2, padding=2), RuntimeError, "pad should be smaller than or equal to half"),
    (lambda: F.max_pool2d(core.zeros(1, 1, 4, 4), 0), RuntimeError, "kernel size should be greater than zero"),
    (lambda: F.max_pool2d(core.zeros(1, 1, 4, 4), 2, stride=0), RuntimeError, "stride should be greater than zero"),
    (lambda: F.max_pool2d(core.zeros(1, 1, 4, 4), 2, dilation=0), RuntimeError, "dilation should be greater than zero"),
    (lambda: F.max_pool2d(core.zeros(4, 4), 2), RuntimeError, "max_pool2d"),
    (lambda: F.max_pool2d(core.zeros(1, 1, 2, 2), 3), RuntimeError, "Output size is too small"),
    (lambda: F.max_pool2d(core.zeros(1, 1, 4, 4), (1, 2, 3)), RuntimeError, "kernel_size must either be"),
    (lambda: F.max_pool2d(core.zeros(1, 1, 4, 4, dtype=core.bool), 2), RuntimeError, "max_pool2d"),
    (lambda: F.max_pool1d(core.zeros(4), 2), RuntimeError, "max_pool1d"),
    (lambda: F.avg_pool2d(core.zeros(1, 1, 4, 4), 2, divisor_override=0), RuntimeError, "divisor must be not zero"),
    (lambda: F.avg_pool2d(core.zeros(1, 1, 4, 4, dtype=core.int32), 2), RuntimeError, "avg_pool2d"),
    (lambda: F.adaptive_avg_pool2d(core.zeros(1, 0, 4, 4), 2), RuntimeError, "adaptive_avg_pool2d"),
    (lambda: F.adaptive_avg_pool2d(core.zeros(4, 4), 2), RuntimeError, "adaptive_avg_pool2d"),
    (lambda: F.adaptive_max_pool2d(core.zeros(1, 1, 4, 4, dtype=core.int64), 2), RuntimeError, "adaptive_max_pool2d"),
    (lambda: F.adaptive_avg_pool2d(core.zeros(1, 4, 4), (2, None, 3)), ValueError, "Input dimension should be at least"),
    (lambda: F.max_unpool2d(core.ones(1, 1, 2, 2), core.full((1, 1, 2, 2), 16, dtype=core.int64), 2),
     RuntimeError, "Found an invalid max index: 16"),
    (lambda: F.max_unpool2d(core.ones(1, 1, 2, 2), core.zeros(1, 1, 2, 2, dtype=core.int32), 2),
     RuntimeError, "max_unpool2d"),
    (lambda: F.max_unpool2d(core.ones(1, 1, 2, 2), core.zeros(1, 1, 2, 2, dtype=core.int64), 2, output_size=(9, 9)),
     ValueError, "invalid output_size"),
])
def test_errors(call, kind, fragment):
    with pytest.raises(kind, match=fragment):
        call()


def test_max_pool_indices_and_nan():
    x = core.tensor([[[[1.0, 5.0, 2.0], [float("nan"), 0.0, 7.0], [3.0, 3.0, 3.0]]]])
    v, i = F.max_pool2d(x, 2, 1, return_indices=True)
    assert np.isnan(v.numpy()[0, 0, 0, 0]) and i.tolist() == [[[[3, 5], [3, 5]]]]
    assert i.dtype == core.int64
    # Ties keep the first position; all -inf windows still point inside the window.
    y = core.full((1, 1, 2, 2), float("-inf"))
    assert F.max_pool2d(y, 2, return_indices=True)[1].tolist() == [[[[0]]]]


def _max_pool_reference(x, k, s, p, d, ceil):
    """Window maxima of NCHW x written out per output (NaN wins), PyTorch's output sizes."""
    def size(n):
        out = (n + 2 * p - d * (k - 1) - 1 + (s - 1 if ceil else 0)) // s + 1
        return out - 1 if ceil and (out - 1) * s >= n + p else out
    H, W = x.shape[2:]
    out = np.empty(x.shape[:2] + (size(H), size(W)), x.dtype)
    for oh in range(out.shape[2]):
        for ow in range(out.shape[3]):
            rows = [i for i in range(oh * s - p, oh * s - p + (k - 1) * d + 1, d) if 0 <= i < H]
            cols = [j for j in range(ow * s - p, ow * s - p + (k - 1) * d + 1, d) if 0 <= j < W]
            window = x[:, :, rows][:, :, :, cols].reshape(x.shape[:2] + (-1,))
            # numpy's max propagates NaN; a window in the padding holds nothing: -inf
            out[:, :, oh, ow] = window.max(axis=2) if window.shape[2] else -np.inf
    return out


@pytest.mark.parametrize("k,s,p,d,ceil", [(3, 2, 1, 1, False), (3, 1, 1, 1, False), (2, 2, 0, 1, True),
                                          (3, 3, 1, 1, True), (3, 2, 1, 2, False), (5, 2, 2, 1, True)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.uint8])
def test_max_pool_planes_against_numpy(k, s, p, d, ceil, dtype):
    """NCHW planes without indices (the inference path: column maxima of the window rows, then
    each output's columns), against the windows written out; NaN in some windows."""
    x = (np.random.default_rng(7).standard_normal((2, 3, 13, 17)) * 50).astype(dtype)  # its own: others' data stays
    if np.issubdtype(dtype, np.floating):
        x[0, 1, 4, 6] = x[1, 2, 0, 0] = x[1, 0, 12, 16] = np.nan
    got = F.max_pool2d(core.tensor(x), k, s, p, d, ceil_mode=ceil).numpy()
    np.testing.assert_array_equal(got, _max_pool_reference(x, k, s, p, d, ceil))
    values = F.max_pool2d(core.tensor(x), k, s, p, d, ceil_mode=ceil, return_indices=True)[0]
    np.testing.assert_array_equal(got, values.numpy())


@pytest.mark.parametrize("shape", [(1, 2, 11, 1), (1, 2, 1, 14), (2, 1, 9, 1)])
def test_max_pool_windows_in_the_padding(shape):
    """Padding 1 and dilation 2 on a one-pixel-wide axis: windows with no position inside the
    input give -inf (as PyTorch), with or without indices."""
    x = np.random.default_rng(8).standard_normal(shape).astype(np.float32)
    for ceil in (False, True):
        want = _max_pool_reference(x, 2, 3, 1, 2, ceil)
        assert np.isneginf(want).any()
        np.testing.assert_array_equal(F.max_pool2d(core.tensor(x), 2, 3, 1, 2, ceil_mode=ceil).numpy(), want)
        values = F.max_pool2d(core.tensor(x), 2, 3, 1, 2, ceil_mode=ceil, return_indices=True)[0]
        np.testing.assert_array_equal(values.numpy(), want)


def test_unpool_roundtrip():
    x = core.tensor(np.abs(_rng.standard_normal((2, 3, 6, 6))) + 0.1)  # an all-negative window would pool to 0
    v, i = F.max_pool2d(x, 2, return_indices=True)
    up = F.max_unpool2d(v, i, 2)
    assert up.shape == (2, 3, 6, 6)
    np.testing.assert_array_equal(F.max_pool2d(up, 2).numpy(), v.numpy())


def test_adaptive_global_is_mean():
    x = _t((4, 5, 7, 7), np.float32)
    np.testing.assert_allclose(F.adaptive_avg_pool2d(x, 1).numpy(), x.numpy().mean(axis=(2, 3), keepdims=True),
                               rtol=1e-5)
    np.testing.assert_allclose(F.adaptive_avg_pool2d(x, (None, 1)).numpy(), x.numpy().mean(axis=3, keepdims=True),
                               rtol=1e-5)


@pytest.mark.parametrize("fn", [lambda x: F.max_pool2d(x, 3, 2, 1), lambda x: F.avg_pool2d(x, 3, 2, 1),
                                lambda x: F.adaptive_avg_pool2d(x, 1), lambda x: F.adaptive_max_pool2d(x, (3, 2)),
                                lambda x: F.max_pool2d(x, 2, return_indices=True)[1]])
def test_channels_last_in_channels_last_out(fn):
    x = _t((2, 5, 7, 6), np.float32)
    xc = _channels_last(x)
    out, ref = fn(xc), fn(x)
    c, h, w = out.shape[1:]
    assert out.stride() == (h * w * c, 1, w * c, c)
    np.testing.assert_allclose(out.numpy(), ref.numpy(), rtol=1e-6)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_channels_last_average_sums_pixels_in_order(dtype):
    """Channels-last averages sum whole vectors of channels in registers, eight at a time, and the
    channels past them lane by lane: each channel's pixels in order, then one division. 75
    channels take an eight-vector chunk, fewer vectors and spare lanes in every build."""
    x = _t((2, 75, 5, 6), dtype)
    xc = _channels_last(x)
    pixels = np.ascontiguousarray(x.numpy().transpose(0, 2, 3, 1)).reshape(2, 30, 75)
    want = (np.cumsum(pixels, axis=1, dtype=dtype)[:, -1] / dtype(30)).reshape(2, 75, 1, 1)
    assert np.array_equal(F.adaptive_avg_pool2d(xc, 1).numpy(), want)  # bit for bit
    for fn in (lambda t: F.avg_pool2d(t, 3, 2, 1), lambda t: F.adaptive_avg_pool2d(t, (2, 3))):
        np.testing.assert_allclose(fn(xc).numpy(), fn(x).numpy(), rtol=1e-6 if dtype == np.float32 else 1e-12)


@pytest.mark.parametrize("fn", [
    lambda x: F.max_pool2d(x, 3, 2, 1), lambda x: F.max_pool2d(x, 2, 1, dilation=2, ceil_mode=True),
    lambda x: F.avg_pool2d(x, 3, 2, 1, count_include_pad=False), lambda x: F.avg_pool2d(x, 2, ceil_mode=True),
    lambda x: F.adaptive_avg_pool2d(x, (2, 3)), lambda x: F.adaptive_max_pool2d(x, 2),
    lambda x: F.max_pool1d(x[0], 2), lambda x: F.avg_pool1d(x[0], 3, 2, 1), lambda x: F.adaptive_avg_pool1d(x[0], 2),
    lambda x: F.lp_pool2d(x.abs() + 0.5, 2, 2),
])
def test_gradients(fn):
    x = _t((1, 2, 5, 5), grad=True)
    assert autograd.gradcheck(fn, (x,))
    assert autograd.gradgradcheck(fn, (x,))


def test_channels_last_gradients():
    x = _channels_last(_t((1, 3, 5, 5))).requires_grad_()
    for fn in (lambda t: F.max_pool2d(t, 2), lambda t: F.avg_pool2d(t, 3, 1, 1), lambda t: F.adaptive_avg_pool2d(t, 2)):
        assert autograd.gradcheck(fn, (x,))


def test_max_unpool_gradients():
    x = _t((1, 2, 6, 6))
    v, i = F.max_pool2d(x, 2, return_indices=True)
    v = v.detach().requires_grad_()
    assert autograd.gradcheck(lambda t: F.max_unpool2d(t, i, 2), (v,))
    assert autograd.gradgradcheck(lambda t: F.max_unpool2d(t, i, 2), (v,))


def test_half_types_compute_in_float():
    x = _t((1, 2, 6, 6), np.float32)
    for dt in (core.float16, core.bfloat16):
        y = F.avg_pool2d(x.to(dt), 2)
        assert y.dtype == dt
        np.testing.assert_allclose(y.float().numpy(), F.avg_pool2d(x.to(dt).float(), 2).numpy(), rtol=1e-2)


def test_top_level_exports():
    for name in ("max_pool1d", "max_pool2d", "max_pool1d_with_indices", "avg_pool1d", "adaptive_avg_pool1d",
                 "adaptive_max_pool1d", "pixel_shuffle", "pixel_unshuffle", "embedding", "embedding_bag",
                 "grid_sampler", "affine_grid_generator", "embedding_renorm_"):
        assert callable(getattr(core, name)), name


# ---------------------------------------------------------------- modules

import core.nn as nn  # noqa: E402


@pytest.mark.parametrize("module,expected", [
    (lambda: nn.MaxPool2d(3, 2, 1), "MaxPool2d(kernel_size=3, stride=2, padding=1, dilation=1, ceil_mode=False)"),
    (lambda: nn.MaxPool1d(2), "MaxPool1d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)"),
    (lambda: nn.AvgPool1d(3), "AvgPool1d(kernel_size=(3,), stride=(3,), padding=(0,))"),
    (lambda: nn.AvgPool2d(2, 1), "AvgPool2d(kernel_size=2, stride=1, padding=0)"),
    (lambda: nn.AdaptiveAvgPool2d((1, 1)), "AdaptiveAvgPool2d(output_size=(1, 1))"),
    (lambda: nn.AdaptiveMaxPool1d(3), "AdaptiveMaxPool1d(output_size=3)"),
    (lambda: nn.MaxUnpool2d(2), "MaxUnpool2d(kernel_size=(2, 2), stride=(2, 2), padding=(0, 0))"),
    (lambda: nn.MaxUnpool1d(2, 1), "MaxUnpool1d(kernel_size=(2,), stride=(1,), padding=(0,))"),
    (lambda: nn.LPPool2d(2, 3), "LPPool2d(norm_type=2, kernel_size=3, stride=None, ceil_mode=False)"),
])
def test_module_repr_and_state(module, expected):
    m = module()
    assert repr(m) == expected
    assert list(m.state_dict().keys()) == [] and list(m.parameters()) == []


def test_modules_call_functions():
    x = _t((2, 3, 8, 8))
    np.testing.assert_array_equal(nn.MaxPool2d(3, 2, 1)(x).numpy(), F.max_pool2d(x, 3, 2, 1).numpy())
    v, i = nn.MaxPool2d(2, return_indices=True)(x)
    np.testing.assert_array_equal(nn.MaxUnpool2d(2)(v, i).numpy(), F.max_unpool2d(v, i, 2).numpy())
    np.testing.assert_array_equal(nn.AvgPool2d(3, 2, 1, divisor_override=4)(x).numpy(),
                                  F.avg_pool2d(x, 3, 2, 1, divisor_override=4).numpy())
    np.testing.assert_array_equal(nn.AdaptiveAvgPool2d(1)(x).numpy(), F.adaptive_avg_pool2d(x, 1).numpy())
    out, idx = nn.AdaptiveMaxPool2d((3, None), return_indices=True)(x)
    assert out.shape == (2, 3, 3, 8) and idx.dtype == core.int64
    y = x[:, :, 0]
    np.testing.assert_array_equal(nn.AvgPool1d(2)(y).numpy(), F.avg_pool1d(y, 2).numpy())
    np.testing.assert_array_equal(nn.AdaptiveAvgPool1d(3)(y).numpy(), F.adaptive_avg_pool1d(y, 3).numpy())
