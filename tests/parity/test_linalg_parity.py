"""Linear algebra against PyTorch on the same inputs: values, dtypes, shapes, and the
errors (type and message) where PyTorch's semantics are subtle."""
import numpy as np
import pytest

import core

torch = pytest.importorskip("torch")


def pair(array):
    array = np.ascontiguousarray(array)
    return core.tensor(array), torch.from_numpy(array.copy())


def check_same(ours, theirs, rtol=1e-5, atol=1e-5):
    theirs_np = theirs.numpy()
    ours_np = ours.numpy()
    assert ours_np.shape == theirs_np.shape
    assert ours_np.dtype == theirs_np.dtype
    if theirs_np.dtype.kind in "fc":
        np.testing.assert_allclose(ours_np, theirs_np, rtol=rtol, atol=atol)
    else:
        np.testing.assert_array_equal(ours_np, theirs_np)


def both(fn_name, *arrays, **kwargs):
    ours_args, theirs_args = zip(*(pair(a) for a in arrays))
    return getattr(core, fn_name)(*ours_args, **kwargs), getattr(torch, fn_name)(*theirs_args, **kwargs)


def rand(rng, shape, dtype=np.float32):
    if np.dtype(dtype).kind in "iu":
        return rng.integers(-60, 60, shape).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


@pytest.mark.parametrize("sa,sb", [
    ((4,), (4,)), ((3, 4), (4,)), ((4,), (4, 5)), ((3, 4), (4, 5)), ((2, 3, 4), (4,)), ((4,), (2, 4, 5)),
    ((2, 3, 4), (4, 5)), ((3, 4), (2, 4, 5)), ((2, 1, 3, 4), (5, 4, 6)), ((1, 3, 4), (2, 1, 4, 6)),
    ((0, 3, 4), (4, 2)), ((2, 3, 0), (2, 0, 5)),
])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64, np.int8, np.complex64])
def test_matmul(rng, sa, sb, dtype):
    a, b = rand(rng, sa, dtype), rand(rng, sb, dtype)
    if dtype == np.complex64:
        a = a + 1j * rand(rng, sa)
        b = b + 1j * rand(rng, sb)
        a, b = a.astype(dtype), b.astype(dtype)
    check_same(*both("matmul", a, b))


@pytest.mark.parametrize("eq,shapes", [
    ("ij,jk", [(2, 3), (3, 4)]), ("ji", [(2, 3)]), ("ba", [(2, 3)]), ("Ab,bA", [(2, 3), (3, 2)]),
    ("aB,Ba", [(2, 3), (3, 2)]), ("bij,bjk->bik", [(2, 2, 3), (2, 3, 4)]),
    ("bhqd,bhkd->bhqk", [(2, 3, 4, 5), (2, 3, 6, 5)]), ("...ij,...jk", [(2, 1, 2, 3), (3, 3, 4)]),
    ("ii->i", [(3, 3)]), ("ii", [(3, 3)]), ("iij->ji", [(3, 3, 2)]), ("i,j->ij", [(3,), (4,)]),
    ("ij,jk->ik", [(2, 1), (4, 5)]), ("i,i->i", [(1,), (4,)]), ("...,...->...", [(2, 1), (1, 3)]),
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)]), ("abc,cd,bd->a", [(2, 3, 4), (4, 5), (3, 5)]),
    ("...ij->...", [(4, 2, 3)]), ("i...->...", [(3, 2, 2)]), ("ij->", [(0, 3)]),
])
def test_einsum(rng, eq, shapes):
    arrays = [rand(rng, s) for s in shapes]
    ours = core.einsum(eq, *(core.tensor(a) for a in arrays))
    theirs = torch.einsum(eq, *(torch.from_numpy(a) for a in arrays))
    check_same(ours, theirs, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("sa,sb,dims", [
    ((2, 3, 4), (3, 4, 5), 2), ((2, 3), (3, 4), 1), ((2, 3), (4, 5), 0), ((2, 3, 4), (4, 3, 5), ([1, 2], [1, 0])),
    ((2, 1), (3, 5), ([1], [0])), ((3, 4), (1, 5), ([1], [0])),
])
def test_tensordot(rng, sa, sb, dims):
    check_same(*both("tensordot", rand(rng, sa), rand(rng, sb), dims=dims))


@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.int16])
@pytest.mark.parametrize("fn,shapes", [
    ("addmm", [(2, 4), (2, 3), (3, 4)]), ("addmm", [(4,), (2, 3), (3, 4)]), ("addmm", [(), (2, 3), (3, 4)]),
    ("addmv", [(2,), (2, 3), (3,)]), ("addmv", [(1,), (2, 3), (3,)]),
    ("baddbmm", [(2, 2, 4), (2, 2, 3), (2, 3, 4)]), ("baddbmm", [(2, 4), (2, 2, 3), (2, 3, 4)]),
    ("addbmm", [(2, 4), (3, 2, 3), (3, 3, 4)]), ("addbmm", [(1, 4), (3, 2, 3), (3, 3, 4)]),
])
def test_add_family(rng, fn, shapes, dtype):
    arrays = [rand(rng, s, dtype) for s in shapes]
    coeffs = {"beta": 2, "alpha": 3} if np.dtype(dtype).kind == "i" else {"beta": 0.5, "alpha": -2.0}
    check_same(*both(fn, *arrays))
    check_same(*both(fn, *arrays, **coeffs))


