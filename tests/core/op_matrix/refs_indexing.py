"""numpy references of the views and indexing family."""
import numpy as np

from .registry import reference, torch_result_type


def _register(*names, **options):
    """One reference under several op names (overloads and in-place forms)."""
    def register(fn):
        for name in names:
            reference(name, **options)(fn)
        return fn
    return register


def _axis(dim, ndim):
    return dim % max(ndim, 1)


def _along(dim, ndim, index):
    """An indexing tuple selecting `index` along `dim`."""
    return (slice(None),) * _axis(dim, ndim) + (index,)


# ---- views

@_register("view_as", method=True, contiguous_only=True)
def view_as(a, other):
    return a.reshape(other.shape)


@_register("reshape_as", method=True)
def reshape_as(a, other):
    return a.reshape(other.shape)


@_register("expand_as", method=True)
def expand_as(a, other):
    return np.broadcast_to(a, other.shape)


@_register("swapaxes", "swapdims")
def swapaxes(a, d0, d1):
    return np.swapaxes(a, d0, d1) if a.ndim else a


@_register("t")
def t(a):
    return a.T


@_register("squeeze")
def squeeze(a):
    return np.squeeze(a)


@_register("squeeze.dim")
def squeeze_dim(a, dim):
    return np.squeeze(a, _axis(dim, a.ndim)) if a.ndim and a.shape[_axis(dim, a.ndim)] == 1 else a


@_register("unsqueeze")
def unsqueeze(a, dim):
    return np.expand_dims(a, dim)


@_register("flatten")
def flatten(a, start=0, end=-1):
    if a.ndim == 0:
        return a.reshape(1)
    start, end = _axis(start, a.ndim), _axis(end, a.ndim)
    return a.reshape(a.shape[:start] + (-1 if a.size else int(np.prod(a.shape[start:end + 1])),) + a.shape[end + 1:])


@_register("unflatten", method=True)
def unflatten(a, dim, sizes):
    d = _axis(dim, a.ndim)
    return a.reshape(a.shape[:d] + tuple(sizes) + a.shape[d + 1:])


@_register("movedim", "moveaxis")
def movedim(a, src, dst):
    return np.moveaxis(a, src, dst) if a.ndim else a


@_register("narrow")
def narrow(a, dim, start, length):
    start = start % a.shape[_axis(dim, a.ndim)] if start < 0 else start
    return a[_along(dim, a.ndim, slice(start, start + length))]


@_register("select")
def select(a, dim, index):
    return a[_along(dim, a.ndim, index)]


@_register("unbind")
def unbind(a, dim=0):
    return tuple(np.moveaxis(a, dim, 0))


def _pieces(a, sizes, dim):
    out, start = [], 0
    for s in sizes:
        out.append(a[_along(dim, a.ndim, slice(start, start + s))])
        start += s
    return tuple(out)


