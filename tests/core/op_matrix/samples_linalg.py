"""Sample kinds of the linear-algebra family: products of every supported dtype, every
matmul rank combination, broadcast batch dims, empty dims, einsum/tensordot forms."""
import numpy as np

from .registry import Case, sample
from .samples import ALL_DTYPES, random_array

# Products do not support bool (PyTorch raises NotImplementedError); bfloat16 has no numpy type.
PRODUCT_DTYPES = ["uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64", "complex64"]
FLOATS = ["float16", "float32", "float64", "complex64"]

MATMUL_SHAPES = [
    ((3,), (3,)), ((0,), (0,)),                      # dot
    ((2, 3), (3,)), ((0, 3), (3,)),                  # mv
    ((3,), (3, 4)),                                  # 1-D prepended, then removed
    ((2, 3), (3, 4)), ((0, 3), (3, 0)), ((2, 0), (0, 3)),  # mm, empty dims
    ((2, 2, 3), (3,)), ((2, 2, 3), (3, 4)),          # batch folded into rows
    ((3,), (2, 3, 4)), ((2, 3), (4, 3, 5)),          # 1-D / 2-D broadcast against a batch
    ((4, 2, 3), (4, 3, 5)), ((2, 1, 2, 3), (3, 3, 4)), ((1, 2, 3), (5, 3, 2)),  # batch broadcast
    ((2, 0, 3), (2, 3, 2)),
]


def _pairs(rng, shapes, dtypes):
    return [Case((random_array(rng, sa, d), random_array(rng, sb, d)), label=f"{d}{sa}{sb}")
            for d in dtypes for sa, sb in shapes]


@sample("matmul")
def matmul(rng):
    return _pairs(rng, MATMUL_SHAPES, PRODUCT_DTYPES)


@sample("mm")
def mm(rng):
    shapes = [((2, 3), (3, 4)), ((0, 3), (3, 0)), ((2, 0), (0, 3)), ((1, 1), (1, 1)), ((5, 1), (1, 4)),
              ((17, 33), (33, 9))]
    return _pairs(rng, shapes, PRODUCT_DTYPES)


@sample("bmm")
def bmm(rng):
    shapes = [((2, 2, 3), (2, 3, 4)), ((0, 2, 3), (0, 3, 4)), ((3, 1, 4), (3, 4, 1)), ((2, 0, 3), (2, 3, 2)),
              ((2, 3, 0), (2, 0, 2))]
    return _pairs(rng, shapes, PRODUCT_DTYPES)


@sample("mv")
def mv(rng):
    return _pairs(rng, [((2, 3), (3,)), ((0, 3), (3,)), ((3, 0), (0,)), ((5, 7), (7,))], PRODUCT_DTYPES)


@sample("dot")
def dot(rng):
    return _pairs(rng, [((3,), (3,)), ((0,), (0,)), ((17,), (17,))], PRODUCT_DTYPES)


@sample("outer")
def outer(rng):
    # outer is a broadcast multiply: every dtype, and mixed dtypes promote.
    cases = _pairs(rng, [((3,), (4,)), ((0,), (3,)), ((1,), (1,))], ALL_DTYPES)
    cases.append(Case((random_array(rng, (3,), "int64"), random_array(rng, (2,), "float32")), label="i64*f32"))
    cases.append(Case((random_array(rng, (3,), "bool"), random_array(rng, (2,), "int8")), label="bool*i8"))
    return cases


def _coefficients(d):
    """kwarg sets for beta/alpha: defaults, non-trivial values, and beta=0."""
    if d in FLOATS:
        return [{}, {"beta": 0.5, "alpha": 2.0}, {"beta": 0, "alpha": -1.5}]
    return [{}, {"beta": 2, "alpha": 3}, {"beta": 0, "alpha": 2}]


def _add_cases(rng, input_shapes, shape1, shape2, dtypes):
    cases = []
    for d in dtypes:
        for si in input_shapes:
            for kw in _coefficients(d):
                inp = random_array(rng, si, d)
                if kw.get("beta") == 0 and d in FLOATS and inp.size:
                    inp.flat[0] = np.nan  # beta == 0 ignores input, NaN included
                cases.append(Case((inp, random_array(rng, shape1, d), random_array(rng, shape2, d)), dict(kw),
                                  label=f"{d}{si}{shape1}{shape2}{kw}"))
    return cases


@sample("addmm")
def addmm(rng):
    return (_add_cases(rng, [(2, 4), (4,), (1, 4), (2, 1), ()], (2, 3), (3, 4), PRODUCT_DTYPES)
            + _add_cases(rng, [(0, 4)], (0, 3), (3, 4), ["float32"])
            + _add_cases(rng, [(2, 4)], (2, 0), (0, 4), ["float32", "int64"]))


@sample("addmm_inplace")
def addmm_inplace(rng):
    return _add_cases(rng, [(2, 4)], (2, 3), (3, 4), PRODUCT_DTYPES)


@sample("addmv")
def addmv(rng):
    return (_add_cases(rng, [(2,), (1,), ()], (2, 3), (3,), PRODUCT_DTYPES)
            + _add_cases(rng, [(2,)], (2, 0), (0,), ["float32"]))


