"""Sample kinds of the elementwise family (ops/elementwise.h, unary.h, compare.h).

Every kind covers 0-d, empty, broadcast shapes and the dtypes its ops accept; test_op_matrix
adds transposed and strided layouts. Python numbers stand for themselves (wrapped numbers).
"""
import numpy as np

from .registry import Case, sample
from .samples import BINARY_SHAPES, UNARY_SHAPES, random_array

BOOL = ["bool"]
INTS = ["uint8", "int8", "int16", "int32", "int64"]
FLOATS = ["float16", "float32", "float64"]
COMPLEX = ["complex64"]
REAL = BOOL + INTS + FLOATS
ALL = REAL + COMPLEX
# Mixed-dtype pairs: every ordered pair of distinct dtypes from this list, on one shape each.
PAIR_DTYPES = ["bool", "uint8", "int8", "int32", "int64", "float16", "float32", "float64", "complex64"]
# Python numbers of each kind, on either side.
NUMBERS = [2, -3, 2.5, True]


def _nonzero(a):
    """Integer and bool arrays with zeros replaced by ones (division-by-zero is tested by hand)."""
    if a.dtype.kind in "biu":
        return np.where(a == 0, 1, a).astype(a.dtype)
    return a


def _pairs(rng, dtypes, nonzero=False, numbers=NUMBERS, complex_numbers=True):
    fix = _nonzero if nonzero else (lambda a: a)
    cases = []
    for d in dtypes:
        for sa, sb in BINARY_SHAPES:
            cases.append(Case((random_array(rng, sa, d), fix(random_array(rng, sb, d))), label=f"{d}{sa}{sb}"))
    pair_dtypes = [d for d in PAIR_DTYPES if d in dtypes]
    for da in pair_dtypes:
        for db in pair_dtypes:
            if da != db:
                cases.append(Case((random_array(rng, (2, 3), da), fix(random_array(rng, (3,), db))), label=f"{da}+{db}"))
    # 0-d tensors against tensors with dims: the 0-d one only wins with a higher category
    for da, db in [("int32", "float64"), ("float32", "float64"), ("uint8", "int64"), ("float16", "int64")]:
        if da in dtypes and db in dtypes:
            cases.append(Case((random_array(rng, (4,), da), fix(random_array(rng, (), db))), label=f"{da}+0d{db}"))
            cases.append(Case((fix(random_array(rng, (), db)), random_array(rng, (4,), da)), label=f"0d{db}+{da}"))
    for d in dtypes:
        for n in numbers:
            if nonzero and n == 0:
                continue
            cases.append(Case((random_array(rng, (2, 3), d), n), label=f"{d}+{n!r}"))
            if d in ("int32", "float32", "bool"):
                cases.append(Case((n, fix(random_array(rng, (2, 3), d))), label=f"{n!r}+{d}"))
    if complex_numbers and "complex64" in dtypes:
        cases.append(Case((random_array(rng, (3,), "float32"), 1 - 2j), label="f32+complex"))
    return cases


@sample("ew_binary")
def ew_binary(rng):
    return _pairs(rng, ALL)


@sample("ew_binary_real")
def ew_binary_real(rng):
    return _pairs(rng, REAL)


@sample("ew_binary_nonzero")
def ew_binary_nonzero(rng):
    # integer division ops: no bool/bool (unsupported), no complex, nonzero integer divisors
    cases = [c for c in _pairs(rng, INTS + FLOATS + BOOL, nonzero=True)
             if not all(isinstance(x, np.ndarray) and x.dtype == np.bool_ or isinstance(x, bool)
                        for x in c.args)]
    a = np.array([-7, 7, -7, 7, 0, 5, -5, 100], dtype=np.int64)
    b = np.array([2, 2, -2, -2, 3, -1, 1, -7], dtype=np.int64)
    cases.append(Case((a, b), label="signs"))
    cases.append(Case((a.astype(np.float32), b.astype(np.float32)), label="float signs"))
    cases.append(Case((np.array([5.0, -5.0, 0.5, -0.5], np.float64), np.array([np.inf, np.inf, -np.inf, 0.25])), label="inf"))
    return cases


