"""nn modules of the activation, normalization, dropout and distance families: reprs,
defaults, parameters, state_dict keys, train/eval, running statistics (momentum and the
cumulative average of momentum=None), old checkpoints, SyncBatchNorm conversion."""
import warnings
from collections import OrderedDict

import numpy as np
import pytest

import core
import core.nn as nn
import core.nn.functional as F


@pytest.mark.parametrize("module,text", [
    (nn.ReLU(inplace=True), "ReLU(inplace=True)"), (nn.ReLU(), "ReLU()"), (nn.ReLU6(True), "ReLU6(inplace=True)"),
    (nn.Hardtanh(), "Hardtanh(min_val=-1.0, max_val=1.0)"), (nn.Hardtanh(-2, 2, True), "Hardtanh(min_val=-2, max_val=2, inplace=True)"),
    (nn.Threshold(0.1, 20, True), "Threshold(threshold=0.1, value=20, inplace=True)"),
    (nn.ELU(inplace=True), "ELU(alpha=1.0, inplace=True)"), (nn.CELU(), "CELU(alpha=1.0)"), (nn.SELU(True), "SELU(inplace=True)"),
    (nn.GLU(), "GLU(dim=-1)"), (nn.GELU(), "GELU(approximate='none')"), (nn.Hardshrink(), "Hardshrink(0.5)"),
    (nn.Softshrink(), "Softshrink(0.5)"), (nn.LeakyReLU(0.2, True), "LeakyReLU(negative_slope=0.2, inplace=True)"),
    (nn.LogSigmoid(), "LogSigmoid()"), (nn.Softplus(), "Softplus(beta=1, threshold=20)"), (nn.PReLU(3), "PReLU(num_parameters=3)"),
    (nn.Softmax(1), "Softmax(dim=1)"), (nn.Softmax2d(), "Softmax2d()"), (nn.LogSoftmax(), "LogSoftmax(dim=None)"),
    (nn.Softmin(0), "Softmin(dim=0)"), (nn.SiLU(True), "SiLU(inplace=True)"), (nn.Mish(), "Mish()"),
    (nn.Hardswish(True), "Hardswish()"), (nn.Hardsigmoid(), "Hardsigmoid()"), (nn.Sigmoid(), "Sigmoid()"),
    (nn.Tanh(), "Tanh()"), (nn.Softsign(), "Softsign()"), (nn.Tanhshrink(), "Tanhshrink()"),
    (nn.BatchNorm2d(3), "BatchNorm2d(3, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True)"),
    (nn.BatchNorm1d(3, affine=False, track_running_stats=False, momentum=None),
     "BatchNorm1d(3, eps=1e-05, momentum=None, affine=False, track_running_stats=False)"),
    (nn.SyncBatchNorm(3), "SyncBatchNorm(3, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True)"),
    (nn.LayerNorm(4), "LayerNorm((4,), eps=1e-05, elementwise_affine=True)"),
    (nn.LayerNorm([2, 3], elementwise_affine=False), "LayerNorm((2, 3), eps=1e-05, elementwise_affine=False)"),
    (nn.GroupNorm(2, 4), "GroupNorm(2, 4, eps=1e-05, affine=True)"),
    (nn.InstanceNorm2d(3), "InstanceNorm2d(3, eps=1e-05, momentum=0.1, affine=False, track_running_stats=False)"),
    (nn.LocalResponseNorm(2), "LocalResponseNorm(2, alpha=0.0001, beta=0.75, k=1.0)"),
    (nn.Dropout(), "Dropout(p=0.5, inplace=False)"), (nn.Dropout2d(0.2, True), "Dropout2d(p=0.2, inplace=True)"),
    (nn.AlphaDropout(), "AlphaDropout(p=0.5, inplace=False)"), (nn.FeatureAlphaDropout(), "FeatureAlphaDropout(p=0.5, inplace=False)"),
    (nn.Dropout3d(), "Dropout3d(p=0.5, inplace=False)"), (nn.PairwiseDistance(), "PairwiseDistance()"),
    (nn.CosineSimilarity(), "CosineSimilarity()"),
])
def test_repr(module, text):
    assert repr(module) == text


