"""Sample kinds: named recipes for op inputs."""
import numpy as np

from .registry import Case, sample

ALL_DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64", "complex64"]
NUMERIC = ["uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64"]
FLOATS = ["float16", "float32", "float64"]

# Shapes every elementwise kind covers: 0-d, empty, vectors, matrices, 3-d.
UNARY_SHAPES = [(), (0,), (5,), (3, 4), (2, 3, 4)]
# Broadcasting pairs.
BINARY_SHAPES = [((), ()), ((5,), (5,)), ((3, 4), (3, 4)), ((3, 1), (1, 4)), ((), (2, 3)),
                 ((2, 3, 4), (4,)), ((0, 3), (1, 3)), ((4, 1, 3), (2, 1))]


def random_array(rng, shape, dtype, low=-5, high=5):
    """Random values of a dtype, always as an ndarray (0-d included)."""
    return np.asarray(_random_values(rng, shape, dtype, low, high), dtype=dtype)


def _random_values(rng, shape, dtype, low, high):
    if dtype == "bool":
        return rng.random(shape) < 0.5
    if dtype == "uint8":
        return rng.integers(0, 20, shape).astype(np.uint8)
    if dtype.startswith("int"):
        return rng.integers(low, high + 1, shape).astype(dtype)
    if dtype == "complex64":
        return (rng.uniform(low, high, shape) + 1j * rng.uniform(low, high, shape)).astype(np.complex64)
    return rng.uniform(low, high, shape).astype(dtype)


@sample("unary_any")
def unary_any(rng):
    return [Case((random_array(rng, s, d),), label=f"{d}{s}") for d in ALL_DTYPES for s in UNARY_SHAPES]


@sample("binary_arith")
def binary_arith(rng):
    cases = []
    for d in NUMERIC + ["complex64"]:
        for sa, sb in BINARY_SHAPES:
            a = random_array(rng, sa, d)
            b = random_array(rng, sb, d)
            if d not in ("float16", "float32", "float64", "complex64"):
                b = np.where(b == 0, 1, b).astype(d)  # integer division by zero is its own test
            cases.append(Case((a, b), label=f"{d}{sa}{sb}"))
    # mixed dtypes and Python numbers exercise type promotion
    cases.append(Case((random_array(rng, (3,), "int64"), random_array(rng, (3,), "float32")), label="i64+f32"))
    cases.append(Case((random_array(rng, (3,), "uint8"), random_array(rng, (3,), "int8")), label="u8+i8"))
    cases.append(Case((random_array(rng, (2, 3), "float32"), 2.5), label="tensor+float"))
    cases.append(Case((random_array(rng, (2, 3), "int32"), 3), label="tensor+int"))
    return cases


@sample("binary_inplace")
def binary_inplace(rng):
    # self keeps its shape and dtype; other broadcasts to it and does not widen it.
    cases = []
    for d in NUMERIC:
        for sa, sb in [((), ()), ((3, 4), (3, 4)), ((3, 4), (4,)), ((2, 3), ()), ((0, 2), (2,))]:
            b = random_array(rng, sb, d)
            b = np.where(b == 0, 1, b).astype(d)
            cases.append(Case((random_array(rng, sa, d), b), label=f"{d}{sa}{sb}"))
    cases.append(Case((random_array(rng, (2, 3), "float32"), random_array(rng, (3,), "int64")), label="f32<-i64"))
    return cases


@sample("unary_inplace")
def unary_inplace(rng):
    return [Case((random_array(rng, s, d), 3), label=f"{d}{s}") for d in NUMERIC for s in UNARY_SHAPES]


@sample("factory")
def factory(rng):
    return [Case((s,), {"dtype": d}, label=f"{d}{s}") for s in [(), (0,), (3,), (2, 3)] for d in [None] + ALL_DTYPES]


@sample("factory_fill")
def factory_fill(rng):
    return [Case(((2, 3), v), {"dtype": d}, label=f"{v}{d}") for v in [0, 7, -2.5, True] for d in [None, "float64", "int32"]]


@sample("arange")
def arange(rng):
    return [Case(args, label=str(args)) for args in [(5,), (0,), (2, 9), (2, 9, 3), (10, 0, -3), (0.5, 3.0), (0, 1, 0.25)]]


@sample("reshape")
def reshape(rng):
    cases = []
    for d in ["float32", "int64", "bool"]:
        for shape, target in [((6,), (2, 3)), ((2, 3), (-1,)), ((2, 3, 4), (4, -1)), ((), (1,)), ((0, 3), (3, 0)), ((4,), (1, 4, 1))]:
            cases.append(Case((random_array(rng, shape, d), target), label=f"{d}{shape}->{target}"))
    return cases


@sample("permute")
def permute(rng):
    return [Case((random_array(rng, s, "float32"), p), label=f"{s}{p}")
            for s, p in [((2, 3), (1, 0)), ((2, 3, 4), (2, 0, 1)), ((2, 3, 4), (-1, 0, 1)), ((), ())]]


@sample("transpose")
def transpose(rng):
    return [Case((random_array(rng, s, d), a, b), label=f"{d}{s}{a}{b}")
            for d in ["float32", "int8"] for s, a, b in [((2, 3), 0, 1), ((2, 3, 4), -1, 0), ((5,), 0, 0), ((2, 3, 4), 1, 1)]]


@sample("expand")
def expand(rng):
    return [Case((random_array(rng, s, "float32"), t), label=f"{s}{t}")
            for s, t in [((3, 1), (3, 4)), ((1,), (2, 5)), ((), (3,)), ((2, 1), (-1, 3)), ((1, 3), (0, 3))]]
