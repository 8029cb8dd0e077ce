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