def test_activation_modules_call_their_functions():
    x = core.randn(2, 4, 3, 3)
    pairs = [(nn.ReLU(), F.relu), (nn.Hardswish(), F.hardswish), (nn.Hardsigmoid(), F.hardsigmoid),
             (nn.GELU("tanh"), lambda t: F.gelu(t, approximate="tanh")), (nn.Softplus(2, 5), lambda t: F.softplus(t, 2, 5)),
             (nn.Softmax2d(), lambda t: F.softmax(t, 1)), (nn.GLU(1), lambda t: F.glu(t, 1)), (nn.SiLU(), F.silu)]
    for module, fn in pairs:
        np.testing.assert_array_equal(module(x).numpy(), fn(x).numpy())
    y = x.clone()
    assert nn.ReLU(inplace=True)(y) is y
    with pytest.raises(AssertionError, match="Softmax2d requires a 4D tensor"):
        nn.Softmax2d()(core.randn(2, 3))


def test_prelu_module():
    m = nn.PReLU(3, init=0.1)
    assert [n for n, _ in m.named_parameters()] == ["weight"]
    np.testing.assert_allclose(m.weight.detach().numpy(), [0.1] * 3, rtol=1e-7)
    x = core.randn(2, 3, 4)
    m(x).sum().backward()
    assert m.weight.grad.shape == (3,)


def _bn_step(m, v):
    return m(core.tensor(v))


def test_batchnorm_running_stats_with_momentum_and_cumulative_average():
    r = np.random.default_rng(0)
    batches = [r.normal(i, 1 + i, size=(8, 3, 4, 4)).astype(np.float32) for i in range(4)]
    m = nn.BatchNorm2d(3)
    cum = nn.BatchNorm2d(3, momentum=None)
    rm, rv = np.zeros(3), np.ones(3)
    means, vars_ = [], []
    for b in batches:
        m(core.tensor(b))
        cum(core.tensor(b))
        mean, var = b.mean((0, 2, 3)), b.var((0, 2, 3), ddof=1)
        rm, rv = 0.9 * rm + 0.1 * mean, 0.9 * rv + 0.1 * var
        means.append(mean)
        vars_.append(var)
    np.testing.assert_allclose(m.running_mean.numpy(), rm, rtol=1e-4)
    np.testing.assert_allclose(m.running_var.numpy(), rv, rtol=1e-4)
    np.testing.assert_allclose(cum.running_mean.numpy(), np.mean(means, 0), rtol=1e-4)
    np.testing.assert_allclose(cum.running_var.numpy(), np.mean(vars_, 0), rtol=1e-4)
    assert m.num_batches_tracked.item() == 4 and m.num_batches_tracked.dtype == core.int64
    m.eval()
    before = m.running_mean.numpy().copy()
    out = m(core.tensor(batches[0]))
    np.testing.assert_array_equal(m.running_mean.numpy(), before)
    assert m.num_batches_tracked.item() == 4
    ref = (batches[0] - rm.reshape(1, 3, 1, 1)) / np.sqrt(rv.reshape(1, 3, 1, 1) + 1e-5)
    np.testing.assert_allclose(out.detach().numpy(), ref, rtol=1e-3, atol=1e-4)


def test_batchnorm_without_running_stats_uses_batch_stats_in_eval():
    m = nn.BatchNorm1d(3, track_running_stats=False).eval()
    assert m.running_mean is None and list(m.state_dict().keys()) == ["weight", "bias"]
    v = np.random.default_rng(1).normal(size=(5, 3))
    np.testing.assert_allclose(m(core.tensor(v)).detach().numpy(), (v - v.mean(0)) / np.sqrt(v.var(0) + 1e-5), rtol=1e-6)


def test_batchnorm_state_dict_and_old_checkpoints():
    m = nn.BatchNorm2d(4)
    assert list(m.state_dict().keys()) == ["weight", "bias", "running_mean", "running_var", "num_batches_tracked"]
    np.testing.assert_array_equal(m.weight.detach().numpy(), np.ones(4))
    np.testing.assert_array_equal(m.bias.detach().numpy(), np.zeros(4))
    old = OrderedDict((k, v) for k, v in m.state_dict().items() if k != "num_batches_tracked")
    old._metadata = OrderedDict({"": {"version": 1}})
    m.num_batches_tracked.fill_(7)
    m.load_state_dict(old)
    assert m.num_batches_tracked.item() == 0
    new = OrderedDict((k, v) for k, v in m.state_dict().items() if k != "num_batches_tracked")
    new._metadata = OrderedDict({"": {"version": 2}})  # a current checkpoint must have it
    with pytest.raises(RuntimeError, match="num_batches_tracked"):
        nn.BatchNorm2d(4).load_state_dict(new)


