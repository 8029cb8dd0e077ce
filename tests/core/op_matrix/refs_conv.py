"""numpy references of the convolution family: direct (tap by tap) convolutions in float64,
regular and transposed, 1-d via an inserted H = 1 axis; im2col / col2im by the same slicing.
Also imported by tests/core/nn/test_conv.py."""
import numpy as np

from .registry import reference

_TOL = dict(atol=1e-4, rtol=1e-4)


def _pair(v, n):
    return tuple(v) if isinstance(v, (tuple, list)) else (v,) * n


def _as_4d(x, w, n):
    """(input, weight, batched) as 2-d problems; n is the number of spatial dims."""
    batched = x.ndim == n + 2
    x = x if batched else x[None]
    if n == 1:
        x, w = x[:, :, None, :], w[:, :, None, :]
    return x.astype(np.float64), w.astype(np.float64), batched


def _back(out, n, batched, dtype):
    if n == 1:
        out = out[:, :, 0, :]
    if not batched:
        out = out[0]
    return out.astype(dtype)


def conv_ref(x, w, b=None, stride=1, padding=0, dilation=1, groups=1, n=2):
    dtype = x.dtype
    x, w, batched = _as_4d(x, w, n)
    s, p, d = (_pair(v, n) for v in (stride, padding, dilation))
    if n == 1:
        s, p, d = (1,) + s, (0,) + p, (1,) + d
    N, C, H, W = x.shape
    O, Cg, KH, KW = w.shape
    Og = O // groups
    xp = np.pad(x, ((0, 0), (0, 0), (p[0], p[0]), (p[1], p[1])))
    OH = (H + 2 * p[0] - d[0] * (KH - 1) - 1) // s[0] + 1
    OW = (W + 2 * p[1] - d[1] * (KW - 1) - 1) // s[1] + 1
    out = np.zeros((N, O, OH, OW))
    for g in range(groups):
        for kh in range(KH):
            for kw in range(KW):
                patch = xp[:, g * Cg:(g + 1) * Cg, kh * d[0]:kh * d[0] + s[0] * (OH - 1) + 1:s[0],
                           kw * d[1]:kw * d[1] + s[1] * (OW - 1) + 1:s[1]]
                out[:, g * Og:(g + 1) * Og] += np.einsum("nchw,oc->nohw", patch, w[g * Og:(g + 1) * Og, :, kh, kw])
    if b is not None:
        out += b.astype(np.float64)[None, :, None, None]
    return _back(out, n, batched, dtype)


def conv_transpose_ref(x, w, b=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1, n=2):
    dtype = x.dtype
    x, w, batched = _as_4d(x, w, n)
    s, p, op, d = (_pair(v, n) for v in (stride, padding, output_padding, dilation))
    if n == 1:
        s, p, op, d = (1,) + s, (0,) + p, (0,) + op, (1,) + d
    N, C, H, W = x.shape
    _, Og, KH, KW = w.shape
    Cg = C // groups
    OH = (H - 1) * s[0] - 2 * p[0] + d[0] * (KH - 1) + op[0] + 1
    OW = (W - 1) * s[1] - 2 * p[1] + d[1] * (KW - 1) + op[1] + 1
    full = np.zeros((N, Og * groups, OH + 2 * p[0] + s[0] + d[0] * KH, OW + 2 * p[1] + s[1] + d[1] * KW))
    for g in range(groups):
        for kh in range(KH):
            for kw in range(KW):
                contrib = np.einsum("nchw,co->nohw", x[:, g * Cg:(g + 1) * Cg], w[g * Cg:(g + 1) * Cg, :, kh, kw])
                full[:, g * Og:(g + 1) * Og, kh * d[0]:kh * d[0] + s[0] * (H - 1) + 1:s[0],
                     kw * d[1]:kw * d[1] + s[1] * (W - 1) + 1:s[1]] += contrib
    out = full[:, :, p[0]:p[0] + OH, p[1]:p[1] + OW]
    if b is not None:
        out = out + b.astype(np.float64)[None, :, None, None]
    return _back(out, n, batched, dtype)


def _blocks(size, k, d, p, s):
    return [(size[i] + 2 * p[i] - d[i] * (k[i] - 1) - 1) // s[i] + 1 for i in range(2)]


def im2col_ref(x, kernel_size, dilation, padding, stride):
    k, d, p, s = (_pair(v, 2) for v in (kernel_size, dilation, padding, stride))
    batched = x.ndim == 4
    xx = (x if batched else x[None]).astype(np.float64)
    N, C, H, W = xx.shape
    bh, bw = _blocks((H, W), k, d, p, s)
    xp = np.pad(xx, ((0, 0), (0, 0), (p[0], p[0]), (p[1], p[1])))
    out = np.zeros((N, C, k[0], k[1], bh, bw))
    for kh in range(k[0]):
        for kw in range(k[1]):
            out[:, :, kh, kw] = xp[:, :, kh * d[0]:kh * d[0] + s[0] * (bh - 1) + 1:s[0],
                                   kw * d[1]:kw * d[1] + s[1] * (bw - 1) + 1:s[1]]
    out = out.reshape(N, C * k[0] * k[1], bh * bw)
    return (out if batched else out[0]).astype(x.dtype)


def col2im_ref(x, output_size, kernel_size, dilation, padding, stride):
    o, k, d, p, s = (_pair(v, 2) for v in (output_size, kernel_size, dilation, padding, stride))
    batched = x.ndim == 3
    xx = (x if batched else x[None]).astype(np.float64)
    N = xx.shape[0]
    C = xx.shape[1] // (k[0] * k[1])
    bh, bw = _blocks(o, k, d, p, s)
    cols = xx.reshape(N, C, k[0], k[1], bh, bw)
    full = np.zeros((N, C, o[0] + 2 * p[0] + s[0] + d[0] * k[0], o[1] + 2 * p[1] + s[1] + d[1] * k[1]))
    for kh in range(k[0]):
        for kw in range(k[1]):
            full[:, :, kh * d[0]:kh * d[0] + s[0] * (bh - 1) + 1:s[0],
                 kw * d[1]:kw * d[1] + s[1] * (bw - 1) + 1:s[1]] += cols[:, :, kh, kw]
    out = full[:, :, p[0]:p[0] + o[0], p[1]:p[1] + o[1]]
    return (out if batched else out[0]).astype(x.dtype)


@reference("conv1d", **_TOL)
def conv1d(x, w, b=None, stride=1, padding=0, dilation=1, groups=1):
    return conv_ref(x, w, b, stride, padding, dilation, groups, n=1)


@reference("conv2d", **_TOL)
def conv2d(x, w, b=None, stride=1, padding=0, dilation=1, groups=1):
    return conv_ref(x, w, b, stride, padding, dilation, groups, n=2)


@reference("conv_transpose1d", **_TOL)
def conv_transpose1d(x, w, b=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    return conv_transpose_ref(x, w, b, stride, padding, output_padding, groups, dilation, n=1)


@reference("conv_transpose2d", **_TOL)
def conv_transpose2d(x, w, b=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    return conv_transpose_ref(x, w, b, stride, padding, output_padding, groups, dilation, n=2)


@reference("_im2col", **_TOL)
def _im2col(x, kernel_size, dilation, padding, stride):
    return im2col_ref(x, kernel_size, dilation, padding, stride)


@reference("_col2im", **_TOL)
def _col2im(x, output_size, kernel_size, dilation, padding, stride):
    return col2im_ref(x, output_size, kernel_size, dilation, padding, stride)
