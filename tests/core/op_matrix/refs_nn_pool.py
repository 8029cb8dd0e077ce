"""numpy references of the nn-pool family (loops over output positions, vectorised over
batch and channels; the samples are small). Index/weight math mirrors PyTorch's kernels
(float32 for float32 inputs) so results match closely."""
import math

import numpy as np

from .registry import reference


def _pairs(v, n=2):
    if isinstance(v, (list, tuple)):
        v = list(v)
        return v * n if len(v) == 1 else v
    return [v] * n


def _pool_out(size, k, p, s, d, ceil):
    num = size + 2 * p - d * (k - 1) - 1 + (s - 1 if ceil else 0)
    out = num // s + 1
    if ceil and (out - 1) * s >= size + p:
        out -= 1
    return out


def _as4(x):
    return x[None] if x.ndim == 3 else x, x.ndim == 3


def _compute_dtype(x):
    return np.float32 if x.dtype == np.float16 else x.dtype


def _max_pool2d(x, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    x4, squeeze = _as4(x)
    (kh, kw), (ph, pw), (dh, dw) = _pairs(kernel_size), _pairs(padding), _pairs(dilation)
    sh, sw = _pairs(stride) if stride not in ((), []) else (kh, kw)
    n, c, h, w = x4.shape
    oh, ow = _pool_out(h, kh, ph, sh, dh, ceil_mode), _pool_out(w, kw, pw, sw, dw, ceil_mode)
    vals = np.zeros((n, c, oh, ow), x.dtype)
    idx = np.zeros((n, c, oh, ow), np.int64)
    for i in range(oh):
        for j in range(ow):
            best, bi = None, None
            for a in range(kh):
                for b in range(kw):
                    y, z = i * sh - ph + a * dh, j * sw - pw + b * dw
                    if 0 <= y < h and 0 <= z < w:
                        v = x4[:, :, y, z]
                        if best is None:
                            best, bi = v.copy(), np.full(v.shape, y * w + z)
                        else:
                            take = (v > best) | np.isnan(v)
                            best, bi = np.where(take, v, best), np.where(take, y * w + z, bi)
            vals[:, :, i, j], idx[:, :, i, j] = best, bi
    return (vals[0], idx[0]) if squeeze else (vals, idx)


@reference("max_pool2d_with_indices")
def max_pool2d_with_indices(*args, **kwargs):
    return _max_pool2d(*args, **kwargs)


@reference("max_pool2d")
def max_pool2d(*args, **kwargs):
    return _max_pool2d(*args, **kwargs)[0]


def _lift(v, h):
    return [] if v in ((), []) else [h, _pairs(v, 1)[0]]


def _max_pool1d(x, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    v, i = _max_pool2d(x[..., None, :], _lift(kernel_size, 1), _lift(stride, 1), _lift(padding, 0),
                       _lift(dilation, 1), ceil_mode)
    return v[..., 0, :], i[..., 0, :]


@reference("max_pool1d_with_indices")
def max_pool1d_with_indices(*args, **kwargs):
    return _max_pool1d(*args, **kwargs)


@reference("max_pool1d")
def max_pool1d(*args, **kwargs):
    return _max_pool1d(*args, **kwargs)[0]


@reference("avg_pool2d", atol=1e-5)
def avg_pool2d(x, kernel_size, stride=(), padding=0, ceil_mode=False, count_include_pad=True, divisor_override=None):
    x4, squeeze = _as4(x)
    (kh, kw), (ph, pw) = _pairs(kernel_size), _pairs(padding)
    sh, sw = _pairs(stride) if stride not in ((), []) else (kh, kw)
    n, c, h, w = x4.shape
    oh, ow = _pool_out(h, kh, ph, sh, 1, ceil_mode), _pool_out(w, kw, pw, sw, 1, ceil_mode)
    acc = np.float64 if x.dtype == np.float64 else (np.int64 if x.dtype == np.int64 else np.float32)
    out = np.zeros((n, c, oh, ow), x.dtype)
    for i in range(oh):
        for j in range(ow):
            h0, w0 = i * sh - ph, j * sw - pw
            h1, w1 = min(h0 + kh, h + ph), min(w0 + kw, w + pw)
            pool = (h1 - h0) * (w1 - w0)
            h0, w0, h1, w1 = max(h0, 0), max(w0, 0), min(h1, h), min(w1, w)
            s = x4[:, :, h0:h1, w0:w1].astype(acc).sum(axis=(2, 3)) if h1 > h0 and w1 > w0 else np.zeros((n, c), acc)
            div = divisor_override or (pool if count_include_pad else (h1 - h0) * (w1 - w0))
            div = div or 1
            # integers divide truncating towards zero, like PyTorch
            out[:, :, i, j] = np.trunc(s / div).astype(np.int64) if acc == np.int64 else (s / acc(div)).astype(x.dtype)
    return out[0] if squeeze else out


@reference("avg_pool1d", atol=1e-5)
def avg_pool1d(x, kernel_size, stride=(), padding=0, ceil_mode=False, count_include_pad=True):
    return avg_pool2d(x[..., None, :], _lift(kernel_size, 1), _lift(stride, 1), _lift(padding, 0), ceil_mode,
                      count_include_pad)[..., 0, :]


def _adaptive(x, output_size, fn):
    x4, squeeze = _as4(x)
    oh, ow = _pairs(output_size)
    n, c, h, w = x4.shape
    outs = []
    for i in range(oh):
        row = []
        for j in range(ow):
            h0, h1 = i * h // oh, -((-(i + 1) * h) // oh)
            w0, w1 = j * w // ow, -((-(j + 1) * w) // ow)
            row.append(fn(x4[:, :, h0:h1, w0:w1], h0, w0, w))
        outs.append(row)
    return outs, squeeze, (n, c, oh, ow)


@reference("adaptive_avg_pool2d", atol=1e-5)
def adaptive_avg_pool2d(x, output_size):
    outs, squeeze, shape = _adaptive(x, output_size, lambda v, *_: v.astype(_compute_dtype(x)).mean(axis=(2, 3)))
    out = np.zeros(shape, x.dtype)
    for i, row in enumerate(outs):
        for j, v in enumerate(row):
            out[:, :, i, j] = v
    return out[0] if squeeze else out


@reference("adaptive_avg_pool1d", atol=1e-5)
def adaptive_avg_pool1d(x, output_size):
    return adaptive_avg_pool2d(x[..., None, :], [1, _pairs(output_size, 1)[0]])[..., 0, :]


def _window_max(v, h0, w0, w):
    n, c, kh, kw = v.shape
    flat = v.reshape(n, c, -1)
    arg = np.argmax(flat, axis=-1)  # first max; NaN handling not sampled
    return np.take_along_axis(flat, arg[..., None], -1)[..., 0], (h0 + arg // kw) * w + (w0 + arg % kw)


@reference("adaptive_max_pool2d")
def adaptive_max_pool2d(x, output_size):
    outs, squeeze, shape = _adaptive(x, output_size, _window_max)
    vals, idx = np.zeros(shape, x.dtype), np.zeros(shape, np.int64)
    for i, row in enumerate(outs):
        for j, (v, k) in enumerate(row):
            vals[:, :, i, j], idx[:, :, i, j] = v, k
    return (vals[0], idx[0]) if squeeze else (vals, idx)


@reference("adaptive_max_pool1d")
def adaptive_max_pool1d(x, output_size):
    v, i = adaptive_max_pool2d(x[..., None, :], [1, _pairs(output_size, 1)[0]])
    return v[..., 0, :], i[..., 0, :]


@reference("max_unpool2d")
def max_unpool2d(x, indices, output_size):
    n, c = x.shape[:2]
    out = np.zeros((n, c, output_size[0] * output_size[1]), x.dtype)
    np.put_along_axis(out, indices.reshape(n, c, -1), x.reshape(n, c, -1), -1)
    return out.reshape(n, c, *output_size)


# ---------------------------------------------------------------- upsampling

def _scales_value(scale, i, o, dt):
    return dt(1.0 / scale) if scale is not None and scale > 0 else dt(i) / dt(o)


def _taps(mode, i, o, align, scale, dt):
    if mode == "nearest":
        s = _scales_value(scale, i, o, np.float32)
        idx = [k if o == i else (k >> 1 if o == 2 * i else min(int(np.floor(np.float32(k) * s)), i - 1))
               for k in range(o)]
        return np.array(idx)[:, None], np.ones((o, 1), dt)
    cubic = mode == "cubic"
    if align:
        s = dt(i - 1) / dt(o - 1) if o > 1 else dt(0)
    else:
        s = _scales_value(scale, i, o, dt)
    idx, wts = [], []
    for k in range(o):
        # PyTorch's kernels fuse this multiply-add: float32 via an exact float64 product.
        real = s * dt(k) if align else dt(np.float64(s) * np.float64(dt(k) + dt(0.5)) - 0.5)
        if not cubic and not align:
            real = max(real, dt(0))
        i0 = min(int(np.floor(real)), i - 1)
        lam = dt(min(max(real - dt(i0), dt(0)), dt(1)))
        if not cubic:
            idx.append([i0, i0 + (1 if i0 < i - 1 else 0)])
            wts.append([dt(1) - lam, lam])
        else:
            a = dt(-0.75)
            c1 = lambda x: ((a + dt(2)) * x - (a + dt(3))) * x * x + dt(1)  # noqa: E731
            c2 = lambda x: ((a * x - dt(5) * a) * x + dt(8) * a) * x - dt(4) * a  # noqa: E731
            idx.append([max(min(i0 - 1 + t, i - 1), 0) for t in range(4)])
            wts.append([c2(lam + dt(1)), c1(lam), c1(dt(1) - lam), c2(dt(2) - lam)])
    return np.array(idx), np.array(wts, dt)


def _upsample(x, size, mode, align, sh, sw):
    dt = np.float64 if x.dtype == np.float64 else np.float32
    x4 = x if x.ndim == 4 else x[:, :, None, :]
    oh, ow = (size[0], size[1]) if x.ndim == 4 else (1, size[0])
    if x.ndim == 3:
        sh, sw = None, sh
    hi, hw = _taps(mode, x4.shape[2], oh, align, sh, dt)
    wi, ww = _taps(mode, x4.shape[3], ow, align, sw, dt)
    src = x4 if mode == "nearest" else x4.astype(dt)
    out = None
    for a in range(hi.shape[1]):
        rows = src[:, :, hi[:, a], :]
        inner = None
        for b in range(wi.shape[1]):
            term = rows[:, :, :, wi[:, b]] if mode == "nearest" else rows[:, :, :, wi[:, b]] * ww[:, b]
            inner = term if inner is None else inner + term
        term = inner if mode == "nearest" else inner * hw[:, a][:, None]
        out = term if out is None else out + term
    out = out.astype(x.dtype)
    return out if x.ndim == 4 else out[:, :, 0, :]


@reference("upsample_nearest1d")
def upsample_nearest1d(x, output_size, scales=None):
    return _upsample(x, output_size, "nearest", False, scales, None)


@reference("upsample_nearest2d")
def upsample_nearest2d(x, output_size, scales_h=None, scales_w=None):
    return _upsample(x, output_size, "nearest", False, scales_h, scales_w)


@reference("upsample_linear1d", atol=1e-5)
def upsample_linear1d(x, output_size, align_corners, scales=None):
    return _upsample(x, output_size, "linear", align_corners, scales, None)


@reference("upsample_bilinear2d", atol=1e-5)
def upsample_bilinear2d(x, output_size, align_corners, scales_h=None, scales_w=None):
    return _upsample(x, output_size, "linear", align_corners, scales_h, scales_w)


@reference("upsample_bicubic2d", atol=1e-5)
def upsample_bicubic2d(x, output_size, align_corners, scales_h=None, scales_w=None):
    return _upsample(x, output_size, "cubic", align_corners, scales_h, scales_w)


# ---------------------------------------------------------------- grid sampling

def _reflect(c, lo2, hi2):
    if lo2 == hi2:
        return 0.0
    mn, span = lo2 / 2, (hi2 - lo2) / 2
    c = abs(c - mn)
    extra = math.fmod(c, span)
    flips = math.floor(c / span)
    return extra + mn if flips % 2 == 0 else span - extra + mn


def _pad_coord(c, size, padding, align):
    if padding == 1:
        return min(max(c, 0.0), size - 1.0)
    if padding == 2:
        c = _reflect(c, 0, 2 * (size - 1)) if align else _reflect(c, -1, 2 * size - 1)
        return min(max(c, 0.0), size - 1.0)
    return c


def _cubic_w(t):
    a = -0.75
    c1 = lambda x: ((a + 2) * x - (a + 3)) * x * x + 1  # noqa: E731
    c2 = lambda x: ((a * x - 5 * a) * x + 8 * a) * x - 4 * a  # noqa: E731
    return [c2(t + 1), c1(t), c1(1 - t), c2(2 - t)]


@reference("grid_sampler_2d", atol=1e-5)
def grid_sampler_2d(inp, grid, interpolation_mode, padding_mode, align_corners):
    n, c, h, w = inp.shape
    x64, g64 = inp.astype(np.float64), grid.astype(np.float64)
    oh, ow = grid.shape[1:3]
    out = np.zeros((n, c, oh, ow))

    def unnorm(v, size):
        return (v + 1) * ((size - 1) / 2) if align_corners else (v + 1) * (size / 2) - 0.5

    for b in range(n):
        for i in range(oh):
            for j in range(ow):
                gx, gy = g64[b, i, j]
                taps = []
                if interpolation_mode == 2:
                    ix, iy = unnorm(gx, w), unnorm(gy, h)
                    fx, fy = math.floor(ix), math.floor(iy)
                    wx, wy = _cubic_w(ix - fx), _cubic_w(iy - fy)
                    for q in range(4):
                        for p in range(4):
                            xx = int(_pad_coord(fx - 1 + p, w, padding_mode, align_corners))
                            yy = int(_pad_coord(fy - 1 + q, h, padding_mode, align_corners))
                            taps.append((xx, yy, wx[p] * wy[q]))
                else:
                    ix = _pad_coord(unnorm(gx, w), w, padding_mode, align_corners)
                    iy = _pad_coord(unnorm(gy, h), h, padding_mode, align_corners)
                    if interpolation_mode == 1:
                        taps.append((int(np.rint(ix)), int(np.rint(iy)), 1.0))
                    else:
                        x0, y0 = math.floor(ix), math.floor(iy)
                        tx, ty = ix - x0, iy - y0
                        taps += [(x0, y0, (1 - tx) * (1 - ty)), (x0 + 1, y0, tx * (1 - ty)),
                                 (x0, y0 + 1, (1 - tx) * ty), (x0 + 1, y0 + 1, tx * ty)]
                for xx, yy, wt in taps:
                    if 0 <= xx < w and 0 <= yy < h:
                        out[b, :, i, j] += x64[b, :, yy, xx] * wt
    return out.astype(inp.dtype)


@reference("grid_sampler", atol=1e-5)
def grid_sampler(*args):
    return grid_sampler_2d(*args)


@reference("affine_grid_generator", atol=1e-5)
def affine_grid_generator(theta, size, align_corners):
    spatial = size[2:]
    axes = []
    for s in spatial:
        v = np.linspace(-1, 1, s) if s > 1 else np.zeros(1)
        axes.append(v if align_corners else v * (s - 1) / s)
    mesh = np.meshgrid(*axes, indexing="ij")  # spatial order (D,) H, W
    coords = [m.reshape(-1) for m in reversed(mesh)]  # x, y(, z)
    base = np.stack(coords + [np.ones_like(coords[0])], axis=-1)  # (P, k+1)
    out = np.einsum("pk,njk->npj", base, theta.astype(np.float64))
    return out.reshape([size[0]] + list(spatial) + [len(spatial)]).astype(theta.dtype)


@reference("pixel_shuffle")
def pixel_shuffle(x, r):
    *b, c, h, w = x.shape
    y = x.reshape(*b, c // (r * r), r, r, h, w)
    nb = len(b)
    perm = list(range(nb)) + [nb, nb + 3, nb + 1, nb + 4, nb + 2]
    return np.ascontiguousarray(y.transpose(perm)).reshape(*b, c // (r * r), h * r, w * r)


@reference("pixel_unshuffle")
def pixel_unshuffle(x, r):
    *b, c, h, w = x.shape
    y = x.reshape(*b, c, h // r, r, w // r, r)
    nb = len(b)
    perm = list(range(nb)) + [nb, nb + 2, nb + 4, nb + 1, nb + 3]
    return np.ascontiguousarray(y.transpose(perm)).reshape(*b, c * r * r, h // r, w // r)


# ---------------------------------------------------------------- sparse

@reference("embedding")
def embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False):
    return weight[indices.astype(np.int64)]


def _bag_compare(ours, expected):
    np.testing.assert_allclose(ours[0].numpy(), expected, rtol=1e-5, atol=1e-5)
    assert ours[0].numpy().dtype == expected.dtype


@reference("embedding_bag", compare=_bag_compare)
def embedding_bag(weight, indices, offsets, scale_grad_by_freq=False, mode=0, sparse=False,
                  per_sample_weights=None, include_last_offset=False, padding_idx=None):
    pad = -1 if padding_idx is None else padding_idx
    # The last bag runs to the end of the input, also with include_last_offset (PyTorch).
    bounds = (list(offsets[:-1]) if include_last_offset else list(offsets)) + [len(indices)]
    out = np.zeros((len(bounds) - 1, weight.shape[1]), weight.dtype)
    for b in range(len(bounds) - 1):
        pos = [i for i in range(bounds[b], bounds[b + 1]) if indices[i] != pad]
        if not pos:
            continue
        rows = weight[indices[pos]]
        if mode == 2:
            out[b] = rows.max(axis=0)
        elif per_sample_weights is not None:
            out[b] = (rows * per_sample_weights[pos][:, None]).sum(axis=0)
        else:
            out[b] = rows.sum(axis=0) / (len(pos) if mode == 1 else 1)
    return out


@reference("one_hot")
def one_hot(x, num_classes=-1):
    n = int(x.max()) + 1 if num_classes == -1 else num_classes
    return (x[..., None] == np.arange(n)).astype(np.int64)


@reference("embedding_renorm_", contiguous_only=True)
def embedding_renorm_(weight, indices, max_norm, norm_type):
    out = weight.copy()
    for row in np.unique(indices):
        norm = np.sum(np.abs(out[row].astype(np.float64)) ** norm_type) ** (1 / norm_type)
        if norm > max_norm:
            out[row] = (out[row] * (max_norm / (norm + 1e-7))).astype(out.dtype)
    return out
