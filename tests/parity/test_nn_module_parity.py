"""core.nn Module machinery, Linear/Bilinear, init and nn.utils against torch on the same inputs."""
import math
from collections import OrderedDict

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import core  # noqa: E402
import core.nn as nn  # noqa: E402
import core.nn.functional as F  # noqa: E402


def _trees(lib):
    # The same module tree built from either library's classes.
    m = lib.nn
    return [
        m.Linear(3, 4),
        m.Sequential(m.Linear(2, 3), m.Identity(), m.Flatten(0, 1), m.Unflatten(1, (2, 2))),
        m.Sequential(OrderedDict([("a", m.Linear(2, 2, bias=False)),
                                  ("b", m.ModuleList([m.Bilinear(2, 3, 4), m.Sequential()])),
                                  ("c", m.ModuleDict(OrderedDict([("x", m.Identity()), ("y", m.Linear(1, 1))])))])),
        m.ParameterList([m.Parameter(lib.ones(2, 3)), m.Parameter(lib.ones(4))]),
        m.ParameterDict(OrderedDict([("p", m.Parameter(lib.ones(1)))])),
    ]


@pytest.mark.parametrize("index", range(5))
def test_repr_and_state_dict_keys_match(index):
    ours, theirs = _trees(core)[index], _trees(torch)[index]
    theirs_repr = repr(theirs).replace("torch.", "core.")
    if isinstance(theirs, torch.nn.ParameterList) or isinstance(theirs, torch.nn.ParameterDict):
        # torch 2 prints parameter containers differently from 1.8; compare names and shapes.
        assert [n for n, _ in ours.named_parameters()] == [n for n, _ in theirs.named_parameters()]
    else:
        assert repr(ours) == theirs_repr
    assert list(ours.state_dict()) == list(theirs.state_dict())
    assert [n for n, _ in ours.named_modules()] == [n for n, _ in theirs.named_modules()]
    assert [n for n, _ in ours.named_parameters()] == [n for n, _ in theirs.named_parameters()]


def test_load_state_dict_from_torch_and_back():
    theirs, ours = _trees(torch)[2], _trees(core)[2]
    ours.load_state_dict({k: core.tensor(v.numpy()) for k, v in theirs.state_dict().items()})
    for (k, a), (_, b) in zip(ours.state_dict().items(), theirs.state_dict().items()):
        assert np.array_equal(a.numpy(), b.numpy()), k
    back = _trees(torch)[2]
    back.load_state_dict({k: torch.tensor(v.numpy()) for k, v in ours.state_dict().items()})
    x = np.random.default_rng(0).standard_normal((2, 2)).astype(np.float32)
    assert np.allclose(ours.a(core.tensor(x)).detach().numpy(), back.a(torch.tensor(x)).detach().numpy())


def test_load_state_dict_error_message_matches():
    sd_ours = {"weight": core.ones(4, 3), "extra": core.ones(1)}
    sd_theirs = {"weight": torch.ones(4, 3), "extra": torch.ones(1)}
    with pytest.raises(RuntimeError) as ours:
        core.nn.Linear(3, 4).load_state_dict(sd_ours)
    with pytest.raises(RuntimeError) as theirs:
        torch.nn.Linear(3, 4).load_state_dict(sd_theirs)
    assert str(ours.value) == str(theirs.value)
    ours_keys = core.nn.Linear(3, 4).load_state_dict(sd_ours, strict=False)
    theirs_keys = torch.nn.Linear(3, 4).load_state_dict(sd_theirs, strict=False)
    assert repr(ours_keys) == repr(theirs_keys)


@pytest.mark.parametrize("seed", [0, 7])
def test_default_inits_are_bit_exact(seed):
    for build in (lambda lib: lib.nn.Linear(20, 30), lambda lib: lib.nn.Bilinear(5, 6, 7),
                  lambda lib: lib.nn.Linear(7, 3, bias=False)):
        core.manual_seed(seed)
        ours = build(core)
        torch.manual_seed(seed)
        theirs = build(torch)
        for (k, a), (_, b) in zip(ours.state_dict().items(), theirs.state_dict().items()):
            assert np.array_equal(a.numpy(), b.numpy()), k


