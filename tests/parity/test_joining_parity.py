"""Joining ops against PyTorch on the same inputs: padding modes, repeat_interleave and
meshgrid edge cases, cat's type promotion, and which calls raise."""
import itertools

import numpy as np
import pytest

import core

torch = pytest.importorskip("torch")
F = torch.nn.functional

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32",
          "float64", "complex64"]


def _pair(shape, dtype, seed=0):
    """The same random values as (core tensor, torch tensor)."""
    rng = np.random.default_rng(seed)
    a = rng.uniform(-5, 5, shape)
    if dtype == "bool":
        a = a > 0
    elif dtype.startswith(("int", "uint")):
        a = np.abs(a).astype(dtype) if dtype == "uint8" else a.astype(dtype)
    elif dtype == "complex64":
        a = (a + 1j * rng.uniform(-5, 5, shape)).astype(np.complex64)
    elif dtype == "bfloat16":
        a = a.astype(np.float32)
    else:
        a = a.astype(dtype)
    ours, theirs = core.tensor(a), torch.from_numpy(np.array(a))
    if dtype == "bfloat16":
        ours, theirs = ours.to(core.bfloat16), theirs.to(torch.bfloat16)
    return ours, theirs


def _same(ours, theirs):
    if isinstance(theirs, (tuple, list)):
        assert len(ours) == len(theirs)
        for o, t in zip(ours, theirs):
            _same(o, t)
        return
    assert str(ours.dtype).split(".")[-1] == str(theirs.dtype).split(".")[-1]
    assert tuple(ours.shape) == tuple(theirs.shape)
    if theirs.dtype == torch.bfloat16:
        ours, theirs = ours.to(core.float32), theirs.to(torch.float32)
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


def _both(our_call, torch_call):
    """Runs both; they must agree on the result or both raise the same exception type."""
    try:
        expected = torch_call()
    except Exception as e:  # noqa: BLE001 - the oracle's verdict is what we compare
        with pytest.raises(type(e)):
            our_call()
        return
    _same(our_call(), expected)


# ---------------------------------------------------------------- pad
PAD_CASES = [
    ((2, 3), (1, 2)), ((2, 3), (2, 0)), ((2, 3), (-1, 2)), ((2, 3), (2, -1)), ((2, 5), (-2, -1)),
    ((1, 2, 3), (1, 1)), ((1, 2, 3), (2, 2)), ((1, 2, 3), (3, 0)), ((1, 2, 3), (-2, 1)), ((1, 2, 5), (-2, 3)),
    ((2, 3, 4), (1, 2, 2, 1)), ((1, 2, 3, 4), (1, 2, 2, 1)), ((1, 2, 3, 4), (-1, 2, 1, -2)),
    ((2, 3, 4, 5), (1, 1, 1, 1, 1, 1)), ((1, 2, 3, 4, 5), (2, 1, 0, 3, 1, 2)), ((0, 2, 3), (1, 1)),
    ((2, 0, 3), (1, 1)), ((1, 2, 3), ()), ((2, 3), (1, 1, 1, 1, 1, 1)), ((3,), (1, 1)),
    ((1, 2, 3, 4, 5, 2), (1, 1)), ((1, 2, 3), (4, 4)), ((1, 2, 3), (1, 1, 1)),
]


@pytest.mark.parametrize("mode", ["constant", "reflect", "replicate", "circular"])
@pytest.mark.parametrize("shape,widths", PAD_CASES, ids=[f"{s}{w}" for s, w in PAD_CASES])
def test_pad_modes(mode, shape, widths):
    ours, theirs = _pair(shape, "float32")
    _both(lambda: core.pad(ours, widths, mode=mode), lambda: F.pad(theirs, widths, mode=mode))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("mode", ["constant", "reflect", "replicate", "circular"])
def test_pad_dtypes(dtype, mode):
    ours, theirs = _pair((2, 3, 4), dtype)
    if dtype == "bool" and mode in ("reflect", "replicate"):
        # PyTorch has no bool kernels for these; we pad bool masks like any other dtype.
        _same(core.pad(ours, (1, 2, 2, 1), mode=mode), F.pad(theirs.to(torch.uint8), (1, 2, 2, 1), mode=mode).bool())
        return
    _both(lambda: core.pad(ours, (1, 2, 2, 1), mode=mode), lambda: F.pad(theirs, (1, 2, 2, 1), mode=mode))


