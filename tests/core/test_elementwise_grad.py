"""Gradients of the elementwise family where the op matrix's random samples don't reach:
kinks, ties, boundaries and special values (PyTorch's subgradient conventions), zero
gradients of step functions, wrapped-number operands, mixed dtypes and in-place forms."""
import math

import numpy as np
import pytest

import core
from core import autograd
from core.autograd import gradcheck, gradgradcheck


def leaf(values, dtype=core.float64):
    return core.tensor(np.asarray(values, dtype=np.float64), dtype=dtype).requires_grad_()


def grads(out, inputs):
    """autograd.grad with an all-ones upstream gradient, as numpy (None where unused)."""
    inputs = inputs if isinstance(inputs, (list, tuple)) else [inputs]
    result = autograd.grad(out, inputs, core.ones(list(out.shape), dtype=out.dtype), allow_unused=True)
    return [None if r is None else r.numpy() for r in result]


# ---------------------------------------------------------------- kinks and ties

def test_abs_at_zero_is_zero():
    x = leaf([-2.0, 0.0, -0.0, 3.0])
    for op in (core.abs, core.absolute, lambda t: (t * 1).abs_()):
        np.testing.assert_array_equal(grads(op(x), x)[0], [-1.0, 0.0, 0.0, 1.0])


def test_copysign_at_zero_is_zero():
    x, y = leaf([0.0, 2.0, -2.0, 0.0]), leaf([-1.0, -1.0, 1.0, 1.0])
    gx, gy = grads(core.copysign(x, y), [x, y])
    np.testing.assert_array_equal(gx, [0.0, -1.0, -1.0, 0.0])
    np.testing.assert_array_equal(gy, [0.0, 0.0, 0.0, 0.0])


@pytest.mark.parametrize("op,self_share,other_share", [
    ("maximum", [0.5, 0.0, 1.0], [0.5, 1.0, 0.0]),
    ("minimum", [0.5, 1.0, 0.0], [0.5, 0.0, 1.0]),
    ("fmax", [1.0, 0.0, 1.0], [0.0, 1.0, 0.0]),   # ties go to self
    ("fmin", [1.0, 1.0, 0.0], [0.0, 0.0, 1.0]),
])
def test_extremum_ties(op, self_share, other_share):
    x, y = leaf([1.0, 2.0, 3.0]), leaf([1.0, 3.0, 2.0])
    gx, gy = grads(getattr(core, op)(x, y), [x, y])
    np.testing.assert_array_equal(gx, self_share)
    np.testing.assert_array_equal(gy, other_share)


def test_fmax_nan_operand_gives_the_gradient_to_the_number():
    x, y = leaf([math.nan, 1.0]), leaf([1.0, math.nan])
    gx, gy = grads(core.fmax(x, y), [x, y])
    np.testing.assert_array_equal(gx, [0.0, 1.0])
    np.testing.assert_array_equal(gy, [1.0, 0.0])


def test_maximum_with_a_number_and_broadcast_ties():
    x = leaf([[1.0, 2.0], [0.5, 1.0]])
    np.testing.assert_array_equal(grads(core.maximum(x, core.tensor(1.0, dtype=core.float64)), x)[0],
                                  [[0.5, 1.0], [0.0, 0.5]])


# ---------------------------------------------------------------- clamp boundaries

def test_clamp_passes_the_gradient_on_the_boundaries():
    x = leaf([-2.0, -1.0, 0.0, 1.0, 2.0])
    for out in (core.clamp(x, -1.0, 1.0), x.clip(-1, 1), (x * 1).clamp_(-1.0, 1.0)):
        np.testing.assert_array_equal(grads(out, x)[0], [0.0, 1.0, 1.0, 1.0, 0.0])
    np.testing.assert_array_equal(grads(core.clamp(x, min=0.0), x)[0], [0.0, 0.0, 1.0, 1.0, 1.0])
    np.testing.assert_array_equal(grads(core.clamp_max(x, 0.0), x)[0], [1.0, 1.0, 1.0, 0.0, 0.0])


def test_clamp_tensor_bounds_get_the_clamped_elements():
    x = leaf([-2.0, -1.0, 0.0, 1.0, 2.0])
    lo, hi = leaf([-1.0] * 5), leaf([1.0] * 5)
    gx, glo, ghi = grads(core.clamp(x, lo, hi), [x, lo, hi])
    np.testing.assert_array_equal(gx, [0.0, 1.0, 1.0, 1.0, 0.0])
    np.testing.assert_array_equal(glo, [1.0, 0.0, 0.0, 0.0, 0.0])
    np.testing.assert_array_equal(ghi, [0.0, 0.0, 0.0, 0.0, 1.0])
    gx, glo = grads(core.clamp_min(x, lo), [x, lo])
    np.testing.assert_array_equal(gx, [0.0, 1.0, 1.0, 1.0, 1.0])
    np.testing.assert_array_equal(glo, [1.0, 0.0, 0.0, 0.0, 0.0])