_INITS = [
    ("uniform_", (-0.5, 2.0), {}), ("normal_", (1.0, 3.0), {}), ("xavier_uniform_", (), {"gain": 2.0}),
    ("xavier_normal_", (), {}), ("kaiming_uniform_", (), {"a": math.sqrt(5)}),
    ("kaiming_normal_", (), {"mode": "fan_out", "nonlinearity": "relu"}),
    ("kaiming_uniform_", (), {"a": 0.1, "nonlinearity": "leaky_relu"}),
    ("trunc_normal_", (), {"std": 0.02}), ("constant_", (0.25,), {}), ("ones_", (), {}), ("zeros_", (), {}),
]


@pytest.mark.parametrize("name,args,kwargs", _INITS, ids=[f"{n}{i}" for i, (n, _, _) in enumerate(_INITS)])
@pytest.mark.parametrize("shape", [(16, 8), (6, 4, 3, 3)])
def test_seeded_init_draws_match(name, args, kwargs, shape):
    ours, theirs = core.empty(*shape), torch.empty(*shape)
    core.manual_seed(3)
    getattr(core.nn.init, name)(ours, *args, **kwargs)
    torch.manual_seed(3)
    if name == "trunc_normal_":
        _trunc_normal_18(theirs, **kwargs)
    else:
        getattr(torch.nn.init, name)(theirs, *args, **kwargs)
    assert np.array_equal(ours.numpy(), theirs.numpy())


def _trunc_normal_18(tensor, mean=0.0, std=1.0, a=-2.0, b=2.0):
    # PyTorch 1.8's trunc_normal_ (inverse CDF of one uniform draw); torch 2 switched to
    # rejection sampling, which draws different numbers.
    def cdf(x):
        return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0

    with torch.no_grad():
        tensor.uniform_(2 * cdf((a - mean) / std) - 1, 2 * cdf((b - mean) / std) - 1)
        tensor.erfinv_().mul_(std * math.sqrt(2.0)).add_(mean).clamp_(min=a, max=b)
    return tensor


def test_structured_inits_match():
    for fn, args in (("eye_", ()), ("dirac_", ()), ("dirac_", (2,))):
        shape = (4, 5) if fn == "eye_" else (4, 2, 3, 3)
        ours, theirs = core.empty(*shape), torch.empty(*shape)
        getattr(core.nn.init, fn)(ours, *args)
        getattr(torch.nn.init, fn)(theirs, *args)
        assert np.array_equal(ours.numpy(), theirs.numpy())
    for name in ("linear", "tanh", "relu", "leaky_relu", "selu", "conv_transpose2d"):
        assert core.nn.init.calculate_gain(name) == torch.nn.init.calculate_gain(name)
    for shape in ((5, 3), (3, 5), (4, 2, 3)):
        ours, theirs = core.empty(*shape), torch.empty(*shape)
        core.manual_seed(1)
        core.nn.init.orthogonal_(ours)
        torch.manual_seed(1)
        torch.nn.init.orthogonal_(theirs)
        assert np.allclose(ours.numpy(), theirs.numpy(), atol=1e-5)
        assert core.nn.init._calculate_fan_in_and_fan_out(ours) == torch.nn.init._calculate_fan_in_and_fan_out(theirs)


@pytest.mark.parametrize("shape", [(5, 3), (2, 4, 3), (3,)])
@pytest.mark.parametrize("bias", [True, False])
def test_linear_forward_backward(rng, shape, bias):
    x, w, b = rng.standard_normal(shape), rng.standard_normal((4, 3)), rng.standard_normal(4)
    ours = [core.tensor(a, requires_grad=True) for a in (x, w, b)]
    theirs = [torch.tensor(a, requires_grad=True) for a in (x, w, b)]
    out_o = F.linear(ours[0], ours[1], ours[2] if bias else None)
    out_t = torch.nn.functional.linear(theirs[0], theirs[1], theirs[2] if bias else None)
    assert np.allclose(out_o.detach().numpy(), out_t.detach().numpy())
    g = rng.standard_normal(out_t.shape)
    out_o.backward(core.tensor(g))
    out_t.backward(torch.tensor(g))
    for o, t in zip(ours, theirs) if bias else zip(ours[:2], theirs[:2]):
        assert np.allclose(o.grad.numpy(), t.grad.numpy())


