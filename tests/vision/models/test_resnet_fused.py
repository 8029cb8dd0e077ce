"""ResNet at inference runs its stem and blocks as fused convolutions (BatchNorm folded in, the
ReLU and the residual add applied by the kernel, core/nn/modules/_folding.py): the results of
the modules one by one, and the modules' own path wherever something could tell the difference."""
import numpy as np
import pytest

import core
from core import nn
from core.nn.modules import _folding
from vision.models import resnet


def _model(builder, seed=0):
    """An eval model whose BatchNorms hold non-trivial statistics and affine parameters."""
    core.manual_seed(seed)
    model = builder().eval()
    rng = np.random.default_rng(seed)
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            c = m.num_features
            m.running_mean.copy_(core.tensor(rng.normal(0, 0.3, c).astype(np.float32)))
            m.running_var.copy_(core.tensor(rng.uniform(0.5, 2.0, c).astype(np.float32)))
            m.weight.data.copy_(core.tensor(rng.uniform(0.5, 1.5, c).astype(np.float32)))
            m.bias.data.copy_(core.tensor(rng.normal(0, 0.2, c).astype(np.float32)))
    return model


def _modules_one_by_one(model, x):
    with core.enable_grad():  # recording: _folding.applicable refuses, every module runs itself
        return model(x).detach()


@pytest.fixture
def fused_calls(monkeypatch):
    calls = []
    original = _folding.fused_conv_bn

    def spy(conv, bn, *args, **kwargs):
        calls.append(conv)
        return original(conv, bn, *args, **kwargs)

    monkeypatch.setattr(_folding, "fused_conv_bn", spy)
    return calls


def _convs(model):
    return [m for m in model.modules() if type(m) is nn.Conv2d]


@pytest.mark.parametrize("builder", [resnet.resnet18, resnet.resnet50, resnet.resnext50_32x4d])
@pytest.mark.parametrize("channels_last", [False, True])
def test_fused_blocks_match_the_modules(builder, channels_last, fused_calls):
    model = _model(builder)
    x = core.randn(2, 3, 64, 64)
    if channels_last:
        x = x.contiguous(memory_format=core.channels_last)
    with core.no_grad():
        got = model(x)
    assert len(fused_calls) == len(_convs(model))  # the stem, every block conv and downsample
    np.testing.assert_allclose(got.numpy(), _modules_one_by_one(model, x).numpy(), rtol=1e-4, atol=1e-4)


def test_a_hook_keeps_its_block_on_the_modules(fused_calls):
    model = _model(resnet.resnet18)
    seen = []
    model.layer2[0].bn1.register_forward_hook(lambda module, args, out: seen.append(out.shape))
    x = core.randn(1, 3, 64, 64)
    with core.no_grad():
        got = model(x)
    assert seen == [(1, 128, 8, 8)]
    assert len(fused_calls) == len(_convs(model)) - 3  # layer2[0]: conv1, conv2 and its downsample
    np.testing.assert_allclose(got.numpy(), _modules_one_by_one(model, x).numpy(), rtol=1e-4, atol=1e-4)


def test_other_activations_and_downsamples_run_themselves(fused_calls):
    model = _model(resnet.resnet50)
    model.layer1[1].relu = nn.ReLU6(inplace=True)  # the fused kernel would apply a plain ReLU
    model.relu = nn.ReLU6(inplace=True)  # the stem's

    class Shortcut(nn.Sequential):
        pass

    model.layer3[0].downsample = Shortcut(*model.layer3[0].downsample)
    x = core.randn(1, 3, 64, 64) * 4
    with core.no_grad():
        got = model(x)
    assert len(fused_calls) == len(_convs(model)) - 1 - 3 - 4  # stem, layer1[1], layer3[0] with its shortcut
    np.testing.assert_allclose(got.numpy(), _modules_one_by_one(model, x).numpy(), rtol=1e-4, atol=1e-4)


def test_training_uses_batch_statistics(fused_calls):
    model = _model(resnet.resnet18).train()
    x = core.randn(2, 3, 32, 32)
    with core.no_grad():
        got = model(x)
    assert fused_calls == []
    np.testing.assert_allclose(got.numpy(), _modules_one_by_one(model, x).numpy(), rtol=1e-4, atol=1e-4)


def test_winograd_weights_are_made_once_and_renewed_with_the_fold():
    """The stride-1 3x3 convolutions run Winograd on their folded weight transformed once
    (_folding._winograd_weight); a change to the BatchNorm refolds and transforms again."""
    model = _model(resnet.resnet18)
    x = core.randn(1, 3, 64, 64)
    with core.no_grad():
        model(x)
        bn = model.layer1[0].bn1
        packed = _folding._folds[bn][3]
        assert packed is not None
        model(x)
        assert _folding._folds[bn][3] is packed
        bn.running_var.mul_(2)
        got = model(x)
        assert _folding._folds[bn][3] is not None and _folding._folds[bn][3] is not packed
    np.testing.assert_allclose(got.numpy(), _modules_one_by_one(model, x).numpy(), rtol=1e-4, atol=1e-4)
    assert _folding._folds[model.layer2[0].bn1][3] is None  # stride 2: no Winograd
