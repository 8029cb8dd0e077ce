"""numpy references of the elementwise family, with PyTorch's result dtypes.

Floating results are computed in float64 / complex128 and rounded to the result dtype, except
where the op's rounding is part of its definition (division modes, remainder, rounding,
lerp), which are computed in the dtype the kernel uses (float32 for float16).
"""
import math

import numpy as np

from .registry import reference, torch_result_type as _torch_result_type

F16, F32, F64, C64, C128 = (np.dtype(t) for t in ("float16", "float32", "float64", "complex64", "complex128"))
INTEGRAL = ("uint8", "int8", "int16", "int32", "int64")
NOT_FLOAT = ("bool",) + INTEGRAL  # dtypes a floating op cannot write back in place
FLOATS = ("float16", "float32", "float64")


def torch_result_type(*values):
    """PyTorch's promotion (float64 with complex64 gives complex128, as in torch)."""
    return _torch_result_type(*values)


def _arr(value, dtype):
    with np.errstate(all="ignore"):
        return np.asarray(value).astype(dtype)


def _floating(dt):
    """The dtype float ops give for dt: integers and bool go to the default float32."""
    return F32 if dt.kind in "biu" else dt


def _wide(dt):
    """Where a reference computes: float64 / complex128 for floating dtypes."""
    return C128 if dt.kind == "c" else F64 if dt.kind == "f" else dt


def _kernel(dt):
    """The dtype the kernels compute in: float32 for float16."""
    return F32 if dt == F16 else dt


def _binary(fn, a, b, dt, compute, out=None):
    with np.errstate(all="ignore"):
        return np.asarray(fn(_arr(a, compute), _arr(b, compute))).astype(out or dt)


def _register(names, **options):
    def register(fn):
        for name in names:
            reference(name, **options)(fn)
        return fn
    return register


def _inplace(fn):
    """The in-place form of a reference: the result cast to self's dtype."""
    def ref(a, *args, **kwargs):
        return _arr(fn(a, *args, **kwargs), a.dtype)
    return ref


# ---- arithmetic

def _add(a, b, alpha=1):
    dt = torch_result_type(a, b)
    if dt == np.bool_:
        return _arr(a, dt) | _arr(b, dt)
    return _binary(lambda x, y: x + y * alpha, a, b, dt, _wide(dt))


def _sub(a, b, alpha=1):
    dt = torch_result_type(a, b)
    return _binary(lambda x, y: x - y * alpha, a, b, dt, _wide(dt))


def _mul(a, b):
    dt = torch_result_type(a, b)
    if dt == np.bool_:
        return _arr(a, dt) & _arr(b, dt)
    return _binary(np.multiply, a, b, dt, _wide(dt))


def _div(a, b, rounding_mode=None):
    dt = torch_result_type(a, b)
    if rounding_mode is None:
        dt = _floating(dt)
        return _binary(np.true_divide, a, b, dt, _wide(dt))
    x, y = _arr(a, _kernel(dt)), _arr(b, _kernel(dt))
    with np.errstate(all="ignore"):
        if rounding_mode == "floor":
            q = np.floor_divide(x, y)
        elif dt.kind in "iu":
            q = np.floor_divide(x, y)
            q = q + ((np.remainder(x, y) != 0) & ((x < 0) != (y < 0)))
        else:
            q = np.trunc(x / y)
    return _arr(q, dt)


reference("add")(_add)
reference("add_", method=True)(_inplace(_add))
_register(["sub", "subtract"])(_sub)
reference("sub_", method=True, skip_dtypes=("bool",))(_inplace(_sub))
reference("rsub")(lambda a, b, alpha=1: _sub(b, a, alpha))
_register(["mul", "multiply"])(_mul)
reference("mul_", method=True)(_inplace(_mul))
_register(["div", "divide"])(_div)
reference("div_", method=True)(_inplace(_div))
reference("true_divide")(_div)
reference("true_divide_", method=True)(_inplace(_div))
reference("floor_divide")(lambda a, b: _div(a, b, "floor"))
reference("floor_divide_", method=True, skip_dtypes=("bool", "complex64"))(_inplace(lambda a, b: _div(a, b, "floor")))


