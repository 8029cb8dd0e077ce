"""Sample kinds of the reduction family: reductions, scans, softmax and sorting."""
import numpy as np

from .registry import Case, sample
from .samples import ALL_DTYPES, FLOATS, NUMERIC, random_array

REAL = ["bool"] + NUMERIC                      # every dtype but complex
FLOAT_COMPLEX = FLOATS + ["complex64"]
# 0-d, empty, vectors, matrices, 3-d (one with an empty middle dim).
SHAPES = [(), (0,), (5,), (3, 4), (2, 3, 4), (2, 0, 3)]
# Shapes large enough for the vector loops, the column kernel, chunked regions and threads.
BIG = [((70, 130), [None, 0, 1, (0, 1)]),
       ((300, 200), [0, 1]),
       ((3, 50000), [1, None]),
       ((40000, 3), [0]),
       ((4, 9, 33), [(0, 2), 1])]


def dims_for(shape):
    """Dim arguments worth covering for a shape: None, each dim, negative, tuples, ()."""
    nd = len(shape)
    if nd == 0:
        return [None, 0, -1, (0,)]
    dims = [None] + list(range(nd)) + [-1]
    if nd >= 2:
        dims += [(0, -1), ()]
    if nd >= 3:
        dims += [(1, 2), [2, 0]]
    return dims


def _label(dtype, shape, dim, keepdim=None, extra=""):
    return f"{dtype}{shape} dim={dim}" + ("" if keepdim is None else f" keep={keepdim}") + extra


def _has_empty_reduced_dim(shape, dim):
    if not shape:
        return False
    if dim is None or dim == () or dim == []:
        return 0 in shape
    dims = dim if isinstance(dim, (tuple, list)) else (dim,)
    return any(shape[d] == 0 for d in dims)


def _reduction_cases(rng, dtypes, *, single_dim=False, allow_empty=True, big=True, low=-5, high=5,
                     max_numel=None):
    cases = []
    for d in dtypes:
        for s in SHAPES:
            if max_numel is not None and int(np.prod(s)) > max_numel:
                continue
            a = random_array(rng, s, d, low, high)
            for dim in dims_for(s):
                if single_dim and isinstance(dim, (tuple, list)):
                    continue
                if not allow_empty and _has_empty_reduced_dim(s, dim):
                    continue
                for keepdim in (False, True):
                    cases.append(Case((a, dim, keepdim), label=_label(d, s, dim, keepdim)))
    if big:
        for d in [t for t in ("float32", "float64", "int64") if t in dtypes]:
            for s, dims in BIG:
                a = random_array(rng, s, d, low, high)
                for dim in dims:
                    if single_dim and isinstance(dim, tuple):
                        continue
                    cases.append(Case((a, dim), label=_label(d, s, dim)))
    return cases


@sample("reduce_sum")
def reduce_sum(rng):
    cases = _reduction_cases(rng, ALL_DTYPES)
    f32 = random_array(rng, (3, 4), "float32")
    f32[0, 1] = np.nan
    cases.append(Case((f32, 1), label="nan"))
    cases.append(Case((random_array(rng, (3, 4), "int32"),), {"dtype": "float64"}, label="i32->f64"))
    cases.append(Case((random_array(rng, (3, 4), "float32"), 0), {"dtype": "float64"}, label="f32->f64"))
    cases.append(Case((random_array(rng, (3, 4), "int8"),), {"dtype": "int32"}, label="i8->i32"))
    cases.append(Case((random_array(rng, (3, 4), "float32"),), {"dtype": "int32"}, label="f32->i32 (cast first)"))
    cases.append(Case((random_array(rng, (2, 3), "bool"), (0, 1), True), label="bool all keep"))
    return cases


@sample("reduce_float")
def reduce_float(rng):
    cases = _reduction_cases(rng, FLOAT_COMPLEX)
    cases.append(Case((random_array(rng, (3, 4), "int32"),), {"dtype": "float64"}, label="i32 dtype=f64"))
    cases.append(Case((random_array(rng, (3, 4), "float32"), 1), {"dtype": "float64"}, label="f32 dtype=f64"))
    return cases