@pytest.mark.parametrize("value", [0, 2, -1.5, 3.7])
@pytest.mark.parametrize("dtype", ["bool", "uint8", "int32", "float16", "float64"])
def test_pad_constant_value(dtype, value):
    ours, theirs = _pair((2, 3), dtype)
    _both(lambda: core.pad(ours, (1, 2, -1, 1), value=value), lambda: F.pad(theirs, (1, 2, -1, 1), value=value))


def test_pad_non_contiguous():
    ours, theirs = _pair((4, 3, 5), "float64")
    for mode in ["constant", "reflect", "replicate", "circular"]:
        _same(core.pad(ours.transpose(0, 2), (1, 2, 2, 1), mode=mode),
              F.pad(theirs.transpose(0, 2), (1, 2, 2, 1), mode=mode))


# ---------------------------------------------------------------- repeat_interleave
RI_CASES = [
    ((3,), 2, None), ((2, 3), 2, None), ((2, 3), 2, 0), ((2, 3), 3, -1), ((2, 3), 0, 1), ((), 3, None),
    ((0, 3), 2, 1), ((0, 3), 2, None), ((2, 3), [1, 2], 0), ((2, 3), [0, 1, 2], 1), ((2, 3), [3], 1),
    ((2, 3), [3], 0), ((2, 3), "0d", None), ((2, 3), "0d", 1), ((4,), [1, 0, 2, 1], None),
    ((4,), [1, 0, 2, 1], 0), ((2, 3), [1, 2, 3], 0), ((2, 3), [[1, 2]], 0), ((2, 3), [1, -1], 0),
    ((2, 3), -1, None), ((2, 3), 2, 2), ((), 2, 0), ((2, 3), [], 0), ((0, 3), [], 0),
]


@pytest.mark.parametrize("rdtype", ["int64", "int32"])
@pytest.mark.parametrize("shape,repeats,dim", RI_CASES, ids=[f"{s}{r}{d}" for s, r, d in RI_CASES])
def test_repeat_interleave(shape, repeats, dim, rdtype):
    ours, theirs = _pair(shape, "float32")
    if isinstance(repeats, int):
        r_ours, r_theirs = repeats, repeats
    else:
        values = np.array(2 if repeats == "0d" else repeats, dtype=rdtype)
        r_ours, r_theirs = core.tensor(values), torch.from_numpy(values)
    _both(lambda: core.repeat_interleave(ours, r_ours, dim=dim),
          lambda: torch.repeat_interleave(theirs, r_theirs, dim=dim))
    _both(lambda: ours.repeat_interleave(r_ours, dim), lambda: theirs.repeat_interleave(r_theirs, dim))


@pytest.mark.parametrize("values", [[2, 0, 1], [], [0], [1, 1, 3]])
@pytest.mark.parametrize("rdtype", ["int64", "int32", "int16"])
def test_repeat_interleave_index_form(values, rdtype):
    v = np.array(values, dtype=rdtype)
    _both(lambda: core.repeat_interleave(core.tensor(v)), lambda: torch.repeat_interleave(torch.from_numpy(v)))


# ---------------------------------------------------------------- meshgrid
MESH_CASES = [[(3,)], [(3,), (4,)], [(2,), (), (3,)], [(), ()], [(0,), (2,)], [(2,), (3,), (4,)], [(1,), (5,)]]


@pytest.mark.parametrize("indexing", ["ij", "xy"])
@pytest.mark.parametrize("shapes", MESH_CASES, ids=[str(s) for s in MESH_CASES])
def test_meshgrid(shapes, indexing):
    pairs = [_pair(s, "int64", seed=i) for i, s in enumerate(shapes)]
    ours = core.meshgrid(*[p[0] for p in pairs], indexing=indexing)
    theirs = torch.meshgrid(*[p[1] for p in pairs], indexing=indexing)
    _same(ours, theirs)
    _same(core.meshgrid([p[0] for p in pairs], indexing=indexing), theirs)
    _same(core.cartesian_prod(*[p[0].reshape(-1) for p in pairs]),
          torch.cartesian_prod(*[p[1].reshape(-1) for p in pairs]))