def test_clamp_min_above_max_gives_everything_to_max():
    x, lo, hi = leaf([-1.0, 0.5, 3.0]), leaf([1.0] * 3), leaf([0.0] * 3)
    gx, glo, ghi = grads(core.clamp(x, lo, hi), [x, lo, hi])
    np.testing.assert_array_equal(gx, [0.0] * 3)
    np.testing.assert_array_equal(glo, [0.0] * 3)
    np.testing.assert_array_equal(ghi, [1.0] * 3)


def test_clamp_tensor_bounds_broadcast_and_gradcheck():
    rng = np.random.default_rng(3)
    x, lo, hi = leaf(rng.standard_normal((3, 4))), leaf(rng.standard_normal(4) - 1), leaf(rng.standard_normal((3, 1)) + 1)
    assert gradcheck(core.clamp, (x, lo, hi))
    assert gradgradcheck(core.clamp, (x, lo, hi))


# ---------------------------------------------------------------- pow and logs at zero

def test_pow_zero_base():
    x = leaf([0.0, 0.0, 0.0, 0.0, 2.0])
    e = leaf([0.0, 2.0, 1.5, 0.5, 0.0])
    gx, ge = grads(core.pow(x, e), [x, e])
    # exponent 0: flat in self (also 0^0); 0^0.5 has an infinite slope
    np.testing.assert_array_equal(gx, [0.0, 0.0, 0.0, math.inf, 0.0])
    # self == 0 with exponent >= 0: flat in the exponent
    np.testing.assert_array_equal(ge[:4], [0.0, 0.0, 0.0, 0.0])
    assert ge[4] == pytest.approx(math.log(2.0))


def test_pow_with_number_exponent_and_base():
    x = leaf([0.5, 1.5, 2.0])
    np.testing.assert_allclose(grads(x ** 0.3, x)[0], 0.3 * np.array([0.5, 1.5, 2.0]) ** -0.7, rtol=1e-15)
    np.testing.assert_allclose(grads(x ** 3, x)[0], 3 * np.array([0.5, 1.5, 2.0]) ** 2, rtol=1e-15)
    np.testing.assert_allclose(grads(2.0 ** x, x)[0], math.log(2.0) * 2.0 ** np.array([0.5, 1.5, 2.0]), rtol=1e-15)
    np.testing.assert_array_equal(grads(x ** 0, x)[0], [0.0, 0.0, 0.0])
    assert gradgradcheck(lambda t: t ** 0.3, (x,))
    assert gradgradcheck(lambda t: core.pow(1.7, t), (x,))


def test_pow_integer_exponent_tensor():
    x = leaf([0.5, -1.5, 2.0])
    e = core.tensor([2, 3, -1])
    np.testing.assert_allclose(grads(core.pow(x, e), x)[0], [1.0, 3 * 2.25, -0.25], rtol=1e-15)


@pytest.mark.parametrize("op,slope", [("log", 1.0), ("log2", 1 / math.log(2)), ("log10", 1 / math.log(10))])
def test_log_at_zero_has_infinite_gradient(op, slope):
    x = leaf([0.0, 2.0])
    g = grads(getattr(core, op)(x), x)[0]
    assert g[0] == math.inf
    assert g[1] == pytest.approx(slope / 2)


def test_sqrt_and_log1p_edges():
    x = leaf([0.0, 4.0])
    np.testing.assert_array_equal(grads(core.sqrt(x), x)[0], [math.inf, 0.25])
    y = leaf([-1.0, 1.0])
    np.testing.assert_array_equal(grads(core.log1p(y), y)[0], [math.inf, 0.5])


def test_xlogy_zero_self():
    x, y = leaf([0.0, 0.0, 2.0]), leaf([0.0, 3.0, 0.5])
    gx, gy = grads(core.xlogy(x, y), [x, y])
    np.testing.assert_allclose(gx, [0.0, math.log(3.0), math.log(0.5)])
    np.testing.assert_allclose(gy, [math.nan, 0.0, 4.0])  # self / other: 0 / 0, as in PyTorch


# ---------------------------------------------------------------- step functions and masks

@pytest.mark.parametrize("op", ["floor", "ceil", "trunc", "fix", "round", "sign", "sgn"])
def test_step_functions_have_zero_gradient(op):
    x = leaf([-1.5, 0.0, 0.4, 2.5])
    for out in (getattr(core, op)(x), getattr(x * 1, op + "_")()):
        g = grads(out, x)[0]
        assert g is not None
        np.testing.assert_array_equal(g, [0.0] * 4)


@pytest.mark.parametrize("op", ["eq_", "ne_", "lt_", "le_", "gt_", "ge_"])
def test_comparisons_in_place_on_floats_have_zero_gradient(op):
    x, y = leaf([1.0, 2.0, 3.0]), leaf([1.0, 3.0, 2.0])
    out = getattr(x * 1, op)(y)
    assert out.dtype == core.float64 and out.grad_fn is not None
    gx, gy = grads(out, [x, y])
    np.testing.assert_array_equal(gx, [0.0] * 3)
    np.testing.assert_array_equal(gy, [0.0] * 3)


