"""Sample kinds of the nn activation family (ops/op_table_activation.cpp)."""
import numpy as np

from .registry import Case, sample
from .samples import UNARY_SHAPES, random_array

FLOATS = ["float16", "float32", "float64"]
INTS = ["uint8", "int8", "int16", "int32", "int64"]
INPLACE_SHAPES = [(), (0,), (3, 4), (2, 3, 4)]


def _cases(rng, dtypes, shapes, extra=()):
    cases = [Case((random_array(rng, s, d, -4, 4),) + tuple(extra), label=f"{d}{s}") for d in dtypes for s in shapes]
    return cases


def _kinks(*values):
    """Exact kink points (and NaN) in float32 and float64."""
    return [Case((np.array(list(values) + [np.nan], dtype=d),), label=f"kinks {d}") for d in ("float32", "float64")]


@sample("act_relu")
def act_relu(rng):
    return [c for c in _cases(rng, FLOATS + INTS, UNARY_SHAPES)] + _kinks(-1.0, -0.0, 0.0, 2.0)


@sample("act_relu_inplace")
def act_relu_inplace(rng):
    return _cases(rng, FLOATS + INTS, INPLACE_SHAPES)


def _with(cases, *extra):
    return [Case(c.args + extra, c.kwargs, c.label) for c in cases]


@sample("act_threshold")
def act_threshold(rng):
    cases = _with(_cases(rng, FLOATS, UNARY_SHAPES), 0.5, -2.0)
    cases += _with(_cases(rng, ["int32", "int64", "uint8"], [(3, 4)]), 1, 7)
    cases += _with(_kinks(0.5, 1.0, -3.0), 0.5, 20.0)
    return cases


@sample("act_float")
def act_float(rng):
    return _cases(rng, FLOATS, UNARY_SHAPES) + _kinks(-20.0, 0.0, 1e-4, 30.0)


@sample("act_celu")
def act_celu(rng):
    return _with(_cases(rng, FLOATS, UNARY_SHAPES), 1.5) + _with(_cases(rng, ["float64"], [(5,)]), 0.3)


@sample("act_shrink")
def act_shrink(rng):
    cases = _cases(rng, FLOATS, UNARY_SHAPES)
    cases += [Case(c.args + (1.5,), label=c.label + " lambd=1.5") for c in _cases(rng, ["float64"], [(3, 4)])]
    return cases + _kinks(-0.5, 0.5, 0.25)


@sample("act_prelu")
def act_prelu(rng):
    cases = []
    for d in FLOATS:
        x = random_array(rng, (2, 3, 4), d)
        cases.append(Case((x, np.array([0.25], dtype=d)), label=f"{d} one weight"))
        cases.append(Case((x, rng.uniform(-1, 1, 3).astype(d)), label=f"{d} per channel"))
    cases.append(Case((random_array(rng, (5,), "float64"), np.array([0.1])), label="1-d"))
    cases.append(Case((random_array(rng, (), "float32"), np.array([0.3], np.float32)), label="0-d"))
    cases.append(Case((random_array(rng, (2, 3), "float64"), rng.uniform(-1, 1, 3)), label="2-d"))
    cases.append(Case((random_array(rng, (0, 3, 2), "float32"), np.array([0.3, 0.2, 0.1], np.float32)), label="empty"))
    return cases