@sample("ew_binary_float")
def ew_binary_float(rng):
    return _pairs(rng, FLOATS, numbers=[2.5, -3.0, 4])


def _with_alpha(rng, dtypes):
    cases = _pairs(rng, dtypes)
    for d, alpha in [("float32", 2.5), ("float64", -0.5), ("int64", 3), ("int16", -2), ("float16", 0.5),
                     ("complex64", 2), ("uint8", 2)]:
        if d in dtypes:
            cases.append(Case((random_array(rng, (3, 4), d), random_array(rng, (4,), d)), {"alpha": alpha},
                              label=f"{d} alpha={alpha}"))
    if "complex64" in dtypes:
        cases.append(Case((random_array(rng, (3,), "complex64"), random_array(rng, (3,), "float32")),
                          {"alpha": 1 - 1j}, label="complex alpha"))
    return cases


@sample("ew_alpha")
def ew_alpha(rng):
    return _with_alpha(rng, ALL)


@sample("ew_sub")
def ew_sub(rng):
    # no bool operands at all: subtraction with a bool tensor or number is an error
    cases = _with_alpha(rng, INTS + FLOATS + COMPLEX)
    return [c for c in cases if not any(isinstance(x, bool) for x in c.args)]


@sample("ew_div")
def ew_div(rng):
    cases = []
    for c in ew_binary_nonzero(rng):
        cases.append(c)
        for mode in ("trunc", "floor"):
            cases.append(Case(c.args, {"rounding_mode": mode}, label=f"{c.label} {mode}"))
    # true division of bool, complex and integer zero divisors
    cases.append(Case((random_array(rng, (4,), "bool"), random_array(rng, (4,), "bool")), label="bool/bool"))
    cases.append(Case((random_array(rng, (3,), "complex64"), random_array(rng, (3,), "complex64")), label="c/c"))
    cases.append(Case((np.array([1, -1, 0, 4]), np.array([0, 0, 0, 2])), label="int/0"))
    return cases


@sample("ew_pow")
def ew_pow(rng):
    cases = []
    for d in INTS:
        base = random_array(rng, (3, 4), d, -3, 3) if d != "uint8" else rng.integers(0, 4, (3, 4)).astype(d)
        cases.append(Case((base, rng.integers(0, 4, (4,)).astype(d)), label=f"{d}**{d}"))
        cases.append(Case((base, 3), label=f"{d}**3"))
    for d in FLOATS:
        base = rng.uniform(0.1, 3, (3, 4)).astype(d)
        cases.append(Case((base, rng.uniform(-2, 2, (4,)).astype(d)), label=f"{d}**{d}"))
        cases.append(Case((base, -1.5), label=f"{d}**-1.5"))
        cases.append(Case((base, -2), label=f"{d}**-2"))
        cases.append(Case((2, base), label=f"2**{d}"))
        cases.append(Case((np.array([-2.0, -0.5, 0.0, 3.0], d), np.array([3.0, 2.0, 2.0, 0.5], d)), label=f"neg {d}"))
    cases.append(Case((random_array(rng, (3,), "complex64", -2, 2), random_array(rng, (3,), "complex64", -1, 1)), label="c**c"))
    cases.append(Case((random_array(rng, (3,), "complex64", -2, 2), 2), label="c**2"))
    cases.append(Case((np.array([True, False]), 2), label="bool**2"))
    cases.append(Case((np.array([2, -1, 1, 0, 3]), np.array([-1, -3, -2, -1, 2])), label="int negative exps"))
    cases.append(Case((2, np.array([3, 0, 1])), label="2**int"))
    cases.append(Case((2.5, np.array([3, 0, -1])), label="2.5**int"))
    cases.append(Case((np.array([1, 2, 3]), 0.5), label="int**0.5"))
    cases.append(Case((random_array(rng, (), "float32", 0.5, 2), random_array(rng, (0,), "float32")), label="empty"))
    return cases


