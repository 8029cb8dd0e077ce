"""core.optim.lr_scheduler without torch: curves against their closed forms, the base-class
protocol (last_epoch, get_last_lr, initial_lr, the step-order warning), state dicts (no
optimizer; lambdas only when they are callable objects) and PyTorch's errors."""
import math
import warnings

import pytest

import core
import core.optim as optim
from core.optim import lr_scheduler as S


def make_optimizer(lr=0.1, groups=1, kind="SGD"):
    params = [{"params": [core.tensor([1.0], requires_grad=True)], "lr": lr * (i + 1)} for i in range(groups)]
    if kind == "Adam":
        return optim.Adam(params, lr=lr)
    return optim.SGD(params, lr=lr, momentum=0.9)


def curve(opt, sched, steps, group=0):
    out = [opt.param_groups[group]["lr"]]
    for _ in range(steps):
        opt.step()
        sched.step()
        out.append(opt.param_groups[group]["lr"])
    return out


def test_step_lr_and_base_protocol():
    opt = make_optimizer(groups=2)
    sched = S.StepLR(opt, step_size=2, gamma=0.5)
    assert sched.last_epoch == 0 and sched.base_lrs == [0.1, 0.2]
    assert [g["initial_lr"] for g in opt.param_groups] == [0.1, 0.2]
    assert curve(opt, sched, 5) == pytest.approx([0.1, 0.1, 0.05, 0.05, 0.025, 0.025])
    assert sched.get_last_lr() == pytest.approx([0.025, 0.05]) and sched.last_epoch == 5


def test_closed_forms():
    cases = [
        (lambda o: S.MultiStepLR(o, [2, 4, 4]), lambda e: 0.1 * 0.1 ** sum(m <= e for m in [2, 4, 4])),
        (lambda o: S.ExponentialLR(o, 0.9), lambda e: 0.1 * 0.9 ** e),
        (lambda o: S.CosineAnnealingLR(o, T_max=6, eta_min=0.01),
         lambda e: 0.01 + 0.09 * (1 + math.cos(math.pi * e / 6)) / 2),
        (lambda o: S.LambdaLR(o, lambda e: 1 / (e + 1)), lambda e: 0.1 / (e + 1)),
        (lambda o: S.MultiplicativeLR(o, lambda e: 0.5), lambda e: 0.1 * 0.5 ** e),
        (lambda o: S.LinearLR(o, start_factor=0.5, total_iters=4), lambda e: 0.1 * (0.5 + 0.5 * min(e, 4) / 4)),
        (lambda o: S.ConstantLR(o, factor=0.25, total_iters=3), lambda e: 0.1 * (0.25 if e < 3 else 1)),
        (lambda o: S.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2),
         lambda e: 0.05 * (1 + math.cos(math.pi * (e if e < 3 else e - 3 if e < 9 else e - 9)
                                        / (3 if e < 3 else 6 if e < 9 else 12)))),
    ]
    for make, closed in cases:
        opt = make_optimizer()
        got = curve(opt, make(opt), 14)
        assert got == pytest.approx([closed(e) for e in range(15)], rel=1e-9, abs=1e-12)


def test_cosine_annealing_recursive_form_follows_external_changes():
    opt = make_optimizer()
    sched = S.CosineAnnealingLR(opt, T_max=4)
    opt.step()
    sched.step()
    opt.param_groups[0]["lr"] *= 0.5  # the recursive form scales from the current lr
    expected = 0.5 * 0.1 * (1 + math.cos(math.pi / 4)) / 2 * (1 + math.cos(2 * math.pi / 4)) / (1 + math.cos(math.pi / 4))
    opt.step()
    sched.step()
    assert opt.param_groups[0]["lr"] == pytest.approx(expected)
    # Past T_max the curve rises again (cosine period 2 T_max).
    for _ in range(4):
        opt.step()
        sched.step()
    assert opt.param_groups[0]["lr"] > 0


def test_warm_restarts_fractional_epochs():
    opt = make_optimizer()
    sched = S.CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=2, eta_min=0.0)
    for epoch, t_cur, t_i in [(0.5, 0.5, 2), (2.5, 0.5, 4), (6.0, 0.0, 8), (1.0, 1.0, 2)]:
        sched.step(epoch)
        assert sched.T_cur == pytest.approx(t_cur) and sched.T_i == t_i
        assert opt.param_groups[0]["lr"] == pytest.approx(0.05 * (1 + math.cos(math.pi * t_cur / t_i)))
    with pytest.raises(ValueError, match="Expected non-negative epoch, but got -1"):
        sched.step(-1)


