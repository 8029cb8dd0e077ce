"""core.optim.swa_utils: AveragedModel (SWA mean, custom avg_fn such as an EMA, n_averaged,
use_buffers), SWALR's annealing, update_bn (when core.nn has BatchNorm)."""
import math

import numpy as np
import pytest

import core
import core.nn as nn
import core.optim as optim
from core.optim.swa_utils import SWALR, AveragedModel, get_ema_avg_fn, update_bn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 2)
        self.register_buffer("counter", core.tensor([0.0, 0.0]))

    def forward(self, x):
        return self.fc(x)


def set_weights(net, value):
    with core.no_grad():
        for p in net.parameters():
            p.fill_(value)
        net.counter.fill_(value)


def test_swa_mean_and_n_averaged():
    net = Net()
    swa = AveragedModel(net)
    assert swa.n_averaged.item() == 0 and swa.n_averaged.dtype == core.int64
    assert "n_averaged" in swa.state_dict() and "module.fc.weight" in swa.state_dict()
    for value in (1.0, 2.0, 6.0):
        set_weights(net, value)
        swa.update_parameters(net)
    assert swa.n_averaged.item() == 3
    for p in swa.module.parameters():
        np.testing.assert_allclose(p.detach().numpy(), 3.0)
    np.testing.assert_allclose(swa.module.counter.numpy(), 6.0)  # buffers follow the model
    x = core.ones(4, 3)
    np.testing.assert_allclose(swa(x).detach().numpy(), np.full((4, 2), 3.0 * 3 + 3.0))
    assert swa.module is not net.fc and swa.module.fc.weight is not net.fc.weight  # a deep copy


def test_custom_avg_fn_ema_and_use_buffers():
    net = Net()
    ema = AveragedModel(net, avg_fn=get_ema_avg_fn(0.5), use_buffers=True)
    for value in (4.0, 0.0, 2.0):
        set_weights(net, value)
        ema.update_parameters(net)
    # 4 (copied) -> 0.5*4 + 0.5*0 = 2 -> 0.5*2 + 0.5*2 = 2
    for t in list(ema.module.parameters()) + [ema.module.counter]:
        np.testing.assert_allclose(t.detach().numpy(), 2.0)
    calls = []

    def avg_fn(averaged, current, n):
        calls.append(int(n))
        return averaged + current

    summed = AveragedModel(net, avg_fn=avg_fn)
    for _ in range(3):
        summed.update_parameters(net)
    assert calls == [1, 1, 2, 2]  # one call per parameter per update after the first (a copy)
    np.testing.assert_allclose(summed.module.fc.bias.detach().numpy(), 6.0)
    with pytest.raises(ValueError, match="Invalid decay value 1.5"):
        get_ema_avg_fn(1.5)


def test_swalr_annealing():
    p = core.tensor([1.0], requires_grad=True)
    opt = optim.SGD([p], lr=1.0)
    sched = SWALR(opt, swa_lr=0.1, anneal_epochs=4, anneal_strategy="linear")
    lrs = [opt.param_groups[0]["lr"]]
    for _ in range(6):
        opt.step()
        sched.step()
        lrs.append(opt.param_groups[0]["lr"])
    assert lrs == pytest.approx([1.0, 0.775, 0.55, 0.325, 0.1, 0.1, 0.1])
    opt = optim.SGD([p], lr=1.0)
    sched = SWALR(opt, swa_lr=0.2, anneal_epochs=2)
    opt.step(), sched.step()
    assert opt.param_groups[0]["lr"] == pytest.approx(0.2 + 0.8 * (1 + math.cos(math.pi / 2)) / 2)
    assert "anneal_func" not in sched.state_dict() and sched.state_dict()["_anneal_strategy"] == "cos"
    with pytest.raises(ValueError, match="anneal_strategy must by one of 'cos' or 'linear'"):
        SWALR(opt, 0.1, anneal_strategy="exp")
    with pytest.raises(ValueError, match="anneal_epochs must be equal or greater than 0, got -1"):
        SWALR(opt, 0.1, anneal_epochs=-1)
    with pytest.raises(ValueError, match="expected 1 values for swa_lr, got 2"):
        SWALR(opt, [0.1, 0.2])


def test_update_bn():
    batchnorm = pytest.importorskip("core.nn.modules.batchnorm")
    if not hasattr(batchnorm, "_BatchNorm"):
        pytest.skip("core.nn has no BatchNorm yet")
    model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4))
    model.eval()
    rng = np.random.default_rng(0)
    data = [core.tensor(rng.standard_normal((8, 3)).astype(np.float32) * 2 + 1) for _ in range(5)]
    loader = [(x, 0) for x in data]
    update_bn(loader, model)
    assert not model.training and model[1].momentum == 0.1
    with core.no_grad():
        h = core.cat([model[0](x) for x in data]).numpy()
    # Cumulative averages of the per-batch statistics (momentum None).
    means = np.mean([hb.mean(0) for hb in np.split(h, 5)], axis=0)
    np.testing.assert_allclose(model[1].running_mean.numpy(), means, rtol=1e-5, atol=1e-6)
    assert model[1].num_batches_tracked.item() == 5
