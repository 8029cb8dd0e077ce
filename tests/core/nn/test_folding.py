"""Sequential's inference path: Conv2d + eval BatchNorm2d pairs run as one folded convolution."""
import numpy as np
import pytest

import core
import core.nn as nn
from core.nn.modules import _folding


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
    assert seq[1] in _folding._folds


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
    assert seq[1].weight.grad is not None and seq[1] not in _folding._folds
    seen = []
    seq[1].register_forward_hook(lambda m, i, o: seen.append(o.shape))
    with core.no_grad():
        seq(X)
    assert seen == [(2, 8, 9, 9)]
    seq.train()
    with core.no_grad():
        seq(X)
    assert seq[1] not in _folding._folds


def test_plan_follows_every_change_to_the_sequential():
    seq = block()
    seen = []
    handle = seq[1].register_forward_hook(lambda m, i, o: seen.append(o.shape))
    with core.no_grad():
        seq(X)  # the plan is made here, BatchNorm on its own; each change below must be seen
        assert seen == [(2, 8, 9, 9)] and seq[1] not in _folding._folds
        handle.remove()
        seq(X)
        assert len(seen) == 1 and seq[1] in _folding._folds  # folded now
        handle = seq[1].register_forward_hook(lambda m, i, o: seen.append(o.shape))
        seq(X)
        assert len(seen) == 2
        handle.remove()
        seq[2] = nn.Sigmoid()
        np.testing.assert_allclose(seq(X).numpy(), unfolded(seq, X).numpy(), rtol=1e-5, atol=1e-5)
        assert seq(X).min().item() > 0
        seq._modules["2"] = nn.Tanh()  # written past __setattr__, as quantization's convert does
        assert seq(X).min().item() < 0
        seq[2].forward = lambda x: x * 0
        assert seq(X).abs().max().item() == 0
        seq.append(nn.Hardtanh(-0.5, 0.5))
        del seq[2]
        np.testing.assert_allclose(seq(X).numpy(), unfolded(seq, X).numpy(), rtol=1e-5, atol=1e-5)
        assert seq(X).max().item() <= 0.5


def test_batchnorm_switched_to_training_alone_is_not_folded():
    seq = block()
    with core.no_grad():
        seq(X)
        seq[1].train()  # batch statistics now, and the running ones move
        before = seq[1].running_mean.clone()
        out = seq(X)
        assert not np.allclose(seq[1].running_mean.numpy(), before.numpy())
        conv = seq[0](X).numpy().astype(np.float64)
        mean, var = conv.mean((0, 2, 3), keepdims=True), conv.var((0, 2, 3), keepdims=True)
        gamma, beta = (t.detach().numpy().reshape(1, -1, 1, 1) for t in (seq[1].weight, seq[1].bias))
        expected = np.maximum((conv - mean) / np.sqrt(var + seq[1].eps) * gamma + beta, 0)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-4, atol=1e-5)


def test_plans_stay_off_pickles_and_copies():
    import copy
    import pickle

    seq = block()
    with core.no_grad():
        expected = seq(X).numpy()
        for clone in (copy.deepcopy(seq), pickle.loads(pickle.dumps(seq))):
            assert "_inference_plan" not in vars(clone)
            np.testing.assert_allclose(clone(X).numpy(), expected, rtol=1e-6, atol=1e-6)


def test_sequential_subclass_without_hash_still_runs():
    class Compared(nn.Sequential):
        def __eq__(self, other):  # defining __eq__ drops __hash__
            return isinstance(other, Compared) and len(self) == len(other)

    seq = Compared(*block()).eval()
    with core.no_grad():
        np.testing.assert_allclose(seq(X).numpy(), unfolded(seq, X).numpy(), rtol=1e-5, atol=1e-5)


def test_nested_sequentials_run_inside_the_outer_plan():
    outer = nn.Sequential(block(), nn.Sequential(nn.Conv2d(8, 4, 1), nn.BatchNorm2d(4)), nn.Identity()).eval()
    inner = outer[1]
    with core.no_grad():
        inner[1].running_var.uniform_(0.5, 2)
        expected = inner(outer[0](X)).numpy()  # each Sequential on its own
        np.testing.assert_allclose(outer(X).numpy(), expected, rtol=1e-5, atol=1e-5)
        assert inner[1] in _folding._folds and outer[0][1] in _folding._folds
        inner._modules["1"] = nn.Tanh()  # past __setattr__: the nested children are checked too
        np.testing.assert_allclose(outer(X).numpy(), np.tanh(inner[0](outer[0](X)).numpy()), rtol=1e-5, atol=1e-5)
        inner._modules["1"] = nn.BatchNorm2d(4)
        inner.train()  # the nested one alone in training: batch statistics, layer by layer
        before = inner[1].running_mean.clone()
        outer(X)
        assert not np.allclose(inner[1].running_mean.numpy(), before.numpy())
        seen = []
        inner.eval()
        inner[0].register_forward_hook(lambda m, i, o: seen.append(o.shape))
        outer(X)
        assert seen == [(2, 4, 9, 9)]