def _positive_other(cases):
    """Cases with the second operand made positive (log's domain, for xlogy's gradient)."""
    out = []
    for c in cases:
        a, b = c.args[0], c.args[1]
        if isinstance(b, np.ndarray) and b.dtype.kind in "fiu":
            b = (np.abs(b) + 1).astype(b.dtype)
        elif isinstance(b, (int, float)) and not isinstance(b, bool):
            b = abs(b) + 1
        out.append(Case((a, b) + tuple(c.args[2:]), c.kwargs, label=c.label))
    return out


@sample("ew_xlogy")
def ew_xlogy(rng):
    cases = _positive_other(_pairs(rng, REAL))
    cases.append(Case((np.array([0.0, 0.0, 1.5, -2.0]), np.array([-1.0, 0.0, 0.0, 3.0])), label="zeros"))
    return cases


@sample("ew_xlogy_inplace")
def ew_xlogy_inplace(rng):
    return _positive_other(ew_inplace_float(rng))


@sample("ew_bitwise")
def ew_bitwise(rng):
    return _pairs(rng, BOOL + INTS, numbers=[3, -2, True])


@sample("ew_shift")
def ew_shift(rng):
    cases = []
    for d in INTS:
        bits = np.dtype(d).itemsize * 8
        for sa, sb in BINARY_SHAPES:
            amount = rng.integers(0, bits, sb).astype(d)
            cases.append(Case((random_array(rng, sa, d), amount), label=f"{d}{sa}{sb}"))
        a = np.array([1, -1, 5, 100, -100, 7], dtype=np.int64).astype(d)
        over = np.array([bits, bits + 3, 200 % 256, 0, 1, bits - 1]).astype(d)
        cases.append(Case((a, over), label=f"{d} over-shift"))
        cases.append(Case((random_array(rng, (3,), d), 2), label=f"{d}<<2"))
    cases.append(Case((np.array([1, 2, 3]), np.array([-1, 63, 64])), label="negative shift"))
    cases.append(Case((np.array([True, False]), np.array([1, 2], np.int32)), label="bool<<int"))
    cases.append(Case((2, np.array([1, 2, 3], np.int8)), label="2<<int8"))
    return cases


@sample("ew_logical")
def ew_logical(rng):
    cases = _pairs(rng, ALL, numbers=[0, 2, 0.0, True])
    cases.append(Case((np.array([0j, 1j, 1 + 0j], np.complex64), np.array([1, 1, 0])), label="complex truth"))
    return cases


_RANK = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3}


def _castable(self_dtype, other_dtype):
    return _RANK[np.dtype(other_dtype).kind] <= _RANK[np.dtype(self_dtype).kind]


def _inplace_pairs(rng, self_dtypes, other_dtypes, nonzero=True, numbers=(2, True, 2.5)):
    cases = []
    for d in self_dtypes:
        for sa, sb in [((), ()), ((3, 4), (3, 4)), ((3, 4), (4,)), ((2, 3), ()), ((0, 2), (2,)), ((2, 3, 4), (3, 1))]:
            other = random_array(rng, sb, d)
            cases.append(Case((random_array(rng, sa, d), _nonzero(other) if nonzero else other), label=f"{d}{sa}{sb}"))
        for od in other_dtypes:
            if od != d and _castable(d, od):
                other = random_array(rng, (4,), od)
                cases.append(Case((random_array(rng, (3, 4), d), _nonzero(other) if nonzero else other), label=f"{d}<-{od}"))
        for n in numbers:
            kind = "b" if isinstance(n, bool) else "i" if isinstance(n, int) else "f"
            if _RANK[kind] <= _RANK[np.dtype(d).kind]:
                cases.append(Case((random_array(rng, (2, 3), d), n), label=f"{d}<-{n!r}"))
    return cases


