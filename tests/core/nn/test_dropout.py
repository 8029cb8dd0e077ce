"""Dropout family: masks and scaling, feature (channel) masks, alpha dropout's statistics,
train/eval, in-place forms, gradients, errors."""
import numpy as np
import pytest

import core
import core.nn.functional as F
from core.autograd import gradcheck


def test_dropout_scales_kept_values_and_is_reproducible():
    x = core.ones(1000, dtype=core.float64) * 3
    core.manual_seed(7)
    y = F.dropout(x, 0.3)
    v = y.numpy()
    assert set(np.unique(v)) <= {0.0, 3 / 0.7}
    assert 0.6 < (v != 0).mean() < 0.8
    core.manual_seed(7)
    np.testing.assert_array_equal(F.dropout(x, 0.3).numpy(), v)


def test_identity_cases():
    x = core.randn(4, 5)
    assert F.dropout(x, 0.5, training=False) is x
    assert F.dropout(x, 0.0) is x
    assert F.alpha_dropout(x, 0.5) is x  # training defaults to False
    np.testing.assert_array_equal(F.dropout(x, 1.0).numpy(), np.zeros((4, 5), np.float32))


@pytest.mark.parametrize("fn,shape", [(F.dropout2d, (3, 8, 4, 4)), (F.dropout3d, (2, 8, 2, 3, 3))])
def test_feature_dropout_drops_whole_channels(fn, shape):
    x = core.ones(*shape)
    y = fn(x, 0.5).numpy().reshape(shape[0], shape[1], -1)
    per_channel = y.min(2) == y.max(2)
    assert per_channel.all()
    assert set(np.unique(y)) <= {0.0, 2.0}


def test_alpha_dropout_keeps_mean_and_variance():
    core.manual_seed(0)
    x = core.randn(200000, dtype=core.float64)
    y = F.alpha_dropout(x, 0.2, training=True).numpy()
    assert abs(y.mean()) < 0.02 and abs(y.std() - 1) < 0.02
    z = F.feature_alpha_dropout(core.randn(4, 6, 5), 0.5, training=True).numpy()
    assert (z.min(2) == z.max(2)).sum() >= 0  # runs; channel masks share one value per channel
    assert z.shape == (4, 6, 5)


def test_inplace_variants():
    x = core.ones(10, 3)
    version = x._version
    assert F.dropout(x, 0.5, inplace=True) is x
    assert x._version > version
    assert set(np.unique(x.numpy())) <= {0.0, 2.0}
    y = core.ones(2, 4, 3)
    assert F.dropout2d(y, 0.5, inplace=True) is y
    z = core.randn(50)
    assert core.alpha_dropout_(z, 0.5, True) is z


def test_gradient_is_the_mask():
    x = core.randn(30, dtype=core.float64).requires_grad_()
    core.manual_seed(3)
    y = F.dropout(x, 0.4)
    y.sum().backward()
    mask = (y.detach().numpy() != 0) / 0.6
    np.testing.assert_allclose(x.grad.numpy(), mask)

    def fn(t):
        core.manual_seed(5)
        return F.alpha_dropout(t, 0.3, True)

    assert gradcheck(fn, [x.detach().requires_grad_()])


@pytest.mark.parametrize("call,exc,fragment", [
    (lambda: F.dropout(core.randn(3), 1.5), ValueError, "dropout probability has to be between 0 and 1, but got 1.5"),
    (lambda: F.dropout2d(core.randn(3), -0.1), ValueError, "dropout probability"),
    (lambda: F.dropout2d(core.randn(3), 0.5), RuntimeError, "Feature dropout requires at least 2 dimensions"),
])
def test_errors(call, exc, fragment):
    with pytest.raises(exc, match=fragment):
        call()


# ---- the one-pass apply kernel (_dropout_apply) that every form uses

_apply = core._C._internal["_dropout_apply"]
_apply_ = core._C._internal["_dropout_apply_"]


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
@pytest.mark.parametrize("mask_shape", [(6, 7, 5), (6, 7, 1), (1, 7, 5)])
def test_apply_kernel_matches_numpy(rng, dtype, mask_shape):
    x = rng.standard_normal((6, 7, 5)).astype(dtype)
    x[0, 0, 0], x[1, 1, 1] = np.nan, np.inf
    m = rng.random(mask_shape) < 0.6
    ct = np.float32 if dtype == "float16" else np.dtype(dtype).type
    plain = _apply(core.tensor(x), core.tensor(m), 1.25).numpy()
    with np.errstate(invalid="ignore"):
        want = ((x.astype(ct) * m.astype(ct)) * ct(1.25)).astype(dtype)  # x * 0 keeps NaN
        np.testing.assert_array_equal(plain, want)
        affine = _apply(core.tensor(x), core.tensor(m), 0.8, 0.3, -1.5).numpy()
        want = (x.astype(ct) * np.where(m, ct(0.8), ct(0)) + np.where(m, ct(0.3), ct(-1.5))).astype(dtype)
    np.testing.assert_array_equal(affine, want)


def test_apply_keeps_channels_last_and_works_in_place(rng):
    x = core.tensor(rng.standard_normal((2, 3, 4, 5)).astype(np.float32)).contiguous(memory_format=core.channels_last)
    m = core.tensor(rng.random((2, 3, 1, 1)) < 0.5)
    y = _apply(x, m, 2.0)
    assert y.is_contiguous(memory_format=core.channels_last)
    want = x.numpy() * m.numpy() * 2
    np.testing.assert_array_equal(y.numpy(), want)
    assert _apply_(x, m, 2.0) is x
    np.testing.assert_array_equal(x.numpy(), want)


def test_apply_gradients():
    rng = np.random.default_rng(3)
    m = core.tensor(rng.random((4, 3)) < 0.5)
    x = core.tensor(rng.standard_normal((4, 3)), dtype=core.float64, requires_grad=True)
    assert gradcheck(lambda t: _apply(t, m, 1.7), (x,))
    assert gradcheck(lambda t: _apply(t, m, 0.9, 0.2, -0.4), (x,))
    assert core.autograd.gradgradcheck(lambda t: _apply(t, m, 1.7) * t, (x,))


@pytest.mark.parametrize("bad, match", [
    (lambda: _apply(core.ones(3, dtype=core.int64), core.ones(3, dtype=core.bool), 2.0), "floating point"),
    (lambda: _apply(core.ones(3), core.ones(3), 2.0), "bool mask"),
    (lambda: _apply(core.ones(3), core.ones(4, dtype=core.bool), 2.0), "must match the size"),
    (lambda: _apply(core.ones(3, 1), core.ones(3, 2, dtype=core.bool), 2.0), "does not broadcast"),
])
def test_apply_rejects_bad_input(bad, match):
    with pytest.raises(RuntimeError, match=match):
        bad()
