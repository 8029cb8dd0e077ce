"""vision.models against torchvision on the same weights: torchvision's model (random init,
random BN statistics) is torch.save'd into a local mirror, loaded into ours through
hub.load(..., pretrained=True), then eval logits (max abs diff <= 1e-4), one training step's
gradients and the updated BN running statistics are compared."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import core  # noqa: E402
import hub  # noqa: E402
from parity._hub_mirror import publish  # noqa: E402
from parity._torchvision import import_torchvision  # noqa: E402
from vision.models import mobilenetv2, mobilenetv3, resnet  # noqa: E402

MODULES = {"mobilenet_v3_large": mobilenetv3, "mobilenet_v3_small": mobilenetv3, "mobilenet_v2": mobilenetv2,
           "resnet18": resnet, "resnet50": resnet}
NAMES = sorted(MODULES)


@pytest.fixture(scope="module")
def tv():
    module = import_torchvision()
    if module is None:
        pytest.skip("torchvision is not installed")
    import torchvision.models  # noqa: F401
    return module


def _torchvision_model(tv, name):
    torch.manual_seed(0)
    model = getattr(tv.models, name)()
    generator = torch.Generator().manual_seed(1)
    with torch.no_grad():
        for module in model.modules():
            if isinstance(module, torch.nn.BatchNorm2d):  # non-trivial statistics and affine parameters
                c = module.num_features
                module.running_mean.copy_(torch.randn(c, generator=generator) * 0.1)
                module.running_var.copy_(torch.rand(c, generator=generator) * 0.5 + 0.75)
                module.weight.copy_(torch.rand(c, generator=generator) * 0.5 + 0.75)
                module.bias.copy_(torch.randn(c, generator=generator) * 0.1)
                module.num_batches_tracked.fill_(5)
    return model


def _publish(directory, monkeypatch, name, model):
    publish(directory, monkeypatch, MODULES[name].model_urls, name, name, model)


def _input(seed, shape=(2, 3, 64, 64)):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def _eval_dropout(model, dropout_type):
    """Training mode with the dropouts off, so both frameworks compute the same function."""
    model.train()
    for module in model.modules():
        if isinstance(module, dropout_type):
            module.eval()


@pytest.mark.parametrize("name", NAMES)
def test_logits_and_training_step(tv, mirror, monkeypatch, name):
    theirs = _torchvision_model(tv, name)
    _publish(mirror, monkeypatch, name, theirs)
    ours = hub.load(name, pretrained=True, progress=False)

    x = _input(0)
    theirs.eval()
    ours.eval()
    with torch.no_grad():
        expected = theirs(torch.from_numpy(x)).numpy()
    with core.no_grad():
        got = ours(core.tensor(x)).numpy()
    assert np.abs(got - expected).max() <= 1e-4

    # one training step: batch statistics, a cross-entropy loss, gradients of every parameter;
    # in float64, since float32 rounding through ~50 training-mode BatchNorms moves the first
    # layers' gradients by a few percent in either library
    theirs.double()
    ours.double()
    x = x.astype(np.float64)
    target = np.array([3, 997])
    _eval_dropout(theirs, torch.nn.Dropout)
    _eval_dropout(ours, core.nn.Dropout)
    loss_t = torch.nn.functional.cross_entropy(theirs(torch.from_numpy(x)), torch.from_numpy(target))
    loss_t.backward()
    loss_o = core.nn.functional.cross_entropy(ours(core.tensor(x)), core.tensor(target))
    loss_o.backward()
    np.testing.assert_allclose(loss_o.item(), loss_t.item(), rtol=1e-4)
    grads_t = {k: p.grad.numpy() for k, p in theirs.named_parameters()}
    grads_o = {k: p.grad.numpy() for k, p in ours.named_parameters()}
    assert list(grads_o) == list(grads_t)
    for key, g in grads_t.items():
        # a floor for gradients that are zero up to rounding (a bias right before a BatchNorm)
        atol = max(1e-6 * float(np.abs(g).max()), 1e-9)
        np.testing.assert_allclose(grads_o[key], g, rtol=1e-5, atol=atol, err_msg=key)
    buffers_t = {k: b.numpy() for k, b in theirs.named_buffers()}
    for key, b in ours.named_buffers():
        np.testing.assert_allclose(b.numpy(), buffers_t[key], rtol=1e-4, atol=1e-5, err_msg=key)
