"""Hand-written tests of the linear-algebra family: errors (type and message), edge cases,
layouts, the parallel GEMM split, in-place semantics and the Python argument forms."""
import numpy as np
import pytest

import core


def t(array, dtype=None):
    out = core.tensor(np.asarray(array))
    return out if dtype is None else out.to(dtype)


def rand(rng, *shape, dtype=np.float32):
    return rng.standard_normal(shape).astype(dtype)


@pytest.fixture
def threads():
    saved = core.get_num_threads()
    yield
    core.set_num_threads(saved)


# ---------------------------------------------------------------- shape errors
@pytest.mark.parametrize("fn,args,fragment", [
    ("mm", ((2, 3), (4, 5)), r"mat1 and mat2 shapes cannot be multiplied \(2x3 and 4x5\)"),
    ("mm", ((3,), (3, 5)), "self must be a matrix"),
    ("mm", ((2, 3), (3,)), "mat2 must be a matrix"),
    ("matmul", ((2, 3), (4, 5)), r"mat1 and mat2 shapes cannot be multiplied \(2x3 and 4x5\)"),
    ("matmul", ((3,), (4, 5)), r"mat1 and mat2 shapes cannot be multiplied \(1x3 and 4x5\)"),
    ("matmul", ((3,), (4,)), "inconsistent tensor size, expected tensor \\[3\\] and src \\[4\\]"),
    ("matmul", ((2, 3), (4,)), r"size mismatch, got input \(2\), mat \(2x3\), vec \(4\)"),
    ("matmul", ((2, 2, 3), (2, 4, 5)), r"Expected size for first two dimensions of batch2 tensor to be: \[2, 3\] but got: \[2, 4\]"),
    ("matmul", ((2, 2, 3), (3, 3, 5)), "must match the size of tensor b"),
    ("matmul", ((), (3, 5)), "both arguments to matmul need to be at least 1D, but they are 0D and 2D"),
    ("matmul", ((3,), ()), "both arguments to matmul need to be at least 1D, but they are 1D and 0D"),
    ("bmm", ((2, 3), (2, 3, 4)), "batch1 must be a 3D tensor"),
    ("bmm", ((2, 2, 3), (3, 4)), "batch2 must be a 3D tensor"),
    ("bmm", ((2, 2, 3), (3, 3, 5)), r"Expected size for first two dimensions of batch2 tensor to be: \[2, 3\] but got: \[3, 3\]"),
    ("mv", ((2, 3), (4,)), r"size mismatch, got input \(2\), mat \(2x3\), vec \(4\)"),
    ("mv", ((2, 3), (3, 1)), "vector \\+ matrix @ vector expected, got 1, 2, 2"),
    ("dot", ((3, 1), (3,)), "1D tensors expected, but got 2D and 1D tensors"),
    ("dot", ((3,), (4,)), "inconsistent tensor size"),
    ("vdot", ((3,), (4,)), "inconsistent tensor size"),
    ("outer", ((3, 1), (3,)), "outer: Expected 1-D argument self, but got 2-D"),
    ("outer", ((3,), (3, 2)), "outer: Expected 1-D argument vec2, but got 2-D"),
])
def test_shape_errors(fn, args, fragment):
    a, b = (core.ones(s) for s in args)
    with pytest.raises(RuntimeError, match=fragment):
        getattr(core, fn)(a, b)


def test_error_messages_name_the_op():
    with pytest.raises(RuntimeError, match=r"^mm\(\): mat1 and mat2 shapes"):
        core.mm(core.ones(2, 3), core.ones(4, 5))
    with pytest.raises(RuntimeError, match=r"^matmul\(\): both arguments"):
        core.matmul(core.ones(()), core.ones(2))