def _remainder_like(fn):
    def ref(a, b):
        dt = torch_result_type(a, b)
        return _binary(fn, a, b, dt, _kernel(dt))
    return ref


reference("remainder")(_remainder_like(np.remainder))
reference("remainder_", method=True, skip_dtypes=("bool", "complex64"))(_inplace(_remainder_like(np.remainder)))
reference("fmod")(_remainder_like(np.fmod))
reference("fmod_", method=True, skip_dtypes=("bool", "complex64"))(_inplace(_remainder_like(np.fmod)))


def _int_pow(x, y):
    """PyTorch's integer powers: negative exponents give 0 except for bases 1 and -1."""
    with np.errstate(all="ignore"):
        r = np.power(x, np.where(y < 0, 0, y).astype(y.dtype))
    neg = y < 0
    if not np.any(neg):
        return r
    sign = np.where(y % 2 == 0, 1, -1)
    return np.where(neg, np.where(x == 1, 1, np.where(x == -1, sign, 0)), r)


def _pow(a, b):
    dt = torch_result_type(a, b)
    if dt.kind in "iu":
        return _arr(_int_pow(_arr(a, dt), _arr(b, dt)), dt)
    return _binary(np.power, a, b, dt, _wide(dt))


def _float_power(a, b):
    cplx = any(np.asarray(v).dtype.kind == "c" for v in (a, b))
    return _binary(np.power, a, b, C128 if cplx else F64, C128 if cplx else F64)


reference("pow")(_pow)
reference("pow_", method=True)(_inplace(_pow))
reference("float_power")(_float_power)
reference("float_power_", method=True)(_inplace(_float_power))


def _square(a):
    if a.dtype == np.bool_:
        return a.astype(np.int64) * a.astype(np.int64)
    with np.errstate(all="ignore"):
        return (a.astype(_wide(a.dtype)) ** 2).astype(a.dtype) if a.dtype.kind in "fc" else a * a


reference("square")(_square)
reference("square_", method=True, skip_dtypes=("bool",))(_inplace(_square))


def _float_binary(fn):
    def ref(a, b):
        dt = _floating(torch_result_type(a, b))
        return _binary(fn, a, b, dt, _wide(dt))
    return ref


def _xlogy(x, y):
    return np.where(np.isnan(y), y, np.where(x == 0, 0.0, x * np.log(y)))


for _name, _fn in [("atan2", np.arctan2), ("arctan2", np.arctan2), ("hypot", np.hypot),
                   ("copysign", np.copysign), ("xlogy", _xlogy)]:
    reference(_name)(_float_binary(_fn))
    if _name != "arctan2":
        reference(_name + "_", method=True)(_inplace(_float_binary(_fn)))


def _minmax(fn):
    def ref(a, b):
        dt = torch_result_type(a, b)
        return _binary(fn, a, b, dt, dt)
    return ref


for _name, _fn in [("maximum", np.maximum), ("minimum", np.minimum), ("fmax", np.fmax), ("fmin", np.fmin)]:
    reference(_name)(_minmax(_fn))


def _lerp(a, b, w):
    dt = np.asarray(a).dtype
    c = _kernel(dt)
    x, y, t = _arr(a, c), _arr(b, c), _arr(w, c)
    with np.errstate(all="ignore"):
        return _arr(np.where(np.abs(t) < 0.5, x + t * (y - x), y - (y - x) * (1 - t)), dt)


reference("lerp")(_lerp)
reference("lerp_", method=True)(_lerp)


def _clamp(a, min=None, max=None):
    bounds = [v for v in (min, max) if v is not None]
    dt = torch_result_type(a, *bounds)
    x = _arr(a, dt)
    if min is not None:
        x = np.maximum(x, _arr(min, dt))
    if max is not None:
        x = np.minimum(x, _arr(max, dt))
    return x