@pytest.mark.parametrize("fn,shapes", [
    ("mm", [(2, 3), (3, 4)]), ("bmm", [(2, 2, 3), (2, 3, 4)]), ("mv", [(2, 3), (3,)]), ("dot", [(5,), (5,)]),
    ("matmul", [(2, 2, 3), (3, 4)]),
])
@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.int32])
def test_small_integer_products_wrap_identically(rng, fn, shapes, dtype):
    arrays = [rng.integers(0 if dtype == np.uint8 else -120, 120, s).astype(dtype) for s in shapes]
    check_same(*both(fn, *arrays))


def test_half_types(rng):
    a, b = rand(rng, (8, 16)), rand(rng, (16, 4))
    for ours_dt, torch_dt in ((core.float16, torch.float16), (core.bfloat16, torch.bfloat16)):
        ours = core.mm(core.tensor(a).to(ours_dt), core.tensor(b).to(ours_dt)).to(core.float32)
        theirs = torch.mm(torch.from_numpy(a).to(torch_dt), torch.from_numpy(b).to(torch_dt)).float()
        np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=2e-2, atol=5e-2)


def test_outer_promotes_like_torch(rng):
    a, b = np.array([1, 2, 3], np.int64), rand(rng, (2,))
    check_same(*both("outer", a, b))
    check_same(*both("ger", np.array([True, False]), np.array([True, True])))


def error_of(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the type is what is compared
        return type(e), str(e)
    return None, ""


@pytest.mark.parametrize("call", [
    lambda m: m.mm(m.ones(2, 3), m.ones(4, 5)),
    lambda m: m.mm(m.ones(2, 3), m.ones(3, 4, dtype=m.float64)),
    lambda m: m.matmul(m.ones(()), m.ones(3, 5)),
    lambda m: m.matmul(m.ones(3), m.ones(4)),
    lambda m: m.matmul(m.ones(2, 3), m.ones(4)),
    lambda m: m.matmul(m.ones(2, 2, 3), m.ones(2, 4, 5)),
    lambda m: m.bmm(m.ones(2, 3), m.ones(2, 3, 4)),
    lambda m: m.bmm(m.ones(2, 2, 3), m.ones(2, 3, 4, dtype=m.float64)),
    lambda m: m.mv(m.ones(2, 3), m.ones(3, 1)),
    lambda m: m.dot(m.ones(3), m.ones(3, dtype=m.float64)),
    lambda m: m.outer(m.ones(3, 1), m.ones(3)),
    lambda m: m.addmm(m.ones(2, 4), m.ones(3), m.ones(3, 4)),
    lambda m: m.addbmm(m.ones(2, 4), m.ones(2, 2, 3), m.ones(3, 3, 4)),
    lambda m: m.ones(4).addmm_(m.ones(2, 3), m.ones(3, 4)),
    lambda m: m.tensordot(m.ones(2, 3), m.ones(3, 5), dims=-1),
    lambda m: m.einsum("ij,jk", m.ones(2, 3)),
    lambda m: m.einsum("ij->ii", m.ones(2, 3)),
    lambda m: m.einsum("ij,jk", m.ones(2, 3), m.ones(4, 5)),
])
def test_errors_match(call):
    ours_type, ours_msg = error_of(lambda: call(core))
    theirs_type, theirs_msg = error_of(lambda: call(torch))
    assert theirs_type is not None and ours_type is theirs_type
    # ours may prefix "op(): "; PyTorch's first line must appear in ours
    assert theirs_msg.splitlines()[0].strip() in ours_msg


def test_bool_products_raise_not_implemented_like_torch():
    # PyTorch names its internal kernel ("addmm_impl_cpu_"); ours names the op.
    def call(m):
        return m.mm(m.ones(2, 3, dtype=m.bool), m.ones(3, 2, dtype=m.bool))

    ours_type, ours_msg = error_of(lambda: call(core))
    theirs_type, _ = error_of(lambda: call(torch))
    assert ours_type is theirs_type is NotImplementedError
    assert "not implemented for 'Bool'" in ours_msg
