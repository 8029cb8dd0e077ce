"""Sample kinds of the joining family (cat/stack, flip/roll, repeat, triangular, pad...).

Tensor[] arguments are lists of numpy arrays; every array gets the case's layout
(contiguous, Fortran, strided), so the ops see non-contiguous inputs too.
"""
import numpy as np

from .registry import Case, sample
from .samples import ALL_DTYPES, NUMERIC, random_array

MIXED = [("int64", "float32"), ("uint8", "int8"), ("bool", "int32"), ("float16", "float64"),
         ("int16", "complex64")]


def _arrays(rng, shapes, dtypes):
    if isinstance(dtypes, str):
        dtypes = [dtypes] * len(shapes)
    return [random_array(rng, s, d) for s, d in zip(shapes, dtypes)]


@sample("cat")
def cat(rng):
    cases = []
    layouts = [([(2, 3), (4, 3)], 0), ([(2, 3), (2, 1), (2, 0)], 1), ([(2, 3), (2, 5)], -1),
               ([(2, 3, 4), (2, 1, 4), (2, 2, 4)], 1), ([(3,), (4,)], 0), ([(0, 3), (2, 3)], 0),
               ([(2, 3)], 0), ([(0,), (2, 3)], 1), ([(2, 3), (0,), (1, 3)], 0), ([(0,), (0,)], 0),
               ([(2, 0), (2, 0)], 0), ([(3, 2, 2), (3, 2, 2)], -3)]
    for d in ALL_DTYPES:
        for shapes, dim in layouts:
            cases.append(Case((_arrays(rng, shapes, d),), {"dim": dim}, label=f"{d}{shapes}@{dim}"))
    for a, b in MIXED:
        cases.append(Case((_arrays(rng, [(2, 3), (1, 3)], [a, b]),), label=f"{a}+{b}"))
    # Legacy-skipped empty vectors still take part in type promotion.
    cases.append(Case((_arrays(rng, [(0,), (2,)], ["int8", "bool"]),), label="skipped-int8+bool"))
    cases.append(Case((_arrays(rng, [(0,), (0,)], ["int8", "int16"]),), label="all-skipped"))
    cases.append(Case((_arrays(rng, [(2, 3), (2, 2)], "float32"), 1), label="positional dim"))
    return cases


@sample("stack")
def stack(rng):
    cases = []
    for d in ALL_DTYPES:
        for shape, dim in [((), 0), ((3,), 0), ((3,), 1), ((2, 3), 1), ((2, 3), -1), ((0, 3), 2),
                           ((2, 3, 4), -2)]:
            cases.append(Case((_arrays(rng, [shape] * 3, d),), {"dim": dim}, label=f"{d}{shape}@{dim}"))
    for a, b in MIXED:
        cases.append(Case((_arrays(rng, [(2, 3), (2, 3)], [a, b]),), label=f"{a}+{b}"))
    return cases


@sample("stack_np")
def stack_np(rng):
    """Equal shapes (valid for hstack, vstack, dstack and column_stack alike)."""
    cases = []
    for d in ["bool", "int32", "float32", "complex64"]:
        for shape in [(), (3,), (2, 3), (2, 3, 2), (0,), (0, 2)]:
            cases.append(Case((_arrays(rng, [shape] * 2, d),), label=f"{d}{shape}"))
    for a, b in MIXED:
        cases.append(Case((_arrays(rng, [(3,), (3,)], [a, b]),), label=f"{a}+{b}"))
    return cases


@sample("matrix_any")
def matrix_any(rng):
    return [Case((random_array(rng, s, d),), label=f"{d}{s}")
            for d in ALL_DTYPES for s in [(2, 3), (3, 4, 2), (0, 3), (1, 5)]]


@sample("flip")
def flip(rng):
    specs = [((2, 3), [0]), ((2, 3), [0, 1]), ((2, 3, 4), [-1, 0]), ((2, 3, 4), [1]), ((5,), [0]),
             ((), []), ((), [0]), ((0, 3), [1]), ((2, 3), []), ((2, 1, 3), [1, 2])]
    return [Case((random_array(rng, s, d), dims), label=f"{d}{s}{dims}") for d in ALL_DTYPES for s, dims in specs]


@sample("roll")
def roll(rng):
    specs = [((2, 3), (1,)), ((2, 3), (-7,)), ((2, 3), (2, 0)), ((2, 3), ((1, 2), (0, 1))),
             ((2, 3), ((1, 1), (1, 1))), ((2, 3, 4), ([3], [-1])), ((), (1,)), ((0, 3), (1, 1)),
             ((5,), (5, 0)), ((2, 3, 4), ((-1, 5), (0, 2)))]
    return [Case((random_array(rng, s, d),) + args, label=f"{d}{s}{args}") for d in ALL_DTYPES for s, args in specs]


