"""Sample kinds of the conversion family (dtype casts, copy_, item)."""
import numpy as np

from .registry import Case, sample
from .samples import ALL_DTYPES, UNARY_SHAPES, random_array

_SIGNED = ("int8", "int16", "int32", "int64", "float16", "float32", "float64", "complex64")


def _castable(rng, shape, src, dst):
    """Values of `src` whose cast to `dst` is defined (no negative float -> uint8)."""
    a = random_array(rng, shape, src)
    if dst == "uint8" and src in _SIGNED:
        a = np.abs(a.real) + 1j * a.imag if a.dtype.kind == "c" else np.abs(a)
    return np.asarray(a, dtype=src)


@sample("to_dtype")
def to_dtype(rng):
    return [Case((_castable(rng, s, src, dst),), {"dtype": dst}, label=f"{src}->{dst}{s}")
            for src in ALL_DTYPES for dst in ALL_DTYPES for s in [(), (0,), (3, 4)]]


@sample("type_as")
def type_as(rng):
    return [Case((_castable(rng, (2, 3), src, dst), random_array(rng, (1,), dst)), label=f"{src}->{dst}")
            for src in ALL_DTYPES for dst in ALL_DTYPES]


@sample("unary_nonneg")
def unary_nonneg(rng):
    return [Case((_castable(rng, s, d, "uint8"),), label=f"{d}{s}") for d in ALL_DTYPES for s in UNARY_SHAPES]


@sample("copy")
def copy(rng):
    # (destination, source): same and mixed dtypes, broadcasting sources, 0-d and empty.
    cases = []
    for dst, src in [("float32", "float32"), ("int64", "int64"), ("bool", "bool"),
                     ("float32", "int64"), ("int32", "float64"), ("float64", "bool"),
                     ("float16", "float32"), ("complex64", "float32"), ("float32", "complex64"),
                     ("uint8", "int16"), ("bool", "float32"), ("int8", "uint8")]:
        for sd, ss in [((3, 4), (3, 4)), ((3, 4), (4,)), ((3, 4), (3, 1)), ((2, 3), ()), ((), ()),
                       ((0, 3), (3,)), ((2, 3, 4), (3, 4))]:
            cases.append(Case((random_array(rng, sd, dst), _castable(rng, ss, src, dst)),
                              label=f"{dst}{sd}<-{src}{ss}"))
    return cases


@sample("one_element")
def one_element(rng):
    return [Case((random_array(rng, s, d),), label=f"{d}{s}") for d in ALL_DTYPES for s in [(), (1,), (1, 1)]]
