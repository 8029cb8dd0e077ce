"""Elementwise ops against PyTorch: result dtypes (and which combinations raise) for every
dtype pair, Python-number operands, unary ops on every dtype, and the values of the
division rounding modes, remainders, shifts and other ops with subtle semantics.

Known, deliberate differences: there is no complex128 or complex32 here, so results PyTorch
widens to complex128 (or narrows to complex32, float16 with a complex number) are compared
as complex64; core accepts Python numbers wherever a tensor is expected (PyTorch rejects
them for some ops with a TypeError); bool ** bool-number raises in core.
"""
import math
import warnings

import numpy as np
import pytest

import core

torch = pytest.importorskip("torch")

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64",
          "complex64"]
VALUES = [1, 0, 3, 7, 2, 5]    # non-negative so that every dtype holds them
DIVISORS = [2, 1, 1, 3, 5, 4]  # non-zero: integer division by zero is tested on its own


def pair(values, dtype):
    """The same values as a core tensor and a torch tensor of one dtype."""
    array = np.asarray(values)
    array = array != 0 if dtype == "bool" else array.astype(np.complex64 if array.dtype.kind == "c" else np.float64)
    return core.tensor(array).to(getattr(core, dtype)), torch.tensor(array).to(getattr(torch, dtype))


def to_numpy(x):
    if isinstance(x, torch.Tensor):
        x = x.resolve_conj()
        if x.dtype == torch.bfloat16:
            x = x.float()
        if x.dtype in (torch.complex128, torch.complex32):
            x = x.to(torch.complex64)
        return x.numpy()
    if x.dtype == core.bfloat16:
        x = x.to(core.float32)
    return x.numpy()


def dtype_name(x):
    name = str(x.dtype).split(".")[-1]
    return "complex64" if name in ("complex128", "complex32") else name


