"""Sampling grids of the geometric tensor transforms (torchvision 0.9's _gen_affine_grid,
_perspective_grid and _apply_grid_transform), with the arithmetic in the grid's dtype where
it decides which pixel a coordinate lands on.

A grid is [1, oh, ow, 2]: for every output pixel the (x, y) it reads, normalised to [-1, 1]
over the input (grid_sample's convention with align_corners=False).
"""
import functools

import core
from core.nn import functional as nnf


def _base_grid(x0, y0, ow, oh, dtype):
    """[1, oh * ow, 3]: (x, y, 1) of every output pixel, x = x0, x0 + 1, ... and y = y0, y0 + 1, ..."""
    x = core.linspace(x0, x0 + ow - 1.0, ow, dtype=dtype).expand(oh, ow)
    y = core.linspace(y0, y0 + oh - 1.0, oh, dtype=dtype).unsqueeze(1).expand(oh, ow)
    return core.stack([x, y, core.ones(oh, ow, dtype=dtype)], dim=-1).reshape(1, oh * ow, 3)


def affine_grid(matrix, w, h, ow, oh, dtype):
    """Output pixel centres (relative to the output centre) mapped through the 2x3 `matrix`
    (input pixel units) and normalised by the input size. Grids are remembered: augmentation
    policies draw their angles and shears from a few bins, so the same grids come back."""
    return _affine_grid(tuple(float(v) for v in matrix), w, h, ow, oh, dtype)


@functools.lru_cache(maxsize=32)  # at most 32 grids: ~13 MB at 224 x 224 in float32
def _affine_grid(matrix, w, h, ow, oh, dtype):
    theta = core.tensor(matrix, dtype=dtype).reshape(2, 3)
    rescaled = theta.t() / core.tensor([0.5 * w, 0.5 * h], dtype=dtype)  # [3, 2]
    # a matrix product as torchvision's bmm: the same sums, so the same last bits
    grid = core.matmul(_base_grid(-ow * 0.5 + 0.5, -oh * 0.5 + 0.5, ow, oh, dtype), rescaled)
    return grid.reshape(1, oh, ow, 2)


def perspective_grid(coeffs, ow, oh, dtype):
    """(x, y) -> ((a x + b y + c) / (g x + h y + 1), (d x + e y + f) / (g x + h y + 1)) of the
    output pixel centres, normalised by the image size."""
    theta1 = core.tensor([coeffs[0:3], coeffs[3:6]], dtype=dtype)
    theta2 = core.tensor([[coeffs[6], coeffs[7], 1.0]] * 2, dtype=dtype)
    base = _base_grid(0.5, 0.5, ow, oh, dtype)
    numerator = core.matmul(base, theta1.t() / core.tensor([0.5 * ow, 0.5 * oh], dtype=dtype))
    return (numerator / core.matmul(base, theta2.t()) - 1.0).reshape(1, oh, ow, 2)


def expanded_size(matrix, w, h):
    """(width, height) of the canvas holding the whole image mapped by `matrix` (PIL's
    expand=True rule for rotations), computed in float32 like torchvision."""
    corners = core.tensor([[-0.5 * w, -0.5 * h, 1.0], [-0.5 * w, 0.5 * h, 1.0],
                           [0.5 * w, 0.5 * h, 1.0], [0.5 * w, -0.5 * h, 1.0]], dtype=core.float32)
    theta = core.tensor(matrix, dtype=core.float32).reshape(2, 3)
    # measured from the top-left corner as PIL does (torchvision 0.9 omitted this shift and
    # could come out one pixel smaller than PIL's expand=True)
    mapped = core.matmul(corners, theta.t()) + core.tensor([w * 0.5, h * 0.5], dtype=core.float32)
    tol = 1e-4  # truncated to 1e-4 first so that ceil(1e-15) does not add a pixel
    high = ((mapped.amax(dim=0) / tol).trunc() * tol).ceil()
    low = ((mapped.amin(dim=0) / tol).trunc() * tol).floor()
    width, height = (high - low).tolist()
    return int(width), int(height)


def sample(batch, grid, mode, fill):
    """batch [N, C, H, W] sampled at grid [1, oh, ow, 2] (zeros outside the image); with
    `fill` (a number or one per channel) the pixels that came from outside get it instead: a
    channel of ones rides along and says how much of each output pixel was inside."""
    n = batch.shape[0]
    if fill is not None:
        batch = core.cat([batch, core.ones_like(batch[:, :1])], 1)
    out = nnf.grid_sample(batch, grid.expand(n, *grid.shape[1:]), mode=mode, padding_mode="zeros",
                          align_corners=False)
    if fill is None:
        return out
    inside, out = out[:, -1:], out[:, :-1]
    fill = list(fill) if isinstance(fill, (tuple, list)) else [float(fill)]
    fill_img = core.tensor(fill, dtype=out.dtype).reshape(1, len(fill), 1, 1)
    if mode == "nearest":
        return core.where(inside < 0.5, fill_img, out)
    return out * inside + (1.0 - inside) * fill_img
