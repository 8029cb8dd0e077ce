"""Losses: float64 gradchecks (every reduction, weights, ignore_index), errors, modules."""
import warnings

import numpy as np
import pytest

import core
import core.nn as nn
import core.nn.functional as F
from core.autograd import gradcheck, gradgradcheck

R = np.random.default_rng(0)
REDUCTIONS = ["none", "mean", "sum"]


def _t(a, grad=False):
    return core.tensor(np.asarray(a), requires_grad=grad)


def _x(*shape, low=-2, high=2):
    return _t(R.uniform(low, high, shape), True)


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("shape", [(4, 3), (2, 3, 2, 2), (3,)])
@pytest.mark.parametrize("weighted", [False, True])
def test_nll_and_cross_entropy_gradcheck(reduction, shape, weighted):
    c = shape[0] if len(shape) == 1 else shape[1]
    tshape = () if len(shape) == 1 else (shape[0],) + shape[2:]
    targets = R.integers(0, c, tshape)
    if (targets == 1).all():  # every target ignored: a mean over nothing is NaN (as PyTorch's)
        targets = np.zeros_like(targets)
    t = _t(targets)
    w = _t(R.uniform(0.5, 2, c)) if weighted else None
    x = _x(*shape)
    assert gradcheck(lambda x: F.nll_loss(x, t, w, ignore_index=1, reduction=reduction), (x,))
    assert gradgradcheck(lambda x: F.nll_loss(x, t, w, ignore_index=1, reduction=reduction), (x,))
    for ls in (0.0, 0.25):
        assert gradcheck(lambda x: F.cross_entropy(x, t, w, ignore_index=1, reduction=reduction,
                                                   label_smoothing=ls), (x,))
    if len(shape) > 1:
        p = _t(R.dirichlet(np.ones(c), tshape).swapaxes(1, -1) if len(shape) > 2 else R.dirichlet(np.ones(c), 4),
               True)
        assert gradcheck(lambda x, p: F.cross_entropy(x, p, w, reduction=reduction, label_smoothing=0.1), (x, p))


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_elementwise_losses_gradcheck(reduction):
    x, y = _x(3, 4), _x(3, 4)
    w, pw = _t(R.uniform(0.5, 2, 4)), _t(R.uniform(0.5, 2, 4))
    p, q = _t(R.uniform(0.05, 0.95, (3, 4)), True), _t(R.uniform(0, 1, (3, 4)), True)
    sign = _t(np.sign(R.standard_normal((3, 4))))
    checks = [
        (lambda a, b: F.mse_loss(a, b, reduction=reduction), (x, y)),
        (lambda a, b: F.l1_loss(a, b, reduction=reduction), (x, y)),
        (lambda a, b: F.smooth_l1_loss(a, b, reduction=reduction, beta=0.7), (x, y)),
        (lambda a, b: F.huber_loss(a, b, reduction=reduction, delta=0.6), (x, y)),
        (lambda a, b: F.binary_cross_entropy(a, b, w, reduction=reduction), (p, q)),
        (lambda a, b: F.binary_cross_entropy_with_logits(a, b, w, reduction=reduction, pos_weight=pw), (x, q)),
        (lambda a: F.soft_margin_loss(a, sign, reduction=reduction), (x,)),
        (lambda a: F.multilabel_soft_margin_loss(a, (sign > 0).double(), w, reduction=reduction), (x,)),
        (lambda a: F.hinge_embedding_loss(a, sign, margin=0.5, reduction=reduction), (x,)),
        (lambda a, b: F.poisson_nll_loss(a, b, reduction=reduction), (x, q)),
        (lambda a, b: F.poisson_nll_loss(a, b * 3, log_input=False, full=True, reduction=reduction), (p, q)),
        (lambda a, b, v: F.gaussian_nll_loss(a, b, v, full=True, reduction=reduction), (x, y, p)),
        (lambda a, b: F.kl_div(a, b, reduction=reduction, log_target=True), (x, y)),
        (lambda a, b: F.kl_div(a, b, reduction="batchmean"), (x, p)),
        (lambda a: F.multilabel_margin_loss(a, _t([[3, 0, -1, 1], [1, 2, 0, 3], [2, -1, 0, 0]]),
                                            reduction=reduction), (x,)),
        (lambda a: F.multi_margin_loss(a, _t([0, 3, 1]), p=2, margin=0.5, weight=w, reduction=reduction), (x,)),
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for fn, inputs in checks:
            assert gradcheck(fn, inputs), fn


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_pair_losses_gradcheck(reduction):
    a, b = _x(4, 3), _x(4, 3)
    s = _t([1.0, -1.0, -1.0, 1.0])
    assert gradcheck(lambda a, b: F.margin_ranking_loss(a, b, s, margin=0.2, reduction=reduction),
                     (a[:, 0].detach().requires_grad_(), b[:, 0].detach().requires_grad_()))
    assert gradcheck(lambda a, b: F.cosine_embedding_loss(a, b, s, margin=-0.5, reduction=reduction), (a, b))


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("concatenated", [False, True])
def test_ctc_gradcheck_through_log_softmax(reduction, concatenated):
    x = _x(6, 2, 4)
    targets = [[1, 2, 2], [3, 1, 0]]
    tl = [3, 2]
    t = _t([1, 2, 2, 3, 1] if concatenated else targets)
    fn = lambda x: F.ctc_loss(core.log_softmax(x, 2), t, [6, 5], tl, reduction=reduction)  # noqa: E731
    assert gradcheck(fn, (x,))


def test_ctc_double_backward_is_not_implemented():
    x = _x(4, 1, 3)
    loss = F.ctc_loss(core.log_softmax(x, 2), _t([[1, 2]]), [4], [2])
    with pytest.raises(NotImplementedError, match="_ctc_loss_backward"):
        (g,) = core.autograd.grad(loss, x, create_graph=True)
        g.sum().backward()


def test_nll_errors():
    x = core.randn(3, 4)
    with pytest.raises(IndexError, match="Target 7 is out of bounds"):
        F.nll_loss(x, _t([0, 7, 1]))
    with pytest.raises(IndexError, match="out of bounds"):
        F.cross_entropy(x, _t([0, -3, 1]))
    with pytest.raises(ValueError, match=r"nll_loss\(\): Expected input batch_size \(3\) to match target batch_size"):
        F.nll_loss(x, _t([0, 1]))
    with pytest.raises(RuntimeError, match="nll_loss.*weight tensor should be defined"):
        F.nll_loss(x, _t([0, 1, 2]), weight=core.ones(3))
    with pytest.raises(RuntimeError, match="Expected target size"):
        F.nll_loss(core.randn(2, 3, 4), _t([[0, 1, 2], [0, 1, 2]]))
    with pytest.raises(RuntimeError, match="expected scalar type Long"):
        F.nll_loss(x, _t([0, 1, 2]).int())
    with pytest.raises(ValueError, match="not a valid value for reduction"):
        F.nll_loss(x, _t([0, 1, 2]), reduction="avg")
    with pytest.raises(RuntimeError, match="label_smoothing"):
        F.cross_entropy(x, _t([0, 1, 2]), label_smoothing=1.5)


def test_shape_errors_name_the_loss():
    a, b = core.rand(3, 4), core.rand(4, 3)
    with pytest.raises(ValueError, match="binary_cross_entropy.*target size"):
        F.binary_cross_entropy(a, b)
    with pytest.raises(ValueError, match="binary_cross_entropy_with_logits.*Target size"):
        F.binary_cross_entropy_with_logits(a, b)
    with pytest.raises(RuntimeError, match="binary_cross_entropy.*between 0 and 1"):
        F.binary_cross_entropy(a * 3, a)
    with pytest.raises(RuntimeError, match="margin_ranking_loss"):
        F.margin_ranking_loss(a, a, core.ones(3))
    with pytest.raises(RuntimeError, match="cosine_embedding_loss"):
        F.cosine_embedding_loss(a, a, core.ones(3, 1))
    with pytest.raises(RuntimeError, match="triplet_margin_loss"):
        F.triplet_margin_loss(a, a, a[0])
    with pytest.raises(ValueError, match="gaussian_nll_loss.*var"):
        F.gaussian_nll_loss(a, a, core.ones(2))
    with pytest.raises(RuntimeError):  # broadcasting a (3, 4) against a (4, 3) fails in the op
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            F.mse_loss(a, b)


def test_ctc_errors():
    lp = core.log_softmax(core.randn(5, 2, 4), 2)
    with pytest.raises(RuntimeError, match=r"ctc_loss\(\): Expected input_lengths to have value at most 5"):
        F.ctc_loss(lp, _t([[1, 2], [1, 2]]), [6, 5], [2, 2])
    with pytest.raises(RuntimeError, match="at least 3 at dimension 1"):
        F.ctc_loss(lp, _t([[1, 2], [1, 2]]), [5, 5], [3, 2])
    with pytest.raises(IndexError, match="ctc_loss"):
        F.ctc_loss(lp, _t([[1, 9], [1, 2]]), [5, 5], [2, 2])
    with pytest.raises(RuntimeError, match="blank must be in label range"):
        F.ctc_loss(lp, _t([[1, 2], [1, 2]]), [5, 5], [2, 2], blank=4)
    with pytest.raises(RuntimeError, match="input_lengths must be of size batch_size"):
        F.ctc_loss(lp, _t([[1, 2], [1, 2]]), [5], [2, 2])


def test_nll_edge_cases():
    assert bool(core.isnan(F.nll_loss(core.randn(2, 3), _t([-100, -100]))))
    assert F.nll_loss(core.randn(0, 3), _t(np.zeros(0, dtype=np.int64)), reduction="sum").item() == 0
    x = core.randn(3, 4)
    out = F.nll_loss(x, _t([0, 2, 1]), ignore_index=2, reduction="none")
    assert out.shape == (3,) and out[1].item() == 0
    # float16 computes in float32 and returns float16
    assert F.cross_entropy(x.half(), _t([0, 2, 1])).dtype == core.float16


def test_legacy_reduction_arguments():
    x, y = core.randn(3), core.randn(3)
    with pytest.warns(UserWarning, match="size_average and reduce args will be deprecated"):
        out = F.mse_loss(x, y, size_average=False)
    assert np.isclose(out.item(), ((x - y) ** 2).sum().item())
    with pytest.warns(UserWarning):
        assert nn.L1Loss(reduce=False).reduction == "none"
    with pytest.warns(UserWarning):
        assert nn.NLLLoss(size_average=True, reduce=True).reduction == "mean"


def test_loss_modules():
    w = core.rand(4)
    m = nn.CrossEntropyLoss(weight=w, ignore_index=3, label_smoothing=0.1)
    assert list(m.state_dict().keys()) == ["weight"] and m.ignore_index == 3
    x, t = core.randn(2, 4), _t([1, 3])
    assert np.isclose(m(x, t).item(), F.cross_entropy(x, t, w, ignore_index=3, label_smoothing=0.1).item())
    assert list(nn.BCEWithLogitsLoss(pos_weight=core.ones(2)).state_dict().keys()) == ["pos_weight"]
    assert nn.CTCLoss(blank=2, zero_infinity=True).zero_infinity
    assert repr(nn.MSELoss()) == "MSELoss()"
    assert core.ctc_loss is not None and core.binary_cross_entropy_with_logits is not None
    assert np.isclose(core.kl_div(x, x.exp(), 2).item(), F.kl_div(x, x.exp(), reduction="sum").item())
