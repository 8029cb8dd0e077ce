"""Optimizers against torch.optim: every optimizer and option, 20 steps on the same parameters
and gradients (a deterministic function of the step), float32 tolerance; state_dict structure
(state keys, group options) and state dicts exchanged both ways mid-run."""
import numpy as np
import pytest

import core
import core.optim as optim

torch = pytest.importorskip("torch")

SHAPES = [(5, 3), (7,), (2, 3, 4), (), (1, 40)]
STEPS = 20
# Group options torch >= 2 adds for its implementation choices (absent in torch 1.8).
TORCH_IMPL_KEYS = {"foreach", "differentiable", "fused", "capturable", "decoupled_weight_decay"}

CONFIGS = [
    ("SGD", dict(lr=0.1)),
    ("SGD", dict(lr=0.1, momentum=0.9)),
    ("SGD", dict(lr=0.1, momentum=0.9, dampening=0.3, weight_decay=0.01)),
    ("SGD", dict(lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.05)),
    ("SGD", dict(lr=0.05, momentum=0.5, maximize=True)),
    ("RMSprop", dict()),
    ("RMSprop", dict(lr=0.01, alpha=0.9, eps=0.0316, momentum=0.9)),
    ("RMSprop", dict(lr=0.01, centered=True, weight_decay=0.01)),
    ("RMSprop", dict(lr=0.01, centered=True, momentum=0.5, maximize=True)),
    ("Adam", dict()),
    ("Adam", dict(lr=0.01, betas=(0.8, 0.99), weight_decay=0.1)),
    ("Adam", dict(lr=0.01, amsgrad=True)),
    ("Adam", dict(lr=0.01, amsgrad=True, maximize=True, weight_decay=0.01)),
    ("AdamW", dict()),
    ("AdamW", dict(lr=0.01, weight_decay=0.1, amsgrad=True)),
    ("AdamW", dict(lr=0.01, maximize=True)),
    ("Adagrad", dict()),
    ("Adagrad", dict(lr=0.1, lr_decay=0.01, weight_decay=0.01, initial_accumulator_value=0.1)),
    ("Adagrad", dict(lr=0.1, eps=1e-6, maximize=True)),
    ("Adadelta", dict()),
    ("Adadelta", dict(lr=0.5, rho=0.8, eps=1e-5, weight_decay=0.01)),
    ("Adadelta", dict(maximize=True)),
    ("Adamax", dict()),
    ("Adamax", dict(lr=0.01, betas=(0.8, 0.9), weight_decay=0.01)),
    ("Adamax", dict(lr=0.01, maximize=True)),
]
IDS = [f"{name}-{'-'.join(f'{k}={v}' for k, v in kw.items()) or 'default'}" for name, kw in CONFIGS]


def initial_params(dtype=np.float32):
    rng = np.random.default_rng(0)
    return [rng.standard_normal(s).astype(dtype) for s in SHAPES]


def grads_at(step, dtype=np.float32):
    rng = np.random.default_rng(1000 + step)
    # Some exact zeros and a scale that changes with the step.
    out = []
    for s in SHAPES:
        g = np.array(rng.standard_normal(s) * (1 + 0.3 * np.sin(step)))
        g[np.abs(g) < 0.1] = 0
        out.append(np.asarray(g, dtype=dtype))
    return out


def make_pair(name, kwargs, fused=True):
    arrays = initial_params()
    ours = [core.tensor(a, requires_grad=True) for a in arrays]
    theirs = [torch.tensor(a, requires_grad=True) for a in arrays]
    o = getattr(optim, name)(ours, **kwargs)
    o._fused = fused
    t = getattr(torch.optim, name)(theirs, **kwargs)
    return ours, theirs, o, t


def run_steps(ours, theirs, o, t, steps, first=0):
    for k in range(first, first + steps):
        for p, q, g in zip(ours, theirs, grads_at(k)):
            p.grad = core.tensor(g)
            q.grad = torch.tensor(g)
        o.step()
        t.step()
        for p, q in zip(ours, theirs):
            np.testing.assert_allclose(p.detach().numpy(), q.detach().numpy(), rtol=2e-5, atol=2e-6,
                                       err_msg=f"step {k}")


def to_core(value):
    if isinstance(value, torch.Tensor):
        return core.tensor(value.detach().numpy().copy())
    if isinstance(value, dict):
        return {k: to_core(v) for k, v in value.items()}
    if isinstance(value, list):
        return [to_core(v) for v in value]
    return value


def to_torch(value):
    if isinstance(value, core.Tensor):
        return torch.tensor(value.numpy().copy())
    if isinstance(value, dict):
        return {k: to_torch(v) for k, v in value.items()}
    if isinstance(value, list):
        return [to_torch(v) for v in value]
    return value


def normalise(v):
    return list(v) if isinstance(v, tuple) else v


@pytest.mark.parametrize("fused", [True, False], ids=["fused", "op_by_op"])
@pytest.mark.parametrize("name,kwargs", CONFIGS, ids=IDS)
def test_trajectory(name, kwargs, fused):
    ours, theirs, o, t = make_pair(name, kwargs, fused)
    run_steps(ours, theirs, o, t, STEPS)


