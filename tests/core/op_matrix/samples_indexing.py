"""Sample kinds of the views and indexing family."""
import numpy as np

from .registry import Case, sample
from .samples import ALL_DTYPES, NUMERIC, random_array

SOME = ["float32", "int64", "bool", "float16", "complex64"]


def _index(rng, shape, size, negative=False):
    """Random int64 indices in [0, size) (or [-size, size))."""
    low = -size if negative else 0
    return rng.integers(low, max(size, 1), shape).astype(np.int64)


def _distinct_along(rng, self_shape, index_shape, dim):
    """int64 indices of index_shape whose values along `dim` never repeat (so scatter-like
    assignments have one writer per element)."""
    full = list(index_shape)
    full[dim] = self_shape[dim]
    order = np.argsort(rng.random(full), axis=dim)
    return order[tuple(slice(0, s) for s in index_shape)].astype(np.int64)


def _fill_value(dtype):
    return True if dtype == "bool" else 2.5 if dtype.startswith(("float", "complex")) else 3


@sample("view_as")
def view_as(rng):
    pairs = [((6,), (2, 3)), ((2, 3, 4), (4, 6)), ((), (1,)), ((0, 3), (3, 0)), ((2, 3), (6,))]
    return [Case((random_array(rng, s, d), random_array(rng, o, "float32")), label=f"{d}{s}->{o}")
            for d in SOME for s, o in pairs]


@sample("expand_as")
def expand_as(rng):
    pairs = [((3, 1), (3, 4)), ((), (2, 3)), ((1,), (0,)), ((2, 1, 3), (4, 2, 5, 3))]
    return [Case((random_array(rng, s, d), random_array(rng, o, "int8")), label=f"{d}{s}->{o}")
            for d in SOME for s, o in pairs]


@sample("matrix_t")
def matrix_t(rng):
    return [Case((random_array(rng, s, d),), label=f"{d}{s}") for d in SOME for s in [(), (5,), (3, 4), (0, 2)]]


@sample("squeeze")
def squeeze(rng):
    return [Case((random_array(rng, s, d),), label=f"{d}{s}")
            for d in SOME for s in [(1, 3, 1, 4), (), (1,), (2, 3), (1, 0, 1)]]


@sample("squeeze_dim")
def squeeze_dim(rng):
    return [Case((random_array(rng, s, d), dim), label=f"{d}{s}{dim}")
            for d in SOME for s, dim in [((1, 3, 1), 0), ((1, 3, 1), -1), ((1, 3, 1), 1), ((), 0), ((2, 1), -1)]]


@sample("unsqueeze")
def unsqueeze(rng):
    return [Case((random_array(rng, s, d), dim), label=f"{d}{s}{dim}")
            for d in SOME for s, dim in [((3, 4), 0), ((3, 4), 2), ((3, 4), -1), ((), 0), ((), -1), ((0, 2), 1)]]


@sample("flatten")
def flatten(rng):
    cases = []
    for d in SOME:
        for s in [(2, 3, 4), (), (5,), (2, 0, 3)]:
            a = random_array(rng, s, d)
            cases.append(Case((a,), label=f"{d}{s}"))
            if len(s) == 3:
                cases += [Case((a, 1), label=f"{d}{s}1"), Case((a, 0, 1), label=f"{d}{s}01"),
                          Case((a, -2, -1), label=f"{d}{s}-2-1"), Case((a, 1, 1), label=f"{d}{s}11")]
    return cases


@sample("unflatten")
def unflatten(rng):
    return [Case((random_array(rng, s, d), dim, sizes), label=f"{d}{s}{dim}{sizes}")
            for d in SOME for s, dim, sizes in [((6, 4), 0, (2, 3)), ((2, 12), 1, (3, -1)),
                                                ((2, 12), -1, (2, 2, 3)), ((0, 4), 1, (2, 2))]]


@sample("movedim")
def movedim(rng):
    specs = [((2, 3, 4), 0, 2), ((2, 3, 4), (0, 1), (2, 0)), ((2, 3, 4), -1, 0), ((), 0, 0),
             ((2, 3, 4, 5), [0, 3], [3, 0]), ((2, 3, 4), (), ())]
    return [Case((random_array(rng, s, d), src, dst), label=f"{d}{s}{src}{dst}") for d in SOME for s, src, dst in specs]


