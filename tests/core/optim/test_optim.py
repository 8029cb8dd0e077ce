"""core.optim without torch: updates against hand-written numpy formulas (every optimizer and
option, fused and op-by-op paths), PyTorch's errors for bad hyper-parameters, the Optimizer
API (param groups, zero_grad, repr, closures), state_dict round trips, and the fused
multi-tensor ops (bit-identical to the op-by-op path, version bumps, argument errors)."""
import math
import warnings

import numpy as np
import pytest

import core
import core.optim as optim
from core import _C

SHAPES = [(4, 3), (6,), (2, 2, 2), ()]


def params_of(dtype=np.float64, shapes=SHAPES):
    rng = np.random.default_rng(0)
    return [rng.standard_normal(s).astype(dtype) for s in shapes]


def grads_of(step, dtype=np.float64, shapes=SHAPES):
    rng = np.random.default_rng(100 + step)
    return [np.array(rng.standard_normal(s), dtype=dtype) for s in shapes]


# ------------------------------------------------------------------ numpy references
def ref_sgd(p, g, st, lr, momentum=0, dampening=0, weight_decay=0, nesterov=False, maximize=False):
    g = -g if maximize else g
    g = g + weight_decay * p
    if momentum:
        st["buf"] = g.copy() if "buf" not in st else momentum * st["buf"] + (1 - dampening) * g
        g = g + momentum * st["buf"] if nesterov else st["buf"]
    return p - lr * g


def ref_rmsprop(p, g, st, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0, centered=False, maximize=False):
    g = -g if maximize else g
    g = g + weight_decay * p
    st["v"] = alpha * st.get("v", 0) + (1 - alpha) * g * g
    if centered:
        st["ga"] = alpha * st.get("ga", 0) + (1 - alpha) * g
        avg = np.sqrt(st["v"] - st["ga"] ** 2) + eps
    else:
        avg = np.sqrt(st["v"]) + eps  # eps outside the sqrt
    if momentum > 0:
        st["buf"] = momentum * st.get("buf", 0) + g / avg
        return p - lr * st["buf"]
    return p - lr * g / avg


def ref_adam(p, g, st, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False, maximize=False,
             decoupled=False):
    b1, b2 = betas
    st["t"] = t = st.get("t", 0) + 1
    if decoupled:
        p = p * (1 - lr * weight_decay)
    g = -g if maximize else g
    if not decoupled:
        g = g + weight_decay * p
    st["m"] = b1 * st.get("m", 0) + (1 - b1) * g
    st["v"] = b2 * st.get("v", 0) + (1 - b2) * g * g
    v = st["v"]
    if amsgrad:
        st["vmax"] = v = np.maximum(st.get("vmax", 0), v)
    denom = np.sqrt(v) / math.sqrt(1 - b2 ** t) + eps
    return p - lr / (1 - b1 ** t) * st["m"] / denom


def ref_adamw(p, g, st, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False, maximize=False):
    return ref_adam(p, g, st, lr, betas, eps, weight_decay, amsgrad, maximize, decoupled=True)


def ref_adagrad(p, g, st, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0, eps=1e-10,
                maximize=False):
    st["t"] = t = st.get("t", 0) + 1
    g = -g if maximize else g
    g = g + weight_decay * p
    st["sum"] = st.get("sum", initial_accumulator_value) + g * g
    return p - lr / (1 + (t - 1) * lr_decay) * g / (np.sqrt(st["sum"]) + eps)


def ref_adadelta(p, g, st, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, maximize=False):
    g = -g if maximize else g
    g = g + weight_decay * p
    st["v"] = rho * st.get("v", 0) + (1 - rho) * g * g
    delta = np.sqrt(st.get("acc", 0) + eps) / np.sqrt(st["v"] + eps) * g
    st["acc"] = rho * st.get("acc", 0) + (1 - rho) * delta * delta
    return p - lr * delta


