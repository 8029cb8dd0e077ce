"""Images for TensorBoard: any layout to HWC uint8 (batches tiled into a grid), PNG-encoded."""
import io

import numpy as np
from PIL import Image


def _check_layout(dataformats, ndim):
    if (len(dataformats) != ndim or len(set(dataformats)) != ndim
            or not set(dataformats) <= set("NCHW") or not {"H", "W"} <= set(dataformats)):
        raise ValueError(f"add_image: dataformats {dataformats!r} does not describe an array of "
                         f"{ndim} dims (use letters of 'NCHW', H and W included, e.g. 'CHW', 'HWC', 'NCHW')")


def _as_three_channels(nchw):
    if nchw.shape[1] == 1:
        return np.repeat(nchw, 3, axis=1)
    if nchw.shape[1] not in (3, 4):
        raise ValueError(f"add_image: images need 1, 3 or 4 channels, got {nchw.shape[1]}")
    return nchw


def tile(nchw, ncols=8):
    """N images as one CHW grid, `ncols` wide (fewer when there are fewer images)."""
    n, c, h, w = nchw.shape
    ncols = max(1, min(n, ncols))
    nrows = -(-n // ncols)
    canvas = np.zeros((c, h * nrows, w * ncols), dtype=nchw.dtype)
    for i in range(n):
        row, col = divmod(i, ncols)
        canvas[:, row * h:(row + 1) * h, col * w:(col + 1) * w] = nchw[i]
    return canvas


def to_hwc(array, dataformats):
    """An HWC array with 3 or 4 channels from an image or a batch in the layout `dataformats`."""
    dataformats = dataformats.upper()
    _check_layout(dataformats, array.ndim)
    order = [d for d in "NCHW" if d in dataformats]
    array = np.transpose(array, [dataformats.index(d) for d in order])
    if "C" not in order:
        array = np.expand_dims(array, order.index("H"))
    if "N" not in order:
        array = array[None]
    return np.transpose(tile(_as_three_channels(array)), (1, 2, 0))


def to_uint8(array):
    # Floats are in [0, 1]; like PyTorch's writer, scale by 255, clip and truncate.
    if array.dtype == np.uint8:
        return array
    return (array.astype(np.float32) * 255).clip(0, 255).astype(np.uint8)


def encode_png(hwc_uint8):
    buffer = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(hwc_uint8)).save(buffer, format="PNG")
    return buffer.getvalue()