@sample("rot90")
def rot90(rng):
    specs = [((2, 3), ()), ((2, 3), (2, [0, 1])), ((2, 3), (3, [1, 0])), ((2, 3, 4), (-1, [0, 2])),
             ((2, 3), (0, [0, 1])), ((2, 3), (5, [-2, -1])), ((0, 3), (1, [0, 1]))]
    return [Case((random_array(rng, s, d),) + args, label=f"{d}{s}{args}")
            for d in ["bool", "int64", "float32"] for s, args in specs]


@sample("repeat")
def repeat(rng):
    specs = [((3,), (2, 2)), ((2, 3), (2, 1)), ((2, 3), (1, 2, 1)), ((), (2,)), ((), ()), ((2, 3), (0, 2)),
             ((0, 3), (2, 2)), ((2, 1, 3), (1, 4, 1)), ((2, 3), (1, 1)), ((2, 2, 2, 2, 2, 2, 2, 2, 2), (2,) * 9)]
    return [Case((random_array(rng, s, d), reps), label=f"{d}{s}{reps}") for d in ALL_DTYPES for s, reps in specs]


@sample("tile")
def tile(rng):
    specs = [((2, 3), (2,)), ((2, 3), ()), ((3,), (2, 2)), ((), (3,)), ((2, 3), (2, 1, 2)), ((0, 2), (3,))]
    return [Case((random_array(rng, s, d), reps), label=f"{d}{s}{reps}") for d in ALL_DTYPES for s, reps in specs]


@sample("repeat_interleave")
def repeat_interleave(rng):
    specs = [((3,), (2,)), ((2, 3), (2,)), ((2, 3), (3, 0)), ((2, 3), (2, -1)), ((), (3,)), ((0, 3), (2, 1)),
             ((2, 3), (0, 1)), ((2, 3, 2), (2, 1))]
    return [Case((random_array(rng, s, d),) + args, label=f"{d}{s}{args}") for d in ALL_DTYPES for s, args in specs]


@sample("repeat_interleave_tensor")
def repeat_interleave_tensor(rng):
    specs = [((2, 3), [1, 2], 0), ((2, 3), [0, 1, 2], 1), ((2, 3), [3], 1), ((2, 3), 2, None),
             ((4,), [1, 0, 2, 1], None), ((2, 3), [2, 2], -2), ((0, 2), [], 0)]
    cases = []
    for d in ["bool", "int8", "float32", "complex64"]:
        for shape, reps, dim in specs:
            for rd in ["int64", "int32"]:
                cases.append(Case((random_array(rng, shape, d), np.array(reps, dtype=rd), dim),
                                  label=f"{d}{shape}{reps}{rd}@{dim}"))
    return cases


@sample("repeat_interleave_index")
def repeat_interleave_index(rng):
    return [Case((np.array(r, dtype=d),), label=f"{r}{d}")
            for d in ["int64", "int32"] for r in [[2, 0, 1], [], [1, 1, 3], [0]]]


@sample("triangular")
def triangular(rng):
    shapes = [(3, 4), (4, 3), (2, 3, 3), (0, 3), (2, 0, 4), (1, 1), (2, 1, 3, 5)]
    return [Case((random_array(rng, s, d), k), label=f"{d}{s}k={k}")
            for d in ALL_DTYPES for s in shapes for k in [0, 1, -1, 5, -5]]


@sample("diag")
def diag(rng):
    specs = [((3,), 0), ((3,), 2), ((3,), -1), ((0,), 1), ((1,), 0), ((3, 4), 0), ((4, 3), 1),
             ((3, 4), -2), ((3, 4), 5), ((0, 3), 0)]
    return [Case((random_array(rng, s, d), k), label=f"{d}{s}k={k}") for d in ALL_DTYPES for s, k in specs]


@sample("diag_embed")
def diag_embed(rng):
    specs = [((2, 3), ()), ((3,), (1,)), ((2, 3), (-1, 0, 2)), ((2, 3), (0, -1, 0)), ((0,), (0,)),
             ((2, 0), (1,)), ((2, 2, 3), (2, 1, 3))]
    return [Case((random_array(rng, s, d),) + args, label=f"{d}{s}{args}")
            for d in ["bool", "int32", "float64", "complex64"] for s, args in specs]


