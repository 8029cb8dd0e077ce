"""Learning-rate schedules against torch.optim.lr_scheduler: the lr (and momentum / beta1)
curves of every scheduler over many steps, incl. chained and sequential ones and
ReduceLROnPlateau on a fixed metric sequence; state_dict keys; resuming from a state_dict."""
import math

import numpy as np
import pytest

import core
import core.optim as optim
from core.optim import lr_scheduler as ours_sched

torch = pytest.importorskip("torch")
theirs_sched = torch.optim.lr_scheduler

STEPS = 40


def make_optimizer(lib_optim, lib, kind="SGD"):
    a = lib.tensor([1.0, 2.0], requires_grad=True)
    b = lib.tensor([3.0], requires_grad=True)
    if kind == "Adam":
        return lib_optim.Adam([{"params": [a]}, {"params": [b], "lr": 0.02}], lr=0.1)
    return lib_optim.SGD([{"params": [a]}, {"params": [b], "lr": 0.02}], lr=0.1, momentum=0.9)


class Scale:
    """A callable object: its __dict__ goes into state_dict."""

    def __init__(self, factor):
        self.factor = factor

    def __call__(self, epoch):
        return self.factor ** epoch


# name -> (optimizer kind, factory(sched_module, optimizer))
CASES = {
    "StepLR": ("SGD", lambda S, o: S.StepLR(o, step_size=3, gamma=0.5)),
    "MultiStepLR": ("SGD", lambda S, o: S.MultiStepLR(o, milestones=[2, 5, 5, 9], gamma=0.3)),
    "ExponentialLR": ("SGD", lambda S, o: S.ExponentialLR(o, gamma=0.9)),
    "CosineAnnealingLR": ("SGD", lambda S, o: S.CosineAnnealingLR(o, T_max=10, eta_min=0.001)),
    "CosineAnnealingWarmRestarts": ("SGD", lambda S, o: S.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2, eta_min=0.01)),
    "CosineAnnealingWarmRestarts-1": ("SGD", lambda S, o: S.CosineAnnealingWarmRestarts(o, T_0=4)),
    "LambdaLR": ("SGD", lambda S, o: S.LambdaLR(o, lr_lambda=[lambda e: 0.95 ** e, Scale(0.9)])),
    "MultiplicativeLR": ("SGD", lambda S, o: S.MultiplicativeLR(o, lr_lambda=lambda e: 0.97)),
    "LinearLR": ("SGD", lambda S, o: S.LinearLR(o, start_factor=0.25, end_factor=0.9, total_iters=6)),
    "ConstantLR": ("SGD", lambda S, o: S.ConstantLR(o, factor=0.5, total_iters=4)),
    "OneCycleLR-cos": ("SGD", lambda S, o: S.OneCycleLR(o, max_lr=[1.0, 0.5], total_steps=STEPS)),
    "OneCycleLR-linear-3phase": ("SGD", lambda S, o: S.OneCycleLR(o, max_lr=0.3, epochs=4, steps_per_epoch=10,
                                                                 anneal_strategy="linear", three_phase=True)),
    "OneCycleLR-adam": ("Adam", lambda S, o: S.OneCycleLR(o, max_lr=0.01, total_steps=STEPS, pct_start=0.25)),
    "OneCycleLR-nomomentum": ("SGD", lambda S, o: S.OneCycleLR(o, max_lr=0.1, total_steps=STEPS,
                                                              cycle_momentum=False, div_factor=10.0)),
    "CyclicLR-triangular": ("SGD", lambda S, o: S.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=4)),
    "CyclicLR-triangular2": ("SGD", lambda S, o: S.CyclicLR(o, base_lr=[0.01, 0.02], max_lr=0.1, step_size_up=3,
                                                           step_size_down=5, mode="triangular2")),
    "CyclicLR-exp_range": ("SGD", lambda S, o: S.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=4,
                                                         mode="exp_range", gamma=0.95)),
    "CyclicLR-scale_fn": ("SGD", lambda S, o: S.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=2,
                                                        scale_fn=lambda x: 1 / (x + 1), scale_mode="iterations")),
    "CyclicLR-adam": ("Adam", lambda S, o: S.CyclicLR(o, base_lr=0.001, max_lr=0.01, step_size_up=5)),
    "SequentialLR": ("SGD", lambda S, o: S.SequentialLR(
        o, [S.LinearLR(o, start_factor=0.1, total_iters=4), S.ExponentialLR(o, gamma=0.9),
            S.StepLR(o, step_size=2, gamma=0.5)], milestones=[5, 12])),
    "SequentialLR-cosine": ("SGD", lambda S, o: S.SequentialLR(
        o, [S.ConstantLR(o, factor=0.2, total_iters=3), S.CosineAnnealingLR(o, T_max=8)], milestones=[3])),
    "ChainedScheduler": ("SGD", lambda S, o: S.ChainedScheduler(
        [S.ConstantLR(o, factor=0.5, total_iters=3), S.ExponentialLR(o, gamma=0.9),
         S.MultiStepLR(o, milestones=[10, 20])])),
}


def momentum_of(group):
    return group["betas"][0] if "betas" in group else group.get("momentum")