def ref_adamax(p, g, st, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, maximize=False):
    b1, b2 = betas
    st["t"] = t = st.get("t", 0) + 1
    g = -g if maximize else g
    g = g + weight_decay * p
    st["m"] = b1 * st.get("m", 0) + (1 - b1) * g
    st["u"] = np.maximum(b2 * st.get("u", 0), np.abs(g) + eps)
    return p - lr / (1 - b1 ** t) * st["m"] / st["u"]


REFS = {"SGD": ref_sgd, "RMSprop": ref_rmsprop, "Adam": ref_adam, "AdamW": ref_adamw, "Adagrad": ref_adagrad,
        "Adadelta": ref_adadelta, "Adamax": ref_adamax}

CONFIGS = [
    ("SGD", dict(lr=0.1)), ("SGD", dict(lr=0.1, momentum=0.9)),
    ("SGD", dict(lr=0.1, momentum=0.9, dampening=0.5, weight_decay=0.1)),
    ("SGD", dict(lr=0.1, momentum=0.8, nesterov=True)), ("SGD", dict(lr=0.1, maximize=True, momentum=0.3)),
    ("RMSprop", dict()), ("RMSprop", dict(alpha=0.9, eps=0.0316, momentum=0.9, weight_decay=1e-2)),
    ("RMSprop", dict(centered=True)), ("RMSprop", dict(centered=True, momentum=0.5, maximize=True)),
    ("Adam", dict()), ("Adam", dict(lr=0.1, weight_decay=0.1, betas=(0.5, 0.6))), ("Adam", dict(amsgrad=True)),
    ("Adam", dict(maximize=True, amsgrad=True)),
    ("AdamW", dict()), ("AdamW", dict(lr=0.1, weight_decay=0.5, amsgrad=True)), ("AdamW", dict(maximize=True)),
    ("Adagrad", dict()), ("Adagrad", dict(lr_decay=0.1, weight_decay=0.1, initial_accumulator_value=0.5)),
    ("Adagrad", dict(maximize=True, eps=1e-3)),
    ("Adadelta", dict()), ("Adadelta", dict(rho=0.5, eps=1e-3, weight_decay=0.1, lr=0.5)),
    ("Adadelta", dict(maximize=True)),
    ("Adamax", dict()), ("Adamax", dict(betas=(0.5, 0.7), weight_decay=0.1, eps=1e-3)), ("Adamax", dict(maximize=True)),
]
IDS = [f"{n}-{'-'.join(f'{k}={v}' for k, v in kw.items()) or 'default'}" for n, kw in CONFIGS]


def run(name, kwargs, fused, dtype=np.float64, steps=6, shapes=SHAPES):
    ps = [core.tensor(a, requires_grad=True) for a in params_of(dtype, shapes)]
    opt = getattr(optim, name)(ps, **kwargs)
    opt._fused = fused
    for k in range(steps):
        for p, g in zip(ps, grads_of(k, dtype, shapes)):
            p.grad = core.tensor(g)
        opt.step()
    return ps, opt