@sample("ew_inplace")
def ew_inplace(rng):
    return _inplace_pairs(rng, ALL, PAIR_DTYPES)


@sample("ew_inplace_sub")
def ew_inplace_sub(rng):
    return _inplace_pairs(rng, INTS + FLOATS + COMPLEX, [d for d in PAIR_DTYPES if d != "bool"], numbers=(2, 2.5))


@sample("ew_inplace_div")
def ew_inplace_div(rng):
    cases = _inplace_pairs(rng, FLOATS + COMPLEX, PAIR_DTYPES)
    for c in _inplace_pairs(rng, INTS + FLOATS, INTS + FLOATS):
        cases.append(Case(c.args, {"rounding_mode": "trunc"}, label=c.label + " trunc"))
        cases.append(Case(c.args, {"rounding_mode": "floor"}, label=c.label + " floor"))
    return cases


@sample("ew_inplace_float")
def ew_inplace_float(rng):
    return _inplace_pairs(rng, FLOATS, BOOL + INTS + FLOATS)


@sample("ew_inplace_pow")
def ew_inplace_pow(rng):
    cases = []
    for d in FLOATS:
        cases.append(Case((rng.uniform(0.1, 3, (3, 4)).astype(d), rng.uniform(-2, 2, (4,)).astype(d)), label=d))
        cases.append(Case((rng.uniform(0.1, 3, (2, 3)).astype(d), 2), label=f"{d}**2"))
        cases.append(Case((rng.uniform(0.1, 3, (2, 3)).astype(d), np.array([1, 2, 3])), label=f"{d}**int"))
    for d in INTS:
        cases.append(Case((rng.integers(0, 4, (3, 4)).astype(d), rng.integers(0, 4, (4,)).astype(d)), label=d))
        cases.append(Case((rng.integers(0, 4, (3,)).astype(d), 3), label=f"{d}**3"))
    cases.append(Case((random_array(rng, (3,), "complex64", -2, 2), 2.5), label="c**2.5"))
    return cases


@sample("ew_inplace_f64")
def ew_inplace_f64(rng):
    return [Case((rng.uniform(0.1, 3, (3, 4)), rng.uniform(-2, 2, (4,))), label="f64**f64"),
            Case((rng.uniform(0.1, 3, (3,)), 2), label="f64**2"),
            Case((rng.uniform(0.1, 3, (3,)), np.array([1, 2, 3], np.int32)), label="f64**i32"),
            Case((rng.uniform(0.1, 3, ()), -0.5), label="0-d")]


@sample("ew_compare_inplace")
def ew_compare_inplace(rng):
    return _inplace_pairs(rng, REAL, [d for d in PAIR_DTYPES if d != "complex64"], nonzero=False)


@sample("ew_logical_inplace")
def ew_logical_inplace(rng):
    return _inplace_pairs(rng, ALL, PAIR_DTYPES, nonzero=False, numbers=(0, 2, True))


@sample("ew_bitwise_inplace")
def ew_bitwise_inplace(rng):
    return _inplace_pairs(rng, BOOL + INTS, BOOL + INTS, nonzero=False, numbers=(3, True))


@sample("ew_shift_inplace")
def ew_shift_inplace(rng):
    cases = []
    for d in INTS:
        bits = np.dtype(d).itemsize * 8
        cases.append(Case((random_array(rng, (3, 4), d), rng.integers(0, bits, (4,)).astype(d)), label=d))
        cases.append(Case((random_array(rng, (3,), d), 1), label=f"{d} by 1"))
    return cases


# ---- unary kinds


