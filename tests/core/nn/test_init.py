"""nn.init: values, statistics, errors, no autograd recording."""
import math

import numpy as np
import pytest

import core
import core.nn as nn
from core.nn import init


def test_calculate_gain():
    assert init.calculate_gain("linear") == 1 and init.calculate_gain("conv2d") == 1
    assert init.calculate_gain("sigmoid") == 1
    assert init.calculate_gain("tanh") == 5.0 / 3
    assert init.calculate_gain("relu") == math.sqrt(2.0)
    assert init.calculate_gain("leaky_relu") == math.sqrt(2.0 / (1 + 0.01 ** 2))
    assert init.calculate_gain("leaky_relu", 0.2) == math.sqrt(2.0 / 1.04)
    assert init.calculate_gain("leaky_relu", 1) == 1.0
    assert init.calculate_gain("selu") == 0.75
    with pytest.raises(ValueError, match="negative_slope True not a valid number"):
        init.calculate_gain("leaky_relu", True)
    with pytest.raises(ValueError, match="Unsupported nonlinearity foo"):
        init.calculate_gain("foo")


def test_fans():
    assert init._calculate_fan_in_and_fan_out(core.empty(3, 4)) == (4, 3)
    assert init._calculate_fan_in_and_fan_out(core.empty(8, 4, 3, 5)) == (60, 120)
    assert init._calculate_correct_fan(core.empty(8, 4, 3), "FAN_OUT") == 24
    with pytest.raises(ValueError, match="fewer than 2 dimensions"):
        init._calculate_fan_in_and_fan_out(core.empty(3))
    with pytest.raises(ValueError, match="Mode fan_avg not supported"):
        init.kaiming_uniform_(core.empty(3, 4), mode="fan_avg")


def test_in_place_no_grad_and_returns_tensor():
    p = nn.Parameter(core.empty(20, 30))
    for fn, args in ((init.uniform_, ()), (init.normal_, ()), (init.constant_, (0.5,)), (init.ones_, ()),
                     (init.zeros_, ()), (init.eye_, ()), (init.xavier_uniform_, ()), (init.xavier_normal_, ()),
                     (init.kaiming_uniform_, ()), (init.kaiming_normal_, ()), (init.trunc_normal_, ()),
                     (init.orthogonal_, ()), (init.sparse_, (0.5,))):
        assert fn(p, *args) is p, fn.__name__
        assert p.is_leaf and p.grad_fn is None and p.requires_grad


def test_constant_ones_zeros_eye():
    t = core.empty(3, 4)
    assert init.constant_(t, 2.5).tolist() == [[2.5] * 4] * 3
    assert init.ones_(t).sum().item() == 12 and init.zeros_(t).sum().item() == 0
    assert np.array_equal(init.eye_(t).numpy(), np.eye(3, 4))
    with pytest.raises(ValueError, match="Only tensors with 2 dimensions are supported"):
        init.eye_(core.empty(2, 2, 2))


def test_dirac():
    t = init.dirac_(core.empty(4, 3, 3, 3))
    a = t.numpy()
    assert a.sum() == 3 and all(a[d, d, 1, 1] == 1 for d in range(3))
    g = init.dirac_(core.empty(4, 2, 5), groups=2).numpy()
    assert g.sum() == 4 and g[0, 0, 2] == g[1, 1, 2] == g[2, 0, 2] == g[3, 1, 2] == 1
    assert init.dirac_(core.empty(2, 2, 1, 3, 3)).numpy()[1, 1, 0, 1, 1] == 1
    with pytest.raises(ValueError, match="Only tensors with 3, 4, or 5 dimensions are supported"):
        init.dirac_(core.empty(2, 2))
    with pytest.raises(ValueError, match="dim 0 must be divisible by groups"):
        init.dirac_(core.empty(3, 2, 3), groups=2)


def test_statistics():
    core.manual_seed(0)
    t = core.empty(400, 500)
    a = init.uniform_(t, -2, 3).numpy()
    assert a.min() >= -2 and a.max() < 3 and abs(a.mean() - 0.5) < 0.02
    a = init.normal_(t, 1, 2).numpy()
    assert abs(a.mean() - 1) < 0.02 and abs(a.std() - 2) < 0.02
    a = init.xavier_uniform_(t, gain=2).numpy()
    assert abs(a.max() - 2 * math.sqrt(6 / 900)) < 1e-3
    a = init.xavier_normal_(t).numpy()
    assert abs(a.std() - math.sqrt(2 / 900)) < 1e-3
    a = init.kaiming_normal_(t, mode="fan_out", nonlinearity="relu").numpy()
    assert abs(a.std() - math.sqrt(2 / 400)) < 1e-3
    a = init.kaiming_uniform_(t, a=math.sqrt(5)).numpy()
    assert abs(a.max() - 1 / math.sqrt(500)) < 1e-4
    a = init.trunc_normal_(t, mean=0.5, std=1.0, a=-1.0, b=1.5).numpy()
    assert a.min() >= -1 and a.max() <= 1.5
    a = init.sparse_(core.empty(10, 6), 0.3).numpy()
    assert ((a == 0).sum(0) == 3).all()
    with pytest.warns(UserWarning, match="mean is more than 2 std"):
        init.trunc_normal_(core.empty(3), mean=10.0)


def test_orthogonal():
    for shape in ((6, 4), (4, 6), (3, 2, 2, 2)):
        t = init.orthogonal_(core.empty(*shape), gain=2.0)
        m = t.numpy().reshape(shape[0], -1)
        gram = m @ m.T if shape[0] <= m.shape[1] else m.T @ m
        assert np.allclose(gram, 4 * np.eye(gram.shape[0]), atol=1e-5)
    with pytest.raises(ValueError, match="Only tensors with 2 or more dimensions are supported"):
        init.orthogonal_(core.empty(3))


def test_zero_element_kaiming_is_noop():
    with pytest.warns(UserWarning, match="zero-element"):
        init.kaiming_uniform_(core.empty(0, 3))


def test_deprecated_aliases():
    with pytest.warns(UserWarning, match="nn.init.constant is now deprecated in favor of nn.init.constant_"):
        t = init.constant(core.empty(2), 3.0)
    assert t.tolist() == [3.0, 3.0]