@pytest.mark.parametrize("fn,shapes,fragment", [
    ("addmm", ((3,), (2, 3), (3, 4)), "must match the existing size"),
    ("addmm", ((2, 4), (3,), (3, 4)), "mat1 must be a matrix, got 1-D tensor"),
    ("addmm", ((2, 4), (2, 3), (3,)), "mat2 must be a matrix, got 1-D tensor"),
    ("addmm", ((2, 4), (2, 3), (4, 4)), r"mat1 and mat2 shapes cannot be multiplied \(2x3 and 4x4\)"),
    ("addmv", ((3,), (2, 3), (3,)), r"size mismatch, got input \(3\), mat \(2x3\), vec \(3\)"),
    ("addmv", ((2, 2), (2, 3), (3,)), "vector \\+ matrix @ vector expected, got 2, 2, 1"),
    ("baddbmm", ((3, 2, 4), (2, 2, 3), (2, 3, 4)), "must match the existing size"),
    ("baddbmm", ((2, 2, 4), (2, 3), (2, 3, 4)), "batch1 must be a 3D tensor"),
    ("baddbmm", ((2, 2, 4), (2, 2, 3), (2, 4, 4)), "Expected size for first two dimensions of batch2 tensor"),
    ("addbmm", ((2, 4), (2, 2, 3), (3, 3, 4)), "batch1 and batch2 must have same number of batches, got 2 and 3"),
    ("addbmm", ((2, 4), (2, 2, 3), (2, 4, 4)), r"Incompatible matrix sizes for bmm \(2x3 and 4x4\)"),
    ("addbmm", ((3, 4), (2, 2, 3), (2, 3, 4)), "must match the existing size"),
])
def test_add_family_shape_errors(fn, shapes, fragment):
    with pytest.raises(RuntimeError, match=fragment):
        getattr(core, fn)(*(core.ones(s) for s in shapes))


@pytest.mark.parametrize("fn,self_shape,shapes", [
    ("addmm_", (4,), ((2, 3), (3, 4))),
    ("addmv_", (1,), ((2, 3), (3,))),
    ("baddbmm_", (2, 4), ((2, 2, 3), (2, 3, 4))),
    ("addbmm_", (1, 4), ((3, 2, 3), (3, 3, 4))),
])
def test_inplace_needs_the_result_shape(fn, self_shape, shapes):
    with pytest.raises(RuntimeError, match="Bad in-place call: input tensor size"):
        getattr(core.ones(self_shape), fn)(*(core.ones(s) for s in shapes))


# ---------------------------------------------------------------- dtype errors (no promotion)
def test_mm_dtype_mismatch_message():
    with pytest.raises(RuntimeError, match="expected m1 and m2 to have the same dtype, but got: float != double"):
        core.mm(core.ones(2, 3), core.ones(3, 4, dtype=core.float64))
    with pytest.raises(RuntimeError, match="expected m1 and m2 to have the same dtype, but got: float != double"):
        core.ones(2, 3) @ core.ones(3, 4, dtype=core.float64)
    with pytest.raises(RuntimeError, match="expected m1 and m2 to have the same dtype, but got: long int != float"):
        core.mm(core.ones(2, 3, dtype=core.int64), core.ones(3, 4))


@pytest.mark.parametrize("call,fragment", [
    (lambda f, d: core.bmm(f(2, 2, 3), d(2, 3, 4)), "expected scalar type Float but found Double"),
    (lambda f, d: core.matmul(f(2, 2, 3), d(2, 3, 4)), "expected scalar type Float but found Double"),
    (lambda f, d: core.mv(f(2, 3), d(3)), "addmv input tensors must have the same dtype, but got Double, Float, and Double"),
    (lambda f, d: core.dot(f(3), d(3)), "dot : expected both vectors to have same dtype, but found Float and Double"),
    (lambda f, d: core.matmul(f(3), d(3)), "dot : expected both vectors to have same dtype"),
    (lambda f, d: core.addmm(d(2, 4), f(2, 3), f(3, 4)), "self and mat2 must have the same dtype, but got Double and Float"),
    (lambda f, d: core.addmm(f(2, 4), f(2, 3), d(3, 4)), "self and mat2 must have the same dtype, but got Float and Double"),
    (lambda f, d: core.addmm(f(2, 4), d(2, 3), f(3, 4)), "expected m1 and m2 to have the same dtype, but got: double != float"),
    (lambda f, d: core.baddbmm(d(2, 2, 4), f(2, 2, 3), f(2, 3, 4)), "Input dtypes must be the same, got: input double, batch1: float, batch2: float"),
    (lambda f, d: core.addmv(d(2), f(2, 3), f(3)), "addmv input tensors must have the same dtype, but got Double, Float, and Float"),
    (lambda f, d: core.einsum("ij,jk", f(2, 3), d(3, 4)), "expected scalar type Float but found Double"),
    (lambda f, d: core.tensordot(f(2, 3), d(3, 4), 1), "both inputs should have same dtype"),
])
def test_dtype_mismatch(call, fragment):
    def f(*s):
        return core.ones(s)

    def d(*s):
        return core.ones(s, dtype=core.float64)

    with pytest.raises(RuntimeError, match=fragment):
        call(f, d)