@pytest.mark.parametrize("lead", [(6,), (2, 3), ()])
def test_bilinear_forward_backward(rng, lead):
    arrays = [rng.standard_normal(lead + (4,)), rng.standard_normal(lead + (5,)),
              rng.standard_normal((3, 4, 5)), rng.standard_normal(3)]
    ours = [core.tensor(a, requires_grad=True) for a in arrays]
    theirs = [torch.tensor(a, requires_grad=True) for a in arrays]
    out_o, out_t = F.bilinear(*ours), torch.nn.functional.bilinear(*theirs)
    assert np.allclose(out_o.detach().numpy(), out_t.detach().numpy())
    g = rng.standard_normal(out_t.shape)
    out_o.backward(core.tensor(g))
    out_t.backward(torch.tensor(g))
    for o, t in zip(ours, theirs):
        assert np.allclose(o.grad.numpy(), t.grad.numpy())


@pytest.mark.parametrize("norm_type", [2.0, 1.0, 0.5, math.inf])
def test_clip_grad_matches(rng, norm_type):
    grads = [rng.standard_normal((3, 4)), rng.standard_normal(7)]
    ours, theirs = [], []
    for g in grads:
        p, q = core.nn.Parameter(core.zeros(*g.shape, dtype=core.float64)), torch.nn.Parameter(torch.zeros(g.shape, dtype=torch.float64))
        p.grad, q.grad = core.tensor(g), torch.tensor(g)
        ours.append(p)
        theirs.append(q)
    n_o = core.nn.utils.clip_grad_norm_(ours, 0.7, norm_type)
    n_t = torch.nn.utils.clip_grad_norm_(theirs, 0.7, norm_type)
    assert np.isclose(n_o.item(), n_t.item())
    for p, q in zip(ours, theirs):
        assert np.allclose(p.grad.numpy(), q.grad.numpy())
    core.nn.utils.clip_grad_value_(ours, 0.01)
    torch.nn.utils.clip_grad_value_(theirs, 0.01)
    for p, q in zip(ours, theirs):
        assert np.array_equal(p.grad.numpy(), q.grad.numpy())
    v_o, v_t = core.nn.utils.parameters_to_vector(ours), torch.nn.utils.parameters_to_vector(theirs)
    assert np.array_equal(v_o.detach().numpy(), v_t.detach().numpy())


@pytest.mark.parametrize("dim", [0, 1, None])
def test_weight_norm_matches(rng, dim):
    core.manual_seed(0)
    ours = core.nn.utils.weight_norm(core.nn.Linear(4, 3), dim=dim)
    theirs = torch.nn.utils.weight_norm(torch.nn.Linear(4, 3), dim=dim)
    theirs.load_state_dict({k: torch.tensor(v.numpy()) for k, v in ours.state_dict().items()})
    assert list(ours.state_dict()) == list(theirs.state_dict())
    x = rng.standard_normal((2, 4)).astype(np.float32)
    out_o, out_t = ours(core.tensor(x)), theirs(torch.tensor(x))
    assert np.allclose(out_o.detach().numpy(), out_t.detach().numpy(), atol=1e-6)
    out_o.sum().backward()
    out_t.sum().backward()
    assert np.allclose(ours.weight_g.grad.numpy(), theirs.weight_g.grad.numpy(), atol=1e-5)
    assert np.allclose(ours.weight_v.grad.numpy(), theirs.weight_v.grad.numpy(), atol=1e-5)


def test_spectral_norm_matches_seeded(rng):
    core.manual_seed(5)
    ours = core.nn.utils.spectral_norm(core.nn.Linear(6, 4), n_power_iterations=2)
    torch.manual_seed(5)
    theirs = torch.nn.utils.spectral_norm(torch.nn.Linear(6, 4), n_power_iterations=2)
    for (k, a), (_, b) in zip(ours.state_dict().items(), theirs.state_dict().items()):
        assert np.allclose(a.numpy(), b.numpy(), atol=1e-6), k  # same draws for u and v
    assert list(ours.state_dict()) == list(theirs.state_dict())
    x = rng.standard_normal((3, 6)).astype(np.float32)
    for _ in range(2):  # training forwards run the power iteration
        out_o, out_t = ours(core.tensor(x)), theirs(torch.tensor(x))
        assert np.allclose(out_o.detach().numpy(), out_t.detach().numpy(), atol=1e-5)
    out_o.sum().backward()
    out_t.sum().backward()
    assert np.allclose(ours.weight_orig.grad.numpy(), theirs.weight_orig.grad.numpy(), atol=1e-5)
    assert np.allclose(ours.weight_u.numpy(), theirs.weight_u.numpy(), atol=1e-5)
    ours.eval(), theirs.eval()
    assert np.allclose(ours(core.tensor(x)).detach().numpy(), theirs(torch.tensor(x)).detach().numpy(), atol=1e-5)