@sample("narrow")
def narrow(rng):
    specs = [((5,), 0, 1, 3), ((3, 4), 1, -2, 2), ((3, 4), 0, 3, 0), ((0, 4), 1, 0, 4), ((2, 3, 4), -1, 0, 4)]
    return [Case((random_array(rng, s, d),) + tuple(r), label=f"{d}{s}{r}") for d in SOME for s, *r in specs]


@sample("select")
def select(rng):
    specs = [((5,), 0, 2), ((3, 4), 1, -1), ((2, 3, 4), -2, 0), ((3, 0), 0, 1)]
    return [Case((random_array(rng, s, d), dim, i), label=f"{d}{s}{dim}{i}") for d in SOME for s, dim, i in specs]


@sample("unbind")
def unbind(rng):
    cases = []
    for d in SOME:
        cases += [Case((random_array(rng, (3, 4), d),), label=f"{d}"),
                  Case((random_array(rng, (3, 4), d), 1), label=f"{d}1"),
                  Case((random_array(rng, (2, 0), d),), label=f"{d}empty"),
                  Case((random_array(rng, (2, 3, 4), d), -1), label=f"{d}-1")]
    return cases


@sample("split")
def split(rng):
    specs = [((7,), 3), ((6,), 2), ((4, 5), 2, 1), ((0,), 2), ((0,), 0), ((5,), 10), ((4, 5), 1, -1)]
    return [Case((random_array(rng, s, d),) + tuple(r), label=f"{d}{s}{r}") for d in SOME for s, *r in specs]


@sample("split_with_sizes")
def split_with_sizes(rng):
    specs = [((7,), [3, 4]), ((4, 5), [1, 0, 4], 1), ((0,), [0, 0]), ((4, 5), [4], 0)]
    return [Case((random_array(rng, s, d),) + tuple(r), label=f"{d}{s}{r}") for d in SOME for s, *r in specs]


@sample("chunk")
def chunk(rng):
    specs = [((5,), 3), ((6,), 4), ((0,), 3), ((4, 5), 2, 1), ((7,), 7), ((3,), 5), ((2, 6), 4, -1)]
    return [Case((random_array(rng, s, d),) + tuple(r), label=f"{d}{s}{r}") for d in SOME for s, *r in specs]


@sample("tensor_split")
def tensor_split(rng):
    specs = [((7,), 3), ((6,), 4), ((2, 5), 2, 1), ((0,), 2), ((3,), 5)]
    return [Case((random_array(rng, s, d),) + tuple(r), label=f"{d}{s}{r}") for d in SOME for s, *r in specs]


@sample("tensor_split_indices")
def tensor_split_indices(rng):
    specs = [((7,), [1, 5, 10]), ((7,), [5, 1]), ((2, 5), [2], 1), ((7,), [-2]), ((7,), [])]
    return [Case((random_array(rng, s, d),) + tuple(r), label=f"{d}{s}{r}") for d in SOME for s, *r in specs]


@sample("unfold")
def unfold(rng):
    specs = [((7,), 0, 2, 1), ((7,), 0, 3, 2), ((3, 5), 1, 2, 2), ((3, 5), 0, 3, 1), ((), 0, 1, 1),
             ((4,), 0, 0, 1), ((2, 6, 3), -2, 4, 3)]
    return [Case((random_array(rng, s, d),) + tuple(r), label=f"{d}{s}{r}") for d in SOME for s, *r in specs]


@sample("view_as_real")
def view_as_real(rng):
    return [Case((random_array(rng, s, "complex64"),), label=f"{s}") for s in [(), (3,), (2, 3), (0,)]]


@sample("view_as_complex")
def view_as_complex(rng):
    return [Case((random_array(rng, s, "float32"),), label=f"{s}") for s in [(2,), (3, 2), (2, 3, 2), (0, 2)]]