@pytest.mark.parametrize("fn,shapes", [
    ("mm", ((2, 3), (3, 4))), ("bmm", ((1, 2, 3), (1, 3, 4))), ("mv", ((2, 3), (3,))), ("dot", ((3,), (3,))),
    ("matmul", ((2, 2, 3), (2, 3, 4))),
])
def test_bool_products_are_not_implemented(fn, shapes):
    with pytest.raises(NotImplementedError, match="not implemented for 'Bool'"):
        getattr(core, fn)(*(core.ones(s, dtype=core.bool) for s in shapes))


def test_outer_of_bools_works_and_outer_promotes():
    a = t([True, False])
    assert core.outer(a, a).tolist() == [[True, False], [False, False]]
    r = core.outer(core.ones(2, dtype=core.int64), core.ones(3, dtype=core.float64))
    assert r.dtype == core.float64 and r.shape == (2, 3)
    assert core.ger(t([1, 2]), t([3])).tolist() == [[3], [6]]


# ---------------------------------------------------------------- edge cases
def test_empty_dims():
    r = core.mm(core.ones(0, 3), core.ones(3, 0))
    assert r.shape == (0, 0)
    r = core.mm(core.ones(2, 0), core.ones(0, 3))
    assert r.shape == (2, 3) and np.all(r.numpy() == 0)
    r = core.matmul(core.ones(0), core.ones(0))
    assert r.shape == () and r.item() == 0
    r = core.matmul(core.ones(4, 2, 0), core.ones(0, 5))
    assert r.shape == (4, 2, 5) and np.all(r.numpy() == 0)
    r = core.bmm(core.ones(0, 2, 3), core.ones(0, 3, 4))
    assert r.shape == (0, 2, 4)
    r = core.addmm(core.full((2, 3), 1.5), core.ones(2, 0), core.ones(0, 3), beta=2)
    assert np.all(r.numpy() == 3.0)
    r = core.einsum("ij,jk->ik", core.ones(2, 0), core.ones(0, 3))
    assert r.shape == (2, 3) and np.all(r.numpy() == 0)


@pytest.mark.parametrize("sa,sb,expected", [
    ((3,), (3,), ()), ((2, 3), (3,), (2,)), ((3,), (3, 4), (4,)), ((2, 3), (3, 4), (2, 4)),
    ((5, 2, 3), (3,), (5, 2)), ((3,), (5, 3, 4), (5, 4)), ((5, 2, 3), (3, 4), (5, 2, 4)),
    ((2, 3), (5, 3, 4), (5, 2, 4)), ((7, 1, 2, 3), (5, 3, 4), (7, 5, 2, 4)), ((1, 2, 3), (6, 1, 3, 4), (6, 1, 2, 4)),
])
def test_matmul_shapes_and_values(rng, sa, sb, expected):
    a, b = rand(rng, *sa), rand(rng, *sb)
    r = core.matmul(t(a), t(b))
    assert r.shape == expected
    np.testing.assert_allclose(r.numpy(), np.matmul(a, b), rtol=1e-5, atol=1e-5)