def _unary(rng, dtypes, low, high, shapes=UNARY_SHAPES):
    cases = []
    for d in dtypes:
        for s in shapes:
            if d in INTS:
                lo, hi = (max(int(np.ceil(low)), 0 if d == "uint8" else -128), int(np.floor(high)))
                cases.append(Case((rng.integers(lo, max(hi, lo) + 1, s).astype(d),), label=f"{d}{s}"))
            else:
                cases.append(Case((random_array(rng, s, d, low, high),), label=f"{d}{s}"))
    return cases


@sample("ew_unary")
def ew_unary(rng):
    return _unary(rng, ALL, -5, 5)


@sample("ew_unary_pos")
def ew_unary_pos(rng):
    cases = _unary(rng, ALL, 0.1, 5)
    cases.append(Case((np.array([1.0, 1e-3, 0.5, 2.0, 1e4], np.float32),), label="spread"))
    return cases


@sample("ew_unary_ge1")
def ew_unary_ge1(rng):
    # acosh's domain: x >= 1 (x == 1 is its kink-free but infinite-slope end, kept out)
    return _unary(rng, ALL, 1.1, 5)


@sample("ew_unary_ge1_inplace")
def ew_unary_ge1_inplace(rng):
    return _unary(rng, ALL, 1.1, 5, shapes=[(), (0,), (3, 4), (2, 3, 4)])


@sample("ew_unary_unit")
def ew_unary_unit(rng):
    cases = _unary(rng, ALL, -0.95, 0.95)
    cases.append(Case((np.array([-0.999, -0.5, 0.0, 0.3, 0.9999], np.float64),), label="tails"))
    cases.append(Case((np.array([-0.999, -0.5, 0.0, 0.3, 0.9999], np.float32),), label="tails f32"))
    return cases


@sample("ew_unary_integral")
def ew_unary_integral(rng):
    return _unary(rng, BOOL + INTS, -100, 100)


@sample("ew_unary_complex")
def ew_unary_complex(rng):
    return _unary(rng, COMPLEX, -5, 5)


@sample("ew_unary_special")
def ew_unary_special(rng):
    special = np.array([0.0, -0.0, 1.5, -2.0, np.nan, np.inf, -np.inf, 1e-40])
    cases = [Case((special.astype(d),), label=f"special {d}") for d in FLOATS]
    cases.append(Case((np.array([1 + 1j, complex(np.nan, 1), complex(1, np.inf), complex(-np.inf, 0)], np.complex64),),
                      label="special complex"))
    cases.extend(_unary(rng, BOOL + INTS, -5, 5, shapes=[(), (0,), (3, 4)]))
    cases.extend(_unary(rng, FLOATS, -5, 5, shapes=[(), (2, 3)]))
    return cases


@sample("ew_unary_inplace")
def ew_unary_inplace(rng):
    # values in (0.1, 0.9): inside every floating op's domain (acosh gives NaN, as it should)
    return _unary(rng, ALL, 0.1, 0.9, shapes=[(), (0,), (3, 4), (2, 3, 4)])


@sample("ew_round")
def ew_round(rng):
    cases = []
    ties = np.array([0.5, 1.5, 2.5, -0.5, -1.5, 1.25, 12.5, 1234.5, -0.0])
    for d in FLOATS:
        for s in UNARY_SHAPES:
            cases.append(Case((random_array(rng, s, d, -100, 100),), label=f"{d}{s}"))
            cases.append(Case((random_array(rng, s, d, -100, 100),), {"decimals": 2}, label=f"{d}{s} 2"))
        cases.append(Case((random_array(rng, (5,), d, -1000, 1000),), {"decimals": -1}, label=f"{d} -1"))
    for d in INTS:
        cases.append(Case((random_array(rng, (3, 4), d),), label=d))
    cases.append(Case((np.array([1.2345, 12.5, -0.125]),), {"decimals": 3}, label="3"))
    # ties (jumps of the step function) last: the gradient checks use the first cases
    cases.extend(Case((ties.astype(d),), label=f"ties {d}") for d in FLOATS)
    return cases


@sample("ew_round_inplace")
def ew_round_inplace(rng):
    return [c for c in ew_round(rng) if c.args[0].dtype.kind == "f"]