def test_sequential_and_chained():
    opt = make_optimizer()
    seq = S.SequentialLR(opt, [S.ConstantLR(opt, factor=0.5, total_iters=2), S.ExponentialLR(opt, gamma=0.5)],
                         milestones=[3])
    assert curve(opt, seq, 5) == pytest.approx([0.05, 0.05, 0.1, 0.1, 0.05, 0.025])
    opt = make_optimizer()
    chained = S.ChainedScheduler([S.ConstantLR(opt, factor=0.5, total_iters=2), S.ExponentialLR(opt, gamma=0.5)])
    assert curve(opt, chained, 3) == pytest.approx([0.05, 0.025, 0.025, 0.0125])
    sd = chained.state_dict()
    assert "optimizer" not in sd and len(sd["_schedulers"]) == 2 and "optimizer" not in sd["_schedulers"][0]


def test_one_cycle_and_cyclic_momentum():
    opt = make_optimizer(kind="Adam")
    sched = S.OneCycleLR(opt, max_lr=1.0, total_steps=10, pct_start=0.2, anneal_strategy="linear")
    g = opt.param_groups[0]
    assert g["lr"] == pytest.approx(1.0 / 25) and g["betas"][0] == pytest.approx(0.95)
    opt.step(), sched.step()
    assert g["lr"] == pytest.approx(1.0) and g["betas"][0] == pytest.approx(0.85)  # peak after pct_start
    for _ in range(8):
        opt.step(), sched.step()
    assert g["lr"] == pytest.approx(1.0 / 25 / 1e4) and g["betas"] == pytest.approx((0.95, 0.999))
    opt.step(), sched.step()
    with pytest.raises(ValueError, match="Tried to step 11 times. The specified number of total steps is 10"):
        opt.step(), sched.step()
    opt = make_optimizer()
    cyc = S.CyclicLR(opt, base_lr=0.1, max_lr=0.5, step_size_up=2, mode="triangular2")
    assert curve(opt, cyc, 8) == pytest.approx([0.1, 0.3, 0.5, 0.3, 0.1, 0.2, 0.3, 0.2, 0.1])
    assert opt.param_groups[0]["momentum"] == pytest.approx(0.9)


def test_reduce_lr_on_plateau():
    opt = make_optimizer()
    sched = S.ReduceLROnPlateau(opt, patience=1, factor=0.5, cooldown=1, min_lr=0.02)
    lrs = []
    for metric in [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]:
        sched.step(metric)
        lrs.append(opt.param_groups[0]["lr"])
    assert lrs == pytest.approx([0.1, 0.1, 0.05, 0.05, 0.05, 0.025, 0.025, 0.025])
    assert sched.get_last_lr() == pytest.approx([0.025])
    sched2 = S.ReduceLROnPlateau(make_optimizer(), mode="max")
    sched2.load_state_dict(sched.state_dict())
    assert sched2.mode == "min" and sched2.mode_worse == math.inf


def test_state_dict_excludes_optimizer_and_stores_callable_objects_only():
    class Factor:
        def __init__(self):
            self.base = 0.5

        def __call__(self, epoch):
            return self.base ** epoch

    opt = make_optimizer(groups=2)
    fn = Factor()
    sched = S.LambdaLR(opt, [lambda e: 1.0, fn])
    sd = sched.state_dict()
    assert "optimizer" not in sd and sd["lr_lambdas"] == [None, {"base": 0.5}]
    assert {"base_lrs", "last_epoch", "_step_count", "_last_lr"} <= set(sd)
    fn2 = Factor()
    fn2.base = 0.1
    sched2 = S.LambdaLR(make_optimizer(groups=2), [lambda e: 1.0, fn2])
    sched2.load_state_dict(sd)
    assert fn2.base == 0.5 and "lr_lambdas" in sd
    cyc = S.CyclicLR(make_optimizer(), 0.1, 0.2, scale_fn=lambda x: 1.0)
    assert cyc.state_dict()["_scale_fn_custom"] is None