_register(["clamp", "clip"])(_clamp)
_register(["clamp_", "clip_"], method=True)(_inplace(_clamp))
reference("clamp_min")(lambda a, m: _clamp(a, min=m))
reference("clamp_min_", method=True)(_inplace(lambda a, m: _clamp(a, min=m)))
reference("clamp_max")(lambda a, m: _clamp(a, max=m))
reference("clamp_max_", method=True)(_inplace(lambda a, m: _clamp(a, max=m)))


# ---- unary math

def _float_unary(fn):
    """A floating op: ints and bool give float32; computed in float64 / complex128."""
    def ref(a):
        dt = _floating(a.dtype)
        with np.errstate(all="ignore"):
            return _arr(fn(a.astype(_wide(dt))), dt)
    return ref


def _vectorized(scalar_fn):
    return np.vectorize(scalar_fn, otypes=[np.float64])


def _erfinv_scalar(y):
    if not abs(y) <= 1:
        return math.nan
    if abs(y) == 1:
        return math.copysign(math.inf, y)
    # bisection, on erfc in the tails where erf(x) cannot resolve x
    target, lo, hi = abs(y), 0.0, 6.0
    for _ in range(200):
        mid = (lo + hi) / 2
        below = math.erf(mid) < target if target <= 0.5 else math.erfc(mid) > 1 - target
        lo, hi = (mid, hi) if below else (lo, mid)
    return math.copysign((lo + hi) / 2, y)


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


_FLOAT_OPS = {
    "sqrt": np.sqrt, "rsqrt": lambda x: 1 / np.sqrt(x), "reciprocal": lambda x: 1 / x,
    "exp": np.exp, "exp2": np.exp2, "expm1": np.expm1, "log": np.log, "log2": np.log2,
    "log10": np.log10, "log1p": np.log1p, "sin": np.sin, "cos": np.cos, "tan": np.tan,
    "asin": np.arcsin, "acos": np.arccos, "atan": np.arctan, "sinh": np.sinh, "cosh": np.cosh,
    "tanh": np.tanh, "asinh": np.arcsinh, "acosh": np.arccosh, "atanh": np.arctanh,
    "sigmoid": _sigmoid,
}
_REAL_FLOAT_OPS = {"erf": _vectorized(math.erf), "erfc": _vectorized(math.erfc),
                   "erfinv": _vectorized(_erfinv_scalar)}

for _name, _fn in _FLOAT_OPS.items():
    reference(_name)(_float_unary(_fn))
    reference(_name + "_", method=True, skip_dtypes=NOT_FLOAT)(_inplace(_float_unary(_fn)))
for _name, _fn in _REAL_FLOAT_OPS.items():
    reference(_name, skip_dtypes=("complex64",))(_float_unary(_fn))
    reference(_name + "_", method=True, skip_dtypes=NOT_FLOAT + ("complex64",))(_inplace(_float_unary(_fn)))


def _same_dtype(fn):
    def ref(a):
        with np.errstate(all="ignore"):
            if a.dtype.kind in "fc":
                return _arr(fn(a.astype(_wide(a.dtype))), a.dtype)
            return _arr(fn(a), a.dtype)
    return ref


def _abs(a):
    if a.dtype.kind == "c":
        return np.abs(a.astype(C128)).astype(F32)
    return np.abs(a)


def _sign(a):
    return a.copy() if a.dtype == np.bool_ else _same_dtype(np.sign)(a)


def _sgn(a):
    if a.dtype.kind != "c":
        return _sign(a)
    z = a.astype(C128)
    with np.errstate(all="ignore"):
        return np.where(z == 0, 0, z / np.abs(z)).astype(C64)


def _integral_identity(fn):
    """Rounding ops return integer inputs unchanged."""
    def ref(a):
        return a.copy() if a.dtype.kind in "iu" else _same_dtype(fn)(a)
    return ref


