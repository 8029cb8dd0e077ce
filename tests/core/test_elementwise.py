"""Hand-written tests of the elementwise family: errors, in-place semantics, Python operators,
promotion with Python numbers, half and complex types, the vectorised float32 math and the
SIMD builds. Values are checked against numpy; op_matrix covers every op x dtype x layout."""
import math
import os
import sys

import numpy as np
import pytest

import core
from support import CAPABILITIES, run_with_capability


def t(values, dtype=None):
    return core.tensor(values, dtype=dtype)


def assert_values(ours, expected, dtype=None):
    expected = np.asarray(expected)
    np.testing.assert_allclose(ours.numpy().astype(np.float64) if ours.dtype != core.bool else ours.numpy(),
                               expected, rtol=1e-6, atol=1e-6)
    if dtype is not None:
        assert ours.dtype == dtype


# ---- errors: type and message

def test_bool_subtraction_errors():
    b = t([True, False])
    with pytest.raises(RuntimeError, match="two bool tensors is not supported"):
        b - b
    with pytest.raises(RuntimeError, match="with a bool tensor is not supported"):
        t([1, 2]) - b
    with pytest.raises(RuntimeError, match="with a bool tensor is not supported"):
        core.sub(t([1.0, 2.0]), True)
    with pytest.raises(RuntimeError, match="Negation, the `-` operator, on a bool tensor"):
        -b
    with pytest.raises(RuntimeError, match=r"The `\+` operator, on a bool tensor"):
        +b


def test_integer_negative_powers():
    i = t([2, -1, 1, 0, 3])
    with pytest.raises(RuntimeError, match="Integers to negative integer powers are not allowed"):
        i ** -1
    with pytest.raises(RuntimeError, match="Integers to negative integer powers are not allowed"):
        i.pow_(-2)
    # tensor exponents follow PyTorch's integer rule instead of raising
    assert (i ** t([-1, -3, -2, -1, 2])).tolist() == [0, -1, 1, 0, 9]
    assert (i ** t(-1)).tolist() == [0, -1, 1, 0, 0]
    # float exponents promote
    r = i ** -1.0
    assert r.dtype == core.float32
    assert_values(r, [0.5, -1.0, 1.0, np.inf, 1 / 3])


@pytest.mark.parametrize("expr", [
    lambda a, z: core.div(a, z, rounding_mode="trunc"),
    lambda a, z: core.div(a, z, rounding_mode="floor"),
    lambda a, z: core.floor_divide(a, z),
    lambda a, z: core.remainder(a, z),
    lambda a, z: core.fmod(a, z),
    lambda a, z: a // z,
    lambda a, z: a % z,
    lambda a, z: a.floor_divide_(z),
    lambda a, z: a.remainder_(z),
])
@pytest.mark.parametrize("dtype", [core.uint8, core.int8, core.int16, core.int32, core.int64])
def test_integer_division_by_zero_raises(expr, dtype):
    a = t([5, 7, 0], dtype=dtype)
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        expr(a, 0)
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        expr(a, t([1, 0, 2], dtype=dtype))


def test_division_by_zero_of_floats_and_true_division():
    assert_values(core.div(t([1, -1, 0]), 0), [np.inf, -np.inf, np.nan], core.float32)
    assert_values(core.div(t([1.5, -2.5]), 0.0, rounding_mode="floor"), [np.inf, -np.inf])
    assert_values(core.remainder(t([1.0]), 0.0), [np.nan])


