"""Identity, Linear, Bilinear, F.linear, F.bilinear, Flatten, Unflatten."""
import math

import numpy as np
import pytest

import core
import core.nn as nn
import core.nn.functional as F
from core.autograd import gradcheck, gradgradcheck


def _t(array, grad=False):
    return core.tensor(array, requires_grad=grad)


def test_identity_ignores_arguments():
    m = nn.Identity(3, unused="x")
    x = core.ones(2)
    assert m(x) is x and repr(m) == "Identity()"


@pytest.mark.parametrize("shape", [(4, 3), (3,), (2, 5, 3), (0, 3)])
@pytest.mark.parametrize("bias", [True, False])
def test_linear_forward(rng, shape, bias):
    x, w, b = rng.standard_normal(shape), rng.standard_normal((2, 3)), rng.standard_normal(2)
    out = F.linear(_t(x), _t(w), _t(b) if bias else None)
    expected = x @ w.T + (b if bias else 0)
    assert out.shape == expected.shape and np.allclose(out.numpy(), expected)


def test_linear_gradcheck(rng):
    x, w, b = (_t(rng.standard_normal(s), True) for s in ((4, 3), (2, 3), (2,)))
    assert gradcheck(F.linear, (x, w, b))
    assert gradgradcheck(F.linear, (x, w, b))
    x3 = _t(rng.standard_normal((2, 4, 3)), True)
    assert gradcheck(F.linear, (x3, w, b))
    assert gradcheck(lambda a, c: F.linear(a, c), (x3, w))


def test_bilinear_forward_and_grad(rng):
    x1, x2 = rng.standard_normal((2, 3, 4)), rng.standard_normal((2, 3, 5))
    w, b = rng.standard_normal((6, 4, 5)), rng.standard_normal(6)
    out = F.bilinear(_t(x1), _t(x2), _t(w), _t(b))
    assert np.allclose(out.numpy(), np.einsum("abi,oij,abj->abo", x1, w, x2) + b)
    args = tuple(_t(a, True) for a in (x1, x2, w, b))
    assert gradcheck(F.bilinear, args)
    assert gradgradcheck(F.bilinear, args)
    assert F.bilinear(_t(x1[0]), _t(x2[0]), _t(w)).shape == (3, 6)


def test_bilinear_errors():
    w = core.ones(6, 4, 5)
    with pytest.raises(RuntimeError, match="bilinear\\(\\): input dimensions do not match: got 2 and 1"):
        F.bilinear(core.ones(2, 4), core.ones(5), w)
    with pytest.raises(RuntimeError, match="input batch dimensions do not match: got 2 and 3"):
        F.bilinear(core.ones(2, 4), core.ones(3, 5), w)
    with pytest.raises(RuntimeError, match="input1 size does not match weight size: got 3 but expected 4"):
        F.bilinear(core.ones(2, 3), core.ones(2, 5), w)
    with pytest.raises(RuntimeError, match="input2 size does not match weight size: got 3 but expected 5"):
        F.bilinear(core.ones(2, 4), core.ones(2, 3), w)
    with pytest.raises(RuntimeError, match="bias size does not match weight size: got 2 but expected 6"):
        F.bilinear(core.ones(2, 4), core.ones(2, 5), w, core.ones(2))


def test_linear_module():
    m = nn.Linear(3, 2)
    assert m.weight.shape == (2, 3) and m.bias.shape == (2,)
    assert list(m.state_dict()) == ["weight", "bias"]
    bound = 1 / math.sqrt(3)
    assert m.weight.abs().max().item() <= bound and m.bias.abs().max().item() <= bound
    x = core.ones(4, 3)
    out = m(x)
    assert np.allclose(out.detach().numpy(), x.numpy() @ m.weight.detach().numpy().T + m.bias.detach().numpy())
    out.sum().backward()
    assert np.allclose(m.bias.grad.numpy(), 4) and np.allclose(m.weight.grad.numpy(), 4)
    nb = nn.Linear(3, 2, bias=False)
    assert nb.bias is None and list(nb.state_dict()) == ["weight"]
    assert repr(nb) == "Linear(in_features=3, out_features=2, bias=False)"
    assert nn.Linear(0, 2).weight.shape == (2, 0)


def test_bilinear_module():
    m = nn.Bilinear(4, 5, 6)
    assert m.weight.shape == (6, 4, 5) and m.bias.shape == (6,)
    assert m.weight.abs().max().item() <= 0.5 and m.bias.abs().max().item() <= 0.5
    assert m(core.ones(2, 4), core.ones(2, 5)).shape == (2, 6)
    assert repr(nn.Bilinear(4, 5, 6, bias=False)) == \
        "Bilinear(in1_features=4, in2_features=5, out_features=6, bias=False)"


def test_flatten_unflatten():
    x = core.ones(2, 3, 4, 5)
    assert nn.Flatten()(x).shape == (2, 60)
    assert nn.Flatten(0, 2)(x).shape == (24, 5)
    assert repr(nn.Flatten()) == "Flatten(start_dim=1, end_dim=-1)"
    u = nn.Unflatten(1, (3, 4))
    assert u(core.ones(2, 12)).shape == (2, 3, 4)
    assert nn.Unflatten(-1, [2, 6])(core.ones(2, 12)).shape == (2, 2, 6)
    assert repr(u) == "Unflatten(dim=1, unflattened_size=(3, 4))"
    named = nn.Unflatten("features", (("C", 2), ("H", 3)))
    assert named.dim == "features" and named.unflattened_size == (("C", 2), ("H", 3))
    with pytest.raises(TypeError, match="invalid argument type for dim parameter"):
        nn.Unflatten(1.0, (2, 3))
    with pytest.raises(TypeError, match="unflattened_size must be tuple of ints, but found element of type str at pos 0"):
        nn.Unflatten(1, ("a", 3))
    with pytest.raises(TypeError, match="unflattened_size must be a tuple of ints, but found type int"):
        nn.Unflatten(1, 3)
    with pytest.raises(TypeError, match="unflattened_size must be tuple of tuples, but found element of type int at pos 0"):
        nn.Unflatten("x", (2, 3))
    with pytest.raises(TypeError, match="unflattened_size must be a tuple of tuples, but found type list"):
        nn.Unflatten("x", [("a", 2)])