def test_matmul_operator_and_rmatmul(rng):
    a, b = rand(rng, 3, 4), rand(rng, 4, 2)
    np.testing.assert_allclose((t(a) @ t(b)).numpy(), a @ b, rtol=1e-5, atol=1e-6)
    x = t(a)
    before = x
    x @= t(b)  # rebinds, as in PyTorch (no in-place matmul)
    assert x is not before and x.shape == (3, 2) and before.shape == (3, 4)
    with pytest.raises(TypeError):
        t(a) @ "not a tensor"
    with pytest.raises(RuntimeError, match="at least 1D"):
        t(a) @ 2
    with pytest.raises(RuntimeError, match="at least 1D"):
        2 @ t(a)


@pytest.mark.parametrize("layout", ["T", "TT", "strided", "both_strided", "batch_permuted", "expanded"])
def test_non_contiguous_inputs(rng, layout):
    a, b = rand(rng, 6, 8), rand(rng, 8, 5)
    if layout == "T":
        ta, tb = t(a.T.copy()).transpose(0, 1), t(b)
    elif layout == "TT":
        ta, tb = t(a.T.copy()).transpose(0, 1), t(b.T.copy()).transpose(0, 1)
    elif layout == "strided":
        wide = np.zeros((6, 16), np.float32)
        wide[:, ::2] = a
        ta, tb = core.as_strided(t(wide), (6, 8), (16, 2)), t(b)
    elif layout == "both_strided":
        ta = core.as_strided(t(np.repeat(np.repeat(a, 2, 0), 2, 1)), (6, 8), (32, 2))
        tb = core.as_strided(t(np.repeat(b, 3, 1)), (8, 5), (15, 3))
    elif layout == "batch_permuted":
        a3, b3 = rand(rng, 3, 6, 8), rand(rng, 3, 8, 5)
        ta, tb = t(a3.transpose(1, 0, 2).copy()).permute(1, 0, 2), t(b3.transpose(2, 1, 0).copy()).permute(2, 1, 0)
        np.testing.assert_allclose(core.bmm(ta, tb).numpy(), a3 @ b3, rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(core.matmul(ta, tb).numpy(), a3 @ b3, rtol=1e-5, atol=1e-5)
        return
    else:  # expanded: a zero-stride row dim
        ta, tb = t(a[:1]).expand(6, 8), t(b)
        a = np.broadcast_to(a[:1], (6, 8))
    np.testing.assert_allclose(core.mm(ta, tb).numpy(), a @ b, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(core.matmul(ta, tb).numpy(), a @ b, rtol=1e-5, atol=1e-5)


def test_transposed_output_is_fresh_and_contiguous(rng):
    a, b = rand(rng, 4, 3), rand(rng, 3, 5)
    r = core.mm(t(a.T.copy()).transpose(0, 1), t(b.T.copy()).transpose(0, 1))
    assert r.is_contiguous() and r.shape == (4, 5)


def test_half_types_compute_in_float32(rng):
    a, b = rand(rng, 4, 6), rand(rng, 6, 3)
    for dt in (core.float16, core.bfloat16):
        r = core.mm(t(a).to(dt), t(b).to(dt))
        assert r.dtype == dt
        np.testing.assert_allclose(r.to(core.float32).numpy(), a @ b, rtol=5e-2, atol=5e-2)
        r = core.einsum("ij,jk->ik", t(a).to(dt), t(b).to(dt))
        assert r.dtype == dt
        assert core.dot(t(a[0]).to(dt), t(a[1]).to(dt)).dtype == dt
        r = core.addmm(t(np.ones((4, 3), np.float32)).to(dt), t(a).to(dt), t(b).to(dt), beta=0.5)
        np.testing.assert_allclose(r.to(core.float32).numpy(), 0.5 + a @ b, rtol=5e-2, atol=5e-2)


def test_integer_products_wrap_like_pytorch():
    a = t(np.array([100, 100], np.int8))
    b = t(np.array([2, 2], np.int8))
    assert core.dot(a, b).item() == -112
    m = core.mm(t(np.full((1, 2), 100, np.int8)), t(np.full((2, 1), 2, np.int8)))
    assert m.item() == -112 and m.dtype == core.int8


def test_beta_zero_ignores_nan_input():
    inp = core.full((2, 2), float("nan"))
    r = core.addmm(inp, core.ones(2, 3), core.ones(3, 2), beta=0)
    assert np.all(r.numpy() == 3)
    r = core.baddbmm(core.full((1, 2, 2), float("nan")), core.ones(1, 2, 3), core.ones(1, 3, 2), beta=0, alpha=2)
    assert np.all(r.numpy() == 6)


def test_complex_vdot_conjugates():
    a = np.array([1 + 2j, 3 - 1j], np.complex64)
    b = np.array([2 - 1j, 1j], np.complex64)
    assert complex(core.vdot(t(a), t(b)).item()) == pytest.approx(complex(np.vdot(a, b)))
    assert complex(core.dot(t(a), t(b)).item()) == pytest.approx(complex(np.dot(a, b)))


# ---------------------------------------------------------------- the parallel split
@pytest.mark.parametrize("shape_a,shape_b", [
    ((300, 200), (200, 260)),      # split along rows
    ((40, 300), (300, 600)),       # split along columns (n > m)
    ((6, 64, 48), (6, 48, 80)),    # batched: split over the batch
    ((1, 700), (700, 900)),        # a single row
])
def test_parallel_gemm_equals_serial(rng, threads, shape_a, shape_b):
    a, b = rand(rng, *shape_a), rand(rng, *shape_b)
    core.set_num_threads(1)
    serial = core.matmul(t(a), t(b)).numpy()
    core.set_num_threads(4)
    parallel = core.matmul(t(a), t(b)).numpy()
    # BLAS edge tiles may sum in another order than full tiles: equal up to float rounding
    np.testing.assert_allclose(parallel, serial, rtol=1e-5, atol=1e-4)
    np.testing.assert_allclose(parallel, np.matmul(a.astype(np.float64), b), rtol=1e-4, atol=1e-3)


def test_parallel_integer_gemm_is_exact(rng, threads):
    a = rng.integers(-50, 50, (200, 150))
    b = rng.integers(-50, 50, (150, 120))
    core.set_num_threads(1)
    serial = core.mm(t(a), t(b)).numpy()
    core.set_num_threads(3)
    parallel = core.mm(t(a), t(b)).numpy()
    np.testing.assert_array_equal(serial, a @ b)
    np.testing.assert_array_equal(parallel, a @ b)


def test_parallel_float64_and_transposed(rng, threads):
    a, b = rand(rng, 256, 300, dtype=np.float64), rand(rng, 300, 128, dtype=np.float64)
    core.set_num_threads(2)
    r = core.mm(t(a.T.copy()).transpose(0, 1), t(b))
    np.testing.assert_allclose(r.numpy(), a @ b, rtol=1e-12, atol=1e-10)


# ---------------------------------------------------------------- in-place variants
def test_addmm_inplace_returns_self_and_bumps_version(rng):
    x = core.ones(2, 4)
    v = x._version
    r = x.addmm_(core.ones(2, 3), core.ones(3, 4), beta=2, alpha=0.5)
    assert r is x and x._version > v
    np.testing.assert_allclose(x.numpy(), np.full((2, 4), 3.5))


def test_inplace_with_aliased_operand():
    x = t(np.eye(3, dtype=np.float32) * 2)
    x.addmm_(x, x)  # x + x @ x, computed before x is overwritten
    np.testing.assert_allclose(x.numpy(), np.eye(3) * 6)
    y = t(np.ones((2, 2, 2), np.float32))
    y.baddbmm_(y, y, alpha=1)
    np.testing.assert_allclose(y.numpy(), np.full((2, 2, 2), 3.0))
    z = core.ones(3)
    z.addmv_(core.ones(3, 3), z)
    np.testing.assert_allclose(z.numpy(), np.full(3, 4.0))


def test_addbmm_sums_batches(rng):
    b1, b2 = rand(rng, 5, 3, 4), rand(rng, 5, 4, 2)
    inp = rand(rng, 3, 2)
    r = core.addbmm(t(inp), t(b1), t(b2), beta=0.5, alpha=2)
    np.testing.assert_allclose(r.numpy(), 0.5 * inp + 2 * (b1 @ b2).sum(0), rtol=1e-5, atol=1e-5)
    x = t(inp)
    x.addbmm_(t(b1), t(b2))
    np.testing.assert_allclose(x.numpy(), inp + (b1 @ b2).sum(0), rtol=1e-5, atol=1e-5)


def test_methods_exist():
    x = core.ones(2, 3)
    assert x.mm(core.ones(3, 2)).shape == (2, 2)
    assert x.matmul(core.ones(3)).shape == (2,)
    assert x.mv(core.ones(3)).shape == (2,)
    assert core.ones(3).dot(core.ones(3)).item() == 3
    assert core.ones(3).outer(core.ones(2)).shape == (3, 2)
    assert core.ones(1, 2, 3).bmm(core.ones(1, 3, 4)).shape == (1, 2, 4)
    assert core.ones(2, 4).addmm(x, core.ones(3, 4)).shape == (2, 4)
    assert not hasattr(core.Tensor, "tensordot") and not hasattr(core.Tensor, "einsum")


# ---------------------------------------------------------------- tensordot
def test_tensordot_forms(rng):
    a, b = rand(rng, 2, 3, 4), rand(rng, 3, 4, 5)
    expected = np.tensordot(a, b, axes=2)
    for dims in (2, ([1, 2], [0, 1]), [[1, 2], [0, 1]], ((-2, -1), (0, 1)), t(np.array([[1, 2], [0, 1]]))):
        np.testing.assert_allclose(core.tensordot(t(a), t(b), dims=dims).numpy(), expected, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(core.tensordot(t(a), t(b), ([1], [0])).numpy(), np.tensordot(a, b, ([1], [0])),
                               rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(core.tensordot(t(a), t(b), dims=(1, 0)).numpy(), np.tensordot(a, b, ([1], [0])),
                               rtol=1e-5, atol=1e-5)
    assert core.tensordot(t(a), t(b), dims=0).shape == (2, 3, 4, 3, 4, 5)


def test_tensordot_broadcasts_size_one_contracted_dims(rng):
    a, b = rand(rng, 2, 1), rand(rng, 3, 5)
    r = core.tensordot(t(a), t(b), dims=([1], [0]))
    np.testing.assert_allclose(r.numpy(), a @ b.sum(0, keepdims=True), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("sb,dims,fragment", [
    ((3, 5), -1, "tensordot expects dims >= 0, but got dims=-1"),
    ((3, 5), 3, "tensordot expects dims < ndim_a or ndim_b, but got dims=3"),
    ((3, 5), ([1], [0, 1]), "both dimension lists should have same length"),
    ((2, 2), ([0, 0], [0, 1]), "dim 0 appears multiple times in the list of dims"),
    ((3, 5), ([0], [1]), "contracted dimensions need to match, but first has size 2 in dim 0 and second has size 5 in dim 1"),
    ((3, 5), ([2], [0]), "imension out of range"),
])
def test_tensordot_errors(sb, dims, fragment):
    with pytest.raises((RuntimeError, IndexError), match=fragment):
        core.tensordot(core.ones(2, 3) if sb != (2, 2) else core.ones(2, 2), core.ones(sb), dims=dims)


# ---------------------------------------------------------------- einsum
def test_einsum_argument_forms(rng):
    a, b = rand(rng, 2, 3), rand(rng, 3, 4)
    expected = a @ b
    for r in (core.einsum("ij,jk", t(a), t(b)), core.einsum("ij,jk->ik", [t(a), t(b)]),
              core.einsum("ij,jk->ik", (t(a), t(b))), core.einsum(t(a), [0, 1], t(b), [1, 2], [0, 2]),
              core.einsum(t(a), [Ellipsis, 1], t(b), [1, 2])):
        np.testing.assert_allclose(r.numpy(), expected, rtol=1e-5, atol=1e-5)


def test_einsum_attention_pattern(rng):
    q, k, v = rand(rng, 2, 4, 16, 8), rand(rng, 2, 4, 24, 8), rand(rng, 2, 4, 24, 8)
    scores = core.einsum("bhqd,bhkd->bhqk", t(q), t(k))
    np.testing.assert_allclose(scores.numpy(), np.einsum("bhqd,bhkd->bhqk", q, k), rtol=1e-5, atol=1e-5)
    out = core.einsum("bhqk,bhkd->bhqd", scores, t(v))
    np.testing.assert_allclose(out.numpy(), np.einsum("bhqk,bhkd->bhqd", scores.numpy(), v), rtol=1e-4, atol=1e-4)


def test_einsum_single_operand_views_share_storage():
    x = t(np.arange(9, dtype=np.float32).reshape(3, 3))
    d = core.einsum("ii->i", x)
    assert d.tolist() == [0, 4, 8] and d.data_ptr() == x.data_ptr()
    assert core.einsum("ij->ji", x).data_ptr() == x.data_ptr()
    assert core.einsum("ii", x).item() == 12


def test_einsum_many_operands_and_sums(rng):
    a, b, c = rand(rng, 2, 3, 4), rand(rng, 4, 5), rand(rng, 3, 5)
    np.testing.assert_allclose(core.einsum("abc,cd,bd->a", t(a), t(b), t(c)).numpy(),
                               np.einsum("abc,cd,bd->a", a, b, c), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(core.einsum("abc->b", t(a)).numpy(), a.sum((0, 2)), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(core.einsum("abc,abc->", t(a), t(a)).numpy(), (a * a).sum(), rtol=1e-5)


@pytest.mark.parametrize("eq,shapes,fragment", [
    ("ij,jk", [(2, 3)], "fewer operands were provided than specified in the equation"),
    ("ij", [(2, 3), (2, 3)], "more operands were provided than specified in the equation"),
    ("ij", [(2, 3, 4)], r"the number of subscripts in the equation \(2\) does not match the number of dimensions \(3\) for operand 0 and no ellipsis was given"),
    ("ijk...", [(2, 3)], r"the number of subscripts in the equation \(3\) is more than the number of dimensions \(2\)"),
    ("ij,jk", [(2, 3), (4, 5)], "subscript j has size 4 for operand 1 which does not broadcast with previously seen size 3"),
    ("...ij,...jk", [(2, 2, 3), (3, 3, 5)], "covered by ellipsis in operand 1 has size 3 which does not broadcast"),
    ("ij->ii", [(2, 3)], "output subscript i appears more than once in the output"),
    ("ij->k", [(2, 3)], "output subscript k does not appear in the equation for any input operand"),
    ("ii", [(2, 3)], "subscript i is repeated for operand 0 but the sizes don't match, 2 != 3"),
    ("i1", [(2, 3)], "invalid subscript given at index 1 in the equation string, subscripts must be in \\[a-zA-Z\\]"),
    ("i.j", [(2, 3)], "that is not part of any ellipsis"),
    ("......", [(2, 3)], "found more than one ellipsis"),
])
def test_einsum_errors(eq, shapes, fragment):
    with pytest.raises(RuntimeError, match=fragment):
        core.einsum(eq, *(core.ones(s) for s in shapes))


def test_einsum_needs_an_operand():
    with pytest.raises(ValueError, match="einsum"):
        core.einsum("ij")


def test_einsum_broadcasts_size_one_dims(rng):
    a, b = rand(rng, 2, 1), rand(rng, 4, 5)
    r = core.einsum("ij,jk->ik", t(a), t(b))
    np.testing.assert_allclose(r.numpy(), a @ b.sum(0, keepdims=True), rtol=1e-5, atol=1e-5)