@sample("reduce_one_dim")
def reduce_one_dim(rng):
    # prod: one int dim; values near 1 (floats) or tiny ints so products stay finite.
    cases = []
    for d in ALL_DTYPES:
        low, high = (0.5, 1.5) if d in FLOAT_COMPLEX else (0, 3)
        for s in SHAPES:
            a = random_array(rng, s, d, low, high)
            if d in ("uint8", "int8", "int16", "int32", "int64"):
                a = np.asarray(np.abs(a) % 3, dtype=d)
            for dim in dims_for(s):
                if isinstance(dim, (tuple, list)):
                    continue
                for keepdim in (False, True):
                    cases.append(Case((a, dim, keepdim), label=_label(d, s, dim, keepdim)))
    for s, dims in BIG:
        a = random_array(rng, s, "float64", 0.999, 1.001)
        for dim in dims:
            if not isinstance(dim, tuple):
                cases.append(Case((a, dim), label=_label("float64", s, dim)))
    cases.append(Case((random_array(rng, (3, 4), "int32", 0, 3),), {"dtype": "float32"}, label="dtype=f32"))
    return cases


def _with_nans(rng, a):
    if a.dtype.kind == "f" and a.size >= 4:
        a = a.copy()
        flat = a.reshape(-1)
        flat[rng.integers(0, a.size, 2)] = np.nan
    return a


@sample("reduce_all_nonempty")
def reduce_all_nonempty(rng):
    cases = []
    for d in REAL:
        for s in [(), (1,), (5,), (3, 4), (2, 3, 4)]:
            cases.append(Case((random_array(rng, s, d),), label=f"{d}{s}"))
    cases.append(Case((_with_nans(rng, random_array(rng, (4, 5), "float32")),), label="nan"))
    cases.append(Case((random_array(rng, (3, 50000), "float32"),), label="big f32"))
    cases.append(Case((random_array(rng, (70, 130), "int64"),), label="big i64"))
    return cases


@sample("reduce_dim_nonempty")
def reduce_dim_nonempty(rng):
    # max.dim / min.dim: one dim; small int ranges so ties (first index wins) are common.
    cases = []
    for d in REAL:
        for s in SHAPES:
            a = random_array(rng, s, d, -2, 2)
            for dim in dims_for(s):
                if isinstance(dim, (tuple, list)) or dim is None or _has_empty_reduced_dim(s, dim):
                    continue
                for keepdim in (False, True):
                    cases.append(Case((a, dim, keepdim), label=_label(d, s, dim, keepdim)))
    a = _with_nans(rng, random_array(rng, (6, 7), "float64"))
    cases += [Case((a, 0), label="nan dim0"), Case((a, 1), label="nan dim1")]
    for d in ("float32", "int64"):
        for s, dims in BIG:
            a = random_array(rng, s, d, -50, 50)
            for dim in dims:
                if isinstance(dim, int):
                    cases.append(Case((a, dim), label=_label(d, s, dim)))
    return cases


@sample("reduce_dims_nonempty")
def reduce_dims_nonempty(rng):
    # amax/amin: dims as tuples; [] means all dims.
    cases = []
    for d in REAL:
        for s in SHAPES:
            a = random_array(rng, s, d)
            for dim in dims_for(s):
                if dim is None:
                    dim = []
                if 0 in s and (dim in ((), []) or _has_empty_reduced_dim(s, dim)):
                    continue
                for keepdim in (False, True):
                    cases.append(Case((a, dim, keepdim), label=_label(d, s, dim, keepdim)))
    cases.append(Case((_with_nans(rng, random_array(rng, (4, 5), "float32")), 1), label="nan"))
    for s, dims in BIG:
        a = random_array(rng, s, "float32")
        for dim in dims:
            cases.append(Case((a, dim if dim is not None else []), label=_label("float32", s, dim)))
    return cases


@sample("reduce_arg")
def reduce_arg(rng):
    cases = []
    for d in NUMERIC:
        for s in SHAPES:
            a = random_array(rng, s, d, -2, 2)
            for dim in dims_for(s):
                if isinstance(dim, (tuple, list)):
                    continue
                if (dim is None and 0 in s) or _has_empty_reduced_dim(s, dim):
                    continue
                for keepdim in (False, True):
                    cases.append(Case((a, dim, keepdim), label=_label(d, s, dim, keepdim)))
    a = _with_nans(rng, random_array(rng, (6, 7), "float32"))
    cases += [Case((a,), label="nan all"), Case((a, 1), label="nan dim1"), Case((a, 0), label="nan dim0")]
    for d in ("float32", "float64", "int64"):
        for s, dims in BIG:
            a = random_array(rng, s, d, -100, 100)
            for dim in dims:
                if not isinstance(dim, tuple):
                    cases.append(Case((a, dim), label=_label(d, s, dim)))
    return cases


@sample("reduce_unbiased")
def reduce_unbiased(rng):
    return [Case((random_array(rng, s, d), u), label=f"{d}{s} unbiased={u}")
            for d in FLOAT_COMPLEX for s in [(5,), (3, 4), (1,)] for u in (True, False)]