def test_meshgrid_errors_match():
    a, ta = _pair((2,), "float32")
    b, tb = _pair((3,), "int64")
    c, tc = _pair((2, 2), "float32")
    _both(lambda: core.meshgrid(a, b), lambda: torch.meshgrid(ta, tb, indexing="ij"))
    _both(lambda: core.meshgrid(a, c), lambda: torch.meshgrid(ta, tc, indexing="ij"))
    _both(lambda: core.meshgrid(a, indexing="yx"), lambda: torch.meshgrid(ta, indexing="yx"))


# ---------------------------------------------------------------- cat promotion
@pytest.mark.parametrize("a,b", list(itertools.product(DTYPES, DTYPES)))
def test_cat_promotion(a, b):
    if {a, b} == {"float64", "complex64"}:
        pytest.skip("core has no complex128: float64 + complex64 stays complex64")
    x, tx = _pair((2, 3), a)
    y, ty = _pair((1, 3), b, seed=1)
    e, te = _pair((0,), b, seed=2)
    _both(lambda: core.cat([x, y]), lambda: torch.cat([tx, ty]))
    _both(lambda: core.cat([x, e]), lambda: torch.cat([tx, te]))  # skipped, but promotes


# ---------------------------------------------------------------- shape-building ops
SHAPES = [(), (0,), (5,), (2, 3), (3, 1, 4), (2, 3, 4, 2)]


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_flip_roll_rot90_repeat(shape):
    ours, theirs = _pair(shape, "float32")
    nd = len(shape)
    for dims in ([], [0], [-1], [0, -1]):
        if nd or not dims or dims == [0] or dims == [-1]:
            _both(lambda: ours.flip(dims), lambda: theirs.flip(dims))
    for shifts, dims in [(1, None), (-3, None), (2, 0), ((1, -2), (0, -1)), ((4, 4), (-1, -1))]:
        _both(lambda: core.roll(ours, shifts, dims), lambda: torch.roll(theirs, shifts, dims))
    for k in range(-2, 6):
        _both(lambda: core.rot90(ours, k, [0, -1]), lambda: torch.rot90(theirs, k, [0, -1]))
    for reps in [(2,) * nd, (1, 2) + (1,) * nd, (0,) * nd, (3,) + (2,) * nd]:
        _both(lambda: ours.repeat(reps), lambda: theirs.repeat(reps))
        _both(lambda: ours.tile(reps[1:]), lambda: theirs.tile(reps[1:]))


@pytest.mark.parametrize("shape", SHAPES[1:] + [(4, 4)], ids=str)
def test_triangular_and_diagonals(shape):
    ours, theirs = _pair(shape, "int32")
    for k in (-5, -1, 0, 1, 3):
        _both(lambda: core.tril(ours, k), lambda: torch.tril(theirs, k))
        _both(lambda: core.triu(ours, k), lambda: torch.triu(theirs, k))
        _both(lambda: core.diag(ours, k), lambda: torch.diag(theirs, k))
        _both(lambda: core.diagonal(ours, k, 0, -1), lambda: torch.diagonal(theirs, k, 0, -1))
        _both(lambda: core.diag_embed(ours, k, -1, 0), lambda: torch.diag_embed(theirs, k, -1, 0))
    _both(lambda: core.trace(ours), lambda: torch.trace(theirs))


@pytest.mark.parametrize("shapes", [[(2, 1), (3,)], [(), (2, 3)], [(0, 1), (1, 4)], [(2, 2), (3,)], [(4,)]], ids=str)
def test_broadcast_and_stacks(shapes):
    pairs = [_pair(s, "float64", seed=i) for i, s in enumerate(shapes)]
    ours, theirs = [p[0] for p in pairs], [p[1] for p in pairs]
    _both(lambda: core.broadcast_tensors(*ours), lambda: torch.broadcast_tensors(*theirs))
    for name in ["hstack", "vstack", "dstack", "column_stack", "stack"]:
        _both(lambda: getattr(core, name)(ours), lambda: getattr(torch, name)(theirs))
    for name in ["atleast_1d", "atleast_2d", "atleast_3d"]:
        _both(lambda: getattr(core, name)(*ours), lambda: getattr(torch, name)(*theirs))