def run_pair(name):
    kind, factory = CASES[name]
    o, t = make_optimizer(optim, core, kind), make_optimizer(torch.optim, torch, kind)
    so, st = factory(ours_sched, o), factory(theirs_sched, t)
    return o, t, so, st


def assert_same_lrs(o, t, so, st, k):
    np.testing.assert_allclose(so.get_last_lr(), st.get_last_lr(), rtol=1e-12, atol=1e-15, err_msg=f"step {k}")
    for go, gt in zip(o.param_groups, t.param_groups):
        assert go["lr"] == pytest.approx(gt["lr"], rel=1e-12, abs=1e-15)
        assert momentum_of(go) == pytest.approx(momentum_of(gt), rel=1e-12)


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("name", sorted(CASES))
def test_curve(name):
    o, t, so, st = run_pair(name)
    assert_same_lrs(o, t, so, st, -1)
    steps = STEPS - 1 if name.startswith("OneCycleLR") else STEPS
    for k in range(steps):
        o.step()
        t.step()
        so.step()
        st.step()
        assert_same_lrs(o, t, so, st, k)


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("name", sorted(CASES))
def test_state_dict_keys_and_resume(name):
    o, t, so, st = run_pair(name)
    for _ in range(7):
        o.step(), t.step(), so.step(), st.step()
    ours_keys, their_keys = set(so.state_dict()), set(st.state_dict())
    assert ours_keys - {"verbose", "use_beta1"} <= their_keys | {"_step_count"}, ours_keys - their_keys
    assert their_keys - ours_keys <= {"_scale_fn_ref", "_anneal_func_type"} or their_keys <= ours_keys | {
        "_scale_fn_ref"}, their_keys - ours_keys
    # A fresh scheduler loaded from the state dict continues the same curve.
    o2, _, so2, _ = run_pair(name)
    o2.load_state_dict(o.state_dict())
    so2.load_state_dict(so.state_dict())
    for k in range(10):
        o2.step(), t.step(), so2.step(), st.step()
        assert_same_lrs(o2, t, so2, st, k)


def test_cosine_warm_restarts_fractional_epochs():
    o, t = make_optimizer(optim, core), make_optimizer(torch.optim, torch)
    so = ours_sched.CosineAnnealingWarmRestarts(o, T_0=5, T_mult=2, eta_min=0.001)
    st = theirs_sched.CosineAnnealingWarmRestarts(t, T_0=5, T_mult=2, eta_min=0.001)
    for epoch in np.arange(0, 30, 0.37):
        so.step(float(epoch))
        st.step(float(epoch))
        assert_same_lrs(o, t, so, st, epoch)


@pytest.mark.filterwarnings("ignore")
def test_closed_form_with_epoch_argument():
    for factory in (lambda S, o: S.StepLR(o, 3, 0.5), lambda S, o: S.MultiStepLR(o, [2, 6]),
                    lambda S, o: S.ExponentialLR(o, 0.8), lambda S, o: S.CosineAnnealingLR(o, 7),
                    lambda S, o: S.LinearLR(o), lambda S, o: S.ConstantLR(o)):
        o, t = make_optimizer(optim, core), make_optimizer(torch.optim, torch)
        so, st = factory(ours_sched, o), factory(theirs_sched, t)
        for epoch in [3, 1, 8, 8, 2, 10]:
            so.step(epoch)
            st.step(epoch)
            assert_same_lrs(o, t, so, st, epoch)


METRICS = [1.0, 0.9, 0.95, 0.95, 0.96, 0.97, 0.89, 0.9, 0.9, 0.9, 0.9, 0.9, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5,
           0.499999, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6]


@pytest.mark.parametrize("kwargs", [
    dict(patience=2),
    dict(mode="max", patience=1, factor=0.5),
    dict(patience=1, threshold=0.05, threshold_mode="abs", cooldown=2),
    dict(patience=0, threshold_mode="rel", threshold=0.1, min_lr=[0.01, 0.015]),
    dict(patience=0, factor=0.9, min_lr=0.0199, eps=1e-3),
    dict(mode="max", threshold_mode="abs", patience=3, cooldown=1),
])
def test_reduce_lr_on_plateau(kwargs):
    o, t = make_optimizer(optim, core), make_optimizer(torch.optim, torch)
    so, st = ours_sched.ReduceLROnPlateau(o, **kwargs), theirs_sched.ReduceLROnPlateau(t, **kwargs)
    for k, metric in enumerate(METRICS):
        so.step(core.tensor(metric, dtype=core.float64) if k % 2 else metric)
        st.step(metric)
        assert_same_lrs(o, t, so, st, k)
        assert so.num_bad_epochs == st.num_bad_epochs and so.cooldown_counter == st.cooldown_counter
        assert so.best == st.best
    state = so.state_dict()
    assert set(state) - {"verbose"} <= set(st.state_dict()) | {"_step_count"}
    so2 = ours_sched.ReduceLROnPlateau(make_optimizer(optim, core))
    so2.load_state_dict(state)
    assert so2.best == so.best and so2.mode == so.mode and so2._is_better(-math.inf, so2.best) == (so.mode == "min")
