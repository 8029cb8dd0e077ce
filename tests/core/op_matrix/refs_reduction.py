"""numpy references of the reduction family (PyTorch's dtypes and conventions)."""
import warnings

import numpy as np

from .registry import reference

INTS = ("uint8", "int8", "int16", "int32", "int64")
NOT_FLOAT = ("bool",) + INTS
NO_COMPLEX = ("complex64",)


def _axis(a, dim):
    """numpy's axis for a PyTorch dim: None / () / [] mean every dim; 0-d takes 0 or -1."""
    if a.ndim == 0 or dim is None:
        return None
    if isinstance(dim, (tuple, list)):
        return None if len(dim) == 0 else tuple(d % a.ndim for d in dim)
    return dim % a.ndim


def _np_dtype(d):
    return None if d is None else np.dtype(d)


def _sum_dtype(a, dtype):
    if dtype is not None:
        return np.dtype(dtype)
    return np.dtype(np.int64) if a.dtype.kind in "biu" else a.dtype


def _wide(dt):
    """A dtype to compute a reference in without losing accuracy."""
    return {"b": np.int64, "u": np.int64, "i": np.int64, "f": np.float64, "c": np.complex128}[np.dtype(dt).kind]


def _reduce(fn, a, dim, keepdim, out_dtype, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = fn(a, axis=_axis(a, dim), keepdims=keepdim, **kw)
    return np.asarray(r).astype(out_dtype)


@reference("sum", atol=1e-3)
def sum_(a, dim=None, keepdim=False, dtype=None):
    out = _sum_dtype(a, dtype)
    src = a.astype(dtype) if dtype is not None else a
    return _reduce(np.sum, src.astype(_wide(out)), dim, keepdim, out)


@reference("nansum", atol=1e-3, skip_dtypes=NO_COMPLEX)
def nansum(a, dim=None, keepdim=False, dtype=None):
    out = _sum_dtype(a, dtype)
    src = a.astype(dtype) if dtype is not None else a
    return _reduce(np.nansum, src.astype(_wide(out)), dim, keepdim, out)


@reference("mean", atol=1e-5)
def mean(a, dim=None, keepdim=False, dtype=None):
    out = np.dtype(dtype) if dtype is not None else a.dtype
    return _reduce(np.mean, a.astype(_wide(out)), dim, keepdim, out)


@reference("prod", rtol=1e-4)
def prod(a, dim=None, keepdim=False, dtype=None):
    out = _sum_dtype(a, dtype)
    src = a.astype(dtype) if dtype is not None else a
    return _reduce(np.prod, src.astype(_wide(out)), dim, keepdim, out)


@reference("max", skip_dtypes=NO_COMPLEX)
def max_(a):
    return np.asarray(np.max(a))


@reference("min", skip_dtypes=NO_COMPLEX)
def min_(a):
    return np.asarray(np.min(a))


def _values_indices(a, dim, keepdim, pick, arg):
    if a.ndim == 0:
        return a.copy(), np.asarray(0, dtype=np.int64)
    axis = dim % a.ndim
    values = pick(a, axis=axis, keepdims=keepdim)
    indices = arg(a, axis=axis, keepdims=keepdim).astype(np.int64)
    return np.asarray(values).astype(a.dtype), indices


@reference("max.dim", skip_dtypes=NO_COMPLEX)
def max_dim(a, dim, keepdim=False):
    return _values_indices(a, dim, keepdim, np.max, np.argmax)


@reference("min.dim", skip_dtypes=NO_COMPLEX)
def min_dim(a, dim, keepdim=False):
    return _values_indices(a, dim, keepdim, np.min, np.argmin)


@reference("amax", skip_dtypes=NO_COMPLEX)
def amax(a, dim=(), keepdim=False):
    return _reduce(np.max, a, dim, keepdim, a.dtype)


@reference("amin", skip_dtypes=NO_COMPLEX)
def amin(a, dim=(), keepdim=False):
    return _reduce(np.min, a, dim, keepdim, a.dtype)


def _arg(fn, a, dim, keepdim):
    if dim is None or a.ndim == 0:
        r = np.asarray(fn(a.reshape(-1)), dtype=np.int64)
        return r.reshape((1,) * a.ndim) if keepdim else r
    return np.asarray(fn(a, axis=dim % a.ndim, keepdims=keepdim), dtype=np.int64)


@reference("argmax", skip_dtypes=("bool", "complex64"))
def argmax(a, dim=None, keepdim=False):
    return _arg(np.argmax, a, dim, keepdim)


@reference("argmin", skip_dtypes=("bool", "complex64"))
def argmin(a, dim=None, keepdim=False):
    return _arg(np.argmin, a, dim, keepdim)


def _var(a, dim, correction, keepdim, take_sqrt):
    out = np.dtype(np.float32) if a.dtype.kind == "c" else a.dtype
    wide = a.astype(np.complex128 if a.dtype.kind == "c" else np.float64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        axis = _axis(a, dim)
        n = wide.size if axis is None else int(np.prod([wide.shape[i] for i in np.atleast_1d(axis)]))
        m = np.mean(wide, axis=axis, keepdims=True)
        ssd = np.sum(np.abs(wide - m) ** 2, axis=axis, keepdims=keepdim)
        v = ssd / max(0.0, n - correction)
        mean = np.mean(wide, axis=axis, keepdims=keepdim)
    r = np.sqrt(v) if take_sqrt else v
    return np.asarray(r).astype(out), np.asarray(mean).astype(a.dtype)


def _correction(unbiased, correction):
    return correction if correction is not None else (1 if unbiased else 0)


@reference("var.unbiased", rtol=1e-4, atol=1e-5)
def var_unbiased(a, unbiased):
    return _var(a, None, 1 if unbiased else 0, False, False)[0]


@reference("var", rtol=1e-4, atol=1e-5)
def var(a, dim=None, unbiased=True, keepdim=False, correction=None):
    return _var(a, dim, _correction(unbiased, correction), keepdim, False)[0]


@reference("std.unbiased", rtol=1e-4, atol=1e-5)
def std_unbiased(a, unbiased):
    return _var(a, None, 1 if unbiased else 0, False, True)[0]


@reference("std", rtol=1e-4, atol=1e-5)
def std(a, dim=None, unbiased=True, keepdim=False, correction=None):
    return _var(a, dim, _correction(unbiased, correction), keepdim, True)[0]


@reference("var_mean.unbiased", rtol=1e-4, atol=1e-5)
def var_mean_unbiased(a, unbiased):
    return _var(a, None, 1 if unbiased else 0, False, False)


@reference("var_mean", rtol=1e-4, atol=1e-5)
def var_mean(a, dim=None, unbiased=True, keepdim=False, correction=None):
    return _var(a, dim, _correction(unbiased, correction), keepdim, False)


@reference("std_mean.unbiased", rtol=1e-4, atol=1e-5)
def std_mean_unbiased(a, unbiased):
    return _var(a, None, 1 if unbiased else 0, False, True)


@reference("std_mean", rtol=1e-4, atol=1e-5)
def std_mean(a, dim=None, unbiased=True, keepdim=False, correction=None):
    return _var(a, dim, _correction(unbiased, correction), keepdim, True)


def _norm(a, p, dim, keepdim, dtype=None):
    src = a.astype(dtype) if dtype is not None else a
    out = np.dtype(np.float32) if src.dtype.kind == "c" else src.dtype
    x = np.abs(src.astype(np.complex128 if src.dtype.kind == "c" else np.float64))
    axis = _axis(a, dim)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if p is None or p == 2:
            r = np.sqrt(np.sum(x * x, axis=axis, keepdims=keepdim))
        elif p == 0:
            r = np.sum(x != 0, axis=axis, keepdims=keepdim).astype(np.float64)
        elif p == np.inf:
            r = np.max(x, axis=axis, keepdims=keepdim, initial=0.0)
        elif p == -np.inf:
            r = np.min(x, axis=axis, keepdims=keepdim)
        else:
            r = np.sum(x ** p, axis=axis, keepdims=keepdim) ** (1.0 / p)
    return np.asarray(r).astype(out)


@reference("norm", rtol=1e-4, atol=1e-5)
def norm(a, p=2, dim=None, keepdim=False, dtype=None):
    return _norm(a, p, dim, keepdim, dtype)


@reference("norm.str", rtol=1e-4, atol=1e-5)
def norm_str(a, p, dim=None, keepdim=False, dtype=None):
    assert p == "fro"
    return _norm(a, 2, dim, keepdim, dtype)


@reference("logsumexp", rtol=1e-5, atol=1e-5)
def logsumexp(a, dim, keepdim=False):
    out = np.dtype(np.float32) if a.dtype.kind in "biu" else a.dtype
    x = a.astype(np.float64)
    axis = _axis(a, dim)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        m = np.max(x, axis=axis, keepdims=True, initial=-np.inf)
        m = np.where(np.isinf(m), 0.0, m)
        r = np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True)) + m
        if not keepdim:
            r = r.reshape(np.sum(x, axis=axis, keepdims=False).shape)
    return np.asarray(r).astype(out)


