"""numpy references of the joining family."""
import numpy as np

from .registry import reference, torch_result_type


def _promoted(arrays):
    return torch_result_type(*arrays)


def _cat(tensors, dim=0):
    dt = _promoted(tensors)
    kept = [t for t in tensors if not (t.ndim == 1 and t.size == 0)]  # PyTorch's legacy skip
    if not kept:
        return np.zeros((0,), dtype=dt)
    return np.concatenate([t.astype(dt) for t in kept], axis=dim)


reference("cat")(_cat)
reference("concat")(_cat)


@reference("stack")
def stack(tensors, dim=0):
    dt = _promoted(tensors)
    return np.stack([t.astype(dt) for t in tensors], axis=dim)


def _numpy_stacker(fn):
    def ref(tensors):
        dt = _promoted(tensors)
        return fn([t.astype(dt) for t in tensors])
    return ref


for _name in ["hstack", "vstack", "dstack", "column_stack"]:
    reference(_name)(_numpy_stacker(getattr(np, _name)))
for _name in ["atleast_1d", "atleast_2d", "atleast_3d"]:
    reference(_name)(getattr(np, _name))
    reference(_name + ".Sequence")(lambda arrays, fn=getattr(np, _name): [fn(a) for a in arrays])
reference("fliplr")(np.fliplr)
reference("flipud")(np.flipud)


@reference("flip")
def flip(a, dims):
    return a.copy() if a.ndim == 0 else np.flip(a, axis=tuple(dims))


@reference("roll")
def roll(a, shifts, dims=None):
    return np.roll(a, shifts, axis=dims)


@reference("rot90")
def rot90(a, k=1, dims=(0, 1)):
    return np.rot90(a, k, axes=tuple(dims))


@reference("repeat", method=True)
def repeat(a, reps):
    return np.tile(a, reps)


@reference("tile")
def tile(a, reps):
    return np.tile(a, reps)


@reference("repeat_interleave.self_int")
def repeat_interleave(a, repeats, dim=None):
    return np.repeat(a, repeats, axis=dim)


@reference("repeat_interleave.self_Tensor")
def repeat_interleave_tensor(a, repeats, dim=None):
    return np.repeat(a, repeats.astype(np.int64), axis=dim)


@reference("repeat_interleave.Tensor")
def repeat_interleave_index(repeats):
    return np.repeat(np.arange(len(repeats)), repeats).astype(repeats.dtype)


for _name, _fn in [("tril", np.tril), ("triu", np.triu)]:
    reference(_name)(_fn)
    reference(_name + "_", method=True)(_fn)


@reference("diag")
def diag(a, k=0):
    return np.diag(a, k)


@reference("diag_embed")
def diag_embed(a, offset=0, dim1=-2, dim2=-1):
    nd = a.ndim + 1
    n = a.shape[-1] + abs(offset)
    out = np.zeros(a.shape[:-1] + (n, n), dtype=a.dtype)
    idx = np.arange(a.shape[-1])
    rows, cols = (idx, idx + offset) if offset >= 0 else (idx - offset, idx)
    out[..., rows, cols] = a
    return np.moveaxis(out, (-2, -1), (dim1 % nd, dim2 % nd))


@reference("diagonal")
def diagonal(a, offset=0, dim1=0, dim2=1):
    return np.diagonal(a, offset, dim1, dim2)


@reference("trace", skip_dtypes=("bool",))
def trace(a):
    out = np.int64 if a.dtype.kind in "iu" else a.dtype
    return np.asarray(np.trace(a.astype(np.float64) if a.dtype.kind == "f" else a)).astype(out)


@reference("meshgrid")
def meshgrid(tensors, indexing="ij"):
    return [np.ascontiguousarray(g) for g in np.meshgrid(*tensors, indexing=indexing)]


@reference("cartesian_prod")
def cartesian_prod(tensors):
    if len(tensors) == 1:
        return tensors[0]
    grids = np.meshgrid(*tensors, indexing="ij")
    return np.stack([g.ravel() for g in grids], axis=1)


@reference("broadcast_tensors")
def broadcast_tensors(tensors):
    return list(np.broadcast_arrays(*tensors))


@reference("broadcast_to")
def broadcast_to(a, shape):
    shape = tuple(a.shape[i - (len(shape) - a.ndim)] if s == -1 else s for i, s in enumerate(shape))
    return np.broadcast_to(a, shape)


@reference("pad")
def pad(a, widths, mode="constant", value=None):
    """Pads one dim at a time by an index map: output o reads input o - left, mapped by mode."""
    out = a
    for j in range(len(widths) // 2):
        d = a.ndim - 1 - j
        left, right = widths[2 * j], widths[2 * j + 1]
        if mode == "circular":  # PyTorch crops negative pads first, then wraps what is left
            lo, hi = max(-left, 0), max(-right, 0)
            out = np.take(out, np.arange(lo, out.shape[d] - hi), axis=d)
            left, right = max(left, 0), max(right, 0)
        n = out.shape[d]
        i = np.arange(n + left + right) - left
        if mode == "constant":
            valid = (i >= 0) & (i < n)
            shape = list(out.shape)
            shape[d] = len(i)
            padded = np.full(shape, 0 if value is None else value).astype(a.dtype)
            dst = [slice(None)] * out.ndim
            dst[d] = np.nonzero(valid)[0]
            padded[tuple(dst)] = np.take(out, i[valid], axis=d)
            out = padded
            continue
        if mode == "reflect":
            i = np.where(i < 0, -i, np.where(i >= n, 2 * (n - 1) - i, i))
        elif mode == "replicate":
            i = np.clip(i, 0, n - 1)
        else:
            i = i % n
        out = np.take(out, i, axis=d)
    return out