@sample("reduce_var")
def reduce_var(rng):
    # Well-conditioned cases first: the gradcheck matrix takes the first three floating ones
    # (a 0-d unbiased var is nan).
    w = random_array(rng, (3, 4), "float64")
    cases = [Case((w, 1), label="f64(3, 4) dim=1"),
             Case((w, (0, 1), False, True), label="f64(3, 4) dim=(0, 1) biased keep"),
             Case((w, -1), {"correction": 2}, label="f64(3, 4) correction=2")]
    for d in FLOAT_COMPLEX:
        for s in SHAPES:
            a = random_array(rng, s, d)
            for dim in dims_for(s):
                cases.append(Case((a, dim), label=_label(d, s, dim)))
                cases.append(Case((a, dim, False, True), label=_label(d, s, dim, True, " biased")))
    a = random_array(rng, (4, 6), "float32")
    for corr in (0, 2, 5, 0.5):
        cases.append(Case((a, 1), {"correction": corr}, label=f"correction={corr}"))
    cases.append(Case((a,), {"correction": 0, "keepdim": True}, label="correction kw keepdim"))
    for s, dims in BIG:
        b = random_array(rng, s, "float32") + 1000  # a large mean: two-pass accuracy
        for dim in dims:
            cases.append(Case((b, dim), label=_label("float32+1000", s, dim)))
    return cases


@sample("reduce_norm")
def reduce_norm(rng):
    cases = []
    for d in FLOAT_COMPLEX:
        for s in SHAPES:
            a = random_array(rng, s, d)
            for p in (2, 1, float("inf"), float("-inf"), 0, 3, 0.5, -1):
                for dim in [None, -1, (0, -1)] if s else [None, 0]:
                    if len(s) < 2 and isinstance(dim, tuple):
                        continue
                    if 0 in s and (p < 0 or p == float("inf")) and _has_empty_reduced_dim(s, dim):
                        continue
                    cases.append(Case((a, p, dim), label=f"{d}{s} p={p} dim={dim}"))
    a = random_array(rng, (3, 4), "float32")
    cases += [Case((a,), label="default p"), Case((a, 2, 1, True), label="keepdim"),
              Case((a, None, 0), label="p=None"), Case((a, 2), {"dtype": "float64"}, label="dtype=f64"),
              Case((np.array([-0.0, -0.0], dtype=np.float32), float("inf")), label="-0.0 inf")]
    for s, dims in BIG:
        b = random_array(rng, s, "float32")
        for dim in dims:
            cases.append(Case((b, 2, dim), label=_label("float32", s, dim)))
    return cases


@sample("reduce_norm_str")
def reduce_norm_str(rng):
    return [Case((random_array(rng, s, d), "fro", dim), label=f"{d}{s} dim={dim}")
            for d in FLOAT_COMPLEX for s, dim in [((3, 4), None), ((3, 4), (0, 1)), ((2, 3, 4), 1), ((0, 2), None)]]


@sample("reduce_logsumexp")
def reduce_logsumexp(rng):
    cases = []
    for d in ["bool", "int32", "int64"] + FLOATS:
        for s in SHAPES:
            a = random_array(rng, s, d, -30, 30)
            for dim in dims_for(s):
                if dim is None or (isinstance(dim, (tuple, list)) and not dim):
                    continue
                cases.append(Case((a, dim), label=_label(d, s, dim)))
                cases.append(Case((a, dim, True), label=_label(d, s, dim, True)))
    inf = np.array([[1.0, -np.inf], [-np.inf, -np.inf], [np.inf, 0.0], [np.nan, 1.0]], dtype=np.float32)
    cases.append(Case((inf, 1), label="infs and nan"))
    big = random_array(rng, (3, 4), "float64") * 300
    cases.append(Case((big, 1), label="large values"))
    return cases


@sample("reduce_logical")
def reduce_logical(rng):
    cases = []
    for d in ALL_DTYPES:
        for s in SHAPES:
            a = random_array(rng, s, d, -1, 1)
            for dim in dims_for(s):
                for keepdim in (False, True):
                    cases.append(Case((a, dim, keepdim), label=_label(d, s, dim, keepdim)))
    ones = np.ones((3, 4), dtype=np.float32)
    cases.append(Case((ones, 1), label="all true"))
    cases.append(Case((np.array([np.nan, 1], dtype=np.float32),), label="nan is true"))
    cases.append(Case((np.array([0, 2, 255], dtype=np.uint8), 0), label="uint8 values"))
    return cases


