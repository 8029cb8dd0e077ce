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


def _inplace_of(kind_cases):
    """In-place forms take float inputs of the in-place shapes, with the same extra arguments."""
    def make(rng):
        extra = kind_cases(rng)[0].args[1:]
        return _with(_cases(rng, FLOATS, INPLACE_SHAPES), *extra)
    return make


@sample("act_leaky_relu")
def act_leaky_relu(rng):
    return _cases(rng, FLOATS, UNARY_SHAPES) + _with(_cases(rng, ["float64"], [(3, 4)]), 0.2) + _kinks(-1.0, 0.0)


@sample("act_elu")
def act_elu(rng):
    return (_cases(rng, FLOATS, UNARY_SHAPES) + _with(_cases(rng, ["float64"], [(3, 4)]), 1.5, 0.5, 2.0)
            + _kinks(-30.0, -0.0, 0.0, 1e-5))


@sample("act_hardtanh")
def act_hardtanh(rng):
    return _cases(rng, FLOATS, UNARY_SHAPES) + _with(_cases(rng, ["float64"], [(3, 4)]), -0.5, 2.0) + _kinks(-1.0, 1.0)


@sample("act_gelu")
def act_gelu(rng):
    cases = _cases(rng, FLOATS, UNARY_SHAPES) + _kinks(-40.0, -5.0, 0.0, 5.0)
    return cases + [Case(c.args, {"approximate": "tanh"}, c.label + " tanh") for c in _cases(rng, FLOATS, [(3, 4)])]


@sample("act_softplus")
def act_softplus(rng):
    return (_cases(rng, FLOATS, UNARY_SHAPES) + _with(_cases(rng, ["float64"], [(3, 4)]), 2.0, 3.0)
            + _kinks(-100.0, 0.0, 19.0, 21.0))


for _kind, _make in [("act_float", act_float), ("act_threshold", act_threshold), ("act_celu", act_celu),
                     ("act_leaky_relu", act_leaky_relu), ("act_elu", act_elu), ("act_hardtanh", act_hardtanh)]:
    sample(_kind + "_inplace")(_inplace_of(_make))


@sample("dropout_apply")
def dropout_apply(rng):
    # (self, mask, scale[, shift, fill]): masks of the input's shape and broadcast (feature) masks.
    cases = []
    for d in FLOATS:
        x = random_array(rng, (2, 3, 4), d, -4, 4)
        cases.append(Case((x, rng.random((2, 3, 4)) < 0.6, 2.5), label=f"{d} elementwise"))
        cases.append(Case((x, rng.random((2, 3, 1)) < 0.6, 1.25), label=f"{d} feature mask"))
        cases.append(Case((x, rng.random((2, 3, 4)) < 0.6, 0.8, 0.3, -1.1), label=f"{d} alpha"))
    cases.append(Case((np.array([np.nan, 1.0, np.inf]), np.array([False, True, False]), 2.0), label="x * 0 keeps NaN"))
    return cases


@sample("dropout_apply_inplace")
def dropout_apply_inplace(rng):
    return dropout_apply(rng)