@pytest.mark.parametrize("cls,good,bad,msg", [
    (nn.BatchNorm1d, (4, 3), (4, 3, 2, 2), "expected 2D or 3D input"),
    (nn.BatchNorm2d, (4, 3, 2, 2), (4, 3), "expected 4D input"),
    (nn.BatchNorm3d, (2, 3, 2, 2, 2), (4, 3, 2), "expected 5D input"),
    (nn.SyncBatchNorm, (4, 3, 2), (3,), "expected at least 2D input"),
    (nn.InstanceNorm1d, (2, 3, 4), (2, 3), "InstanceNorm1d returns 0-filled tensor"),
    (nn.InstanceNorm2d, (2, 3, 4, 4), (2, 3, 4), "expected 4D input"),
    (nn.InstanceNorm3d, (2, 3, 2, 2, 2), (2, 3, 4), "expected 5D input"),
])
def test_input_dim_checks(cls, good, bad, msg):
    m = cls(3)
    assert m(core.randn(*good)).shape == good
    with pytest.raises(ValueError, match=msg):
        m(core.randn(*bad))


def test_sync_batchnorm_is_batchnorm_and_converts():
    model = nn.Sequential(nn.Conv2d(3, 4, 1) if hasattr(nn, "Conv2d") else nn.Identity(), nn.BatchNorm2d(4),
                          nn.Sequential(nn.BatchNorm1d(4)))
    model[1].running_mean.fill_(2.0)
    model.eval()
    converted = nn.SyncBatchNorm.convert_sync_batchnorm(model)
    assert isinstance(converted[1], nn.SyncBatchNorm) and isinstance(converted[2][0], nn.SyncBatchNorm)
    assert converted[1].weight is model[1].weight
    assert converted[1].running_mean is model[1].running_mean
    assert not converted[1].training
    x = core.randn(4, 4, 3, 3)
    a, b = nn.BatchNorm2d(4), nn.SyncBatchNorm(4)
    np.testing.assert_array_equal(a(x).detach().numpy(), b(x).detach().numpy())
    np.testing.assert_array_equal(a.running_var.numpy(), b.running_var.numpy())


def test_layer_group_instance_modules():
    ln = nn.LayerNorm((3, 4))
    assert ln.weight.shape == (3, 4) and [k for k in ln.state_dict()] == ["weight", "bias"]
    x = core.randn(2, 3, 4)
    np.testing.assert_allclose(ln(x).detach().numpy(), F.layer_norm(x, (3, 4)).numpy(), rtol=1e-6)
    gn = nn.GroupNorm(2, 4)
    y = core.randn(2, 4, 3)
    np.testing.assert_allclose(gn(y).detach().numpy(), F.group_norm(y, 2).numpy(), rtol=1e-6)
    with pytest.raises(ValueError, match="divisible"):
        nn.GroupNorm(3, 4)
    inorm = nn.InstanceNorm1d(4, track_running_stats=True)
    assert list(inorm.state_dict().keys()) == ["running_mean", "running_var", "num_batches_tracked"]
    inorm(y)
    assert abs(inorm.running_mean.numpy()).sum() > 0
    inorm.eval()
    np.testing.assert_allclose(inorm(y).numpy(), F.instance_norm(y, inorm.running_mean, inorm.running_var,
                                                                 use_input_stats=False).numpy(), rtol=1e-6)


def test_instance_norm_old_checkpoint_with_running_stats():
    m = nn.InstanceNorm2d(3)
    sd = OrderedDict(running_mean=core.zeros(3), running_var=core.ones(3))
    sd._metadata = OrderedDict({"": {}})
    with pytest.raises(RuntimeError, match="Unexpected running stats buffer"):
        m.load_state_dict(sd)


def test_dropout_modules_train_eval():
    x = core.ones(100, 10)
    d = nn.Dropout(0.5)
    assert (d(x).numpy() == 0).any()
    d.eval()
    assert d(x) is x
    with pytest.raises(ValueError, match="dropout probability"):
        nn.Dropout(2.0)
    a = nn.AlphaDropout(0.5, inplace=True)
    y = core.randn(50)
    assert a(y) is not y  # AlphaDropout's forward ignores inplace, like PyTorch 1.8


def test_distance_modules():
    a, b = core.randn(3, 4), core.randn(3, 4)
    np.testing.assert_array_equal(nn.PairwiseDistance(1.0, keepdim=True)(a, b).numpy(),
                                  F.pairwise_distance(a, b, 1.0, keepdim=True).numpy())
    np.testing.assert_array_equal(nn.CosineSimilarity(0)(a, b).numpy(), F.cosine_similarity(a, b, 0).numpy())
    assert nn.PairwiseDistance().norm == 2.0