@sample("addmv_inplace")
def addmv_inplace(rng):
    return _add_cases(rng, [(2,)], (2, 3), (3,), PRODUCT_DTYPES)


@sample("baddbmm")
def baddbmm(rng):
    return (_add_cases(rng, [(2, 2, 4), (2, 4), (4,), ()], (2, 2, 3), (2, 3, 4), PRODUCT_DTYPES)
            + _add_cases(rng, [(0, 2, 4)], (0, 2, 3), (0, 3, 4), ["float32"]))


@sample("baddbmm_inplace")
def baddbmm_inplace(rng):
    return _add_cases(rng, [(2, 2, 4)], (2, 2, 3), (2, 3, 4), PRODUCT_DTYPES)


@sample("addbmm")
def addbmm(rng):
    return (_add_cases(rng, [(2, 4), (4,), ()], (3, 2, 3), (3, 3, 4), PRODUCT_DTYPES)
            + _add_cases(rng, [(2, 4)], (0, 2, 3), (0, 3, 4), ["float32", "int32"]))


@sample("addbmm_inplace")
def addbmm_inplace(rng):
    return _add_cases(rng, [(2, 4)], (3, 2, 3), (3, 3, 4), PRODUCT_DTYPES)


@sample("tensordot")
def tensordot(rng):
    forms = [((2, 3), (3, 4), 1), ((2, 3, 4), (3, 4, 5), 2), ((2, 3), (4, 5), 0), ((2, 3), (2, 3), 2),
             ((2, 3, 4), (4, 3, 5), ([1, 2], [1, 0])), ((3, 4, 2), (2, 3), ([0, 2], [1, 0])),
             ((2, 3), (3, 2), ([-1], [0])), ((0, 3), (3, 4), 1), ((2, 0), (0, 4), 1)]
    cases = []
    for d in ["float32", "float64", "int64", "complex64", "float16"]:
        for sa, sb, dims in forms:
            cases.append(Case((random_array(rng, sa, d), random_array(rng, sb, d)), {"dims": dims},
                              label=f"{d}{sa}{sb}{dims}"))
    return cases


EINSUM_FORMS = [
    ("ij,jk->ik", [(2, 3), (3, 4)]),
    ("ij,jk", [(2, 3), (3, 4)]),
    ("ij , jk -> ik", [(2, 3), (3, 4)]),
    ("Ab,bC->AC", [(2, 3), (3, 4)]),
    ("bij,bjk->bik", [(2, 2, 3), (2, 3, 4)]),
    ("bij,bjk", [(2, 2, 3), (2, 3, 4)]),
    ("bhqd,bhkd->bhqk", [(2, 3, 4, 5), (2, 3, 6, 5)]),
    ("...ij,...jk", [(2, 2, 3), (2, 3, 4)]),
    ("...ij,...jk->...ik", [(2, 1, 2, 3), (3, 3, 4)]),
    ("...i,...i->...", [(2, 3, 4), (3, 4)]),
    ("i...,i...->...", [(3, 2), (3, 1)]),
    ("ii->i", [(3, 3)]),
    ("ii", [(3, 3)]),
    ("iij->j", [(3, 3, 4)]),
    ("iji->ij", [(3, 2, 3)]),
    ("i,j->ij", [(3,), (4,)]),
    ("i,i->", [(5,), (5,)]),
    ("i,i", [(5,), (5,)]),
    ("i,i->i", [(5,), (5,)]),
    ("ij->", [(2, 3)]),
    ("ij->j", [(2, 3)]),
    ("ij->ji", [(2, 3)]),
    ("ji", [(2, 3)]),
    ("ij", [(2, 3)]),
    ("...", [(2, 3)]),
    ("...ij->...", [(4, 2, 3)]),
    ("ij,kj->ik", [(2, 3), (4, 3)]),
    ("ij,ij->ij", [(2, 3), (2, 3)]),
    ("ij,ij->", [(2, 3), (2, 3)]),
    ("ij,j->i", [(2, 3), (3,)]),
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)]),
    ("abc,cd,bd->a", [(2, 3, 4), (4, 5), (3, 5)]),
    ("i,i,i->i", [(4,), (4,), (4,)]),
    ("ijk,ikl->jl", [(2, 3, 4), (2, 4, 5)]),
    ("ij,jk->ik", [(0, 3), (3, 2)]),
    ("ij,jk->ik", [(2, 0), (0, 3)]),
    ("i,i->", [(0,), (0,)]),
    ("ij,jk->ik", [(2, 1), (1, 4)]),
    ("", [()]),
    (",->", [(), ()]),
    ("i,->i", [(3,), ()]),
]


@sample("einsum")
def einsum(rng):
    cases = []
    for eq, shapes in EINSUM_FORMS:
        for d in ["float32", "int64"]:
            cases.append(Case((eq, *[random_array(rng, s, d) for s in shapes]), label=f"{eq!r} {d}"))
    for d in ["float64", "complex64", "float16", "int8"]:
        for eq, shapes in [("bij,bjk->bik", [(2, 2, 3), (2, 3, 4)]), ("ii->i", [(3, 3)]), ("i,j->ij", [(3,), (4,)])]:
            cases.append(Case((eq, *[random_array(rng, s, d) for s in shapes]), label=f"{eq!r} {d}"))
    return cases
