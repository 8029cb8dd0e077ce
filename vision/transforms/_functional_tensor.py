"""numpy-in/numpy-out helpers of the tensor transforms.

Each function mirrors one PyTorch op that torchvision's tensor transforms call, with the
same arithmetic in float32 where that decides the result (so pixel outputs agree with
torchvision's up to rounding of the last bit):

- ``grid_sample`` / ``interpolate`` = core.nn.functional's, on numpy arrays
- ``depthwise_conv2d`` = core.nn.functional.conv2d(groups=C) with one 2-D kernel for all channels
- ``linspace``: core.linspace (bit-exact with torch.linspace) as a numpy array
- ``rgb_to_hsv`` / ``hsv_to_rgb``, ``equalize_channels``, ``round_half_even``
"""
import numpy as np

import core

_F32 = np.float32


def linspace(start, end, steps, dtype=np.float32):
    """torch.linspace's values as a numpy array (core.linspace matches it bit for bit)."""
    core_dtype = core.float64 if np.dtype(dtype) == np.float64 else core.float32
    return core.linspace(start, end, steps, dtype=core_dtype).numpy()


def round_half_even(x):
    """torch.round: halves go to the even neighbour."""
    return np.rint(x)


# ---------------------------------------------------------------- grid_sample

def grid_sample(img, grid, mode):
    """Samples img (N, C, H, W) at grid (N, oh, ow, 2) of normalised (x, y) in [-1, 1] with
    core's grid_sample (padding_mode="zeros", align_corners=False). mode: "nearest" or "bilinear"."""
    if mode not in ("nearest", "bilinear"):
        raise ValueError(f"grid_sample(): unsupported mode '{mode}'")
    from core.nn.functional import grid_sample as _grid_sample
    # from_numpy shares memory and wants it writable: read-only views (broadcasts) are copied.
    img, grid = (np.require(a, requirements=("C", "W")) for a in (img, grid))
    out = _grid_sample(core.from_numpy(img), core.from_numpy(grid), mode=mode, padding_mode="zeros", align_corners=False)
    return out.numpy()


def affine_grid(theta, w, h, ow, oh):
    """torchvision's _gen_affine_grid: output pixel centres (relative to the output centre)
    mapped through theta (2x3, input pixel units) and normalised by the input size."""
    xs = linspace(-ow * 0.5 + 0.5, ow * 0.5 + 0.5 - 1, ow, theta.dtype)
    ys = linspace(-oh * 0.5 + 0.5, oh * 0.5 + 0.5 - 1, oh, theta.dtype)
    rescaled = theta.T / np.array([0.5 * w, 0.5 * h], dtype=theta.dtype)  # (3, 2)
    x = xs[None, :, None]
    y = ys[:, None, None]
    grid = x * rescaled[0] + y * rescaled[1] + rescaled[2]
    return grid[None].astype(theta.dtype)  # (1, oh, ow, 2)


def perspective_grid(coeffs, ow, oh, dtype):
    """torchvision's _perspective_grid: (x, y) -> ((a x + b y + c) / (g x + h y + 1), ...)."""
    dt = np.dtype(dtype).type
    theta1 = np.array([[coeffs[0], coeffs[1], coeffs[2]], [coeffs[3], coeffs[4], coeffs[5]]], dtype=dtype)
    theta2 = np.array([[coeffs[6], coeffs[7], 1.0], [coeffs[6], coeffs[7], 1.0]], dtype=dtype)
    xs = linspace(0.5, ow * 1.0 + 0.5 - 1.0, ow, dtype)[None, :, None]
    ys = linspace(0.5, oh * 1.0 + 0.5 - 1.0, oh, dtype)[:, None, None]
    r1 = theta1.T / np.array([0.5 * ow, 0.5 * oh], dtype=dtype)
    t2 = theta2.T
    num = xs * r1[0] + ys * r1[1] + r1[2]
    den = xs * t2[0] + ys * t2[1] + t2[2]
    return (num / den - dt(1.0))[None].astype(dtype)


# ---------------------------------------------------------------- interpolate

