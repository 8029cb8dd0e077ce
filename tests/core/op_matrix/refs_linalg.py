"""numpy references of the linear-algebra family. Products keep their operands' dtype
(no promotion); they are computed exactly-ish in a wide type and cast back, so integer
results wrap like PyTorch's and half results round once."""
import numpy as np

from .registry import reference, torch_result_type

_WIDE = {"f": np.float64, "c": np.complex128, "i": np.int64, "u": np.int64}
_TOL = dict(atol=1e-4, rtol=1e-5)


def _wide(a):
    return np.asarray(a).astype(_WIDE[np.asarray(a).dtype.kind])


def _cast(value, dtype):
    # wide ints wrap when cast back (int64 -> int8 keeps the low bits, like the kernels)
    return np.asarray(value).astype(dtype)


def _product(fn, *arrays):
    return _cast(fn(*[_wide(a) for a in arrays]), arrays[0].dtype)


def _affine(inp, product, beta, alpha):
    """beta * input + alpha * product in the product's (wide) type; beta == 0 ignores input."""
    dt = inp.dtype
    prod = alpha * product
    result = prod if beta == 0 else beta * _wide(inp) + prod
    return _cast(np.broadcast_to(result, product.shape), dt)


@reference("matmul", **_TOL)
def matmul(a, b):
    return _product(np.matmul, a, b)


@reference("mm", **_TOL)
def mm(a, b):
    return _product(np.matmul, a, b)


@reference("bmm", **_TOL)
def bmm(a, b):
    return _product(np.matmul, a, b)


@reference("mv", **_TOL)
def mv(a, b):
    return _product(np.matmul, a, b)


@reference("dot", **_TOL)
def dot(a, b):
    return _product(np.dot, a, b)


@reference("vdot", **_TOL)
def vdot(a, b):
    return _product(np.vdot, a, b)


def _outer(a, b):
    dt = torch_result_type(a, b)
    return np.multiply.outer(a.astype(dt), b.astype(dt)).astype(dt)


@reference("outer")
def outer(a, b):
    return _outer(a, b)


@reference("ger")
def ger(a, b):
    return _outer(a, b)


@reference("addmm", **_TOL)
def addmm(inp, m1, m2, beta=1, alpha=1):
    return _affine(inp, _wide(m1) @ _wide(m2), beta, alpha)


@reference("addmv", **_TOL)
def addmv(inp, mat, vec, beta=1, alpha=1):
    return _affine(inp, _wide(mat) @ _wide(vec), beta, alpha)


@reference("baddbmm", **_TOL)
def baddbmm(inp, b1, b2, beta=1, alpha=1):
    return _affine(inp, _wide(b1) @ _wide(b2), beta, alpha)


@reference("addbmm", **_TOL)
def addbmm(inp, b1, b2, beta=1, alpha=1):
    product = (_wide(b1) @ _wide(b2)).sum(axis=0) if b1.shape[0] else np.zeros((b1.shape[1], b2.shape[2]), _wide(b1).dtype)
    return _affine(inp, product, beta, alpha)


@reference("tensordot", **_TOL)
def tensordot(a, b, dims=2):
    return _product(lambda x, y: np.tensordot(x, y, axes=dims), a, b)


@reference("einsum", **_TOL)
def einsum(equation, *operands):
    return _product(lambda *ops: np.einsum(equation.replace(" ", ""), *ops), *operands)


# The in-place variants return the same values as their out-of-place forms.
for _name, _fn in (("addmm_", addmm), ("addmv_", addmv), ("baddbmm_", baddbmm), ("addbmm_", addbmm)):
    reference(_name, method=True, **_TOL)(_fn)
