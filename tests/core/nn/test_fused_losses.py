"""Issue 28: the losses PyTorch records as one autograd node are one node here too, with
PyTorch's node names and a backward of their own (float64 gradcheck, double backward)."""
import numpy as np
import pytest

import core
import core.nn.functional as F
from core.autograd import gradcheck, gradgradcheck


def _inputs(shape=(3, 4), probabilities=False):
    core.manual_seed(0)
    x = core.rand(*shape, dtype=core.float64) * 0.8 + 0.1 if probabilities else core.randn(*shape, dtype=core.float64)
    return x.requires_grad_(), core.rand(*shape, dtype=core.float64).requires_grad_()


CASES = {
    "MseLossBackward0": (lambda x, t, r: F.mse_loss(x, t, reduction=r), False),
    "SmoothL1LossBackward0": (lambda x, t, r: F.smooth_l1_loss(x, t, reduction=r, beta=0.5), False),
    "HuberLossBackward0": (lambda x, t, r: F.huber_loss(x, t, reduction=r, delta=0.7), False),
    "SoftMarginLossBackward0": (lambda x, t, r: F.soft_margin_loss(x, t, reduction=r), False),
    "BinaryCrossEntropyBackward0": (lambda x, t, r: F.binary_cross_entropy(x, t, reduction=r), True),
    "BinaryCrossEntropyWithLogitsBackward0": (lambda x, t, r: F.binary_cross_entropy_with_logits(x, t, reduction=r),
                                              False),
}


@pytest.mark.parametrize("name", list(CASES))
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_one_node_and_gradients(name, reduction):
    fn, probabilities = CASES[name]
    x, t = _inputs(probabilities=probabilities)
    out = fn(x, t, reduction)
    assert out.grad_fn.name() == name
    assert [f.name() if f else None for f, _ in out.grad_fn.next_functions][:1] == ["AccumulateGrad"]
    assert gradcheck(lambda a, b: fn(a, b, reduction), (x, t))
    if name not in ("SmoothL1LossBackward0", "HuberLossBackward0"):  # kinks: second derivative is a delta
        assert gradgradcheck(lambda a, b: fn(a, b, reduction), (x, t))


def test_weights_and_broadcasting():
    x, t = _inputs()
    w = core.rand(4, dtype=core.float64)
    pw = core.rand(4, dtype=core.float64) + 0.5
    assert gradcheck(lambda a, b: F.binary_cross_entropy_with_logits(a, b, weight=w, pos_weight=pw), (x, t))
    p, _ = _inputs(probabilities=True)
    assert gradcheck(lambda a: F.binary_cross_entropy(a, t.detach(), weight=w), (p,))
    with pytest.warns(UserWarning, match="target size"):
        out = F.mse_loss(x, t[0])  # broadcast target: its gradient sums back to (4,)
    out.backward()
    assert t.grad.shape == (3, 4) and float(t.grad[1:].abs().sum()) == 0  # through the view t[0]
    assert gradcheck(lambda a, b: F.mse_loss(a, b.expand(3, 4)), (x, t[0].detach().requires_grad_()))


def test_values_against_numpy():
    x, t = _inputs()
    a, b = x.detach().numpy(), t.detach().numpy()
    np.testing.assert_allclose(F.mse_loss(x, t).item(), ((a - b) ** 2).mean())
    z = np.abs(a - b)
    np.testing.assert_allclose(F.huber_loss(x, t, delta=0.7).item(),
                               np.where(z < 0.7, 0.5 * z * z, 0.7 * (z - 0.35)).mean())
    np.testing.assert_allclose(F.binary_cross_entropy_with_logits(x, t, reduction="sum").item(),
                               ((1 - b) * a + np.log1p(np.exp(-a))).sum())
    np.testing.assert_allclose(F.soft_margin_loss(x, t).item(), np.log1p(np.exp(-a * b)).mean())
    edge = core.tensor([0.0, 1.0], dtype=core.float64, requires_grad=True)
    loss = F.binary_cross_entropy(edge, core.tensor([1.0, 0.0], dtype=core.float64))
    assert loss.item() == 100.0  # log clamped at -100
    loss.backward()
    assert np.isfinite(edge.grad.numpy()).all()


def test_errors():
    x, t = _inputs()
    with pytest.raises(RuntimeError, match="does not support negative values for beta"):
        F.smooth_l1_loss(x, t, beta=-1.0)
    with pytest.raises(RuntimeError, match="non-positive values for delta"):
        F.huber_loss(x, t, delta=0.0)
    with pytest.raises(ValueError, match="is not a valid value for reduction"):
        F.mse_loss(x, t, reduction="avg")