def test_warnings():
    opt = make_optimizer()
    sched = S.StepLR(opt, 1)
    with pytest.warns(UserWarning, match="before `optimizer.step\\(\\)`"):
        sched.step()
    opt = make_optimizer()
    sched = S.StepLR(opt, 1)
    opt.step()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sched.step()  # the right order: no warning
    with pytest.warns(UserWarning, match="please use `get_last_lr\\(\\)`"):
        sched.get_lr()
    with pytest.warns(UserWarning, match="The epoch parameter in `scheduler.step\\(\\)` was not necessary"):
        sched.step(3)
    assert opt.param_groups[0]["lr"] == pytest.approx(0.1 * 0.1 ** 3)  # closed form


def test_verbose_prints(capsys):
    opt = make_optimizer()
    S.ExponentialLR(opt, 0.5, verbose=True)
    assert capsys.readouterr().out == "Adjusting learning rate of group 0 to 1.0000e-01.\n"


@pytest.mark.parametrize("make,exc,fragment", [
    (lambda o: S.StepLR(object(), 1), TypeError, "object is not an Optimizer"),
    (lambda o: S.StepLR(o, 1, last_epoch=3), KeyError, "param 'initial_lr' is not specified in param_groups[0]"),
    (lambda o: S.LambdaLR(o, [lambda e: 1, lambda e: 1]), ValueError, "Expected 1 lr_lambdas, but got 2"),
    (lambda o: S.ConstantLR(o, factor=2), ValueError, "Constant multiplicative factor expected to be between 0 and 1"),
    (lambda o: S.LinearLR(o, start_factor=0), ValueError, "Starting multiplicative factor expected"),
    (lambda o: S.LinearLR(o, end_factor=2), ValueError, "Ending multiplicative factor expected"),
    (lambda o: S.CosineAnnealingWarmRestarts(o, T_0=0), ValueError, "Expected positive integer T_0, but got 0"),
    (lambda o: S.CosineAnnealingWarmRestarts(o, T_0=2, T_mult=0), ValueError, "Expected integer T_mult >= 1"),
    (lambda o: S.OneCycleLR(o, 0.1), ValueError, "You must define either total_steps OR (epochs AND steps_per_epoch)"),
    (lambda o: S.OneCycleLR(o, 0.1, total_steps=0), ValueError, "Expected positive integer total_steps, but got 0"),
    (lambda o: S.OneCycleLR(o, 0.1, epochs=2), ValueError, "Expected positive integer steps_per_epoch"),
    (lambda o: S.OneCycleLR(o, 0.1, total_steps=5, pct_start=1.5), ValueError, "Expected float between 0 and 1 pct_start"),
    (lambda o: S.OneCycleLR(o, 0.1, total_steps=5, anneal_strategy="exp"), ValueError, "anneal_strategy must"),
    (lambda o: S.OneCycleLR(o, [0.1, 0.2], total_steps=5), ValueError, "expected 1 values for max_lr, got 2"),
    (lambda o: S.OneCycleLR(optim.Adagrad(o.param_groups[0]["params"]), 0.1, total_steps=5), ValueError,
     "optimizer must support momentum"),
    (lambda o: S.CyclicLR(o, 0.1, 0.2, mode="sine"), ValueError, "mode is invalid and scale_fn is None"),
    (lambda o: S.ReduceLROnPlateau(o, factor=1.0), ValueError, "Factor should be < 1.0."),
    (lambda o: S.ReduceLROnPlateau(o, mode="avg"), ValueError, "mode avg is unknown!"),
    (lambda o: S.ReduceLROnPlateau(o, threshold_mode="pct"), ValueError, "threshold mode pct is unknown!"),
    (lambda o: S.ReduceLROnPlateau(o, min_lr=[0.1, 0.2]), ValueError, "expected 1 min_lrs, got 2"),
    (lambda o: S.SequentialLR(o, [S.StepLR(o, 1)], milestones=[1]), ValueError,
     "expects number of schedulers provided to be one more than the number of milestone points"),
    (lambda o: S.SequentialLR(o, [S.StepLR(make_optimizer(), 1)], milestones=[]), ValueError,
     "expects all schedulers to belong to the same optimizer"),
    (lambda o: S.ChainedScheduler([]), ValueError, "expects at least one scheduler to be chained"),
    (lambda o: S.ChainedScheduler([S.ReduceLROnPlateau(o)]), ValueError, "does not support `ReduceLROnPlateau`"),
])
def test_errors(make, exc, fragment):
    opt = make_optimizer()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(exc) as info:
            make(opt)
    assert fragment in str(info.value)