def _logical(fn, a, dim, keepdim):
    r = _reduce(fn, a != 0, dim, keepdim, np.bool_)
    return r.astype(np.uint8) if a.dtype == np.uint8 else r


@reference("all")
def all_(a, dim=None, keepdim=False):
    return _logical(np.all, a, dim, keepdim)


@reference("any")
def any_(a, dim=None, keepdim=False):
    return _logical(np.any, a, dim, keepdim)


@reference("count_nonzero")
def count_nonzero(a, dim=None):
    return _reduce(np.sum, (a != 0).astype(np.int64), dim, False, np.int64)


def _scan(fn, a, dim, dtype):
    out = np.dtype(dtype) if dtype is not None else (np.dtype(np.int64) if a.dtype.kind in "biu" else a.dtype)
    src = a.astype(out)
    flat = src.reshape(1) if src.ndim == 0 else src
    r = fn(flat.astype(_wide(out)), axis=dim % flat.ndim)
    return r.reshape(a.shape).astype(out)


@reference("cumsum", atol=1e-5)
def cumsum(a, dim, dtype=None):
    return _scan(np.cumsum, a, dim, dtype)


@reference("cumprod", rtol=1e-5, atol=1e-6)
def cumprod(a, dim, dtype=None):
    return _scan(np.cumprod, a, dim, dtype)