def interpolate(img, size, mode):
    """Resizes the last two dims of a float array to size (h, w) with core's interpolate
    (align_corners=False for bilinear / bicubic)."""
    if mode not in ("nearest", "bilinear", "bicubic"):
        raise ValueError(f"interpolate(): unsupported mode '{mode}'")
    from core.nn.functional import interpolate as _interpolate
    h, w = img.shape[-2:]
    batch = np.ascontiguousarray(img).reshape(-1, 1, h, w)
    align = None if mode == "nearest" else False
    out = _interpolate(core.from_numpy(batch), size=list(size), mode=mode, align_corners=align).numpy()
    return out.reshape(img.shape[:-2] + tuple(out.shape[-2:]))


# ---------------------------------------------------------------- convolution

def depthwise_conv2d(img, kernel):
    """'valid' cross-correlation of every channel of img (..., H, W) with one 2-D kernel:
    F.conv2d with groups = channels (torchvision's call), on numpy arrays in and out."""
    from core.nn import functional as F

    lead, (h, w) = img.shape[:-2], img.shape[-2:]
    channels = int(np.prod(lead, dtype=np.int64))
    if channels == 0:
        return np.zeros(lead + (h - kernel.shape[0] + 1, w - kernel.shape[1] + 1), img.dtype)
    x = core.from_numpy(np.ascontiguousarray(img.reshape(1, channels, h, w)))
    k = core.from_numpy(np.ascontiguousarray(kernel, dtype=img.dtype)).reshape(1, 1, *kernel.shape)
    out = F.conv2d(x, k.expand(channels, 1, *kernel.shape), groups=channels).numpy()
    return out.reshape(lead + out.shape[-2:])


# ---------------------------------------------------------------- colour

def rgb_to_hsv(img):
    """torchvision's _rgb2hsv on float arrays (..., 3, H, W) -> (..., 3, H, W)."""
    r, g, b = img[..., 0, :, :], img[..., 1, :, :], img[..., 2, :, :]
    dt = img.dtype.type
    maxc = np.maximum(np.maximum(r, g), b)
    minc = np.minimum(np.minimum(r, g), b)
    eqc = maxc == minc
    cr = maxc - minc
    ones = np.ones_like(maxc)
    s = cr / np.where(eqc, ones, maxc)
    cr_divisor = np.where(eqc, ones, cr)
    rc = (maxc - r) / cr_divisor
    gc = (maxc - g) / cr_divisor
    bc = (maxc - b) / cr_divisor
    hr = (maxc == r) * (bc - gc)
    hg = ((maxc == g) & (maxc != r)) * (dt(2.0) + rc - bc)
    hb = ((maxc != g) & (maxc != r)) * (dt(4.0) + gc - rc)
    h = hr + hg + hb
    h = np.fmod(h / dt(6.0) + dt(1.0), dt(1.0))
    return np.stack((h, s, maxc), axis=-3)


def hsv_to_rgb(img):
    """torchvision's _hsv2rgb on float arrays (..., 3, H, W)."""
    h, s, v = img[..., 0, :, :], img[..., 1, :, :], img[..., 2, :, :]
    dt = img.dtype.type
    i = np.floor(h * dt(6.0))
    f = h * dt(6.0) - i
    i = i.astype(np.int32) % 6
    p = np.clip(v * (dt(1.0) - s), 0.0, 1.0).astype(img.dtype)
    q = np.clip(v * (dt(1.0) - s * f), 0.0, 1.0).astype(img.dtype)
    t = np.clip(v * (dt(1.0) - s * (dt(1.0) - f)), 0.0, 1.0).astype(img.dtype)
    r = np.choose(i, (v, q, p, p, t, v))
    g = np.choose(i, (t, v, v, q, p, p))
    b = np.choose(i, (p, p, t, v, v, q))
    return np.stack((r, g, b), axis=-3)


def equalize_channels(img):
    """torchvision's _scale_channel for every (H, W) plane of a uint8 array (..., H, W)."""
    out = np.empty_like(img)
    flat_in = img.reshape(-1, img.shape[-2], img.shape[-1])
    flat_out = out.reshape(flat_in.shape)
    for k, chan in enumerate(flat_in):
        hist = np.bincount(chan.ravel(), minlength=256).astype(np.int64)
        nonzero = hist[hist != 0]
        step = int(nonzero[:-1].sum()) // 255
        if step == 0:
            flat_out[k] = chan
            continue
        lut = (np.cumsum(hist) + step // 2) // step
        lut = np.clip(np.concatenate(([0], lut[:-1])), 0, 255)
        flat_out[k] = lut[chan].astype(np.uint8)
    return out