def run(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return fn(*args, **kwargs), None
        except Exception as e:  # noqa: BLE001 - the exception is the result being compared
            return None, e


def assert_parity(ours_call, torch_call, label, rtol=1e-6, values=True):
    theirs, theirs_error = run(torch_call)
    if isinstance(theirs_error, TypeError) and any(
            m in str(theirs_error) for m in ("must be Tensor", "invalid combination of arguments")):
        return  # PyTorch does not take a Python number there; core does
    if theirs_error is not None and "ComplexHalf" in str(theirs_error):
        return  # float16 with a complex number is complex32 in PyTorch, complex64 here
    ours, ours_error = run(ours_call)
    if theirs_error is not None:
        assert ours_error is not None, f"{label}: PyTorch raises {theirs_error!r}, core returns {ours}"
        if isinstance(theirs_error, RuntimeError):  # NotImplementedError included
            assert isinstance(ours_error, RuntimeError), f"{label}: {ours_error!r} vs PyTorch's {theirs_error!r}"
        return
    assert ours_error is None, f"{label}: core raises {ours_error!r}, PyTorch returns {theirs}"
    if isinstance(theirs, torch.Tensor):
        assert dtype_name(ours) == dtype_name(theirs), f"{label}: dtype {ours.dtype} != {theirs.dtype}"
        if values:
            t_np, o_np = to_numpy(theirs), to_numpy(ours)
            if o_np.dtype.kind in "fc":
                tol = 1e-2 if dtype_name(ours) in ("float16", "bfloat16") else rtol
                np.testing.assert_allclose(o_np, t_np, rtol=tol, atol=tol * 1e-2, equal_nan=True, err_msg=label)
            else:
                np.testing.assert_array_equal(o_np, t_np, err_msg=label)
    else:
        assert ours == theirs, f"{label}: {ours} != {theirs}"


BINARY = {
    "add": (lambda m, a, b: m.add(a, b)),
    "add_alpha": (lambda m, a, b: m.add(a, b, alpha=2)),
    "sub": (lambda m, a, b: m.sub(a, b)),
    "mul": (lambda m, a, b: m.mul(a, b)),
    "div": (lambda m, a, b: m.div(a, b)),
    "div_trunc": (lambda m, a, b: m.div(a, b, rounding_mode="trunc")),
    "div_floor": (lambda m, a, b: m.div(a, b, rounding_mode="floor")),
    "true_divide": (lambda m, a, b: m.true_divide(a, b)),
    "floor_divide": (lambda m, a, b: m.floor_divide(a, b)),
    "remainder": (lambda m, a, b: m.remainder(a, b)),
    "fmod": (lambda m, a, b: m.fmod(a, b)),
    "pow": (lambda m, a, b: m.pow(a, b)),
    "float_power": (lambda m, a, b: m.float_power(a, b)),
    "atan2": (lambda m, a, b: m.atan2(a, b)),
    "hypot": (lambda m, a, b: m.hypot(a, b)),
    "copysign": (lambda m, a, b: m.copysign(a, b)),
    "xlogy": (lambda m, a, b: m.xlogy(a, b)),
    "maximum": (lambda m, a, b: m.maximum(a, b)),
    "minimum": (lambda m, a, b: m.minimum(a, b)),
    "fmax": (lambda m, a, b: m.fmax(a, b)),
    "fmin": (lambda m, a, b: m.fmin(a, b)),
    "eq": (lambda m, a, b: m.eq(a, b)),
    "ne": (lambda m, a, b: m.ne(a, b)),
    "lt": (lambda m, a, b: m.lt(a, b)),
    "le": (lambda m, a, b: m.le(a, b)),
    "gt": (lambda m, a, b: m.gt(a, b)),
    "ge": (lambda m, a, b: m.ge(a, b)),
    "logical_and": (lambda m, a, b: m.logical_and(a, b)),
    "logical_or": (lambda m, a, b: m.logical_or(a, b)),
    "logical_xor": (lambda m, a, b: m.logical_xor(a, b)),
    "bitwise_and": (lambda m, a, b: m.bitwise_and(a, b)),
    "bitwise_or": (lambda m, a, b: m.bitwise_or(a, b)),
    "bitwise_xor": (lambda m, a, b: m.bitwise_xor(a, b)),
    "left_shift": (lambda m, a, b: m.bitwise_left_shift(a, b)),
    "right_shift": (lambda m, a, b: m.bitwise_right_shift(a, b)),
    "isclose": (lambda m, a, b: m.isclose(a, b)),
    "lerp": (lambda m, a, b: m.lerp(a, b, 0.25)),
    "lerp_tensor": (lambda m, a, b: m.lerp(a, b, b)),
    "clamp_min_tensor": (lambda m, a, b: m.clamp(a, min=b)),
    "clamp_tensors": (lambda m, a, b: m.clamp(a, min=b, max=b)),
    "equal": (lambda m, a, b: m.equal(a, b)),
    "allclose": (lambda m, a, b: m.allclose(a, b)),
}


@pytest.mark.parametrize("op", sorted(BINARY))
def test_binary_promotion_table(op):
    """Every ordered pair of dtypes: the same result dtype and values, or both raise."""
    fn = BINARY[op]
    for da in DTYPES:
        for db in DTYPES:
            oa, ta = pair(VALUES, da)
            ob, tb = pair(DIVISORS, db)
            assert_parity(lambda: fn(core, oa, ob), lambda: fn(torch, ta, tb), f"{op}({da}, {db})", rtol=2e-6)


@pytest.mark.parametrize("op", ["add", "sub", "mul", "div", "div_floor", "remainder", "fmod", "pow", "eq", "lt",
                                "maximum", "bitwise_and", "left_shift", "atan2", "clamp_min_tensor"])
@pytest.mark.parametrize("number", [3, -2, 2.5, True, 1 - 2j])
def test_python_numbers(op, number):
    fn = BINARY[op]
    for d in DTYPES:
        if op == "pow" and d == "bool" and isinstance(number, bool):
            continue  # PyTorch computes bool ** True; core raises like for bool ** bool tensors
        oa, ta = pair(VALUES, d)
        assert_parity(lambda: fn(core, oa, number), lambda: fn(torch, ta, number), f"{op}({d}, {number!r})", rtol=2e-6)
        if op not in ("clamp_min_tensor",):
            ob, tb = pair(DIVISORS, d)
            assert_parity(lambda: fn(core, number, ob), lambda: fn(torch, number, tb), f"{op}({number!r}, {d})",
                          rtol=2e-6)


@pytest.mark.parametrize("dim_dtype", DTYPES)
def test_zero_dim_tensor_promotion(dim_dtype):
    """A 0-dim tensor only changes the result dtype when its category is higher."""
    for zero_dtype in DTYPES:
        oa, ta = pair(VALUES, dim_dtype)
        oz, tz = pair([3], zero_dtype)
        oz, tz = oz.reshape(()), tz.reshape(())
        assert_parity(lambda: oa * oz, lambda: ta * tz, f"{dim_dtype} * 0-d {zero_dtype}")
        assert_parity(lambda: oz + oa, lambda: tz + ta, f"0-d {zero_dtype} + {dim_dtype}")


UNARY = ["neg", "abs", "sign", "sgn", "sqrt", "rsqrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p",
         "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "sigmoid",
         "logit", "erf", "erfc", "erfinv", "floor", "ceil", "round", "trunc", "frac", "reciprocal", "square",
         "bitwise_not", "logical_not", "isnan", "isinf", "isposinf", "isneginf", "isfinite", "isreal", "signbit",
         "nan_to_num", "angle", "positive", "conj", "real", "imag"]


@pytest.mark.parametrize("op", UNARY)
def test_unary_dtype_table(op):
    for d in DTYPES:
        values = [0.25, 0.5, 0.75] if op in ("asin", "acos", "atanh", "erfinv", "logit") else [1, 2, 3]
        o, t = pair(values, d)
        assert_parity(lambda: getattr(core, op)(o), lambda: getattr(torch, op)(t), f"{op}({d})", rtol=3e-6)


@pytest.mark.parametrize("op", ["neg", "abs", "sqrt", "exp", "log", "tanh", "sigmoid", "floor", "round", "frac",
                                "bitwise_not", "square", "nan_to_num", "reciprocal", "sign"])
def test_unary_inplace_dtype_table(op):
    for d in DTYPES:
        o, t = pair([1, 2, 3], d)
        assert_parity(lambda: getattr(o, op + "_")(), lambda: getattr(t, op + "_")(), f"{op}_({d})", rtol=3e-6)


@pytest.mark.parametrize("op", ["add_", "sub_", "mul_", "div_", "floor_divide_", "remainder_", "pow_", "eq_",
                                "logical_and_", "bitwise_or_", "clamp_min_", "lerp_"])
def test_binary_inplace_cast_table(op):
    """In place, the result dtype must cast to self's: the same pairs raise as in PyTorch."""
    for da in DTYPES:
        for db in DTYPES:
            oa, ta = pair(VALUES, da)
            ob, tb = pair(DIVISORS, db)
            extra = (0.5,) if op == "lerp_" else ()
            assert_parity(lambda: getattr(oa, op)(ob, *extra), lambda: getattr(ta, op)(tb, *extra),
                          f"{op}({da}, {db})", rtol=2e-6)


SIGNED = [-7, 7, -7, 7, 0, 5, -5, 100, -100, 1, -1]
SIGNED_DIV = [2, 2, -2, -2, 3, -1, 1, -7, 7, -3, 3]


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64"])
@pytest.mark.parametrize("mode", [None, "trunc", "floor"])
def test_division_rounding_modes(dtype, mode):
    oa, ta = pair(SIGNED, dtype)
    ob, tb = pair(SIGNED_DIV, dtype)
    assert_parity(lambda: core.div(oa, ob, rounding_mode=mode), lambda: torch.div(ta, tb, rounding_mode=mode),
                  f"div {mode} {dtype}")
    assert_parity(lambda: oa // ob, lambda: ta // tb, f"// {dtype}")
    assert_parity(lambda: oa % ob, lambda: ta % tb, f"% {dtype}")
    assert_parity(lambda: core.fmod(oa, ob), lambda: torch.fmod(ta, tb), f"fmod {dtype}")
    assert_parity(lambda: core.div(oa, -3, rounding_mode=mode), lambda: torch.div(ta, -3, rounding_mode=mode),
                  f"div number {mode} {dtype}")


def test_float_division_special_values():
    a = [5.0, -5.0, 0.0, -0.0, math.inf, -math.inf, math.nan, 7.5, -7.5, 1e30]
    b = [math.inf, math.inf, -3.0, 3.0, 2.0, 2.0, 1.0, -0.0, 0.0, 1e-30]
    for d in ("float32", "float64"):
        oa, ta = pair(a, d)
        ob, tb = pair(b, d)
        for mode in (None, "trunc", "floor"):
            assert_parity(lambda: core.div(oa, ob, rounding_mode=mode), lambda: torch.div(ta, tb, rounding_mode=mode),
                          f"div {mode} {d}")
        assert_parity(lambda: core.remainder(oa, ob), lambda: torch.remainder(ta, tb), f"remainder {d}")
        assert_parity(lambda: core.fmod(oa, ob), lambda: torch.fmod(ta, tb), f"fmod {d}")


def test_integer_edge_cases():
    for d in ("int8", "int16", "int32", "int64"):
        low = -2 ** (np.dtype(d).itemsize * 8 - 1)
        oa, ta = pair([low, low, 5], d)
        ob, tb = pair([-1, 1, -1], d)
        # (not div(rounding_mode="trunc"): PyTorch 2.13 dies of SIGFPE on INT_MIN / -1 there;
        # test_elementwise.py checks core's result)
        for call in (lambda m, x, y: x // y, lambda m, x, y: x % y, lambda m, x, y: m.fmod(x, y),
                     lambda m, x, y: -x, lambda m, x, y: m.abs(x), lambda m, x, y: x * y, lambda m, x, y: x - y):
            assert_parity(lambda: call(core, oa, ob), lambda: call(torch, ta, tb), f"{d} edge")
    base, exps = [2, -1, 1, 0, 3, -2], [-1, -3, -2, -1, 2, 3]
    for d in ("int8", "int32", "int64"):
        oa, ta = pair(base, d)
        ob, tb = pair(exps, d)
        assert_parity(lambda: oa ** ob, lambda: ta ** tb, f"{d} ** negative tensor")
        assert_parity(lambda: 2 ** ob, lambda: 2 ** tb, f"2 ** {d}")
    for d in ("uint8", "int8", "int16", "int32", "int64"):
        bits = np.dtype(d).itemsize * 8
        oa, ta = pair([1, 5, 100, 127, 3, 64], d)
        ob, tb = pair([0, 1, bits - 1, bits, bits + 3, 2], d)
        assert_parity(lambda: oa << ob, lambda: ta << tb, f"{d} <<")
        assert_parity(lambda: oa >> ob, lambda: ta >> tb, f"{d} >>")
    oa, ta = pair([-8, -1, 8], "int64")
    for amount in (70, -1, 3):
        assert_parity(lambda: oa >> amount, lambda: ta >> amount, f">> {amount}")
        assert_parity(lambda: oa << amount, lambda: ta << amount, f"<< {amount}")


def test_nan_semantics():
    x = [1.5, math.nan, -2.0, math.nan, 0.0, -0.0]
    y = [math.nan, 0.5, -3.0, math.nan, -0.0, 0.0]
    for d in ("float16", "bfloat16", "float32", "float64"):
        oa, ta = pair(x, d)
        ob, tb = pair(y, d)
        for op in ("maximum", "minimum", "fmax", "fmin"):
            assert_parity(lambda: getattr(core, op)(oa, ob), lambda: getattr(torch, op)(ta, tb), f"{op} {d}")
        for op in ("sign", "sgn", "isnan", "signbit", "nan_to_num", "angle", "frac", "floor", "round"):
            assert_parity(lambda: getattr(core, op)(oa), lambda: getattr(torch, op)(ta), f"{op} {d}")
        assert_parity(lambda: core.clamp(oa, -1.0, 1.0), lambda: torch.clamp(ta, -1.0, 1.0), f"clamp {d}")
        assert_parity(lambda: core.clamp(oa, min=math.nan), lambda: torch.clamp(ta, min=math.nan), f"clamp nan {d}")
        assert_parity(lambda: core.isclose(oa, ob, equal_nan=True), lambda: torch.isclose(ta, tb, equal_nan=True),
                      f"isclose {d}")
        assert_parity(lambda: core.xlogy(oa, ob), lambda: torch.xlogy(ta, tb), f"xlogy {d}")


def test_clamp_promotion():
    for d in DTYPES:
        if d == "complex64":
            continue
        o, t = pair([1, 5, 3], d)
        for lo, hi in [(2, None), (None, 4), (2, 4), (0.5, None), (None, 2.5), (True, None)]:
            assert_parity(lambda: core.clamp(o, lo, hi), lambda: torch.clamp(t, lo, hi), f"clamp({d}, {lo}, {hi})")


def test_rounding_and_misc_values():
    ties = [0.5, 1.5, 2.5, -0.5, -1.5, 1.25, 12.5, 1234.5, -0.0, 0.125]
    for d in ("float16", "bfloat16", "float32", "float64"):
        o, t = pair(ties, d)
        for decimals in (0, 1, 2, -1, -2):
            assert_parity(lambda: core.round(o, decimals=decimals), lambda: torch.round(t, decimals=decimals),
                          f"round {d} {decimals}")
        p, tp = pair([0.0, 0.05, 0.5, 0.97, 1.0, 2.0], d)
        for eps in (None, 0.1, -1.0):
            assert_parity(lambda: core.logit(p, eps), lambda: torch.logit(tp, eps), f"logit {d} {eps}", rtol=1e-5)
    for d in ("float32", "float64"):
        o, t = pair([-0.999, -0.5, 0.0, 0.3, 0.9999, 1.0, -1.0, 1.5], d)
        assert_parity(lambda: core.erfinv(o), lambda: torch.erfinv(t), f"erfinv {d}", rtol=1e-5)
        o, t = pair([math.nan, math.inf, -math.inf, 2.0], d)
        assert_parity(lambda: core.nan_to_num(o, nan=1.0, neginf=-7.0), lambda: torch.nan_to_num(t, nan=1.0, neginf=-7.0),
                      f"nan_to_num {d}")
    z = [1 + 2j, -3 - 1j, 0j, complex(math.inf, 1.0)]
    o, t = pair(np.array(z, np.complex64), "complex64")
    for op in ("sgn", "abs", "angle", "exp", "log", "sqrt", "rsqrt", "sigmoid", "reciprocal", "isfinite", "isinf"):
        assert_parity(lambda: getattr(core, op)(o), lambda: getattr(torch, op)(t), f"{op} complex", rtol=1e-5)
    a, ta = pair([1.0, 2.0, 3.0], "float32")
    b, tb = pair([5.0, -2.0, 3.0], "float32")
    w, tw = pair([0.0, 0.4, 1.0], "float32")
    assert_parity(lambda: core.lerp(a, b, w), lambda: torch.lerp(ta, tb, tw), "lerp")


@pytest.mark.parametrize("op", ["exp", "log", "tanh", "sigmoid"])
def test_vectorised_float32_math_close_to_pytorch(op):
    rng = np.random.default_rng(0)
    x = np.concatenate([rng.uniform(-90, 90, 20000), rng.uniform(-1, 1, 20000), [0.0, -0.0, math.inf, -math.inf]])
    if op == "log":
        x = np.abs(x)
    x = x.astype(np.float32)
    ours = getattr(core, op)(core.tensor(x)).numpy()
    theirs = getattr(torch, op)(torch.from_numpy(x)).numpy()
    np.testing.assert_allclose(ours, theirs, rtol=1e-6, atol=1e-38, equal_nan=True)