@sample("ew_logit")
def ew_logit(rng):
    cases = []
    for d in FLOATS:
        for s in UNARY_SHAPES:
            cases.append(Case((random_array(rng, s, d, 0.01, 0.99),), label=f"{d}{s}"))
        edge = np.array([0.0, 1.0, 0.05, 0.5, 0.97, 2.0, -1.0]).astype(d)
        cases.append(Case((edge,), label=f"edge {d}"))
        cases.append(Case((edge,), {"eps": 0.1}, label=f"eps {d}"))
    cases.append(Case((np.array([0, 1, 0]),), label="int"))
    return cases


@sample("ew_logit_inplace")
def ew_logit_inplace(rng):
    return [c for c in ew_logit(rng) if c.args[0].dtype.kind == "f"]


@sample("ew_nan_to_num")
def ew_nan_to_num(rng):
    special = np.array([np.nan, np.inf, -np.inf, 1.5, -0.0, 7.0])
    cases = []
    for d in FLOATS:
        cases.append(Case((special.astype(d),), label=d))
        cases.append(Case((special.astype(d),), {"nan": 1.0, "posinf": 2.0, "neginf": -3.0}, label=f"{d} custom"))
        cases.append(Case((special.astype(d).reshape(2, 3),), {"neginf": 5.0}, label=f"{d} neginf only"))
        cases.append(Case((random_array(rng, (0,), d),), label=f"{d} empty"))
    cases.append(Case((np.array([complex(np.nan, np.inf), 1 - 1j], np.complex64),), label="complex"))
    for d in BOOL + INTS:
        cases.append(Case((random_array(rng, (2, 3), d),), {"nan": 1.5}, label=d))
    return cases


@sample("ew_nan_to_num_inplace")
def ew_nan_to_num_inplace(rng):
    return [c for c in ew_nan_to_num(rng) if c.args[0].dtype.kind in "fc"]


@sample("ew_clamp")
def ew_clamp(rng):
    cases = []
    for d in INTS + FLOATS:
        for s in UNARY_SHAPES:
            x = random_array(rng, s, d)
            cases.append(Case((x, -2, 3), label=f"{d}{s} [-2, 3]"))
            cases.append(Case((x,), {"min": 1}, label=f"{d}{s} min"))
            cases.append(Case((x,), {"max": 2}, label=f"{d}{s} max"))
        cases.append(Case((random_array(rng, (3, 4), d),), {"min": -1.5, "max": 2.5}, label=f"{d} float bounds"))
        cases.append(Case((random_array(rng, (3, 4), d), random_array(rng, (4,), d), random_array(rng, (3, 1), d)),
                          label=f"{d} tensor bounds"))
        cases.append(Case((random_array(rng, (3, 4), d),), {"min": random_array(rng, (), d)}, label=f"{d} 0-d min"))
    cases.append(Case((np.array([1.0, np.nan, -np.inf, np.inf]), 0.0, 1.0), label="special"))
    cases.append(Case((np.array([1.0, 5.0]), 2.0, 1.0), label="min > max"))
    cases.append(Case((np.array([1, 5], np.uint8),), {"min": -1}, label="uint8 wraps bound"))
    cases.append(Case((np.array([1, 5]), np.array([2.5, 0.5], np.float32)), label="int with float tensor min"))
    cases.append(Case((np.array([True, False]), 0, 1), label="bool to int64"))
    return cases


@sample("ew_clamp_inplace")
def ew_clamp_inplace(rng):
    return [c for c in ew_clamp(rng) if "tensor min" not in c.label and "bool" not in c.label
            and not (c.args[0].dtype.kind in "iu" and "float" in c.label)]