@sample("index_select")
def index_select(rng):
    cases = []
    for d in ALL_DTYPES:
        a = random_array(rng, (3, 4), d)
        cases += [
            Case((a, 0, _index(rng, (5,), 3)), label=f"{d}dim0"),
            Case((a, 1, _index(rng, (6,), 4)), label=f"{d}dim1"),
            Case((a, -1, np.array([], dtype=np.int64)), label=f"{d}empty-index"),
            Case((a, 0, np.array(2, dtype=np.int64)), label=f"{d}0d-index"),
            Case((random_array(rng, (2, 3, 4), d), 1, _index(rng, (2,), 3).astype(np.int32)), label=f"{d}int32"),
            Case((random_array(rng, (), d), 0, np.array([0], dtype=np.int64)), label=f"{d}0d-self"),
            Case((random_array(rng, (0, 3), d), 0, np.array([], dtype=np.int64)), label=f"{d}empty-self"),
            Case((random_array(rng, (40, 32), d), 0, _index(rng, (7,), 40)), label=f"{d}rows"),
        ]
    return cases


@sample("gather")
def gather(rng):
    cases = []
    for d in ALL_DTYPES:
        a = random_array(rng, (3, 4), d)
        cases += [
            Case((a, 0, _index(rng, (2, 4), 3)), label=f"{d}dim0"),
            Case((a, 1, _index(rng, (3, 6), 4)), label=f"{d}dim1"),
            Case((a, 1, _index(rng, (2, 2), 4)), label=f"{d}smaller"),
            Case((random_array(rng, (2, 3, 4), d), -1, _index(rng, (2, 3, 2), 4)), label=f"{d}3d"),
            Case((random_array(rng, (), d), 0, np.array(0, dtype=np.int64)), label=f"{d}0d"),
            Case((a, 0, np.zeros((0, 4), dtype=np.int64)), label=f"{d}empty"),
        ]
    return cases


@sample("scatter")
def scatter(rng):
    """self, dim, index (no repeats along dim), src (at least index's size)."""
    cases = []
    for d in ALL_DTYPES:
        for shape, dim, ishape, sshape in [((3, 5), 0, (2, 5), (3, 6)), ((3, 5), 1, (3, 2), (3, 2)),
                                           ((2, 3, 4), -1, (2, 2, 3), (2, 3, 4)), ((4,), 0, (0,), (2,)),
                                           ((3, 4), 0, (3, 2), (4, 4))]:
            index = _distinct_along(rng, shape, ishape, dim % len(shape))
            cases.append(Case((random_array(rng, shape, d), dim, index, random_array(rng, sshape, d)),
                              label=f"{d}{shape}{dim}{ishape}"))
        cases.append(Case((random_array(rng, (), d), 0, np.array(0, dtype=np.int64), random_array(rng, (), d)),
                          label=f"{d}0d"))
    return cases


@sample("scatter_value")
def scatter_value(rng):
    cases = []
    for d in ALL_DTYPES:
        value = _fill_value(d)
        cases += [
            Case((random_array(rng, (3, 5), d), 0, _index(rng, (2, 5), 3), value), label=f"{d}dim0"),
            Case((random_array(rng, (3, 5), d), -1, _index(rng, (3, 7), 5), value), label=f"{d}dim-1"),
            Case((random_array(rng, (), d), 0, np.array(0, dtype=np.int64), value), label=f"{d}0d"),
        ]
    return cases


@sample("index_add")
def index_add(rng):
    cases = []
    for d in NUMERIC + ["complex64"]:
        cases += [
            Case((random_array(rng, (5, 3), d), 0, _index(rng, (4,), 5), random_array(rng, (4, 3), d)), label=f"{d}dim0"),
            Case((random_array(rng, (2, 5, 3), d), 1, _index(rng, (6,), 5).astype(np.int32),
                  random_array(rng, (2, 6, 3), d)), label=f"{d}int32"),
            Case((random_array(rng, (4, 3), d), -1, _index(rng, (2,), 3), random_array(rng, (4, 2), d)),
                 {"alpha": 2}, label=f"{d}alpha"),
            Case((random_array(rng, (), d), 0, np.array(0, dtype=np.int64), random_array(rng, (), d)), label=f"{d}0d"),
            Case((random_array(rng, (3, 3), d), 0, np.array([], dtype=np.int64), random_array(rng, (0, 3), d)),
                 label=f"{d}empty"),
            Case((random_array(rng, (6, 40), d), 0, _index(rng, (9,), 6), random_array(rng, (9, 40), d)), label=f"{d}rows"),
        ]
    return cases