_SAME_OPS = [
    (("neg", "negative"), _same_dtype(np.negative), ("bool",)),
    (("abs", "absolute"), _abs, ("bool",)),
    (("sign",), _sign, ("complex64",)),
    (("sgn",), _sgn, ()),
    (("floor",), _integral_identity(np.floor), ("bool", "complex64")),
    (("ceil",), _integral_identity(np.ceil), ("bool", "complex64")),
    (("trunc", "fix"), _integral_identity(np.trunc), ("bool", "complex64")),
    (("frac",), _same_dtype(lambda x: x - np.trunc(x)), NOT_FLOAT + ("complex64",)),
    (("bitwise_not",), lambda a: ~a, FLOATS + ("complex64",)),
]
for _names, _fn, _skip in _SAME_OPS:
    for _name in _names:
        reference(_name, skip_dtypes=_skip)(_fn)
        reference(_name + "_", method=True, skip_dtypes=_skip + (("complex64",) if _name in ("abs", "absolute") else ()))(
            _inplace(_fn))


def _round(a, decimals=0):
    if a.dtype.kind in "iu":
        return a.copy()
    c = _kernel(a.dtype)
    x = a.astype(c)
    with np.errstate(all="ignore"):
        if decimals == 0:
            r = np.rint(x)
        elif decimals > 0:
            p = c.type(10.0 ** decimals)
            r = np.rint(x * p) / p
        else:
            p = c.type(10.0 ** -decimals)
            r = np.rint(x / p) * p
    return r.astype(a.dtype)


reference("round")(_round)
reference("round_", method=True)(_round)


def _logit(a, eps=None):
    dt = _floating(a.dtype)
    x = a.astype(F64)
    if eps is not None:
        e = float(np.asarray(eps).astype(_kernel(dt)))
        x = np.clip(x, e, 1 - e)
    with np.errstate(all="ignore"):
        return _arr(np.log(x / (1 - x)), dt)


reference("logit")(_logit)
reference("logit_", method=True)(_logit)


def _nan_to_num(a, nan=0.0, posinf=None, neginf=None):
    if a.dtype.kind in "biu":
        return a.copy()
    with np.errstate(all="ignore"):
        return np.nan_to_num(a, nan=nan, posinf=posinf, neginf=neginf)


reference("nan_to_num")(_nan_to_num)
reference("nan_to_num_", method=True)(_nan_to_num)


def _angle(a):
    if a.dtype.kind == "c":
        return np.angle(a.astype(C128)).astype(F32)
    x = a.astype(_floating(a.dtype))
    return np.where(np.isnan(x), x, np.where(x < 0, np.pi, 0.0)).astype(x.dtype)


reference("positive", skip_dtypes=("bool",))(lambda a: a)
reference("angle")(_angle)
reference("real")(lambda a: a.real.astype(F32) if a.dtype.kind == "c" else a)
reference("imag")(lambda a: a.imag.astype(F32))
reference("conj")(lambda a: np.conj(a) if a.dtype.kind == "c" else a)


# ---- comparisons, logical and bitwise ops

def _compare(fn):
    def ref(a, b):
        dt = torch_result_type(a, b)
        return fn(_arr(a, dt), _arr(b, dt))
    return ref


_COMPARISONS = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
                "gt": np.greater, "ge": np.greater_equal}
_ALIASES = {"not_equal": "ne", "less": "lt", "less_equal": "le", "greater": "gt", "greater_equal": "ge"}
for _name, _fn in _COMPARISONS.items():
    reference(_name)(_compare(_fn))
    reference(_name + "_", method=True)(_inplace(_compare(_fn)))
for _alias, _name in _ALIASES.items():
    reference(_alias)(_compare(_COMPARISONS[_name]))


def _logical(fn):
    def ref(a, b):
        return fn(np.asarray(a) != 0, np.asarray(b) != 0)
    return ref


for _name, _fn in [("logical_and", np.logical_and), ("logical_or", np.logical_or), ("logical_xor", np.logical_xor)]:
    reference(_name)(_logical(_fn))
    reference(_name + "_", method=True)(_inplace(_logical(_fn)))
reference("logical_not")(lambda a: a == 0)
reference("logical_not_", method=True)(_inplace(lambda a: a == 0))


def _bitwise(fn):
    def ref(a, b):
        dt = torch_result_type(a, b)
        return fn(_arr(a, dt), _arr(b, dt))
    return ref