@sample("ew_clamp_bound")
def ew_clamp_bound(rng):
    cases = []
    for d in INTS + FLOATS:
        cases.append(Case((random_array(rng, (3, 4), d), 1), label=f"{d} number"))
        cases.append(Case((random_array(rng, (3, 4), d), random_array(rng, (4,), d)), label=f"{d} tensor"))
        cases.append(Case((random_array(rng, (), d), -1), label=f"{d} 0-d"))
    cases.append(Case((np.array([1, 5, 3]), 2.5), label="int with float bound"))
    return cases


@sample("ew_clamp_bound_inplace")
def ew_clamp_bound_inplace(rng):
    return [c for c in ew_clamp_bound(rng) if "float bound" not in c.label]


@sample("ew_lerp")
def ew_lerp(rng):
    cases = []
    for d in FLOATS + COMPLEX:
        for sa, sb in BINARY_SHAPES:
            cases.append(Case((random_array(rng, sa, d), random_array(rng, sb, d), 0.3), label=f"{d}{sa}{sb}"))
        w = rng.uniform(-0.5, 1.5, (3, 1)).astype(d)
        cases.append(Case((random_array(rng, (3, 4), d), random_array(rng, (4,), d), w), label=f"{d} tensor weight"))
        cases.append(Case((random_array(rng, (2,), d), random_array(rng, (2,), d), 1), label=f"{d} w=1"))
    cases.append(Case((random_array(rng, (3,), "float32"), random_array(rng, (3,), "float32"),
                       np.array(0.75, np.float64)), label="0-d float64 weight"))
    return cases


@sample("ew_lerp_inplace")
def ew_lerp_inplace(rng):
    cases = []
    for d in FLOATS + COMPLEX:
        cases.append(Case((random_array(rng, (3, 4), d), random_array(rng, (4,), d), 0.6), label=d))
        cases.append(Case((random_array(rng, (3, 4), d), random_array(rng, (3, 4), d),
                           rng.uniform(0, 1, (4,)).astype(d)), label=f"{d} tensor weight"))
    return cases


@sample("ew_isclose")
def ew_isclose(rng):
    cases = []
    for d in ALL:
        for sa, sb in [((), ()), ((5,), (5,)), ((3, 4), (4,)), ((0,), (0,))]:
            a = random_array(rng, sa, d)
            b = random_array(rng, sb, d)
            cases.append(Case((a, b), label=f"{d}{sa}{sb}"))
        a = random_array(rng, (20,), d)
        if d in FLOATS + COMPLEX:
            b = (a * (1 + rng.uniform(-3e-5, 3e-5, a.shape))).astype(d)
            cases.append(Case((a, b), label=f"{d} near"))
            cases.append(Case((a, b), {"rtol": 1e-3, "atol": 0.0}, label=f"{d} rtol"))
        cases.append(Case((a, a), {"rtol": 0.0, "atol": 0.0}, label=f"{d} exact"))
        if d in INTS:
            cases.append(Case((a, (a + 1).astype(d)), {"atol": 1}, label=f"{d} atol=1"))
    special = np.array([1.0, np.nan, np.inf, -np.inf, np.inf, 0.0])
    other = np.array([1.0, np.nan, np.inf, -np.inf, -np.inf, 1e-9])
    cases.append(Case((special, other), label="special"))
    cases.append(Case((special.astype(np.float32), other.astype(np.float32)), {"equal_nan": True}, label="equal_nan"))
    return cases


@sample("ew_equal")
def ew_equal(rng):
    a = random_array(rng, (3, 4), "float32")
    return [Case((a, a.copy()), label="same"),
            Case((a, a + 1), label="different"),
            Case((a, a[:1]), label="shapes differ"),
            Case((np.array([1.0, 2.0]), np.array([1, 2])), label="promoted"),
            Case((np.array([np.nan]), np.array([np.nan])), label="nan"),
            Case((np.zeros((0, 3)), np.zeros((0, 3))), label="empty"),
            Case((np.array(3), np.array(3)), label="0-d"),
            Case((np.array([True, False]), np.array([True, False])), label="bool")]