@pytest.mark.parametrize("dtype,low", [(core.int32, -2**31), (core.int64, -2**63)])
def test_integer_min_by_minus_one_does_not_trap(dtype, low):
    a = t([low, 7], dtype=dtype)
    m1 = t([-1, -1], dtype=dtype)
    assert (a // m1).tolist() == [low, -7]
    assert core.div(a, m1, rounding_mode="trunc").tolist() == [low, -7]
    assert (a % m1).tolist() == [0, 0]
    assert core.fmod(a, m1).tolist() == [0, 0]


def test_inplace_result_type_cannot_cast():
    i = t([1, 2, 3])
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        i.add_(1.5)
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        i += t([1.0, 2.0, 3.0])
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        i.div_(2)
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        i.sqrt_()
    with pytest.raises(RuntimeError, match="result type Long can't be cast to the desired output type Bool"):
        t([True]).add_(1)
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Byte"):
        t([1, 5], dtype=core.uint8).clamp_(min=2.5)
    with pytest.raises(RuntimeError, match="result type ComplexFloat can't be cast to the desired output type Float"):
        t([1.0]).mul_(1j)
    assert i.tolist() == [1, 2, 3]  # nothing was written


def test_inplace_shape_must_be_self_shape():
    with pytest.raises(RuntimeError, match=r"output with shape \[3\] doesn't match the broadcast shape \[2, 3\]"):
        core.ones(3).add_(core.ones(2, 3))
    with pytest.raises(RuntimeError, match="doesn't match the broadcast shape"):
        core.ones(3).clamp_(min=core.zeros(2, 3))


def test_broadcast_error_names_the_op():
    with pytest.raises(RuntimeError, match=r"mul\(\): the size of tensor a \(3\) must match the size of tensor b \(4\)"):
        core.ones(3) * core.ones(4)


def test_argument_errors():
    with pytest.raises(RuntimeError, match="rounding_mode to be one of None, 'trunc', or 'floor' but found 'round'"):
        core.div(t([1.0]), 2, rounding_mode="round")
    with pytest.raises(RuntimeError, match="argument alpha must not be a floating point number"):
        core.add(t([1]), t([2]), alpha=2.5)
    with pytest.raises(RuntimeError, match="Boolean alpha only supported for Boolean results"):
        core.sub(t([1.0]), t([2.0]), alpha=True)
    with pytest.raises(RuntimeError, match="alpha must not be a complex number"):
        core.add(t([1.0]), t([2.0]), alpha=1j)
    with pytest.raises(RuntimeError, match="At least one of 'min' or 'max' must not be None"):
        core.clamp(t([1.0]))
    with pytest.raises(RuntimeError, match="Float did not match Long"):
        core.isclose(t([1.0]), t([1]))
    with pytest.raises(RuntimeError, match="rtol must be greater than or equal to zero"):
        core.isclose(t([1.0]), t([1.0]), rtol=-1)
    with pytest.raises(RuntimeError, match="atol must be greater than or equal to zero"):
        core.allclose(t([1.0]), t([1.0]), atol=-1)
    with pytest.raises(RuntimeError, match="expected dtype float32 for `end` but got dtype int64"):
        core.lerp(t([1.0]), t([2]), 0.5)
    with pytest.raises(RuntimeError, match="expected dtype float32 for `weight` but got dtype float64"):
        core.lerp(t([1.0]), t([2.0]), t([0.5], dtype=core.float64))
    with pytest.raises(RuntimeError, match="imag is not implemented for tensors with non-complex dtypes"):
        core.imag(t([1.0]))


@pytest.mark.parametrize("call", [
    lambda: core.remainder(t([True]), t([True])),
    lambda: core.bitwise_and(t([1.0]), t([1.0])),
    lambda: t([1]) ^ 2.0,
    lambda: t([1.0]) << 1,
    lambda: core.lt(t([1j]), t([1j])),
    lambda: core.hypot(t([1]), t([2])),
    lambda: core.abs(t([True])),
    lambda: core.floor(t([True])),
    lambda: core.frac(t([1])),
    lambda: core.erf(t([1j])),
    lambda: core.pow(t([True]), t([True])),
    lambda: core.bitwise_left_shift(t([True]), t([True])),
    lambda: core.clamp(t([1j]), 0, 1),
])
def test_unsupported_dtypes_raise_not_implemented(call):
    # NotImplementedError is a RuntimeError, as PyTorch 1.8 raised
    with pytest.raises(NotImplementedError, match=r"\w+\(\): "):
        call()


def test_complex_specific_errors():
    with pytest.raises(NotImplementedError, match="torch.sgn instead"):
        core.sign(t([1j]))
    with pytest.raises(NotImplementedError, match="maximum\\(\\): not implemented for complex tensors"):
        core.maximum(t([1j]), t([1j]))
    with pytest.raises(RuntimeError, match="does not support complex inputs"):
        core.isposinf(t([1j]))
    with pytest.raises(RuntimeError, match="In-place abs_ is not supported for complex tensors"):
        t([1j]).abs_()


def test_operators_with_foreign_operands():
    x = t([1.0, 2.0])
    assert (x == None) is False  # noqa: E711 - the point of the test
    assert (x != None) is True  # noqa: E711
    assert x not in [None, "a"]
    with pytest.raises(TypeError, match="unsupported operand type"):
        x + None
    with pytest.raises(TypeError, match="unsupported operand type"):
        "a" - x
    with pytest.raises(TypeError, match="unsupported operand type"):
        x += [1, 2]
    with pytest.raises(TypeError, match=r"~ \(operator.invert\) is only implemented on integer and Boolean-type"):
        ~x
    with pytest.raises(TypeError):
        pow(x, 2, 3)


# ---- in-place semantics

@pytest.mark.parametrize("call", [
    lambda x: x.add_(1), lambda x: x.mul_(x), lambda x: x.sub_(t([1.0, 2.0, 3.0]), alpha=2),
    lambda x: x.div_(2), lambda x: x.sqrt_(), lambda x: x.exp_(), lambda x: x.clamp_(0, 1),
    lambda x: x.clamp_(min=t([0.5, 0.5, 0.5])), lambda x: x.lerp_(t([1.0, 1.0, 1.0], dtype=x.dtype), 0.5),
    lambda x: x.pow_(2), lambda x: x.eq_(1.0), lambda x: x.logical_not_(), lambda x: x.round_(decimals=1),
    lambda x: x.nan_to_num_(), lambda x: x.add_(t([1, 2, 3])), lambda x: x.floor_divide_(2),
])
@pytest.mark.parametrize("dtype", [core.float32, core.float16])
def test_inplace_bumps_version_once_and_returns_self(call, dtype):
    x = t([0.25, 0.5, 2.0], dtype=dtype)
    before = x._version
    assert call(x) is x
    assert x._version == before + 1


def test_inplace_operators_keep_identity_and_write_through_views():
    base = core.zeros(2, 3)
    row = base.view(6)
    alias = row
    row += 1
    assert row is alias
    row *= t([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    row -= 1
    row /= 2
    row **= 2
    assert_values(base, [[0.0, 0.25, 1.0], [2.25, 4.0, 6.25]])
    assert base._version == row._version == 5
    i = t([12, 7])
    i //= 5
    i %= 2
    i <<= 3
    i >>= 1
    i &= 6
    i |= 1
    i ^= 3
    assert i.tolist() == [2, 6]


def test_inplace_on_self_aliasing():
    x = t([1.0, 2.0, 3.0])
    x.add_(x)
    assert x.tolist() == [2.0, 4.0, 6.0]
    x.mul_(x)
    assert x.tolist() == [4.0, 16.0, 36.0]


def test_inplace_with_overlapping_views():
    x = core.arange(12).reshape(3, 4)
    row0 = core.as_strided(x, (4,), (1,), 0)  # x[0], sharing x's memory
    x.add_(row0)
    assert x.tolist() == [[0, 2, 4, 6], [4, 6, 8, 10], [8, 10, 12, 14]]  # row 0 read before it was written
    y = core.arange(4).to(core.float32)
    shifted = core.as_strided(y, (3,), (1,), 1)
    head = core.as_strided(y, (3,), (1,), 0)
    head.lerp_(shifted, 1.0)
    assert y.tolist() == [1.0, 2.0, 3.0, 3.0]
    expanded = core.zeros(1).expand(3)
    with pytest.raises(RuntimeError, match="more than one element of the written-to tensor refers to a single memory"):
        expanded.add_(t([1.0, 2.0, 3.0]))
    with pytest.raises(RuntimeError, match="more than one element of the written-to tensor"):
        expanded.exp_()


def test_results_are_fresh_tensors():
    x = t([1.0, 2.0])
    for r in (x + 1, core.exp(x), x.to(core.float16) * 2, core.clamp(x, 0, 1), x == 1):
        assert r._version == 0
        assert r.data_ptr() != x.data_ptr()


# ---- operators and Python numbers

def test_every_operator_against_numpy():
    a_np = np.array([[7.0, -3.5, 2.0], [0.5, -8.0, 3.0]], np.float32)
    b_np = np.array([2.0, -1.5, 4.0], np.float32)
    a, b = core.tensor(a_np), core.tensor(b_np)
    checks = [
        (a + b, a_np + b_np), (a - b, a_np - b_np), (a * b, a_np * b_np), (a / b, a_np / b_np),
        (a // b, a_np // b_np), (a % b, a_np % b_np), (abs(a) ** b, np.abs(a_np) ** b_np),
        (2 + a, 2 + a_np), (2 - a, 2 - a_np), (2 * a, 2 * a_np), (2 / a, 2 / a_np),
        (7 // a, 7 // a_np), (7 % a, 7 % a_np), (2 ** a, 2 ** a_np), (1.5 - a, 1.5 - a_np),
        (-a, -a_np), (+a, a_np), (abs(a), np.abs(a_np)),
        (a == b, a_np == b_np), (a != b, a_np != b_np), (a < b, a_np < b_np), (a <= b, a_np <= b_np),
        (a > b, a_np > b_np), (a >= b, a_np >= b_np), (2 < a, 2 < a_np), (2 >= a, 2 >= a_np),
    ]
    for ours, expected in checks:
        np.testing.assert_allclose(ours.numpy(), expected, rtol=1e-6)
    i_np = np.array([12, -7, 5], np.int64)
    j_np = np.array([3, 2, 1], np.int64)
    i, j = core.tensor(i_np), core.tensor(j_np)
    for ours, expected in [(i & j, i_np & j_np), (i | j, i_np | j_np), (i ^ j, i_np ^ j_np),
                           (i << j, i_np << j_np), (i >> j, i_np >> j_np), (~i, ~i_np),
                           (6 & i, 6 & i_np), (6 | i, 6 | i_np), (6 ^ i, 6 ^ i_np), (1 << j, 1 << j_np),
                           (64 >> j, 64 >> j_np), (i // j, i_np // j_np), (i % j, i_np % j_np),
                           (-7 // j, -7 // j_np), (-7 % j, -7 % j_np), (i ** j, i_np ** j_np)]:
        np.testing.assert_array_equal(ours.numpy(), expected)
        assert ours.dtype == core.int64
    m = t([True, False])
    assert (~m).tolist() == [False, True]
    assert (m & True).tolist() == [True, False]
    assert (m ^ m).tolist() == [False, False]


def test_python_numbers_do_not_widen_tensors():
    i8 = t([1, 2], dtype=core.int8)
    assert (i8 + 1000).tolist() == [-23, -22] and (i8 + 1000).dtype == core.int8
    assert (i8 * 1000).tolist() == [-24, -48]
    assert (t([3], dtype=core.uint8) - 5).tolist() == [254]
    assert (i8 + 2.5).dtype == core.float32
    assert (t([1.5], dtype=core.float16) + 2.5).dtype == core.float16
    assert (t([1.5], dtype=core.float16) * t(2.5, dtype=core.float64)).dtype == core.float16
    assert (t([1], dtype=core.int32) * t(2.5, dtype=core.float64)).dtype == core.float64
    assert (t([True]) + 1).dtype == core.int64
    assert (t([True]) * 2.0).dtype == core.float32
    assert (t([1.0]) + 1j).dtype == core.complex64
    assert (t([1], dtype=core.uint8) + t([1], dtype=core.int8)).dtype == core.int16
    assert core.add(2.0, 3.0).dtype == core.float32  # two Python floats: the default dtype
    assert core.add(2, 3).dtype == core.int64


def test_add_sub_alpha():
    a, b = t([1.0, 2.0]), t([10.0, 20.0])
    assert core.add(a, b, alpha=0.5).tolist() == [6.0, 12.0]
    assert core.sub(a, b, alpha=-2).tolist() == [21.0, 42.0]
    assert core.rsub(a, b, alpha=2).tolist() == [8.0, 16.0]
    assert a.add_(b, alpha=2).tolist() == [21.0, 42.0]
    assert core.add(t([1]), 2, alpha=3).tolist() == [7]
    assert core.add(t([1 + 0j]), t([2.0]), alpha=1j).tolist() == [1 + 2j]


# ---- rounding, division modes, integer edge cases

def test_division_rounding_modes():
    a = t([-7, 7, -7, 7, 0, 5])
    b = t([2, 2, -2, -2, 3, -1])
    assert core.div(a, b, rounding_mode="trunc").tolist() == [-3, 3, 3, -3, 0, -5]
    assert core.div(a, b, rounding_mode="floor").tolist() == [-4, 3, 3, -4, 0, -5]
    assert (a // b).tolist() == [-4, 3, 3, -4, 0, -5]
    assert core.remainder(a, b).tolist() == [1, 1, -1, -1, 0, 0]
    assert core.fmod(a, b).tolist() == [-1, 1, -1, 1, 0, 0]
    assert (a / b).dtype == core.float32
    # the divmod identity holds for every integer dtype
    for dtype in (core.int8, core.int16, core.int32, core.int64):
        x = t(np.arange(-20, 20), dtype=dtype)
        for d in (3, -3, 7, -1):
            q, r = x // d, x % d
            assert (q * d + r).tolist() == x.tolist()
    f = t([-7.5, 7.5, -0.5, 1e10])
    assert core.div(f, 2, rounding_mode="trunc").tolist() == [-3.0, 3.0, -0.0, 5e9]
    assert core.div(f, 2, rounding_mode="floor").tolist() == [-4.0, 3.0, -1.0, 5e9]
    assert core.floor_divide(t([5.0, -5.0]), float("inf")).tolist() == [0.0, -1.0]
    assert core.remainder(t([5.0, -5.0]), float("inf")).tolist() == [5.0, float("inf")]


def test_round_half_to_even_and_decimals():
    assert core.round(t([0.5, 1.5, 2.5, -0.5, -1.5])).tolist() == [0.0, 2.0, 2.0, -0.0, -2.0]
    assert_values(core.round(t([1.2345, 12.5]), decimals=2), [1.23, 12.5])
    assert core.round(t([1234.5, 1250.0]), decimals=-2).tolist() == [1200.0, 1200.0]
    assert core.round(t([3, -4])).tolist() == [3, -4]


def test_shifts_follow_pytorch_out_of_range_rules():
    u = t([255, 128, 5], dtype=core.uint8)
    assert (u >> 9).tolist() == [0, 0, 0]
    assert (u << 8).tolist() == [0, 0, 0]
    assert (u << 7).tolist() == [128, 0, 128]
    i = t([-128, 127, 1], dtype=core.int8)
    assert (i >> 8).tolist() == [-1, 0, 0]
    assert (i >> -1).tolist() == [-1, 0, 0]
    assert (i << -1).tolist() == [0, 0, 0]
    assert (t([1, 2, 3]) << t([63, 64, -1])).tolist() == [-2**63, 0, 0]
    assert (t([True, False]) << 1).tolist() == [2, 0]


def test_abs_and_neg_wrap_like_pytorch():
    m = t([-128], dtype=core.int8)
    assert core.abs(m).tolist() == [-128]
    assert (-m).tolist() == [-128]
    assert core.sign(t([float("nan"), -0.0, -2.0, 3.0])).tolist() == [0.0, 0.0, -1.0, 1.0]


def test_clamp_variants():
    x = t([1.0, 5.0, float("nan")])
    assert_values(core.clamp(x, 2.0, 4.0), [2.0, 4.0, np.nan])
    assert core.clamp(t([1.0, 5.0]), 2.0, 1.0).tolist() == [1.0, 1.0]  # min > max gives max
    assert math.isnan(core.clamp(t([1.0]), min=float("nan")).item())
    assert core.clamp(t([1, 5], dtype=core.uint8), min=-1).tolist() == [255, 255]
    r = core.clamp(t([1, 5]), min=0.5)
    assert r.dtype == core.float32 and r.tolist() == [1.0, 5.0]
    assert core.clamp(t([True, False]), 0, 1).dtype == core.int64
    r = core.clamp(t([1, 5]), min=t([2, 2]), max=t([3.5, 3.5]))
    assert r.dtype == core.float32 and r.tolist() == [2.0, 3.5]
    assert core.clip(t([-3, 3]), -1, 1).tolist() == [-1, 1]
    assert core.clamp_min(t([1.0, 3.0]), 2).tolist() == [2.0, 3.0]
    assert core.clamp_max(t([1.0, 3.0]), 2).tolist() == [1.0, 2.0]
    y = t([0.0, 10.0], dtype=core.float16)
    y.clamp_(1, 5)
    assert y.tolist() == [1.0, 5.0] and y.dtype == core.float16


def test_isclose_allclose_equal():
    a = t([1.0, float("nan"), float("inf"), -float("inf"), float("inf")])
    b = t([1.0 + 1e-6, float("nan"), float("inf"), -float("inf"), -float("inf")])
    assert core.isclose(a, b).tolist() == [True, False, True, True, False]
    assert core.isclose(a, b, equal_nan=True).tolist() == [True, True, True, True, False]
    assert core.isclose(t([1, 2]), t([1, 3]), atol=1).tolist() == [True, True]
    assert core.isclose(t([1, 2]), t([1, 3]), atol=0.9).tolist() == [True, False]
    assert core.isclose(t([True]), t([False]), atol=1).tolist() == [True]
    assert core.allclose(t([1.0, 2.0]), t([1.0, 2.0 + 1e-7])) is True
    assert core.allclose(t([1.0]), t([1.1])) is False
    assert core.equal(t([1.0, 2.0]), t([1, 2])) is True
    assert core.equal(t([1.0]), t([1.0, 1.0])) is False
    assert core.equal(t([float("nan")]), t([float("nan")])) is False
    assert t([1.0]).equal(t([1.0])) is True


def test_predicates_and_nan_to_num():
    x = t([0.0, -0.0, float("nan"), float("inf"), -float("inf"), 1.0])
    assert core.isnan(x).tolist() == [False, False, True, False, False, False]
    assert core.isinf(x).tolist() == [False, False, False, True, True, False]
    assert core.isposinf(x).tolist() == [False, False, False, True, False, False]
    assert core.isneginf(x).tolist() == [False, False, False, False, True, False]
    assert core.isfinite(x).tolist() == [True, True, False, False, False, True]
    assert core.signbit(x).tolist() == [False, True, False, False, True, False]
    assert core.isnan(t([1, 2])).tolist() == [False, False]
    assert core.isfinite(t([True])).tolist() == [True]
    assert core.signbit(t([-1, 0, 1])).tolist() == [True, False, False]
    assert core.isreal(t([1 + 0j, 1j])).tolist() == [True, False]
    c = t([complex(float("nan"), 1.0), complex(1.0, float("inf"))])
    assert core.isnan(c).tolist() == [True, False] and core.isinf(c).tolist() == [False, True]
    h = core.nan_to_num(x.to(core.float16))
    assert h.tolist() == [0.0, -0.0, 0.0, 65504.0, -65504.0, 1.0] and h.dtype == core.float16
    assert core.nan_to_num(x, nan=1.0, posinf=2.0, neginf=3.0).tolist() == [0.0, -0.0, 1.0, 2.0, 3.0, 1.0]
    assert core.nan_to_num(x).tolist()[3] == np.finfo(np.float32).max
    assert core.nan_to_num(t([1, 2]), nan=5.0).tolist() == [1, 2]


# ---- half and complex types

@pytest.mark.parametrize("dtype,np_round", [(core.float16, np.float16), (core.bfloat16, None)])
def test_half_types_compute_in_float32(dtype, np_round):
    values = [0.1, 1.7, -2.3, 3.14159, 100.5]
    x = t(values, dtype=dtype)
    x32 = x.to(core.float32)
    for op in (core.exp, core.sqrt, core.sigmoid, core.tanh, core.sin, lambda v: v * 3.3, lambda v: v + v,
               lambda v: v / 7, core.abs):
        ours = op(x)
        assert ours.dtype == dtype
        # float32 result rounded to the half type once
        expected = op(x32).to(dtype)
        np.testing.assert_array_equal(ours.to(core.float32).numpy(), expected.to(core.float32).numpy())
    assert core.isnan(t([float("nan")], dtype=dtype)).tolist() == [True]
    assert (x > 1).tolist() == [False, True, False, True, True]
    y = t([1.0, 2.0], dtype=dtype)
    y.mul_(2.5)
    assert y.tolist() == [2.5, 5.0] and y.dtype == dtype


def test_complex64_ops():
    z_np = np.array([1 + 2j, -3 - 1j, 0.5j], np.complex64)
    z = core.tensor(z_np)
    np.testing.assert_allclose(core.abs(z).numpy(), np.abs(z_np), rtol=1e-6)
    assert core.abs(z).dtype == core.float32 and core.angle(z).dtype == core.float32
    for op, ref in [(core.exp, np.exp), (core.log, np.log), (core.sqrt, np.sqrt), (core.sin, np.sin),
                    (core.tanh, np.tanh), (core.reciprocal, lambda v: 1 / v), (core.neg, np.negative),
                    (lambda v: v * v, lambda v: v * v), (lambda v: v / (1 + 1j), lambda v: v / (1 + 1j)),
                    (core.conj, np.conj), (lambda v: v ** 2, lambda v: v ** 2)]:
        ours = op(z)
        assert ours.dtype == core.complex64
        np.testing.assert_allclose(ours.numpy(), ref(z_np.astype(np.complex128)), rtol=2e-6, atol=1e-6)
    assert core.expm1(t([1e-10 + 1e-10j])).numpy()[0] == pytest.approx(1e-10 + 1e-10j, rel=1e-5)
    assert core.log1p(t([1e-10 + 0j])).numpy()[0] == pytest.approx(1e-10, rel=1e-5)


def test_real_and_imag_are_views():
    z = t([1 + 2j, 3 - 4j])
    re, im = core.real(z), core.imag(z)
    assert re.dtype == im.dtype == core.float32
    assert re.tolist() == [1.0, 3.0] and im.tolist() == [2.0, -4.0]
    re.mul_(10)
    im.add_(1)
    assert z.tolist() == [10 + 3j, 30 - 3j]
    x = t([1.0])
    assert core.real(x) is x and core.conj(x) is x


def test_lerp():
    a, b = t([1.0, 1.0]), t([3.0, 5.0])
    assert core.lerp(a, b, 0.25).tolist() == [1.5, 2.0]
    assert core.lerp(a, b, t([0.0, 1.0])).tolist() == [1.0, 5.0]  # exact at both ends
    assert core.lerp(a, b, t(0.5, dtype=core.float64)).tolist() == [2.0, 3.0]
    assert a.lerp_(b, 1.0).tolist() == [3.0, 5.0]


def test_logical_ops_on_every_dtype():
    assert core.logical_and(t([1, 0, 2]), t([0.5, 1.0, 0.0])).tolist() == [True, False, False]
    assert core.logical_or(t([0j, 1j]), 0).tolist() == [False, True]
    assert core.logical_xor(t([True, False]), t([1, 1])).tolist() == [False, True]
    assert core.logical_not(t([0.0, 2.0])).tolist() == [True, False]
    x = t([1.0, 0.0])
    x.logical_and_(t([2]))
    assert x.tolist() == [1.0, 0.0] and x.dtype == core.float32
    x.eq_(0.0)
    assert x.tolist() == [0.0, 1.0]


def test_erf_family():
    y = np.array([-0.999999, -0.9, -0.3, 0.0, 1e-8, 0.5, 0.7, 0.99, 0.9999999999], np.float64)
    x = core.erfinv(core.tensor(y))
    back = np.array([math.erf(v) for v in x.numpy()])
    np.testing.assert_allclose(back, y, rtol=1e-15, atol=1e-16)
    assert core.erfinv(t([-1.0, 1.0, 2.0])).tolist()[:2] == [-np.inf, np.inf]
    assert math.isnan(core.erfinv(t([2.0])).item())
    xs = np.linspace(-4, 4, 17)
    np.testing.assert_allclose(core.erf(core.tensor(xs)).numpy(), [math.erf(v) for v in xs], rtol=1e-15)
    np.testing.assert_allclose(core.erfc(core.tensor(xs)).numpy(), [math.erfc(v) for v in xs], rtol=1e-14)


# ---- the vectorised float32 math (kernels/vec_math.h)

def _ulp_error(got, want):
    """Error of float32 results in units in the last place of the float64 reference."""
    with np.errstate(all="ignore"):
        want32 = want.astype(np.float32)
        spacing = np.spacing(np.abs(want32).astype(np.float32)).astype(np.float64)
        spacing = np.maximum(spacing, np.float64(np.finfo(np.float32).smallest_subnormal))
        err = np.abs(got.astype(np.float64) - want) / spacing
    same = (got == want32) | (np.isnan(got) & np.isnan(want))
    return np.where(same, 0.0, err)


def _float32_sample():
    rng = np.random.default_rng(1)
    bits = rng.integers(0, 2**32, 2_000_000, dtype=np.uint64).astype(np.uint32)
    x = bits.view(np.float32)
    dense = rng.uniform(-20, 20, 1_000_000).astype(np.float32)
    return np.concatenate([x[np.isfinite(x)], dense, np.linspace(-1, 1, 100_001, dtype=np.float32)])


@pytest.mark.parametrize("name,reference,max_ulp", [
    ("exp", np.exp, 1.0),
    ("log", np.log, 1.0),
    ("tanh", np.tanh, 2.0),
    ("sigmoid", lambda v: 1 / (1 + np.exp(-v)), 3.0),
    ("erf", np.vectorize(math.erf, otypes=[np.float64]), 2.0),
])
def test_vec_math_ulp_error(name, reference, max_ulp):
    x = _float32_sample()
    got = getattr(core, name)(core.tensor(x)).numpy()
    with np.errstate(all="ignore"):
        want = reference(x.astype(np.float64))
    err = _ulp_error(got, want)
    worst = int(np.argmax(err))
    assert err[worst] <= max_ulp, f"{name}({x[worst]!r}) = {got[worst]!r}, want {want[worst]!r}: {err[worst]:.2f} ulp"


def test_vec_math_special_values():
    inf, nan = float("inf"), float("nan")
    e = core.exp(t([inf, -inf, nan, 88.8, -104.0, 0.0, -87.5, -103.0])).numpy()
    assert e[0] == inf and e[1] == 0 and math.isnan(e[2]) and e[3] == inf and e[4] == 0 and e[5] == 1
    np.testing.assert_allclose(e[6:], np.exp(np.array([-87.5, -103.0])).astype(np.float32), rtol=1e-6)
    sub = np.float32(1e-40)
    lg = core.log(t([0.0, -0.0, -1.0, inf, nan, 1.0, float(sub)])).numpy()
    assert lg[0] == -inf and lg[1] == -inf and math.isnan(lg[2]) and lg[3] == inf and math.isnan(lg[4])
    assert lg[5] == 0 and lg[6] == pytest.approx(math.log(float(sub)), rel=1e-7)
    th = core.tanh(t([inf, -inf, nan, -0.0, 20.0, -9.5])).numpy()
    assert th[0] == 1 and th[1] == -1 and math.isnan(th[2]) and th[4] == 1 and th[5] == -1
    assert math.copysign(1, th[3]) == -1
    sg = core.sigmoid(t([inf, -inf, nan, -100.0, 0.0])).numpy()
    assert sg[0] == 1 and sg[1] == 0 and math.isnan(sg[2]) and sg[4] == 0.5
    assert sg[3] == pytest.approx(math.exp(-100), rel=1e-6)
    er = core.erf(t([inf, -inf, nan, -0.0, 0.0, 3.92, -10.0, 1e-30])).numpy()
    assert er[0] == 1 and er[1] == -1 and math.isnan(er[2]) and er[4] == 0 and er[5] == 1 and er[6] == -1
    assert math.copysign(1, er[3]) == -1
    assert er[7] == pytest.approx(float(np.float32(1e-30)) * 2 / math.sqrt(math.pi), rel=1.2e-7)


def test_large_tensors_take_the_parallel_path():
    rng = np.random.default_rng(2)
    x_np = rng.uniform(-3, 3, (300, 700)).astype(np.float32)
    x = core.tensor(x_np)
    np.testing.assert_allclose(core.exp(x).numpy(), np.exp(x_np), rtol=2e-7)
    xt = core.tensor(x_np.T.copy()).transpose(0, 1)  # non-contiguous view of the same values
    np.testing.assert_allclose((xt + x).numpy(), 2 * x_np, rtol=1e-7)
    np.testing.assert_array_equal(core.maximum(xt, 0.0).numpy(), np.maximum(x_np, 0))



@pytest.mark.parametrize("threads", [1, 2, 3])
def test_transposed_inputs_go_by_tiles(threads):
    # An input walking the output's fastest dimension with a long stride goes through
    # TensorIter's tiles: partial tiles at both edges, outer dimensions, broadcast operands,
    # a layout conversion (NHWC -> NCHW) and a dtype conversion all match numpy.
    rng = np.random.default_rng(5)
    a = rng.standard_normal((3, 45, 70)).astype(np.float32)
    b = rng.standard_normal((3, 70, 45)).astype(np.float32)
    row = rng.standard_normal(70).astype(np.float32)
    image = rng.standard_normal((2, 37, 33, 35)).astype(np.float32)
    before = core.get_num_threads()
    try:
        core.set_num_threads(threads)
        bt = core.tensor(b).transpose(1, 2)
        np.testing.assert_array_equal((core.tensor(a) + bt).numpy(), a + b.transpose(0, 2, 1))
        np.testing.assert_array_equal((bt * core.tensor(row)).numpy(), b.transpose(0, 2, 1) * row)
        np.testing.assert_array_equal(bt.contiguous().numpy(), b.transpose(0, 2, 1))
        np.testing.assert_array_equal(bt.double().numpy(), b.transpose(0, 2, 1).astype(np.float64))
        nhwc = core.tensor(image).contiguous(memory_format=core.channels_last)
        np.testing.assert_array_equal(nhwc.contiguous().numpy(), image)
        np.testing.assert_array_equal(core.where(bt > 0, bt, core.tensor(a)).numpy(),
                                      np.where(b.transpose(0, 2, 1) > 0, b.transpose(0, 2, 1), a))
    finally:
        core.set_num_threads(before)


# ---- every SIMD build gives bit-identical results

_SIMD_SCRIPT = r"""
import sys
import numpy as np
import core
rng = np.random.default_rng(3)
f32 = np.concatenate([rng.uniform(-30, 30, 5000), [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-40, 88.7, -103.5]]).astype(np.float32)
f64 = f32.astype(np.float64)
pos = np.abs(f32) + np.float32(1e-3)
ints = rng.integers(-1000, 1000, 5003).astype(np.int32)
nz = np.where(ints == 0, 7, ints).astype(np.int32)
x, x64, p, i, j = (core.tensor(v) for v in (f32, f64, pos, ints, nz))
h = x.to(core.float16)
out = {}
for name in ["exp", "log", "tanh", "sigmoid", "sqrt", "rsqrt", "abs", "neg", "floor", "ceil", "round", "trunc",
             "frac", "reciprocal", "sign", "sin", "erf", "expm1", "log1p", "isnan", "isfinite", "signbit"]:
    out[name] = getattr(core, name)(x).numpy()
    out[name + "64"] = getattr(core, name)(x64).numpy()
    out[name + "16"] = getattr(core, name)(h).to(core.float32).numpy()
out["log_pos"] = core.log(p).numpy()
out["add"] = (x + p).numpy(); out["sub"] = (x - 2.5).numpy(); out["mul"] = (x * p).numpy()
out["div"] = (x / p).numpy(); out["max"] = core.maximum(x, p).numpy(); out["fmin"] = core.fmin(x, 0.5).numpy()
out["lt"] = (x < p).numpy(); out["eq"] = (x == x).numpy(); out["clamp"] = core.clamp(x, -1, 1).numpy()
out["pow"] = (p ** 1.5).numpy(); out["floordiv"] = (x // p).numpy(); out["rem"] = (x % p).numpy()
out["iadd"] = (i + j).numpy(); out["imul"] = (i * j).numpy(); out["idiv"] = (i // j).numpy()
out["imod"] = (i % j).numpy(); out["ishift"] = (i >> 3).numpy(); out["iand"] = (i & j).numpy()
out["iabs"] = core.abs(i).numpy(); out["clampi"] = core.clamp(i, -5, 5).numpy()
out["nan_to_num"] = core.nan_to_num(x).numpy(); out["round2"] = core.round(x, decimals=2).numpy()
out["half_add"] = (h + h).to(core.float32).numpy()
import core.nn.functional as F  # noqa: E402
for name in ["gelu", "silu", "mish", "softplus", "elu", "hardswish"]:  # activation kernels, and their gradients
    xg = x.detach().requires_grad_()
    y = getattr(F, name)(xg)
    y.backward(core.ones_like(y))
    out[name], out[name + "_grad"] = y.detach().numpy(), xg.grad.numpy()
    for key in (name, name + "_grad"):  # a NaN's sign bit may differ between vector and scalar code
        out[key][np.isnan(out[key])] = np.nan

# and every elementwise op of the op matrix on its samples (contiguous inputs)
sys.path.insert(0, sys.argv[2])
from op_matrix import refs_elementwise, registry, samples_elementwise  # noqa: E402,F401
kinds = {}
for table in (core._C._functions, core._C._methods):
    for op in table.values():
        for sig, kind in zip(op.signatures, op.samples):
            kinds.setdefault(sig.split("(")[0], kind)
for name in sorted(n for n in registry.REFERENCES if n in kinds and kinds[n].startswith("ew_")):
    base = name.split(".")[0]
    method = registry.REFERENCES[name].method or base not in core._C._functions
    for k, case in enumerate(registry.SAMPLES[kinds[name]](np.random.default_rng(0))):
        args = [core.tensor(a) if isinstance(a, np.ndarray) else a for a in case.args]
        try:
            r = getattr(args[0], base)(*args[1:], **case.kwargs) if method else getattr(core, base)(*args, **case.kwargs)
        except Exception as e:  # errors must match too
            r = type(e).__name__
        if isinstance(r, core.Tensor):
            r = r.to(core.float32) if r.dtype == core.bfloat16 else r
            r = r.numpy()
        out[f"{name}/{k}"] = np.asarray(r)
np.savez(sys.argv[1], capability=core._C._cpu_capability(), **out)
"""


def _simd_results(tmp_path, capability):
    path = tmp_path / f"{capability or 'default'}.npz"
    tests_core = os.path.dirname(os.path.abspath(__file__))
    run_with_capability(_SIMD_SCRIPT, capability, str(path), tests_core, timeout=600)
    return dict(np.load(path))


def test_simd_builds_are_bit_identical(tmp_path):
    """The op matrix's elementwise samples and large arrays of special values give the same
    bits whether the kernels were picked for AVX-512, AVX2 or the baseline."""
    default = _simd_results(tmp_path, None)
    assert len(default) > 1000
    for capability in ("baseline", "avx2"):
        capped = _simd_results(tmp_path, capability)
        assert CAPABILITIES.index(str(capped["capability"])) <= CAPABILITIES.index(capability)
        for key, value in default.items():
            if key == "capability":
                continue
            assert value.tobytes() == capped[key].tobytes(), f"{key} differs between {default['capability']} and {capability}"