def test_rounding_divisions_have_zero_gradient():
    x, y = leaf([-7.0, 7.5]), leaf([2.0, -2.0])
    for out in (core.floor_divide(x, y), core.div(x, y, rounding_mode="floor"), x.div(y, rounding_mode="trunc")):
        gx, gy = grads(out, [x, y])
        np.testing.assert_array_equal(gx, [0.0, 0.0])
        np.testing.assert_array_equal(gy, [0.0, 0.0])


def test_remainder_and_fmod_other_gradients():
    x, y = leaf([-7.0, 7.5]), leaf([2.0, -2.0])
    gx, gy = grads(core.remainder(x, y), [x, y])
    np.testing.assert_array_equal(gx, [1.0, 1.0])
    np.testing.assert_array_equal(gy, [4.0, 4.0])      # -floor(x / y)
    gx, gy = grads(core.fmod(x, y), [x, y])
    np.testing.assert_array_equal(gy, [3.0, 3.0])      # -trunc(x / y)


def test_frac_passes_the_gradient():
    x = leaf([-1.5, 0.25, 2.5])
    np.testing.assert_array_equal(grads(core.frac(x), x)[0], [1.0, 1.0, 1.0])


def test_nan_to_num_gradient_only_where_finite():
    x = leaf([math.nan, math.inf, -math.inf, 1.5])
    for out in (core.nan_to_num(x), x.nan_to_num(1.0, 2.0, 3.0), (x * 1).nan_to_num_()):
        np.testing.assert_array_equal(grads(out, x)[0], [0.0, 0.0, 0.0, 1.0])


def test_logit_eps_and_domain():
    x = leaf([0.05, 0.5, 0.95, 1.5])
    g = grads(core.logit(x, eps=0.1), x)[0]
    np.testing.assert_allclose(g, [0.0, 4.0, 0.0, 0.0])
    g = grads(core.logit(x), x)[0]
    np.testing.assert_allclose(g[:3], 1 / (np.array([0.05, 0.5, 0.95]) * (1 - np.array([0.05, 0.5, 0.95]))))
    assert math.isnan(g[3])


# ---------------------------------------------------------------- saved results, in place, dtypes

@pytest.mark.parametrize("op", ["exp", "sigmoid", "tanh", "sqrt", "rsqrt", "reciprocal", "expm1", "exp2",
                                "tan", "erfinv", "sin", "log", "asin", "atanh"])
def test_inplace_matches_out_of_place(op):
    x = leaf(np.random.default_rng(1).uniform(0.1, 0.9, (2, 3)))
    expected = grads(getattr(core, op)(x), x)[0]
    np.testing.assert_allclose(grads(getattr(x * 1, op + "_")(), x)[0], expected, rtol=1e-14)
    assert gradgradcheck(lambda t: getattr(t * 1, op + "_")(), (x,))


def test_inplace_on_a_saved_result_is_detected():
    x = leaf([0.5, 1.0])
    y = core.exp(x)          # saves its result
    y.mul_(2)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()


def test_mixed_dtypes_get_gradients_in_their_own_dtype():
    x = leaf([1.0, 2.0], dtype=core.float32)
    y = leaf([3.0, 4.0], dtype=core.float64)
    gx, gy = autograd.grad(core.atan2(x, y).sum(), [x, y])
    assert gx.dtype == core.float32 and gy.dtype == core.float64
    np.testing.assert_allclose(gx.numpy(), [3 / 10, 4 / 20], rtol=1e-6)


def test_float_power_gradient_in_input_dtype():
    x = leaf([0.5, 2.0], dtype=core.float32)
    g, = autograd.grad(core.float_power(x, 2).sum(), [x])
    assert g.dtype == core.float32
    np.testing.assert_allclose(g.numpy(), [1.0, 4.0])


def test_lerp_weight_gradients():
    a, b, w = leaf([1.0, 2.0]), leaf([3.0, 6.0]), leaf([0.25, 0.5])
    ga, gb, gw = grads(core.lerp(a, b, w), [a, b, w])
    np.testing.assert_allclose(ga, [0.75, 0.5])
    np.testing.assert_allclose(gb, [0.25, 0.5])
    np.testing.assert_allclose(gw, [2.0, 4.0])
    assert gradgradcheck(core.lerp, (a, b, w))


@pytest.mark.parametrize("op,name", [("neg", "NegBackward0"), ("exp", "ExpBackward0"), ("floor", "FloorBackward0"),
                                     ("sigmoid", "SigmoidBackward0"), ("nan_to_num", "NanToNumBackward0")])
def test_node_names(op, name):
    assert getattr(core, op)(leaf([0.5])).grad_fn.name() == name


def test_angle_and_real_of_real_inputs():
    x = leaf([-1.0, 2.0])
    np.testing.assert_array_equal(grads(core.angle(x), x)[0], [0.0, 0.0])
    np.testing.assert_array_equal(grads(core.real(x) * 3, x)[0], [3.0, 3.0])
    np.testing.assert_array_equal(grads(core.conj(x) * 3, x)[0], [3.0, 3.0])