@pytest.mark.parametrize("name,kwargs", CONFIGS, ids=IDS)
def test_state_dict_structure_and_exchange(name, kwargs):
    ours, theirs, o, t = make_pair(name, kwargs)
    run_steps(ours, theirs, o, t, 3)
    osd, tsd = o.state_dict(), t.state_dict()
    assert set(osd) == set(tsd) == {"state", "param_groups"}
    assert sorted(osd["state"]) == sorted(tsd["state"])
    for i in tsd["state"]:
        assert set(osd["state"][i]) == set(tsd["state"][i]), i
        for key, value in tsd["state"][i].items():
            if key == "step":
                assert isinstance(osd["state"][i][key], int)  # torch 1.8's int step
                assert osd["state"][i][key] == int(value)
            else:
                np.testing.assert_allclose(osd["state"][i][key].numpy(), value.numpy(), rtol=1e-5, atol=1e-6)
    for og, tg in zip(osd["param_groups"], tsd["param_groups"]):
        assert set(og) <= set(tg)
        assert set(tg) - set(og) <= TORCH_IMPL_KEYS
        for key in og:
            assert normalise(og[key]) == normalise(tg[key]), key

    # torch's state dict (tensor steps, extra group keys) into a fresh optimizer of ours, and ours
    # into a fresh torch optimizer; both continue in lockstep with the originals.
    ours2 = [core.tensor(q.detach().numpy().copy(), requires_grad=True) for q in theirs]
    o2 = getattr(optim, name)(ours2, **kwargs)
    o2.load_state_dict(to_core(tsd))
    theirs2 = [torch.tensor(p.detach().numpy().copy(), requires_grad=True) for p in ours]
    t2 = getattr(torch.optim, name)(theirs2, **kwargs)
    t2.load_state_dict(to_torch(osd))
    run_steps(ours2, theirs, o2, t, 5, first=3)
    run_steps(ours, theirs2, o, t2, 5, first=3)


def test_multiple_groups_and_float64():
    arrays = initial_params(np.float64)
    ours = [core.tensor(a, requires_grad=True) for a in arrays]
    theirs = [torch.tensor(a, requires_grad=True) for a in arrays]
    o = optim.Adam([{"params": ours[:2]}, {"params": ours[2:], "lr": 0.1, "amsgrad": True}], lr=0.01)
    t = torch.optim.Adam([{"params": theirs[:2]}, {"params": theirs[2:], "lr": 0.1, "amsgrad": True}], lr=0.01)
    for k in range(STEPS):
        for p, q, g in zip(ours, theirs, grads_at(k, np.float64)):
            p.grad = core.tensor(g)
            q.grad = torch.tensor(g)
        o.step()
        t.step()
    for p, q in zip(ours, theirs):
        np.testing.assert_allclose(p.detach().numpy(), q.detach().numpy(), rtol=1e-12, atol=1e-13)
    assert repr(o) == repr(t).replace("    capturable: False\n", "").replace("    decoupled_weight_decay: False\n", "") \
        .replace("    differentiable: False\n", "").replace("    foreach: None\n", "").replace("    fused: None\n", "")


def quadratic_closure(params, lib, target):
    def closure():
        for p in params:
            if p.grad is not None:
                p.grad = None
        x, y = params
        loss = ((x - lib.tensor(target)) ** 2 * lib.tensor([1.0, 3.0, 10.0])).sum() + (x[0] * y).sum() ** 2 \
            + (1 - y).abs().sum() * 0.1 + (x * x * x * x).sum() * 0.01
        loss.backward()
        return loss
    return closure


@pytest.mark.parametrize("kwargs", [dict(), dict(line_search_fn="strong_wolfe"), dict(history_size=3, max_iter=7),
                                    dict(lr=0.5, tolerance_change=1e-4, line_search_fn="strong_wolfe")])
def test_lbfgs(kwargs):
    init = [np.array([1.5, -0.5, 2.0], np.float64), np.array([0.3, 0.7], np.float64)]
    target = np.array([0.1, 0.2, -0.3])
    ours = [core.tensor(a, requires_grad=True) for a in init]
    theirs = [torch.tensor(a, requires_grad=True) for a in init]
    o, t = optim.LBFGS(ours, **kwargs), torch.optim.LBFGS(theirs, **kwargs)
    oc, tc = quadratic_closure(ours, core, target), quadratic_closure(theirs, torch, target)
    for _ in range(4):
        lo, lt = o.step(oc), t.step(tc)
        np.testing.assert_allclose(float(lo), float(lt), rtol=1e-9)
        for p, q in zip(ours, theirs):
            np.testing.assert_allclose(p.detach().numpy(), q.detach().numpy(), rtol=1e-8, atol=1e-10)
    os_, ts = o.state_dict()["state"][0], t.state_dict()["state"][0]
    assert set(os_) == set(ts)
    assert os_["func_evals"] == ts["func_evals"] and os_["n_iter"] == ts["n_iter"]