@sample("index_copy")
def index_copy(rng):
    cases = []
    for d in ALL_DTYPES:
        cases += [
            Case((random_array(rng, (5, 3), d), 0, rng.permutation(5)[:3].astype(np.int64), random_array(rng, (3, 3), d)),
                 label=f"{d}dim0"),
            Case((random_array(rng, (2, 5, 3), d), -2, rng.permutation(5).astype(np.int64),
                  random_array(rng, (2, 5, 3), d)), label=f"{d}dim1"),
            Case((random_array(rng, (), d), 0, np.array(0, dtype=np.int64), random_array(rng, (), d)), label=f"{d}0d"),
            Case((random_array(rng, (6, 40), d), 0, rng.permutation(6)[:4].astype(np.int64),
                  random_array(rng, (4, 40), d)), label=f"{d}rows"),
        ]
    return cases


@sample("index_fill")
def index_fill(rng):
    cases = []
    for d in ALL_DTYPES:
        value = _fill_value(d)
        cases += [
            Case((random_array(rng, (5, 3), d), 0, _index(rng, (3,), 5, negative=True), value), label=f"{d}dim0"),
            Case((random_array(rng, (2, 5, 3), d), -1, np.array([2, 0, 2], dtype=np.int64), value), label=f"{d}dim-1"),
            Case((random_array(rng, (), d), 0, np.array(-1, dtype=np.int64), value), label=f"{d}0d"),
            Case((random_array(rng, (3, 3), d), 1, np.array([], dtype=np.int64), value), label=f"{d}empty"),
        ]
    return cases


@sample("masked_fill")
def masked_fill(rng):
    cases = []
    for d in ALL_DTYPES:
        value = _fill_value(d)
        for shape, mshape in [((3, 4), (3, 4)), ((3, 4), (4,)), ((2, 3, 4), (3, 1)), ((), ()), ((0, 3), (3,))]:
            cases.append(Case((random_array(rng, shape, d), random_array(rng, mshape, "bool"), value),
                              label=f"{d}{shape}{mshape}"))
    return cases


@sample("masked_select")
def masked_select(rng):
    cases = []
    for d in ALL_DTYPES:
        for shape, mshape in [((3, 4), (3, 4)), ((3, 1), (1, 4)), ((4,), (2, 4)), ((), ()), ((0, 3), (3,)), ((), (5,))]:
            cases.append(Case((random_array(rng, shape, d), random_array(rng, mshape, "bool")),
                              label=f"{d}{shape}{mshape}"))
    return cases


@sample("masked_scatter")
def masked_scatter(rng):
    cases = []
    for d in ALL_DTYPES:
        for shape, mshape in [((3, 4), (3, 4)), ((3, 4), (4,)), ((), ()), ((0, 3), (3,))]:
            n = int(np.prod(shape))
            cases.append(Case((random_array(rng, shape, d), random_array(rng, mshape, "bool"),
                               random_array(rng, (n + 2,), d)), label=f"{d}{shape}{mshape}"))
    return cases


@sample("where")
def where(rng):
    cases = []
    for d in ALL_DTYPES:
        for cs, xs, ys in [((3, 4), (3, 4), (3, 4)), ((3, 1), (1, 4), (4,)), ((), (2, 3), ()), ((0, 3), (3,), (1, 3))]:
            cases.append(Case((random_array(rng, cs, "bool"), random_array(rng, xs, d), random_array(rng, ys, d)),
                              label=f"{d}{cs}{xs}{ys}"))
    cond = random_array(rng, (2, 3), "bool")
    cases += [
        Case((cond, random_array(rng, (2, 3), "int32"), 2.5), label="int32-float"),
        Case((cond, 1, 2.5), label="numbers"),
        Case((cond, 1, 2), label="ints"),
        Case((cond, random_array(rng, (2, 3), "int32"), 7), label="int32-int"),
        Case((cond, random_array(rng, (3,), "float16"), random_array(rng, (2, 3), "float64")), label="f16-f64"),
        Case((cond, random_array(rng, (), "int64"), random_array(rng, (2, 3), "uint8")), label="0d-i64-u8"),
        Case((random_array(rng, (2, 3), "uint8") % 2, random_array(rng, (2, 3), "float32"), 0.0), label="uint8-cond"),
    ]
    return cases