def _shift(left):
    """PyTorch's shifts: by the bit width or more (or a negative amount) to the left gives 0;
    to the right, the sign fill."""
    def ref(a, b):
        dt = torch_result_type(a, b)
        x, s = _arr(a, dt), _arr(b, dt)
        bits = dt.itemsize * 8
        out_of_range = (s < 0) | (s >= bits)
        amount = np.where(out_of_range, 0, s).astype(dt)
        with np.errstate(all="ignore"):
            if left:
                return np.where(out_of_range, 0, np.left_shift(x, amount)).astype(dt)
            fill = x >> (bits - 1) if dt.kind == "i" else np.zeros_like(x)
            return np.where(out_of_range, fill, np.right_shift(x, amount)).astype(dt)
    return ref


for _name, _fn in [("bitwise_and", np.bitwise_and), ("bitwise_or", np.bitwise_or), ("bitwise_xor", np.bitwise_xor)]:
    reference(_name)(_bitwise(_fn))
    reference(_name + "_", method=True)(_inplace(_bitwise(_fn)))
for _name, _left in [("bitwise_left_shift", True), ("bitwise_right_shift", False)]:
    reference(_name)(_shift(_left))
    reference(_name + "_", method=True)(_inplace(_shift(_left)))


def _isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """PyTorch's formula, step by step in the dtypes PyTorch computes in: finite |a - b| within
    atol + |rtol * b|, or a == b, or both NaN with equal_nan."""
    close = np.asarray(a == b)
    if equal_nan and a.dtype.kind == "f":
        close = close | (np.isnan(a) & np.isnan(b))
    if rtol == 0 and atol == 0:
        return close
    if a.dtype == np.bool_:
        a, b = a.astype(F32), b.astype(F32)
    with np.errstate(all="ignore"):
        ft = a.dtype if a.dtype.kind in "fc" else F32
        scaled = np.abs((_kernel(ft).type(rtol) * b.astype(_kernel(ft))).astype(ft))
        allowed = (_kernel(scaled.dtype).type(atol) + scaled.astype(_kernel(scaled.dtype))).astype(scaled.dtype)
        actual = np.abs((a.astype(_kernel(a.dtype)) - b.astype(_kernel(a.dtype))).astype(a.dtype))
        ct = _kernel(torch_result_type(np.asarray(actual), np.asarray(allowed)))
        return close | (np.isfinite(actual) & (actual.astype(ct) <= allowed.astype(ct)))


reference("isclose")(_isclose)
reference("allclose", compare=lambda ours, expected: _expect_bool(ours, expected))(
    lambda a, b, **kw: bool(np.all(_isclose(a, b, **kw))))


def _expect_bool(ours, expected):
    assert isinstance(ours, bool), f"expected a Python bool, got {type(ours)}"
    assert ours == expected, f"{ours} != {expected}"


def _equal(a, b):
    if np.shape(a) != np.shape(b):
        return False
    dt = torch_result_type(a, b)
    return bool(np.array_equal(_arr(a, dt), _arr(b, dt)))


reference("equal", compare=_expect_bool)(_equal)


# ---- predicates

def _predicate(fn, integral_value=False):
    def ref(a):
        if a.dtype.kind in "biu":
            return np.full(a.shape, integral_value)
        return np.asarray(fn(a))
    return ref


reference("isnan")(_predicate(np.isnan))
reference("isinf")(_predicate(np.isinf))
reference("isfinite")(_predicate(np.isfinite, True))
reference("isposinf", skip_dtypes=("complex64",))(_predicate(np.isposinf))
reference("isneginf", skip_dtypes=("complex64",))(_predicate(np.isneginf))
reference("isreal")(lambda a: np.asarray(np.isreal(a)) if a.dtype.kind == "c" else np.ones(a.shape, bool))
reference("signbit", skip_dtypes=("complex64",))(
    lambda a: np.asarray(np.signbit(a)) if a.dtype.kind == "f" else np.asarray(a < 0) if a.dtype.kind == "i"
    else np.zeros(a.shape, bool))