@sample("reduce_count")
def reduce_count(rng):
    cases = []
    for d in ALL_DTYPES:
        for s in SHAPES:
            a = random_array(rng, s, d, -1, 1)
            for dim in dims_for(s):
                cases.append(Case((a, dim), label=_label(d, s, dim)))
    cases.append(Case((np.array([np.nan, 0.0], dtype=np.float32),), label="nan counts"))
    return cases


@sample("scan")
def scan(rng):
    cases = []
    for d in ALL_DTYPES:
        for s in SHAPES:
            low, high = (-1.2, 1.2) if d in FLOAT_COMPLEX else (-2, 2)
            a = random_array(rng, s, d, low, high)
            for dim in ([0, -1] if not s else list(range(len(s))) + [-1]):
                cases.append(Case((a, dim), label=_label(d, s, dim)))
    cases.append(Case((random_array(rng, (3, 4), "int32"), 1), {"dtype": "float64"}, label="dtype=f64"))
    cases.append(Case((random_array(rng, (3, 4), "float32"), 0), {"dtype": "float64"}, label="f32 dtype=f64"))
    cases.append(Case((random_array(rng, (200, 300), "float32", -1.01, 1.01), 0), label="big dim0"))
    cases.append(Case((random_array(rng, (200, 300), "float32", -1.01, 1.01), 1), label="big dim1"))
    return cases


@sample("softmax")
def softmax(rng):
    cases = []
    for d in FLOATS:
        for s in SHAPES:
            a = random_array(rng, s, d, -10, 10)
            for dim in ([0, -1] if not s else list(range(len(s))) + [-1]):
                cases.append(Case((a, dim), label=_label(d, s, dim)))
    for s, dim in [((256, 1000), 1), ((7, 100, 70), 1), ((4, 3, 130), 1), ((5, 33), 0), ((2, 1000, 3), 1)]:
        cases.append(Case((random_array(rng, s, "float32", -20, 20), dim), label=f"big{s} dim={dim}"))
    extreme = np.array([[1000.0, 0.0, -1000.0], [-np.inf, 0.0, 1.0], [88.0, 89.0, 90.0]], dtype=np.float32)
    cases.append(Case((extreme, 1), label="extreme"))
    cases.append(Case((random_array(rng, (3, 4), "float32"), 1), {"dtype": "float64"}, label="dtype=f64"))
    cases.append(Case((random_array(rng, (3, 4), "int64"), 0), {"dtype": "float32"}, label="int dtype=f32"))
    return cases


def _distinct(rng, shape, dtype):
    """Values without ties (a shuffled range), so every index choice is unique."""
    n = int(np.prod(shape))
    vals = rng.permutation(n) - n // 2
    if dtype.startswith("float"):
        vals = vals * 0.5
    return vals.reshape(shape).astype(dtype)


SORT_DTYPES = ["uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64"]


@sample("sort")
def sort(rng):
    cases = []
    for d in ["bool"] + SORT_DTYPES:
        for s in SHAPES:
            a = random_array(rng, s, d, -3, 3)  # many ties: stability decides the indices
            for dim in ([0, -1] if not s else list(range(len(s))) + [-1]):
                for desc in (False, True):
                    cases.append(Case((a, dim, desc), label=_label(d, s, dim, extra=f" desc={desc}")))
    a = _with_nans(rng, random_array(rng, (4, 9), "float32"))
    a[0, 0] = np.inf
    a[1, 1] = -np.inf
    for desc in (False, True):
        cases.append(Case((a, 1, desc), label=f"nan desc={desc}"))
    cases.append(Case((random_array(rng, (100, 700), "float32"), 1), label="big"))
    return cases


@sample("sort_plain")
def sort_plain(rng):
    return [Case((random_array(rng, s, d, -3, 3),), label=f"{d}{s}") for d in ["bool"] + SORT_DTYPES for s in SHAPES]


@sample("topk")
def topk(rng):
    cases = []
    for d in SORT_DTYPES:
        for s in [(5,), (3, 4), (2, 3, 4), (0, 3), (), (300,)]:
            if s == (300,) and d in ("uint8", "int8"):
                continue  # not 300 distinct values
            a = _distinct(rng, s, d) if d != "uint8" else _distinct(rng, s, "int16").astype(np.uint8)
            for dim in ([0] if not s else [0, -1]):
                size = s[dim] if s else 1
                for k in sorted({0, 1, min(2, size), size}):
                    if k > size:
                        continue
                    for largest in (True, False):
                        cases.append(Case((a, k, dim, largest), label=_label(d, s, dim, extra=f" k={k} largest={largest}")))
    a = _distinct(rng, (4, 9), "float32")
    a[1, 3] = np.nan  # one NaN per line: no tie among NaNs
    a[2, 0] = np.nan
    for largest in (True, False):
        cases.append(Case((a, 4, 1, largest), label=f"nan largest={largest}"))
    return cases


