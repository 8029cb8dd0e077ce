"""nn activations: values against numpy, gradients (first and second order, PyTorch's
conventions at kinks), in-place semantics, errors, softmax's legacy dim rule, modules."""
import math
import warnings

import numpy as np
import pytest

import core
import core.nn.functional as F
from core import autograd
from core.autograd import gradcheck, gradgradcheck

SELU_ALPHA, SELU_SCALE = 1.6732632423543772, 1.0507009873554805
_erf = np.vectorize(math.erf)


def _softplus(v, beta=1.0, threshold=20.0):
    return np.where(v * beta > threshold, v, np.log1p(np.exp(v * beta)) / beta)


def _gelu_tanh(v):
    return 0.5 * v * (1 + np.tanh(math.sqrt(2 / math.pi) * (v + 0.044715 * v ** 3)))


# name -> (core call, numpy reference)
FUNCTIONS = {
    "relu": (F.relu, lambda v: np.maximum(v, 0)),
    "relu6": (F.relu6, lambda v: np.clip(v, 0, 6)),
    "threshold": (lambda x: F.threshold(x, 0.5, -3.0), lambda v: np.where(v <= 0.5, -3.0, v)),
    "leaky_relu": (lambda x: F.leaky_relu(x, 0.2), lambda v: np.where(v > 0, v, 0.2 * v)),
    "elu": (lambda x: F.elu(x, 1.3), lambda v: np.where(v <= 0, 1.3 * np.expm1(v), v)),
    "selu": (F.selu, lambda v: SELU_SCALE * np.where(v <= 0, SELU_ALPHA * np.expm1(v), v)),
    "celu": (lambda x: F.celu(x, 0.7), lambda v: np.where(v <= 0, 0.7 * np.expm1(v / 0.7), v)),
    "gelu": (F.gelu, lambda v: 0.5 * v * (1 + _erf(v / math.sqrt(2)))),
    "gelu_tanh": (lambda x: F.gelu(x, approximate="tanh"), _gelu_tanh),
    "silu": (F.silu, lambda v: v / (1 + np.exp(-v))),
    "mish": (F.mish, lambda v: v * np.tanh(np.log1p(np.exp(v)))),
    "hardswish": (F.hardswish, lambda v: v * np.clip(v + 3, 0, 6) / 6),
    "hardsigmoid": (F.hardsigmoid, lambda v: np.clip(v + 3, 0, 6) / 6),
    "hardtanh": (lambda x: F.hardtanh(x, -2.0, 1.5), lambda v: np.clip(v, -2.0, 1.5)),
    "softplus": (lambda x: F.softplus(x, 2.0, 5.0), lambda v: _softplus(v, 2.0, 5.0)),
    "softsign": (F.softsign, lambda v: v / (1 + np.abs(v))),
    "tanhshrink": (F.tanhshrink, lambda v: v - np.tanh(v)),
    "hardshrink": (lambda x: F.hardshrink(x, 0.7), lambda v: np.where(np.abs(v) <= 0.7, 0.0, v)),
    "softshrink": (lambda x: F.softshrink(x, 0.7), lambda v: np.where(v > 0.7, v - 0.7, np.where(v < -0.7, v + 0.7, 0.0))),
    "logsigmoid": (F.logsigmoid, lambda v: -np.log1p(np.exp(-v))),
    "sigmoid": (F.sigmoid, lambda v: 1 / (1 + np.exp(-v))),
    "tanh": (F.tanh, np.tanh),
    "glu": (lambda x: F.glu(x, -1), lambda v: v[..., :v.shape[-1] // 2] / (1 + np.exp(-v[..., v.shape[-1] // 2:]))),
}
INPLACE = {  # name -> in-place call returning its input
    "relu": lambda x: F.relu(x, inplace=True), "relu6": lambda x: F.relu6(x, inplace=True),
    "threshold": lambda x: F.threshold(x, 0.5, -3.0, inplace=True),
    "leaky_relu": lambda x: F.leaky_relu(x, 0.2, inplace=True), "elu": lambda x: F.elu(x, 1.3, inplace=True),
    "selu": lambda x: F.selu(x, inplace=True), "celu": lambda x: F.celu(x, 0.7, inplace=True),
    "silu": lambda x: F.silu(x, inplace=True), "mish": lambda x: F.mish(x, inplace=True),
    "hardswish": lambda x: F.hardswish(x, inplace=True), "hardsigmoid": lambda x: F.hardsigmoid(x, inplace=True),
    "hardtanh": lambda x: F.hardtanh(x, -2.0, 1.5, inplace=True),
}


def _input(dtype=np.float64, shape=(3, 4), seed=0):
    v = np.random.default_rng(seed).uniform(-4, 4, shape)
    v[0, :3] = [0.31, -2.9, 3.2]  # near (not on) kinks
    return v.astype(dtype)


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
@pytest.mark.parametrize("dtype,tol", [(np.float64, 1e-12), (np.float32, 2e-6)])
def test_values_against_numpy(name, dtype, tol):
    fn, ref = FUNCTIONS[name]
    v = _input(dtype)
    out = fn(core.tensor(v))
    assert out.dtype == core.tensor(v).dtype
    np.testing.assert_allclose(out.numpy(), ref(v.astype(np.float64)), rtol=tol * 4, atol=tol)


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_half_and_noncontiguous(name):
    fn, ref = FUNCTIONS[name]
    v = _input(np.float64, (4, 6))
    t = core.tensor(v).t()  # transposed: glu halves the last dim of (6, 4)
    np.testing.assert_allclose(fn(t).numpy(), ref(v.T), rtol=1e-12, atol=1e-12)
    h = fn(core.tensor(v.astype(np.float16)))
    assert h.dtype == core.float16
    np.testing.assert_allclose(h.float().numpy(), ref(v.astype(np.float16).astype(np.float64)), rtol=1e-2, atol=1e-2)


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_gradcheck_and_gradgradcheck(name):
    fn, _ = FUNCTIONS[name]
    x = core.tensor(_input()).requires_grad_()
    assert gradcheck(fn, [x], atol=1e-6, rtol=1e-4)
    assert gradgradcheck(fn, [x], atol=1e-5, rtol=1e-3)


@pytest.mark.parametrize("name", sorted(INPLACE))
def test_inplace_matches_and_bumps_version(name):
    fn, _ = FUNCTIONS[name]
    v = _input()
    x = core.tensor(v)
    version = x._version
    out = INPLACE[name](x)
    assert out is x
    assert x._version == version + 1
    np.testing.assert_allclose(x.numpy(), fn(core.tensor(v)).numpy(), rtol=1e-15)


@pytest.mark.parametrize("name", sorted(INPLACE))
def test_inplace_gradients(name):
    fn, _ = FUNCTIONS[name]
    x = core.tensor(_input()).requires_grad_()
    assert gradcheck(lambda t: INPLACE[name](t * 1.0), [x], atol=1e-6, rtol=1e-4)
    assert gradgradcheck(lambda t: INPLACE[name](t * 1.0), [x], atol=1e-5, rtol=1e-3)
    with pytest.raises(RuntimeError, match="leaf Variable that requires grad"):
        INPLACE[name](x)


def _grad_at(fn, points):
    x = core.tensor(np.asarray(points, np.float64)).requires_grad_()
    (g,) = autograd.grad(fn(x).sum(), [x])
    return g.numpy()


@pytest.mark.parametrize("fn,points,expected", [
    (F.relu, [0.0, -0.0], [0.0, 0.0]),
    (lambda x: F.relu(x * 1.0, inplace=True), [0.0], [0.0]),
    (F.relu6, [0.0, 6.0], [0.0, 0.0]),
    (F.hardswish, [-3.0, 3.0], [0.0, 1.0]),
    (F.hardsigmoid, [-3.0, 3.0], [0.0, 0.0]),
    (F.hardtanh, [-1.0, 1.0], [0.0, 0.0]),
    (lambda x: F.leaky_relu(x, 0.1), [0.0], [0.1]),
    (lambda x: F.elu(x, 2.0), [0.0], [2.0]),
    (lambda x: F.celu(x, 2.0), [0.0], [1.0]),
    (lambda x: F.threshold(x, 1.0, 5.0), [1.0], [0.0]),
    (lambda x: F.hardshrink(x, 0.5), [-0.5, 0.5], [0.0, 0.0]),
    (lambda x: F.softshrink(x, 0.5), [-0.5, 0.5], [0.0, 0.0]),
    (lambda x: F.softplus(x, 2.0, 10.0), [5.0], [1 / (1 + math.exp(-10.0))]),
    (lambda x: F.prelu(x, core.tensor([0.25], dtype=core.float64)), [0.0], [0.25]),
])
def test_derivatives_at_kinks(fn, points, expected):
    np.testing.assert_allclose(_grad_at(fn, points), expected, rtol=1e-12)


def _float32_ulps(got, want, scale):
    """|got - want| in units in the last place of float32 `scale` (subnormal ulps at least)."""
    spacing = np.maximum(np.spacing(np.abs(scale).astype(np.float32)).astype(np.float64), 2.0 ** -149)
    same = got == want.astype(np.float32)
    return np.where(same, 0.0, np.abs(got.astype(np.float64) - want) / spacing)


def test_float32_gelu_relative_accuracy():
    """float32 gelu is x * Phi(x) with Phi accurate in relative terms all the way into its tail
    (vec_math.h's normal_cdf: 8.3 ulp measured), not 0.5 * x * (1 + erf(x / sqrt 2)), which
    cancels to 0 below x = -5; its gradient Phi + x phi within a few ulp of the larger term."""
    rng = np.random.default_rng(4)
    bits = rng.integers(0, 2 ** 32, 200_000, dtype=np.uint64).astype(np.uint32).view(np.float32)
    x = np.concatenate([bits[np.abs(bits) < 20], rng.uniform(-14.5, 14.5, 200_000).astype(np.float32),
                        np.linspace(-1, 1, 20_001, dtype=np.float32)])
    xd = x.astype(np.float64)
    cdf = 0.5 * np.vectorize(math.erfc, otypes=[np.float64])(-xd / math.sqrt(2))
    pdf = np.exp(-0.5 * xd * xd) / math.sqrt(2 * math.pi)
    xt = core.tensor(x).requires_grad_()
    y = F.gelu(xt)
    y.backward(core.ones_like(y))
    forward = _float32_ulps(y.detach().numpy(), xd * cdf, xd * cdf)
    backward = _float32_ulps(xt.grad.numpy(), cdf + xd * pdf, cdf + np.abs(xd) * pdf)
    worst, worst_grad = int(np.argmax(forward)), int(np.argmax(backward))
    assert forward[worst] <= 10, f"gelu({x[worst]!r}): {forward[worst]:.1f} ulp"
    assert backward[worst_grad] <= 10, f"gelu'({x[worst_grad]!r}): {backward[worst_grad]:.1f} ulp"


def test_float32_gelu_special_values():
    inf, nan = float("inf"), float("nan")
    sub = float(np.float32(1e-40))
    x = core.tensor([0.0, -0.0, inf, nan, sub, -sub, -15.0, 15.0, -13.0], dtype=core.float32).requires_grad_()
    y = F.gelu(x)
    y.backward(core.ones_like(y))
    v, g = y.detach().numpy(), x.grad.numpy()
    assert v[0] == 0 and math.copysign(1, v[1]) == -1 and v[2] == inf and math.isnan(v[3])
    assert v[4] == np.float32(sub / 2) and v[5] == -np.float32(sub / 2)  # x * Phi(0), exactly
    assert v[6] == 0 and v[7] == 15.0  # Phi(-15) rounds to 0, Phi(15) to 1
    assert v[8] == pytest.approx(-13.0 * 0.5 * math.erfc(13.0 / math.sqrt(2)), rel=1e-6)
    assert g[0] == g[1] == 0.5 and math.isnan(g[3]) and g[6] == 0 and g[7] == 1
    assert math.isnan(g[2])  # Phi + x phi at inf is 1 + inf * 0, as in PyTorch


def test_fused_backward_ops_match_composites():
    nn_ops = core._C._internal
    x = core.tensor(_input())
    g = core.tensor(np.random.default_rng(1).normal(size=(3, 4)))
    for name, args in [("hardswish", ()), ("hardsigmoid", ()), ("silu", ()), ("mish", ()),
                       ("softplus", (1.5, 4.0)), ("leaky_relu", (0.3,)), ("elu", (1.0, 1.0, 1.0))]:
        xr = x.detach().requires_grad_()
        (expected,) = autograd.grad(nn_ops[name](xr, *args), [xr], g)
        ours = nn_ops[name + "_backward"](g, x, *args)
        np.testing.assert_allclose(ours.numpy(), expected.numpy(), rtol=1e-12)
    ours = nn_ops["threshold_backward"](g, x, 0.0)
    np.testing.assert_array_equal(ours.numpy(), np.where(x.numpy() <= 0, 0.0, g.numpy()))


def test_relu_keeps_channels_last_layout():
    x = core.randn(2, 3, 4, 5).permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2)  # NHWC memory
    for fn in (F.relu, F.hardswish, F.hardsigmoid):
        y = fn(x)
        assert y.stride() == x.stride()
        np.testing.assert_allclose(y.numpy(), fn(x.contiguous()).numpy())


def test_relu_of_integers():
    x = core.tensor([-3, 0, 5], dtype=core.int32)
    assert core.relu(x).tolist() == [0, 0, 5] and core.relu(x).dtype == core.int32
    assert core.threshold(x, 0, 9).tolist() == [9, 9, 5]


def test_prelu_per_channel_gradients():
    x = core.tensor(np.random.default_rng(2).normal(size=(2, 3, 4))).requires_grad_()
    w = core.tensor([0.1, -0.2, 0.3], dtype=core.float64).requires_grad_()
    assert gradcheck(F.prelu, [x, w])
    assert gradgradcheck(F.prelu, [x, w])
    w1 = core.tensor([0.25], dtype=core.float64).requires_grad_()
    assert gradcheck(F.prelu, [x, w1])


@pytest.mark.parametrize("call,exc,fragment", [
    (lambda: F.leaky_relu(core.tensor([1, 2])), NotImplementedError, "leaky_relu"),
    (lambda: F.hardswish(core.tensor([True])), NotImplementedError, "hardswish"),
    (lambda: core.relu(core.tensor([True])), NotImplementedError, "relu"),
    (lambda: F.prelu(core.randn(2, 3, 4), core.randn(4)), RuntimeError, "Mismatch of parameter numbers"),
    (lambda: F.prelu(core.randn(2, 3, 4), core.randn(3, 1)), RuntimeError, "scalar or 1D"),
    (lambda: F.glu(core.randn(2, 3)), RuntimeError, "Halving dimension must be even"),
    (lambda: F.glu(core.tensor(1.0)), RuntimeError, "glu does not support scalars"),
    (lambda: F.gelu(core.randn(3), approximate="fast"), RuntimeError, "approximate argument"),
    (lambda: F.relu(core.randn(3).expand(2, 3), inplace=True), RuntimeError, "relu_"),
    (lambda: F.celu(core.randn(3), 0.0), RuntimeError, "alpha cannot be 0 for CELU"),
])
def test_errors(call, exc, fragment):
    with pytest.raises(exc, match=fragment):
        call()


def test_softmax_family_and_legacy_dim():
    v = np.random.default_rng(3).normal(size=(2, 3, 4))
    x = core.tensor(v)
    e = np.exp(v - v.max(1, keepdims=True))
    np.testing.assert_allclose(F.softmax(x, 1).numpy(), e / e.sum(1, keepdims=True), rtol=1e-12)
    np.testing.assert_allclose(F.log_softmax(x, 1).numpy(), np.log(e / e.sum(1, keepdims=True)), rtol=1e-12)
    m = np.exp(-v - (-v).max(2, keepdims=True))
    np.testing.assert_allclose(F.softmin(x, 2).numpy(), m / m.sum(2, keepdims=True), rtol=1e-12)
    assert F.softmax(x.float(), 0, dtype=core.float64).dtype == core.float64
    for shape, dim in [((4,), 0), ((2, 3), 1), ((2, 3, 4), 0), ((2, 3, 4, 5), 1)]:
        t = core.randn(*shape)
        with pytest.warns(UserWarning, match="Implicit dimension choice for softmax"):
            out = F.softmax(t)
        np.testing.assert_allclose(out.numpy(), F.softmax(t, dim).numpy())