def _softmax(a, dim, dtype, log):
    out = np.dtype(dtype) if dtype is not None else a.dtype
    x = a.astype(out).astype(np.float64)
    flat = x.reshape(1) if x.ndim == 0 else x
    axis = dim % flat.ndim
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        m = np.max(flat, axis=axis, keepdims=True) if flat.size else 0.0
        e = np.exp(flat - m)
        s = np.sum(e, axis=axis, keepdims=True)
        r = (flat - m - np.log(s)) if log else e / s
    return r.reshape(a.shape).astype(out)


@reference("softmax", rtol=1e-5, atol=1e-6)
def softmax(a, dim, dtype=None):
    return _softmax(a, dim, dtype, False)


@reference("log_softmax", rtol=1e-5, atol=1e-5)
def log_softmax(a, dim, dtype=None):
    return _softmax(a, dim, dtype, True)


def _sort_indices(a, axis, descending):
    """Stable order with NaN as the largest value (first when descending)."""
    if a.dtype == np.bool_:
        a = a.astype(np.int64)
    nan = np.isnan(a) if a.dtype.kind == "f" else np.zeros(a.shape, dtype=bool)
    if not descending:
        return np.argsort(np.where(nan, np.inf, a), axis=axis, kind="stable") if not nan.any() else \
            _lexsort_axis((np.where(nan, 0, a), nan), axis)
    key = -a.astype(np.float64) if a.dtype.kind in "biu" else -np.where(nan, 0, a)
    return _lexsort_axis((key, ~nan), axis)


def _lexsort_axis(keys, axis):
    """np.lexsort along an axis (the last key is the primary one), stable."""
    moved = [np.moveaxis(k, axis, -1) for k in keys]
    shape = moved[0].shape
    rows = int(np.prod(shape[:-1]))
    flat = [k.reshape(rows, shape[-1]) for k in moved]
    idx = np.zeros((rows, shape[-1]), dtype=np.int64)
    for i in range(rows):
        idx[i] = np.lexsort([k[i] for k in flat])
    return np.moveaxis(idx.reshape(shape), -1, axis)


def _sort(a, dim, descending):
    if a.ndim == 0:
        return a.copy(), np.asarray(0, dtype=np.int64)
    axis = dim % a.ndim
    idx = _sort_indices(a, axis, descending).astype(np.int64)
    return np.take_along_axis(a, idx, axis), idx


@reference("sort")
def sort(a, dim=-1, descending=False, stable=False):
    return _sort(a, dim, descending)


@reference("argsort")
def argsort(a, dim=-1, descending=False, stable=False):
    return _sort(a, dim, descending)[1]


@reference("msort")
def msort(a):
    return _sort(a, 0, False)[0]


