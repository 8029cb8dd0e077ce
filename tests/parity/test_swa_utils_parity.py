"""swa_utils against torch.optim.swa_utils: SWALR curves (cos / linear, anneal_epochs 0),
AveragedModel's SWA mean and EMA over a sequence of weights (incl. use_buffers)."""
import numpy as np
import pytest

import core
import core.nn as nn
import core.optim as optim
from core.optim import swa_utils

torch = pytest.importorskip("torch")


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("kwargs", [dict(swa_lr=0.05), dict(swa_lr=[0.05, 0.01], anneal_epochs=3, anneal_strategy="linear"),
                                    dict(swa_lr=0.3, anneal_epochs=0), dict(swa_lr=0.02, anneal_epochs=1)])
def test_swalr_curve(kwargs):
    def make(lib_optim, lib, S):
        a, b = lib.tensor([1.0], requires_grad=True), lib.tensor([2.0], requires_grad=True)
        opt = lib_optim.SGD([{"params": [a]}, {"params": [b], "lr": 0.5}], lr=0.1)
        return opt, S.SWALR(opt, **kwargs)

    o, so = make(optim, core, swa_utils)
    t, st = make(torch.optim, torch, torch.optim.swa_utils)
    for k in range(15):
        np.testing.assert_allclose(so.get_last_lr(), st.get_last_lr(), rtol=1e-12, err_msg=str(k))
        o.step(), t.step(), so.step(), st.step()


@pytest.mark.parametrize("use_buffers", [False, True])
@pytest.mark.parametrize("ema", [False, True])
def test_averaged_model(use_buffers, ema):
    ours, theirs = nn.Linear(4, 3), torch.nn.Linear(4, 3)
    ours.register_buffer("stat", core.zeros(3))
    theirs.register_buffer("stat", torch.zeros(3))
    kw_o = dict(use_buffers=use_buffers, avg_fn=swa_utils.get_ema_avg_fn(0.9) if ema else None)
    kw_t = dict(use_buffers=use_buffers, avg_fn=torch.optim.swa_utils.get_ema_avg_fn(0.9) if ema else None)
    avg_o, avg_t = swa_utils.AveragedModel(ours, **kw_o), torch.optim.swa_utils.AveragedModel(theirs, **kw_t)
    rng = np.random.default_rng(0)
    for _ in range(5):
        values = [rng.standard_normal((3, 4)).astype(np.float32), rng.standard_normal(3).astype(np.float32),
                  rng.standard_normal(3).astype(np.float32)]
        with core.no_grad():
            for t_, v in zip([ours.weight, ours.bias, ours.stat], values):
                t_.copy_(core.tensor(v))
        with torch.no_grad():
            for t_, v in zip([theirs.weight, theirs.bias, theirs.stat], values):
                t_.copy_(torch.tensor(v))
        avg_o.update_parameters(ours)
        avg_t.update_parameters(theirs)
        so, st = avg_o.state_dict(), avg_t.state_dict()
        assert list(so) == list(st)
        for key in st:
            np.testing.assert_allclose(so[key].numpy(), st[key].numpy(), rtol=1e-6, atol=1e-7, err_msg=key)