@_register("split")
def split(a, size, dim=0):
    n = a.shape[_axis(dim, a.ndim)]
    if size == 0:
        return (a,)
    count = max((n + size - 1) // size, 1)
    return _pieces(a, [size] * (count - 1) + [n - size * (count - 1)], dim)


@_register("split_with_sizes")
def split_with_sizes(a, sizes, dim=0):
    return _pieces(a, sizes, dim)


@_register("chunk")
def chunk(a, chunks, dim=0):
    n = a.shape[_axis(dim, a.ndim)]
    if n == 0:
        return _pieces(a, [0] * chunks, dim)
    return split(a, (n + chunks - 1) // chunks, dim)


@_register("tensor_split", "tensor_split.indices")
def tensor_split(a, sections, dim=0):
    return tuple(np.array_split(a, sections, axis=dim)) if isinstance(sections, int) else tuple(np.split(a, sections, axis=dim))


@_register("unfold", method=True)
def unfold(a, dim, size, step):
    if a.ndim == 0:
        return a.reshape(1)[:size]
    d = _axis(dim, a.ndim)
    count = (a.shape[d] - size) // step + 1
    windows = [a[_along(d, a.ndim, slice(i * step, i * step + size))] for i in range(count)]
    return np.moveaxis(np.stack(windows, axis=d), d + 1, -1)


@_register("view_as_real")
def view_as_real(a):
    return np.stack([a.real, a.imag], axis=-1).astype(np.float32)


@_register("view_as_complex", contiguous_only=True)
def view_as_complex(a):
    return (a[..., 0] + 1j * a[..., 1]).astype(np.complex64)


# ---- indexing

@_register("index_select")
def index_select(a, dim, index):
    if a.ndim == 0:
        return a
    return np.take(a, index.reshape(-1), axis=_axis(dim, a.ndim))


@_register("gather")
def gather(a, dim, index):
    if a.ndim == 0:
        return a.copy()
    d = _axis(dim, a.ndim)
    # gather reads only the leading part of the other dims (index may be smaller there)
    part = a[tuple(slice(None) if k == d else slice(0, index.shape[k]) for k in range(a.ndim))]
    return np.take_along_axis(part, index, axis=d)


def _scatter(a, dim, index, src, combine):
    out = np.atleast_1d(a.copy())
    index, dim = np.atleast_1d(index), _axis(dim, a.ndim)
    for pos in np.ndindex(index.shape):
        target = list(pos)
        target[dim] = index[pos]
        value = np.atleast_1d(src)[pos] if isinstance(src, np.ndarray) else src
        out[tuple(target)] = combine(out[tuple(target)], value)
    return out.reshape(a.shape)


@_register("scatter.src", "scatter_.src", "scatter.value", "scatter_.value")
def scatter(a, dim, index, src):
    return _scatter(a, dim, index, src, lambda old, new: new)


@_register("scatter_add", "scatter_add_")
def scatter_add(a, dim, index, src):
    return _scatter(a, dim, index, src, lambda old, new: old + new)


@_register("index_add", "index_add_")
def index_add(a, dim, index, source, alpha=1):
    out = np.atleast_1d(a.copy())
    np.add.at(out, _along(dim, out.ndim, index.reshape(-1)), np.atleast_1d(source * np.asarray(alpha).astype(a.dtype)))
    return out.reshape(a.shape)


@_register("index_copy", "index_copy_")
def index_copy(a, dim, index, source):
    out = np.atleast_1d(a.copy())
    out[_along(dim, out.ndim, index.reshape(-1))] = np.atleast_1d(source)
    return out.reshape(a.shape)


@_register("index_fill.int_Scalar", "index_fill.int_Tensor", "index_fill_.int_Scalar", "index_fill_.int_Tensor")
def index_fill(a, dim, index, value):
    out = np.atleast_1d(a.copy())
    out[_along(dim, out.ndim, index.reshape(-1))] = value
    return out.reshape(a.shape)


@_register("masked_fill.Scalar", "masked_fill.Tensor", "masked_fill_.Scalar", "masked_fill_.Tensor")
def masked_fill(a, mask, value):
    out = np.broadcast_to(a, np.broadcast_shapes(a.shape, mask.shape)).copy()
    out[np.broadcast_to(mask, out.shape)] = value
    return out


@_register("masked_select")
def masked_select(a, mask):
    shape = np.broadcast_shapes(a.shape, mask.shape)
    return np.broadcast_to(a, shape)[np.broadcast_to(mask, shape)]


@_register("masked_scatter", "masked_scatter_")
def masked_scatter(a, mask, source):
    out = np.broadcast_to(a, np.broadcast_shapes(a.shape, mask.shape)).copy()
    full = np.broadcast_to(mask, out.shape)
    out[full] = source.reshape(-1)[:int(full.sum())]
    return out


@_register("where.self")
def where(cond, x, y):
    dtype = torch_result_type(x, y)
    return np.where(cond.astype(bool), np.asarray(x).astype(dtype), np.asarray(y).astype(dtype))


@_register("where")
def where_cond(a):
    return tuple(np.nonzero(np.atleast_1d(a)))


@_register("nonzero", "argwhere")
def nonzero(a):
    return np.argwhere(a)


@_register("take")
def take(a, index):
    return np.take(a, index)


@_register("put", "put_")
def put(a, index, source, accumulate=False):
    out = a.copy()
    flat = out.reshape(-1)
    if accumulate:
        np.add.at(flat, index.reshape(-1), source.reshape(-1))
    else:
        flat[index.reshape(-1)] = source.reshape(-1)
    return out


@reference("as_strided", contiguous_only=True)
def as_strided(a, size, stride, storage_offset=None):
    flat = np.ascontiguousarray(a).reshape(-1)[storage_offset or 0:]
    view = np.lib.stride_tricks.as_strided(flat, tuple(size), tuple(s * a.itemsize for s in stride))
    return view.copy()


@reference("slice")
def slice_(a, dim, start, end, step):
    return a[_along(dim, a.ndim, slice(start, end, step))]


@reference("alias")
def alias(a):
    return a


@reference("index.Tensor")
def index_tensor(a, indices):
    return a[tuple(indices)]


def _index_put(a, indices, values, accumulate=False):
    out = a.copy()
    if accumulate:
        np.add.at(out, tuple(indices), values)
    else:
        out[tuple(indices)] = values
    return out


reference("index_put")(_index_put)
reference("index_put_", method=True)(_index_put)
