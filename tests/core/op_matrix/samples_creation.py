"""Sample kinds of the creation family's deterministic factories (eye, linspace, logspace,
*_like). Random factories are checked against torch in tests/parity/test_random_parity.py."""
from .registry import Case, sample
from .samples import ALL_DTYPES, NUMERIC, UNARY_SHAPES, random_array

FLOAT_AND_INT = ["float32", "float64", "float16", "int64", "int32", "uint8", "int8"]


@sample("eye")
def eye(rng):
    cases = [Case((n,), label=f"n={n}") for n in [0, 1, 3]]
    cases += [Case((n, m), label=f"{n}x{m}") for n, m in [(2, 4), (4, 2), (3, 0), (0, 3), (3, 3)]]
    cases += [Case((3,), {"dtype": d}, label=d) for d in ALL_DTYPES]
    cases.append(Case((2, None), label="m=None"))
    return cases


@sample("linspace")
def linspace(rng):
    cases = [Case((0, 1, n), label=f"0..1 x{n}") for n in [0, 1, 2, 5, 10, 101]]
    cases += [Case((-3.5, 7.25, 9), label="floats"), Case((10, -10, 7), label="descending"),
              Case((2, 2, 4), label="constant"), Case((0.5, 10.5, 11), {"dtype": "int64"}, label="int truncation")]
    cases += [Case((-4, 20, 7), {"dtype": d}, label=d) for d in FLOAT_AND_INT]
    return cases


@sample("logspace")
def logspace(rng):
    cases = [Case((0, 3, n), label=f"x{n}") for n in [0, 1, 4, 10]]
    cases += [Case((-2, 2, 5, 2.0), label="base 2"), Case((1, -1, 5), label="descending")]
    cases += [Case((0, 3, 4), {"dtype": d}, label=d) for d in ["float32", "float64", "int64", "int32"]]
    return cases


@sample("like")
def like(rng):
    cases = [Case((random_array(rng, s, d),), label=f"{d}{s}") for d in ALL_DTYPES for s in UNARY_SHAPES]
    cases += [Case((random_array(rng, (2, 3), "int32"),), {"dtype": d}, label=f"->{d}") for d in ALL_DTYPES]
    return cases


@sample("full_like")
def full_like(rng):
    cases = [Case((random_array(rng, s, d), 3), label=f"{d}{s}") for d in NUMERIC for s in UNARY_SHAPES]
    cases += [Case((random_array(rng, (2, 3), "int64"), 2.5), label="int keeps dtype"),
              Case((random_array(rng, (2, 3), "float32"), True), label="bool value"),
              Case((random_array(rng, (2, 3), "int64"), 2.5), {"dtype": "float64"}, label="->float64")]
    return cases