@sample("take")
def take(rng):
    cases = []
    for d in ALL_DTYPES:
        a = random_array(rng, (3, 4), d)
        cases += [
            Case((a, _index(rng, (5,), 12, negative=True)), label=f"{d}flat"),
            Case((a, _index(rng, (2, 3), 12)), label=f"{d}2d-index"),
            Case((a, np.array(-1, dtype=np.int64)), label=f"{d}0d-index"),
            Case((random_array(rng, (), d), np.array([0, -1, 0], dtype=np.int64)), label=f"{d}0d-self"),
            Case((a, np.zeros((0,), dtype=np.int64)), label=f"{d}empty"),
        ]
    return cases


@sample("put")
def put(rng):
    cases = []
    for d in ALL_DTYPES:
        distinct = rng.permutation(12)[:5].astype(np.int64)
        distinct[::2] -= 12  # some as negative indices, still distinct after wrapping
        cases += [
            Case((random_array(rng, (3, 4), d), distinct, random_array(rng, (5,), d)), label=f"{d}flat"),
            Case((random_array(rng, (3, 4), d), rng.permutation(12)[:6].astype(np.int64).reshape(2, 3),
                  random_array(rng, (6,), d)), label=f"{d}2d-index"),
            Case((random_array(rng, (), d), np.array(0, dtype=np.int64), random_array(rng, (), d)), label=f"{d}0d"),
        ]
        if d in NUMERIC:
            cases.append(Case((random_array(rng, (3, 4), d), _index(rng, (7,), 12, negative=True),
                               random_array(rng, (7,), d)), {"accumulate": True}, label=f"{d}accumulate"))
    return cases


@sample("as_strided")
def as_strided(rng):
    # (self, size, stride, storage_offset): windows, overlapping reads, an offset, 0-d and empty.
    specs = [((4, 5), [3, 3], [5, 1], 2), ((4, 5), [2, 2], [1, 1], None), ((6,), [2, 3], [1, 2], 0),
             ((4, 5), [], [], 7), ((4, 5), [0, 3], [1, 1], 1), ((2, 3, 4), [2, 2, 2], [12, 4, 1], 5)]
    return [Case((random_array(rng, s, d), size, stride, off), label=f"{d}{s}{size}{stride}{off}")
            for d in SOME for s, size, stride, off in specs]


@sample("slice")
def slice_(rng):
    # The internal slice(self, dim, start, end, step) of Tensor.__getitem__: already-clamped bounds.
    specs = [((5,), 0, 1, 4, 1), ((5, 6), 1, 0, 6, 2), ((5, 6), 0, 4, 5, 3), ((2, 3, 4), 2, 1, 1, 1)]
    return [Case((random_array(rng, s, d),) + tuple(r), label=f"{d}{s}{r}") for d in SOME for s, *r in specs]


def _int_indices(rng, shape):
    return [rng.integers(0, n, (4,)).astype(np.int64) for n in shape]


@sample("index_tensor")
def index_tensor(rng):
    cases = []
    for d in SOME:
        x = random_array(rng, (4, 5), d)
        cases.append(Case((x, _int_indices(rng, (4, 5))), label=f"{d} two int indices"))
        cases.append(Case((x, [rng.integers(-4, 4, (2, 3)).astype(np.int64)]), label=f"{d} one 2-d index"))
        cases.append(Case((x, [rng.random((4, 5)) < 0.5]), label=f"{d} bool mask"))
    return cases


@sample("index_put")
def index_put(rng):
    cases = []
    for d in SOME:
        x = random_array(rng, (4, 5), d)
        rows = rng.permutation(4)[:3].astype(np.int64)
        cols = rng.permutation(5)[:3].astype(np.int64)
        cases.append(Case((x, [rows, cols], random_array(rng, (3,), d)), label=f"{d} distinct points"))
        cases.append(Case((x, [rows], random_array(rng, (5,), d)), label=f"{d} rows, broadcast values"))
        mask = rng.random((4, 5)) < 0.5
        cases.append(Case((x, [mask], random_array(rng, (), d)), label=f"{d} bool mask, scalar value"))
        if d != "bool":  # accumulating adds: PyTorch has no sum of bools here
            dup = np.array([0, 2, 0, 2], np.int64)
            cases.append(Case((x, [dup], random_array(rng, (4, 5), d), True), label=f"{d} accumulate duplicates"))
    return cases