@sample("diagonal")
def diagonal(rng):
    specs = [((3, 4), ()), ((3, 4), (1,)), ((3, 4), (-2,)), ((3, 4), (10,)), ((2, 3, 4), (0, 1, 2)),
             ((2, 3, 4), (1, -1, 0)), ((0, 3), ()), ((2, 3, 4), (-1, 2, 0))]
    return [Case((random_array(rng, s, d),) + args, label=f"{d}{s}{args}") for d in ALL_DTYPES for s, args in specs]


@sample("trace")
def trace(rng):
    return [Case((random_array(rng, s, d),), label=f"{d}{s}")
            for d in NUMERIC + ["complex64"] for s in [(3, 3), (2, 4), (4, 2), (0, 3), (1, 1)]]


@sample("meshgrid")
def meshgrid(rng):
    cases = []
    for d in ["bool", "int64", "float32"]:
        for shapes in [[(3,), (4,)], [(2,), (), (3,)], [(3,)], [(0,), (2,)], [(2,), (3,), (4,)]]:
            for indexing in ["ij", "xy"]:
                cases.append(Case((_arrays(rng, shapes, d),), {"indexing": indexing}, label=f"{d}{shapes}{indexing}"))
        cases.append(Case((_arrays(rng, [(2,), (3,)], d),), label=f"{d}default"))
    return cases


@sample("cartesian_prod")
def cartesian_prod(rng):
    return [Case((_arrays(rng, shapes, d),), label=f"{d}{shapes}")
            for d in ["bool", "int64", "float32"] for shapes in [[(2,), (3,)], [(3,)], [(2,), (0,)], [(2,), (2,), (3,)]]]


@sample("broadcast_tensors")
def broadcast_tensors(rng):
    specs = [([(2, 1), (3,)], ["float32", "float32"]), ([(), (2, 3)], ["int64", "float64"]),
             ([(0, 1), (1, 4)], ["bool", "int8"]), ([(3,)], ["complex64"]),
             ([(2, 1, 3), (4, 1), ()], ["int16", "uint8", "float16"])]
    return [Case((_arrays(rng, shapes, dts),), label=f"{shapes}{dts}") for shapes, dts in specs]


PAD_SPECS = [
    ((2, 3), (1, 2), "constant", None), ((2, 3), (1, 1, 2, 0), "constant", 1.5),
    ((2, 3), (-1, 1), "constant", None), ((2, 3, 4), (0, 0, 0, 0, 1, 1), "constant", 2),
    ((2, 3), (-1, -2, 0, 1), "constant", None), ((), (), "constant", None), ((0, 3), (1, 1), "constant", 3),
    ((3,), (-2, -1), "constant", None), ((3,), (-4, 2), "constant", 1), ((2, 3), (2, 1), "constant", 7),
    ((2, 3), (1, 2), "reflect", None), ((1, 2, 3), (2, 2, 1, 0), "reflect", None),
    ((2, 2, 3, 4), (1, 1, 2, 0), "reflect", 0), ((1, 2, 3, 4), (1, 2, 1, 2, 0, 1), "reflect", None),
    ((2, 4), (-1, 2), "reflect", None), ((0, 2, 3), (1, 2), "reflect", None),
    ((2, 3), (2, 3), "replicate", None), ((1, 2, 3, 4), (1, 0, 0, 2), "replicate", None),
    ((2, 1, 2, 2, 2), (1, 1, 1, 1, 1, 1), "replicate", None), ((2, 3), (-2, 1), "replicate", None),
    ((2, 3), (3, 1), "circular", None), ((1, 2, 3, 4), (1, 2, 3, 0), "circular", None),
    ((1, 1, 2, 3, 2), (1, 1, 1, 1, 1, 1), "circular", None), ((2, 4), (-1, 2), "circular", None),
]


@sample("pad")
def pad(rng):
    cases = []
    for d in ["bool", "uint8", "int64", "float16", "float32", "float64", "complex64"]:
        for shape, widths, mode, value in PAD_SPECS:
            kwargs = {"mode": mode}
            if value is not None:
                kwargs["value"] = value
            cases.append(Case((random_array(rng, shape, d), widths), kwargs, label=f"{d}{shape}{widths}{mode}{value}"))
    return cases


@sample("tensor_list_any")
def tensor_list_any(rng):
    shapes = [(), (3,), (2, 3), (1, 2, 3), (0,)]
    return [Case(([random_array(rng, s, d) for s in shapes],), label=f"{d} 0-d to 3-d") for d in ("float32", "int64", "bool")]
