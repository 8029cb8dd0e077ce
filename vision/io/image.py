"""vision.io image functions (torchvision 0.9's io.image), built on Pillow.

Images are uint8 tensors [C, H, W]; 16-bit PNGs decode to int32 tensors holding 0..65535
(core has no uint16) and int32/int16 tensors encode to 16-bit PNGs. Palette PNGs decode to
RGB (RGBA when they carry transparency). Corrupt or truncated data raises RuntimeError
naming the function. Files are written atomically (temporary file + rename).
"""
import io as _pyio
import os
import warnings
from enum import Enum

import numpy as np
from PIL import Image, UnidentifiedImageError

import core
from core._budget import over_budget
from hub._atomic import atomic_write_bytes
from vision.io import _png16

__all__ = ["ImageReadMode", "read_file", "write_file", "decode_png", "encode_png", "write_png", "decode_jpeg",
           "encode_jpeg", "write_jpeg", "decode_image", "read_image"]


class ImageReadMode(Enum):
    """Channel conversion applied while decoding."""
    UNCHANGED = 0
    GRAY = 1
    GRAY_ALPHA = 2
    RGB = 3
    RGB_ALPHA = 4


_MODE_TO_PIL = {ImageReadMode.GRAY: "L", ImageReadMode.GRAY_ALPHA: "LA", ImageReadMode.RGB: "RGB",
                ImageReadMode.RGB_ALPHA: "RGBA"}
_JPEG_MAGIC = b"\xff\xd8\xff"


def _read_mode(mode):
    if isinstance(mode, ImageReadMode):
        return mode
    try:
        return ImageReadMode(mode)
    except ValueError:
        raise ValueError(f"unknown ImageReadMode {mode!r}") from None


def _check_encoded(op, data):
    """The bytes of a non-empty 1-D uint8 tensor."""
    if not isinstance(data, core.Tensor):
        raise TypeError(f"{op}(): expected a core.Tensor of bytes, got {type(data).__name__}")
    if data.dtype != core.uint8:
        raise RuntimeError(f"{op}(): expected a core.uint8 tensor, got {data.dtype}")
    if data.ndim != 1 or data.numel() == 0:
        raise RuntimeError(f"{op}(): expected a non empty 1-dimensional tensor, got shape {list(data.shape)}")
    return data.detach().numpy().tobytes()


def _check_image(op, image, dtypes=(core.uint8,)):
    """HWC numpy view of a [C, H, W] image tensor."""
    if not isinstance(image, core.Tensor):
        raise TypeError(f"{op}(): expected a core.Tensor image, got {type(image).__name__}")
    if image.dtype not in dtypes:
        raise RuntimeError(f"{op}(): input tensor dtype should be {' or '.join(map(str, dtypes))}, got {image.dtype}")
    if image.ndim != 3:
        raise RuntimeError(f"{op}(): input data should be a 3-dimensional tensor [C, H, W], got {image.ndim} dims")
    return np.ascontiguousarray(np.transpose(image.detach().numpy(), (1, 2, 0)))


def _bytes_tensor(data):
    """A 1-D uint8 tensor holding a copy of `data` (bytes)."""
    return core.tensor(np.frombuffer(data, dtype=np.uint8))


def _to_chw_tensor(arr):
    if arr.ndim == 2:
        arr = arr[:, :, None]
    return core.tensor(np.transpose(arr, (2, 0, 1)))


# ---------------------------------------------------------------- files

def read_file(path):
    """The raw bytes of a file as a 1-D uint8 tensor."""
    with open(os.fspath(path), "rb") as f:
        data = f.read()
    if not data:
        raise RuntimeError(f"read_file(): expected a non empty file: {path}")
    return _bytes_tensor(data)


def write_file(filename, data):
    """Writes the bytes of a 1-D uint8 tensor to `filename` (atomically)."""
    if not isinstance(data, core.Tensor) or data.dtype != core.uint8:
        raise RuntimeError("write_file(): input tensor dtype should be uint8")
    if data.ndim != 1:
        raise RuntimeError("write_file(): input data should be a 1-dimensional tensor")
    atomic_write_bytes(filename, data.detach().numpy().tobytes())