@sample("kthvalue")
def kthvalue(rng):
    cases = []
    for d in SORT_DTYPES:
        for s in [(5,), (3, 4), (2, 3, 4), (), (200,)]:
            if s == (200,) and d in ("uint8", "int8"):
                continue
            a = _distinct(rng, s, "int16" if d == "uint8" else d).astype(d)
            for dim in ([0, -1] if not s else [0, -1]):
                size = s[dim] if s else 1
                for k in sorted({1, (size + 1) // 2, size}):
                    for keepdim in (False, True):
                        cases.append(Case((a, k, dim, keepdim), label=_label(d, s, dim, keepdim, f" k={k}")))
    a = _distinct(rng, (4, 9), "float32")
    a[0, 4] = np.nan
    cases.append(Case((a, 9, 1), label="nan is largest"))
    return cases


@sample("median_all")
def median_all(rng):
    cases = [Case((random_array(rng, s, d, -3, 3),), label=f"{d}{s}")
             for d in SORT_DTYPES for s in [(), (1,), (5,), (4,), (3, 4), (2, 3, 4)]]
    cases.append(Case((_with_nans(rng, random_array(rng, (4, 5), "float32")),), label="nan"))
    cases.append(Case((np.array([1.0, np.nan, np.nan, 2.0, 5.0], dtype=np.float32),), label="nan 2"))
    return cases


@sample("median_dim")
def median_dim(rng):
    cases = []
    for d in SORT_DTYPES:
        for s in [(), (5,), (4,), (3, 4), (2, 3, 4), (0, 3)]:
            a = random_array(rng, s, d, -3, 3)  # ties: the lowest index of the median value
            for dim in ([0, -1] if not s else list(range(len(s))) + [-1]):
                if s and s[dim] == 0:
                    continue
                for keepdim in (False, True):
                    cases.append(Case((a, dim, keepdim), label=_label(d, s, dim, keepdim)))
    a = _with_nans(rng, random_array(rng, (5, 6), "float32"))
    a[2, 1:] = np.nan  # (all-NaN lines: tests/parity, the index is PyTorch's algorithm's)
    cases += [Case((a, 1), label="nan dim1"), Case((a, 0), label="nan dim0")]
    return cases


@sample("mode")
def mode(rng):
    # Lines of at most 16 elements (where the per-line sort is an insertion sort).
    cases = []
    for d in REAL:
        for s in [(), (5,), (3, 4), (2, 3, 4), (4, 16)]:
            a = random_array(rng, s, d, -2, 2)
            for dim in ([0, -1] if not s else [0, -1]):
                for keepdim in (False, True):
                    cases.append(Case((a, dim, keepdim), label=_label(d, s, dim, keepdim)))
    return cases


@sample("unique")
def unique(rng):
    cases = []
    for d in REAL:
        for s in [(), (0,), (7,), (3, 4), (2, 3, 4)]:
            a = random_array(rng, s, d, -2, 2)
            for inv in (False, True):
                for cnt in (False, True):
                    cases.append(Case((a,), {"return_inverse": inv, "return_counts": cnt},
                                      label=f"{d}{s} inverse={inv} counts={cnt}"))
    rows = np.array([[1, 2], [0, 5], [1, 2], [0, 4]], dtype=np.int64)
    for dim in (0, 1, -1):
        cases.append(Case((rows,), {"dim": dim, "return_inverse": True, "return_counts": True}, label=f"dim={dim}"))
    cases.append(Case((random_array(rng, (3, 5, 2), "float32", -1, 1).round(),), {"dim": 1}, label="3-d dim=1"))
    cases.append(Case((np.zeros((0, 2), dtype=np.float32),), {"dim": 0, "return_counts": True}, label="empty dim"))
    return cases


@sample("vec_exp")
def vec_exp(rng):
    # float32 only; the whole range, the overflow/underflow edges and the specials.
    x = np.concatenate([rng.uniform(-110, 95, 997), [0.0, -0.0, 88.7, 88.8, -103.9, np.inf, -np.inf, np.nan]])
    return [Case((x.astype(np.float32),), label="float32 range"), Case((np.array(1.5, np.float32),), label="0-d")]