@pytest.mark.parametrize("fused", [True, False], ids=["fused", "op_by_op"])
@pytest.mark.parametrize("name,kwargs", CONFIGS, ids=IDS)
def test_against_numpy_formula(name, kwargs, fused):
    ps, _ = run(name, kwargs, fused)
    expected = params_of()
    states = [dict() for _ in expected]
    for k in range(6):
        expected = [REFS[name](p, g, st, **kwargs) for p, g, st in zip(expected, grads_of(k), states)]
    for p, e in zip(ps, expected):
        np.testing.assert_allclose(p.detach().numpy(), e, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("name,kwargs", CONFIGS, ids=IDS)
def test_fused_is_bit_identical_to_op_by_op(name, kwargs):
    # float32, sizes around the kernels' block and task boundaries, an empty tensor.
    shapes = [(3,), (513,), (70000,), (0,), (33, 17), ()]
    fused, fo = run(name, kwargs, True, np.float32, 4, shapes)
    ref, ro = run(name, kwargs, False, np.float32, 4, shapes)
    for a, b in zip(fused, ref):
        np.testing.assert_array_equal(a.detach().numpy(), b.detach().numpy())
    for sa, sb in zip(fo.state_dict()["state"].values(), ro.state_dict()["state"].values()):
        assert set(sa) == set(sb)
        for key in sa:
            if isinstance(sa[key], core.Tensor):
                np.testing.assert_array_equal(sa[key].numpy(), sb[key].numpy())
            else:
                assert sa[key] == sb[key]


def test_hand_computed_numbers():
    p = core.tensor([1.0, -2.0], requires_grad=True)
    opt = optim.SGD([p], lr=0.1, momentum=0.9)
    p.grad = core.tensor([2.0, 1.0])
    opt.step()  # buf = g
    assert p.tolist() == pytest.approx([0.8, -2.1])
    opt.step()  # buf = 0.9 g + g
    assert p.tolist() == pytest.approx([0.8 - 0.38, -2.1 - 0.19])
    q = core.tensor([1.0], requires_grad=True)
    opt = optim.RMSprop([q], lr=0.1, alpha=0.5, eps=1.0)
    q.grad = core.tensor([2.0])
    opt.step()  # v = 2, avg = sqrt(2) + 1 (eps outside the sqrt)
    assert q.item() == pytest.approx(1 - 0.1 * 2 / (math.sqrt(2) + 1), rel=1e-6)
    r = core.tensor([1.0], requires_grad=True)
    opt = optim.Adam([r], lr=0.1)
    r.grad = core.tensor([5.0])
    opt.step()  # the first Adam step moves by lr (bias-corrected)
    assert r.item() == pytest.approx(0.9, rel=1e-6)


def test_mixed_dtypes_in_a_group_and_half_fallback():
    a = core.tensor([1.0, 2.0], requires_grad=True)
    b = core.tensor([1.0, 2.0], dtype=core.float64, requires_grad=True)
    c = core.tensor([1.0, 2.0], dtype=core.float16, requires_grad=True)
    opt = optim.Adam([a, b, c], lr=0.1)
    for p in (a, b, c):
        p.grad = core.ones_like(p)
    opt.step()
    for p in (a, b, c):
        assert p.dtype == opt.state[p]["exp_avg"].dtype
        np.testing.assert_allclose(p.detach().numpy().astype(np.float64), [0.9, 1.9], rtol=1e-3)


def test_skips_params_without_grad_and_non_contiguous_grads():
    a = core.tensor(np.arange(12.0).reshape(3, 4), requires_grad=True)
    b = core.tensor([1.0], requires_grad=True)
    opt = optim.SGD([a, b], lr=1.0, momentum=0.5)
    a.grad = core.tensor(np.ones((4, 3))).t()  # non-contiguous
    opt.step()
    np.testing.assert_array_equal(a.detach().numpy(), np.arange(12.0).reshape(3, 4) - 1)
    assert b.item() == 1.0 and "momentum_buffer" not in opt.state[b]


def test_params_updated_in_place_with_version_bump():
    for fused in (True, False):
        p = core.tensor([1.0, 2.0], requires_grad=True)
        opt = optim.Adam([p], lr=0.1)
        opt._fused = fused
        p.grad = core.ones_like(p)
        before = p._version
        storage = p.data_ptr() if hasattr(p, "data_ptr") else None
        opt.step()
        assert p._version > before
        if storage is not None:
            assert p.data_ptr() == storage
        assert opt.state[p]["exp_avg"]._version > 0


def test_step_runs_without_grad_and_closure_returns_loss():
    p = core.tensor([3.0], requires_grad=True)
    opt = optim.SGD([p], lr=0.1)

    def closure():
        opt.zero_grad()
        loss = (p * p).sum()
        loss.backward()
        return loss

    loss = opt.step(closure)
    assert loss.item() == 9.0 and p.item() == pytest.approx(2.4)
    assert p.grad_fn is None and p.is_leaf


def test_zero_grad():
    p = core.tensor([1.0, 2.0], requires_grad=True)
    opt = optim.SGD([p], lr=0.1)
    (p * p).sum().backward()
    g = p.grad
    opt.zero_grad(set_to_none=False)  # torch 1.8's default: zero the existing gradient
    assert p.grad is g and p.grad.tolist() == [0.0, 0.0]
    opt.zero_grad()  # PyTorch 2.x's default: set_to_none=True
    assert p.grad is None
    opt.zero_grad()  # no gradient: nothing to do


def test_param_groups_defaults_and_repr():
    a, b = core.tensor([1.0], requires_grad=True), core.tensor([2.0], requires_grad=True)
    opt = optim.SGD([{"params": [a]}, {"params": b, "lr": 0.5, "momentum": 0.9}], lr=0.1)
    assert opt.param_groups[0]["lr"] == 0.1 and opt.param_groups[1]["lr"] == 0.5
    assert opt.param_groups[1]["params"] == [b] and opt.param_groups[0]["momentum"] == 0
    assert repr(opt) == ("SGD (\nParameter Group 0\n    dampening: 0\n    lr: 0.1\n    maximize: False\n"
                         "    momentum: 0\n    nesterov: False\n    weight_decay: 0\n\nParameter Group 1\n"
                         "    dampening: 0\n    lr: 0.5\n    maximize: False\n    momentum: 0.9\n"
                         "    nesterov: False\n    weight_decay: 0\n)")
    c = core.tensor([3.0], requires_grad=True)
    opt.add_param_group({"params": [c], "weight_decay": 1e-4})
    assert opt.param_groups[2]["lr"] == 0.1 and opt.param_groups[2]["weight_decay"] == 1e-4
    assert repr(optim.Adam([a])).startswith("Adam (\nParameter Group 0\n    amsgrad: False\n    betas: (0.9, 0.999)")


@pytest.mark.parametrize("make,exc,fragment", [
    (lambda p: optim.SGD([p], lr=-0.1), ValueError, "Invalid learning rate: -0.1"),
    (lambda p: optim.SGD([p], lr=0.1, momentum=-1), ValueError, "Invalid momentum value: -1"),
    (lambda p: optim.SGD([p], lr=0.1, weight_decay=-1), ValueError, "Invalid weight_decay value: -1"),
    (lambda p: optim.SGD([p], lr=0.1, nesterov=True), ValueError, "Nesterov momentum requires a momentum and zero dampening"),
    (lambda p: optim.SGD([p], lr=0.1, momentum=0.9, dampening=0.1, nesterov=True), ValueError, "zero dampening"),
    (lambda p: optim.SGD([p]), ValueError, "didn't specify a value of required optimization parameter lr"),
    (lambda p: optim.RMSprop([p], lr=-1), ValueError, "Invalid learning rate"),
    (lambda p: optim.RMSprop([p], eps=-1), ValueError, "Invalid epsilon value: -1"),
    (lambda p: optim.RMSprop([p], momentum=-1), ValueError, "Invalid momentum value"),
    (lambda p: optim.RMSprop([p], weight_decay=-1), ValueError, "Invalid weight_decay value"),
    (lambda p: optim.RMSprop([p], alpha=-1), ValueError, "Invalid alpha value: -1"),
    (lambda p: optim.Adam([p], lr=-1), ValueError, "Invalid learning rate"),
    (lambda p: optim.Adam([p], eps=-1), ValueError, "Invalid epsilon value"),
    (lambda p: optim.Adam([p], betas=(1.0, 0.9)), ValueError, "Invalid beta parameter at index 0: 1.0"),
    (lambda p: optim.Adam([p], betas=(0.9, -0.1)), ValueError, "Invalid beta parameter at index 1: -0.1"),
    (lambda p: optim.Adam([p], weight_decay=-1), ValueError, "Invalid weight_decay value"),
    (lambda p: optim.AdamW([p], betas=(0.9, 1.5)), ValueError, "Invalid beta parameter at index 1"),
    (lambda p: optim.AdamW([p], lr=-1), ValueError, "Invalid learning rate"),
    (lambda p: optim.Adagrad([p], lr_decay=-1), ValueError, "Invalid lr_decay value: -1"),
    (lambda p: optim.Adagrad([p], initial_accumulator_value=-1), ValueError, "Invalid initial_accumulator_value value"),
    (lambda p: optim.Adagrad([p], eps=-1), ValueError, "Invalid epsilon value"),
    (lambda p: optim.Adadelta([p], rho=1.5), ValueError, "Invalid rho value: 1.5"),
    (lambda p: optim.Adadelta([p], eps=-1), ValueError, "Invalid epsilon value"),
    (lambda p: optim.Adamax([p], betas=(-0.1, 0.9)), ValueError, "Invalid beta parameter at index 0"),
    (lambda p: optim.Adamax([p], weight_decay=-1), ValueError, "Invalid weight_decay value"),
    (lambda p: optim.LBFGS([p], lr=-1), ValueError, "Invalid learning rate"),
    (lambda p: optim.LBFGS([{"params": [p]}, {"params": [core.tensor([1.0], requires_grad=True)]}]), ValueError,
     "LBFGS doesn't support per-parameter options (parameter groups)"),
    (lambda p: optim.SGD(p, lr=0.1), TypeError, "params argument given to the optimizer should be an iterable"),
    (lambda p: optim.SGD([], lr=0.1), ValueError, "optimizer got an empty parameter list"),
    (lambda p: optim.SGD([{"params": {p}}], lr=0.1), TypeError, "ordered collections"),
    (lambda p: optim.SGD([p, 1.0], lr=0.1), TypeError, "optimizer can only optimize Tensors, but one of the params is float"),
    (lambda p: optim.SGD([p * 2], lr=0.1), ValueError, "can't optimize a non-leaf Tensor"),
    (lambda p: optim.SGD([{"params": [p]}, {"params": [p]}], lr=0.1), ValueError,
     "some parameters appear in more than one parameter group"),
])
def test_bad_arguments(make, exc, fragment):
    p = core.tensor([1.0], requires_grad=True)
    with pytest.raises(exc, match=fragment.replace("(", r"\(").replace(")", r"\)")):
        make(p)


def test_duplicate_params_in_a_group_warn():
    p = core.tensor([1.0], requires_grad=True)
    with pytest.warns(UserWarning, match="duplicate parameters"):
        optim.SGD([p, p], lr=0.1)


def test_lbfgs_bad_line_search():
    p = core.tensor([1.0, 2.0], requires_grad=True)
    opt = optim.LBFGS([p], line_search_fn="wolfe")

    def closure():
        opt.zero_grad()
        loss = (p * p).sum()
        loss.backward()
        return loss

    with pytest.raises(RuntimeError, match="only 'strong_wolfe' is supported"):
        opt.step(closure)


def test_lbfgs_minimises_a_quadratic():
    p = core.tensor([1.5, -2.0, 0.5], dtype=core.float64, requires_grad=True)
    target = core.tensor([0.1, 0.2, 0.3], dtype=core.float64)
    for search in (None, "strong_wolfe"):
        p = core.tensor([1.5, -2.0, 0.5], dtype=core.float64, requires_grad=True)
        opt = optim.LBFGS([p], line_search_fn=search, history_size=5)

        def closure():
            opt.zero_grad()
            loss = ((p - target) ** 2 * core.tensor([1.0, 10.0, 100.0], dtype=core.float64)).sum()
            loss.backward()
            return loss

        for _ in range(5):
            opt.step(closure)
        np.testing.assert_allclose(p.detach().numpy(), [0.1, 0.2, 0.3], atol=1e-4)
        assert opt.state_dict()["state"][0]["n_iter"] > 0


# ------------------------------------------------------------------ state_dict
def test_state_dict_structure():
    a, b, c = (core.tensor([1.0, 2.0], requires_grad=True) for _ in range(3))
    opt = optim.Adam([{"params": [a, b]}, {"params": [c], "lr": 0.5}])
    for p in (a, c):
        p.grad = core.ones_like(p)
    opt.step()
    sd = opt.state_dict()
    assert sorted(sd["state"]) == [0, 2]  # b had no gradient: no state
    assert sd["state"][0]["step"] == 1 and isinstance(sd["state"][0]["step"], int)
    assert set(sd["state"][0]) == {"step", "exp_avg", "exp_avg_sq"}
    assert [g["params"] for g in sd["param_groups"]] == [[0, 1], [2]]
    assert sd["param_groups"][1] == {"lr": 0.5, "betas": (0.9, 0.999), "eps": 1e-8, "weight_decay": 0,
                                     "amsgrad": False, "maximize": False, "params": [2]}
    assert sd["state"][0]["exp_avg"] is opt.state[a]["exp_avg"]  # references, like torch


@pytest.mark.parametrize("name,kwargs", CONFIGS, ids=IDS)
def test_state_dict_round_trip(name, kwargs):
    ps, opt = run(name, kwargs, True, np.float32, 3)
    sd = opt.state_dict()
    ps2 = [core.tensor(p.detach().numpy(), requires_grad=True) for p in ps]
    opt2 = getattr(optim, name)(ps2, **kwargs)
    opt2.load_state_dict(sd)
    assert opt2.state_dict()["param_groups"] == sd["param_groups"]
    for p, q in zip(ps, ps2):  # the loaded state is a copy
        for v in opt2.state[q].values():
            if isinstance(v, core.Tensor):
                assert all(v is not w for w in opt.state[p].values())
    for k in range(3, 6):
        for p, q, g in zip(ps, ps2, grads_of(k, np.float32)):
            p.grad = core.tensor(g)
            q.grad = core.tensor(g)
        opt.step()
        opt2.step()
    for p, q in zip(ps, ps2):
        np.testing.assert_array_equal(p.detach().numpy(), q.detach().numpy())


def test_load_state_dict_tensor_step_and_dtype_cast():
    p = core.tensor([1.0, 2.0], dtype=core.float64, requires_grad=True)
    opt = optim.Adam([p], lr=0.1)
    sd = {"state": {0: {"step": core.tensor(4.0), "exp_avg": core.tensor([0.1, 0.2]),
                        "exp_avg_sq": core.tensor([0.01, 0.04])}},
          "param_groups": [{"lr": 0.01, "betas": (0.9, 0.999), "eps": 1e-8, "weight_decay": 0, "amsgrad": False,
                            "foreach": None, "params": [0]}]}
    opt.load_state_dict(sd)
    st = opt.state[p]
    assert st["step"] == 4 and isinstance(st["step"], int)
    assert st["exp_avg"].dtype == core.float64
    assert opt.param_groups[0]["lr"] == 0.01 and opt.param_groups[0]["maximize"] is False  # filled in
    p.grad = core.ones_like(p)
    opt.step()
    assert st["step"] == 5
    assert isinstance(sd["state"][0]["step"], core.Tensor)  # the caller's dict is untouched


def test_load_state_dict_errors():
    a, b = core.tensor([1.0], requires_grad=True), core.tensor([1.0], requires_grad=True)
    opt = optim.SGD([a, b], lr=0.1)
    with pytest.raises(ValueError, match="different number of parameter groups"):
        opt.load_state_dict({"state": {}, "param_groups": [{"lr": 0.1, "params": [0]}, {"lr": 0.1, "params": [1]}]})
    with pytest.raises(ValueError, match="doesn't match the size of optimizer's group"):
        opt.load_state_dict({"state": {}, "param_groups": [{"lr": 0.1, "params": [0]}]})


def test_adagrad_state_exists_from_construction():
    p = core.tensor([1.0, 2.0], requires_grad=True)
    opt = optim.Adagrad([p], initial_accumulator_value=0.25)
    assert opt.state[p]["step"] == 0 and opt.state[p]["sum"].tolist() == [0.25, 0.25]


# ------------------------------------------------------------------ the fused ops themselves
def test_fused_ops_are_internal():
    assert "_fused_adam_step" in _C._internal and not hasattr(core, "_fused_adam_step")


def test_fused_op_errors():
    sgd = _C._internal["_fused_sgd_step"]
    p, g = core.zeros(3), core.ones(3)
    with pytest.raises(RuntimeError, match=r"_fused_sgd_step\(\): expected grads\[0\] to have shape \[3\]"):
        sgd([p], [core.ones(4)], [], 0.1, 0.0, 0.0, 0.0, False, False, False)
    with pytest.raises(TypeError, match=r"_fused_sgd_step\(\): expected grads\[0\] to have dtype float32"):
        sgd([p], [core.ones(3, dtype=core.float64)], [], 0.1, 0.0, 0.0, 0.0, False, False, False)
    with pytest.raises(TypeError, match="expected float32 or float64 params, got int64"):
        sgd([core.zeros(3, dtype=core.int64)], [core.zeros(3, dtype=core.int64)], [], 0.1, 0.0, 0.0, 0.0,
            False, False, False)
    with pytest.raises(ValueError, match="expected momentum_buffers to have 1 tensors like params, got 2"):
        sgd([p], [g], [core.zeros(3), core.zeros(3)], 0.1, 0.9, 0.0, 0.0, False, False, False)
    with pytest.raises(ValueError, match="momentum needs momentum_buffers"):
        sgd([p], [g], [], 0.1, 0.9, 0.0, 0.0, False, False, False)
    adam = _C._internal["_fused_adam_step"]
    with pytest.raises(ValueError, match=r"_fused_adam_step\(\): expected 1 steps, got 0"):
        adam([p], [g], [core.zeros(3)], [core.zeros(3)], [], [], 0.1, 0.9, 0.99, 1e-8, 0.0, False, False, False)
    with pytest.raises(ValueError, match="amsgrad needs max_exp_avg_sqs"):
        adam([p], [g], [core.zeros(3)], [core.zeros(3)], [], [1], 0.1, 0.9, 0.99, 1e-8, 0.0, True, False, False)


def test_fused_op_non_contiguous_state_written_back():
    base = core.zeros(4, 6)
    p = base.t()  # non-contiguous parameter
    with core.no_grad():
        _C._internal["_fused_sgd_step"]([p], [core.ones(6, 4)], [], 0.5, 0.0, 0.0, 0.0, False, False, False)
    np.testing.assert_array_equal(base.numpy(), np.full((4, 6), -0.5))


def test_fused_many_tensors_threads():
    # 170 tensors of different sizes: one flat work list split over the pool.
    rng = np.random.default_rng(5)
    shapes = [(int(rng.integers(1, 3000)),) for _ in range(170)]
    fused, _ = run("RMSprop", dict(alpha=0.9, eps=0.0316, momentum=0.9), True, np.float32, 2, shapes)
    ref, _ = run("RMSprop", dict(alpha=0.9, eps=0.0316, momentum=0.9), False, np.float32, 2, shapes)
    for a, b in zip(fused, ref):
        np.testing.assert_array_equal(a.detach().numpy(), b.detach().numpy())


def test_fused_op_dense_permuted_layouts():
    # A channels-last-like parameter: used in place when the gradient shares its layout, through
    # contiguous copies (written back) when it doesn't; same values either way.
    sgd = _C._internal["_fused_sgd_step"]
    g_np = np.arange(24.0, dtype=np.float32).reshape(4, 2, 3)
    for grad in (core.tensor(g_np.transpose(1, 2, 0).copy()).permute(2, 0, 1), core.tensor(g_np)):
        base = core.zeros(2, 3, 4)
        p = base.permute(2, 0, 1)
        buf = core.zeros(2, 3, 4).permute(2, 0, 1)
        with core.no_grad():
            sgd([p], [grad], [buf], 0.5, 0.9, 0.0, 0.0, False, False, True)
        np.testing.assert_array_equal(p.numpy(), -0.5 * g_np)
        np.testing.assert_array_equal(buf.numpy(), g_np)
