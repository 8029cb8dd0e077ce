"""Issue 28: behaviours PyTorch programs print or test for: grad_fn in a tensor's repr, the
set_to_none zero_grad default, and the DataLoader's worker-count warning shown once."""
import warnings

import core
import core.nn as nn
from core.utils.data import DataLoader, TensorDataset


def test_repr_names_the_grad_fn():
    x = core.ones(2, 2, requires_grad=True)
    assert repr(x * 2).endswith("grad_fn=<MulBackward0>)")
    assert "grad_fn=<AddmmBackward0>" in repr(nn.functional.linear(x, x, core.ones(2)))
    assert "grad_fn=<MseLossBackward0>" in repr(nn.functional.mse_loss(x, core.zeros(2, 2)))
    assert repr((x * 2).grad_fn) == "<MulBackward0 object>"


def test_zero_grad_sets_to_none_by_default():
    model = nn.Linear(2, 1)
    opt = core.optim.SGD(model.parameters(), lr=0.1)
    model(core.ones(1, 2)).sum().backward()
    opt.zero_grad()
    assert all(p.grad is None for p in model.parameters())
    model(core.ones(1, 2)).sum().backward()
    model.zero_grad()
    assert model.weight.grad is None


def test_worker_count_warning_once(monkeypatch):
    from core.utils.data import dataloader

    monkeypatch.setattr(dataloader, "_cpu_count", lambda: 1)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        loader = DataLoader(TensorDataset(core.arange(4)), batch_size=2, num_workers=2)
        for _ in range(2):
            assert len(list(loader)) == 2
    assert sum("worker processes in total" in str(w.message) for w in caught) == 1