@reference("topk")
def topk(a, k, dim=-1, largest=True, sorted=True):
    if a.ndim == 0:
        return (a.copy(), np.asarray(0, dtype=np.int64)) if k == 1 else \
            (np.zeros((0,), a.dtype), np.zeros((0,), np.int64))
    axis = dim % a.ndim
    values, idx = _sort(a, axis, largest)
    sl = [slice(None)] * a.ndim
    sl[axis] = slice(0, k)
    return values[tuple(sl)], idx[tuple(sl)]


def _select(a, dim, keepdim, position):
    """The element at a sorted position (per line) and its index, as (values, indices)."""
    if a.ndim == 0:
        return a.copy(), np.asarray(0, dtype=np.int64)
    axis = dim % a.ndim
    values, idx = _sort(a, axis, False)
    pos = position(a.shape[axis])
    v = np.take(values, [pos], axis=axis)
    i = np.take(idx, [pos], axis=axis)
    if not keepdim:
        v, i = np.squeeze(v, axis), np.squeeze(i, axis)
    return v, i


@reference("kthvalue")
def kthvalue(a, k, dim=-1, keepdim=False):
    return _select(a, dim, keepdim, lambda n: k - 1)


def _median_line(line, ignore_nan):
    """(value, index) of PyTorch's lower median of one line."""
    nan = np.isnan(line) if line.dtype.kind == "f" else np.zeros(line.shape, bool)
    if nan.any() and not ignore_nan:
        i = int(np.argmax(nan))
        return line[i], i
    order = _sort_indices(line, 0, False)
    pos = max(0, (line.size - int(nan.sum()) - 1) // 2)
    return line[order[pos]], int(order[pos])


def _median_dim(a, dim, keepdim, ignore_nan):
    if a.ndim == 0:
        return a.copy(), np.asarray(0, dtype=np.int64)
    axis = dim % a.ndim
    moved = np.moveaxis(a, axis, -1)
    lines = moved.reshape(-1, moved.shape[-1])
    res = [_median_line(line, ignore_nan) for line in lines]
    shape = moved.shape[:-1]
    v = np.array([r[0] for r in res], dtype=a.dtype).reshape(shape)
    i = np.array([r[1] for r in res], dtype=np.int64).reshape(shape)
    if keepdim:
        v, i = np.expand_dims(v, axis), np.expand_dims(i, axis)
    return v, i


@reference("median")
def median(a):
    return np.asarray(_median_line(a.reshape(-1), False)[0], dtype=a.dtype)


@reference("nanmedian")
def nanmedian(a):
    return np.asarray(_median_line(a.reshape(-1), True)[0], dtype=a.dtype)


@reference("median.dim")
def median_dim(a, dim, keepdim=False):
    return _median_dim(a, dim, keepdim, False)


@reference("nanmedian.dim")
def nanmedian_dim(a, dim, keepdim=False):
    return _median_dim(a, dim, keepdim, True)


def _mode_line(line):
    values, counts = np.unique(line, return_counts=True)
    v = values[np.argmax(counts)]  # the smallest of the most frequent
    return v, int(np.nonzero(line == v)[0][-1])  # lines <= 16: its last occurrence


@reference("mode")
def mode(a, dim=-1, keepdim=False):
    if a.ndim == 0:
        return a.copy(), np.asarray(0, dtype=np.int64)
    axis = dim % a.ndim
    moved = np.moveaxis(a, axis, -1)
    lines = moved.reshape(-1, moved.shape[-1])
    res = [_mode_line(line) for line in lines]
    v = np.array([r[0] for r in res], dtype=a.dtype).reshape(moved.shape[:-1])
    i = np.array([r[1] for r in res], dtype=np.int64).reshape(moved.shape[:-1])
    if keepdim:
        v, i = np.expand_dims(v, axis), np.expand_dims(i, axis)
    return v, i


@reference("unique")
def unique(a, sorted=True, return_inverse=False, return_counts=False, dim=None):
    if dim is None:
        values, inverse, counts = np.unique(a.reshape(-1), return_inverse=True, return_counts=True)
        inverse = inverse.reshape(a.shape)
    else:
        values, inverse, counts = np.unique(a, return_inverse=True, return_counts=True, axis=dim % a.ndim)
        inverse = inverse.reshape(-1)
    out = [values.astype(a.dtype)]
    if return_inverse:
        out.append(inverse.astype(np.int64))
    if return_counts:
        out.append(counts.astype(np.int64))
    return out[0] if len(out) == 1 else tuple(out)


@reference("_vec_exp", rtol=2.4e-7, atol=0)
def _vec_exp(a):
    with np.errstate(over="ignore"):
        return np.exp(a.astype(np.float64)).astype(np.float32)