# ---------------------------------------------------------------- decoding

def _check_budget(op, img, fmt):
    """The pixels an opened (not yet decoded) image declares must fit the decode budget."""
    width, height = img.size
    message = over_budget(width * height * len(img.getbands()), f"{op}()", f"the {fmt} header ({width}x{height})")
    if message:
        raise RuntimeError(message)


def _open_pil(op, raw, fmt):
    """A fully loaded PIL image, or RuntimeError for corrupt / truncated / foreign data."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            img = Image.open(_pyio.BytesIO(raw))
            if img.format != fmt:
                raise RuntimeError(f"{op}(): content is not {fmt.lower()} (found {img.format})")
            _check_budget(op, img, fmt)
            img.load()
    except RuntimeError:
        raise
    except (OSError, SyntaxError, ValueError, UnidentifiedImageError, EOFError, Image.DecompressionBombError) as e:
        raise RuntimeError(f"{op}(): corrupt or truncated {fmt} data: {e}") from None
    return img


def _convert_pil(img, mode):
    """PIL image -> HWC uint8 array honouring an ImageReadMode."""
    if img.mode == "P":  # expand the palette (keeping transparency as alpha)
        img = img.convert("RGBA" if "transparency" in img.info else "RGB")
    elif img.mode == "1":
        img = img.convert("L")
    elif img.mode in ("CMYK", "YCbCr", "I", "F", "I;16", "I;16B", "PA"):
        img = img.convert("RGBA" if img.mode == "PA" else ("L" if img.mode.startswith("I") or img.mode == "F"
                                                              else "RGB"))
    if mode != ImageReadMode.UNCHANGED and img.mode != _MODE_TO_PIL[mode]:
        img = img.convert(_MODE_TO_PIL[mode])
    return np.asarray(img)


def _convert_16bit(arr, mode):
    """Channel conversion of a (H, W, C) uint16 array for an ImageReadMode."""
    channels = arr.shape[2]
    has_alpha = channels in (2, 4)
    color = arr[..., :channels - 1] if has_alpha else arr
    alpha = arr[..., -1:] if has_alpha else np.full(arr.shape[:2] + (1,), 65535, dtype=arr.dtype)
    if mode == ImageReadMode.UNCHANGED:
        return arr
    if mode in (ImageReadMode.GRAY, ImageReadMode.GRAY_ALPHA):
        if color.shape[2] == 3:  # ITU-R 601-2 luma, as PIL's convert("L")
            gray = (color.astype(np.float64) @ np.array([0.299, 0.587, 0.114]))[..., None]
            color = np.clip(np.rint(gray), 0, 65535).astype(np.uint16)
    else:
        if color.shape[2] == 1:
            color = np.repeat(color, 3, axis=2)
    if mode in (ImageReadMode.GRAY_ALPHA, ImageReadMode.RGB_ALPHA):
        return np.concatenate([color, alpha], axis=2)
    return color


def decode_png(input, mode=ImageReadMode.UNCHANGED):
    """PNG bytes (1-D uint8 tensor) -> image tensor [C, H, W] (uint8; int32 for 16-bit)."""
    mode = _read_mode(mode)
    raw = _check_encoded("decode_png", input)
    if raw[:8] != _png16.SIGNATURE:
        raise RuntimeError("decode_png(): content is not png")
    try:
        _, _, depth, _, _ = _png16.header(raw)
        # Pillow decodes some truncated files without complaint: check the chunks (and sizes) first.
        _png16.check_declared_size(raw, "decode_png()")
        if depth == 16:
            return _to_chw_tensor(_convert_16bit(_png16.decode(raw, "decode_png()"), mode).astype(np.int32))
    except _png16.PNGSizeError as e:
        raise RuntimeError(str(e)) from None
    except _png16.PNGError as e:
        raise RuntimeError(f"decode_png(): corrupt or truncated PNG data: {e}") from None
    img = _open_pil("decode_png", raw, "PNG")
    return _to_chw_tensor(_convert_pil(img, mode))


def decode_jpeg(input, mode=ImageReadMode.UNCHANGED):
    """JPEG bytes -> uint8 image tensor [C, H, W]; modes UNCHANGED, GRAY or RGB."""
    mode = _read_mode(mode)
    if mode not in (ImageReadMode.UNCHANGED, ImageReadMode.GRAY, ImageReadMode.RGB):
        raise ValueError(f"decode_jpeg(): mode {mode} is not supported for JPEG files (use UNCHANGED, GRAY or RGB)")
    raw = _check_encoded("decode_jpeg", input)
    if raw[:3] != _JPEG_MAGIC:
        raise RuntimeError("decode_jpeg(): content is not jpeg")
    img = _open_pil("decode_jpeg", raw, "JPEG")
    return _to_chw_tensor(_convert_pil(img, mode))


def decode_image(input, mode=ImageReadMode.UNCHANGED):
    """Decodes PNG or JPEG bytes, detected from the magic number."""
    raw = _check_encoded("decode_image", input)
    if raw[:3] == _JPEG_MAGIC:
        return decode_jpeg(input, mode)
    if raw[:8] == _png16.SIGNATURE:
        return decode_png(input, mode)
    raise RuntimeError("decode_image(): unsupported image file. Only jpeg and png are currently supported.")


def read_image(path, mode=ImageReadMode.UNCHANGED):
    """decode_image(read_file(path), mode); a decoding error names the file."""
    data = read_file(path)
    try:
        return decode_image(data, mode)
    except RuntimeError as e:
        raise RuntimeError(f"read_image(): {os.fspath(path)!r}: {e}") from None


# ---------------------------------------------------------------- encoding

_PIL_MODES = {1: "L", 2: "LA", 3: "RGB", 4: "RGBA"}


def encode_png(input, compression_level=6):
    """Image tensor [C, H, W] (C = 1..4; uint8, or int16/int32 in 0..65535 for 16-bit) ->
    PNG bytes as a 1-D uint8 tensor."""
    if not isinstance(compression_level, int) or not 0 <= compression_level <= 9:
        raise ValueError(f"encode_png(): compression level should be between 0 and 9, got {compression_level}")
    arr = _check_image("encode_png", input, (core.uint8, core.int16, core.int32))
    if arr.shape[2] not in _PIL_MODES:
        raise RuntimeError(f"encode_png(): the number of channels should be 1, 2, 3 or 4, got {arr.shape[2]}")
    if input.dtype != core.uint8:
        if arr.size and (arr.min() < 0 or arr.max() > 65535):
            raise ValueError("encode_png(): 16-bit PNG values must lie in [0, 65535]")
        data = _png16.encode(arr.astype(np.uint16), compression_level)
    else:
        buf = _pyio.BytesIO()
        img = Image.fromarray(arr[:, :, 0] if arr.shape[2] == 1 else arr)
        img.save(buf, format="PNG", compress_level=compression_level)
        data = buf.getvalue()
    return _bytes_tensor(data)


def write_png(input, filename, compression_level=6):
    write_file(filename, encode_png(input, compression_level))


def encode_jpeg(input, quality=75):
    """uint8 image tensor [1 or 3, H, W] -> JPEG bytes as a 1-D uint8 tensor."""
    if not isinstance(quality, int) or not 1 <= quality <= 100:
        raise ValueError("encode_jpeg(): image quality should be a positive number between 1 and 100")
    arr = _check_image("encode_jpeg", input)
    if arr.shape[2] not in (1, 3):
        raise RuntimeError(f"encode_jpeg(): the number of channels should be 1 or 3, got: {arr.shape[2]}")
    buf = _pyio.BytesIO()
    Image.fromarray(arr[:, :, 0] if arr.shape[2] == 1 else arr).save(buf, format="JPEG", quality=quality)
    return _bytes_tensor(buf.getvalue())


def write_jpeg(input, filename, quality=75):
    write_file(filename, encode_jpeg(input, quality))
