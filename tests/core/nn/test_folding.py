"""Sequential's inference path: Conv2d + eval BatchNorm2d pairs run as one folded convolution."""
import numpy as np
import pytest

import core
import core.nn as nn


def block(bias=False, affine=True, padding_mode="zeros"):
    core.manual_seed(0)
    seq = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1, bias=bias, padding_mode=padding_mode),
                        nn.BatchNorm2d(8, affine=affine), nn.ReLU())
    with core.no_grad():
        seq[1].running_mean.uniform_(-1, 1)
        seq[1].running_var.uniform_(0.5, 2)
        if affine:
            seq[1].weight.uniform_(0.5, 1.5)
            seq[1].bias.uniform_(-1, 1)
    return seq.eval()


def unfolded(seq, x):
    out = x
    for m in seq:
        out = m(out)
    return out


X = core.randn(2, 3, 9, 9)


@pytest.mark.parametrize("bias,affine,padding_mode", [(False, True, "zeros"), (True, True, "zeros"),
                                                      (False, False, "zeros"), (True, True, "reflect")])
def test_folded_equals_layer_by_layer(bias, affine, padding_mode):
    seq = block(bias, affine, padding_mode)
    with core.no_grad():
        np.testing.assert_allclose(seq(X).numpy(), unfolded(seq, X).numpy(), rtol=1e-5, atol=1e-5)
    assert "_folded_conv" in seq[1].__dict__


def test_cache_follows_changes_to_any_source_tensor():
    seq = block()
    with core.no_grad():
        seq(X)
        seq[1].running_mean.add_(0.5)  # in place: version bump
        np.testing.assert_allclose(seq(X).numpy(), unfolded(seq, X).numpy(), rtol=1e-5, atol=1e-5)
        seq[0].weight.data = core.randn(8, 3, 3, 3)  # rebinding: new storage
        np.testing.assert_allclose(seq(X).numpy(), unfolded(seq, X).numpy(), rtol=1e-5, atol=1e-5)
        seq[1].eps = 0.1
        np.testing.assert_allclose(seq(X).numpy(), unfolded(seq, X).numpy(), rtol=1e-5, atol=1e-5)


def test_not_folded_when_it_could_be_observed():
    seq = block()
    out = seq(X)  # grad mode on: recorded layer by layer, gradients reach the BN parameters
    out.sum().backward()
    assert seq[1].weight.grad is not None and "_folded_conv" not in seq[1].__dict__
    seen = []
    seq[1].register_forward_hook(lambda m, i, o: seen.append(o.shape))
    with core.no_grad():
        seq(X)
    assert seen == [(2, 8, 9, 9)]
    seq.train()
    with core.no_grad():
        seq(X)
    assert "_folded_conv" not in seq[1].__dict__
