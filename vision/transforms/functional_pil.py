"""The PIL-image half of vision.transforms.functional (torchvision 0.9 functional_pil)."""
import numbers
from collections.abc import Sequence

import numpy as np
from PIL import Image, ImageEnhance, ImageOps

try:  # Pillow >= 9.1 moved the constants into enums; the old names are not in every release
    _FLIP_LEFT_RIGHT = Image.Transpose.FLIP_LEFT_RIGHT
    _FLIP_TOP_BOTTOM = Image.Transpose.FLIP_TOP_BOTTOM
    _AFFINE = Image.Transform.AFFINE
    _PERSPECTIVE = Image.Transform.PERSPECTIVE
except AttributeError:  # pragma: no cover - old Pillow
    _FLIP_LEFT_RIGHT, _FLIP_TOP_BOTTOM = Image.FLIP_LEFT_RIGHT, Image.FLIP_TOP_BOTTOM
    _AFFINE, _PERSPECTIVE = Image.AFFINE, Image.PERSPECTIVE


def _is_pil_image(img):
    return isinstance(img, Image.Image)


def _check_pil(img):
    if not _is_pil_image(img):
        raise TypeError(f"img should be PIL Image. Got {type(img)}")


def _get_image_size(img):
    _check_pil(img)
    return img.size


def _get_image_num_channels(img):
    _check_pil(img)
    return 1 if img.mode == "1" else len(img.getbands())


def hflip(img):
    _check_pil(img)
    return img.transpose(_FLIP_LEFT_RIGHT)


def vflip(img):
    _check_pil(img)
    return img.transpose(_FLIP_TOP_BOTTOM)


def adjust_brightness(img, brightness_factor):
    _check_pil(img)
    return ImageEnhance.Brightness(img).enhance(brightness_factor)


def adjust_contrast(img, contrast_factor):
    _check_pil(img)
    return ImageEnhance.Contrast(img).enhance(contrast_factor)


def adjust_saturation(img, saturation_factor):
    _check_pil(img)
    return ImageEnhance.Color(img).enhance(saturation_factor)


def adjust_sharpness(img, sharpness_factor):
    _check_pil(img)
    return ImageEnhance.Sharpness(img).enhance(sharpness_factor)


def adjust_hue(img, hue_factor):
    if not -0.5 <= hue_factor <= 0.5:
        raise ValueError(f"hue_factor ({hue_factor}) is not in [-0.5, 0.5].")
    _check_pil(img)
    input_mode = img.mode
    if input_mode in {"L", "1", "I", "F"}:
        return img
    h, s, v = img.convert("HSV").split()
    np_h = np.array(h, dtype=np.uint8)
    # the shift wraps around the hue circle: uint8 arithmetic modulo 256
    np_h += np.uint8(int(hue_factor * 255) % 256)
    h = from_array(np_h, "L")
    return Image.merge("HSV", (h, s, v)).convert(input_mode)


def adjust_gamma(img, gamma, gain=1):
    _check_pil(img)
    if gamma < 0:
        raise ValueError("Gamma should be a non-negative real number")
    input_mode = img.mode
    img = img.convert("RGB")
    # truncation after scaling by 255.999, like the tensor path's conversion to uint8
    gamma_map = [int((255 + 1 - 1e-3) * gain * pow(ele / 255.0, gamma)) for ele in range(256)] * 3
    img = img.point(gamma_map)
    return img.convert(input_mode)


def _parse_fill(fill, img, name="fillcolor"):
    """PIL's fill argument: a number or a tuple with one value per band."""
    num_bands = len(img.getbands())
    if fill is None:
        fill = 0
    if isinstance(fill, (int, float)) and num_bands > 1:
        fill = tuple([fill] * num_bands)
    if isinstance(fill, (list, tuple)):
        if len(fill) != num_bands:
            raise ValueError("The number of elements in 'fill' does not match the number of "
                             f"bands of the image ({len(fill)} != {num_bands})")
        fill = tuple(fill)
    if img.mode != "F":  # integer images take integer colours
        fill = tuple(int(f) for f in fill) if isinstance(fill, tuple) else int(fill)
    return {name: fill}


def _normalize_padding(padding):
    """(left, top, right, bottom) from an int or a 1-, 2- or 4-sequence."""
    if not isinstance(padding, (numbers.Number, tuple, list)):
        raise TypeError("Got inappropriate padding arg")
    if isinstance(padding, Sequence) and len(padding) not in (1, 2, 4):
        raise ValueError("Padding must be an int or a 1, 2, or 4 element tuple, not a "
                         f"{len(padding)} element tuple")
    if isinstance(padding, numbers.Number):
        return [int(padding)] * 4
    if len(padding) == 1:
        return [int(padding[0])] * 4
    if len(padding) == 2:
        return [int(padding[0]), int(padding[1]), int(padding[0]), int(padding[1])]
    return [int(p) for p in padding]


def pad(img, padding, fill=0, padding_mode="constant"):
    _check_pil(img)
    if not isinstance(fill, (numbers.Number, str, tuple)):
        raise TypeError("Got inappropriate fill arg")
    if not isinstance(padding_mode, str):
        raise TypeError("Got inappropriate padding_mode arg")
    if padding_mode not in ("constant", "edge", "reflect", "symmetric"):
        raise ValueError("Padding mode should be either constant, edge, reflect or symmetric")
    left, top, right, bottom = _normalize_padding(padding)

    # negative padding crops
    crop_l, crop_t, crop_r, crop_b = (max(-p, 0) for p in (left, top, right, bottom))
    if crop_l or crop_t or crop_r or crop_b:
        img = img.crop((crop_l, crop_t, img.width - crop_r, img.height - crop_b))
    left, top, right, bottom = (max(p, 0) for p in (left, top, right, bottom))

    if padding_mode == "constant":
        opts = _parse_fill(fill, img, name="fill")
        palette = img.getpalette() if img.mode == "P" else None
        out = ImageOps.expand(img, border=(left, top, right, bottom), **opts)
        if palette is not None:
            out.putpalette(palette)
        return out

    palette = img.getpalette() if img.mode == "P" else None
    mode = img.mode
    arr = np.asarray(img)
    widths = ((top, bottom), (left, right)) + (((0, 0),) if arr.ndim == 3 else ())
    arr = np.pad(arr, widths, padding_mode)
    out = from_array(arr, mode)
    if palette is not None:
        out.putpalette(palette)
    return out


def crop(img, top, left, height, width):
    _check_pil(img)
    return img.crop((left, top, left + width, top + height))


def resize(img, size, interpolation=Image.BILINEAR):
    _check_pil(img)
    if not (isinstance(size, int) or (isinstance(size, Sequence) and len(size) in (1, 2))):
        raise TypeError(f"Got inappropriate size arg: {size}")
    if isinstance(size, int) or len(size) == 1:
        if isinstance(size, Sequence):
            size = size[0]
        w, h = img.size
        if (w <= h and w == size) or (h <= w and h == size):
            return img
        if w < h:
            ow, oh = size, int(size * h / w)
        else:
            oh, ow = size, int(size * w / h)
        return img.resize((ow, oh), interpolation)
    return img.resize((size[1], size[0]), interpolation)


def affine(img, matrix, interpolation=0, fill=None):
    _check_pil(img)
    opts = _parse_fill(fill, img)
    return img.transform(img.size, _AFFINE, matrix, interpolation, **opts)


def rotate(img, angle, interpolation=0, expand=False, center=None, fill=None):
    _check_pil(img)
    opts = _parse_fill(fill, img)
    return img.rotate(angle, interpolation, expand, center, **opts)


def perspective(img, perspective_coeffs, interpolation=Image.BICUBIC, fill=None):
    _check_pil(img)
    opts = _parse_fill(fill, img)
    return img.transform(img.size, _PERSPECTIVE, perspective_coeffs, interpolation, **opts)


def to_grayscale(img, num_output_channels=1):
    _check_pil(img)
    if num_output_channels == 1:
        return img.convert("L")
    if num_output_channels == 3:
        return img.convert("L").convert("RGB")
    raise ValueError("num_output_channels should be either 1 or 3")


def invert(img):
    _check_pil(img)
    return ImageOps.invert(img)


def posterize(img, bits):
    _check_pil(img)
    return ImageOps.posterize(img, bits)


def solarize(img, threshold):
    _check_pil(img)
    return ImageOps.solarize(img, threshold)


def autocontrast(img):
    _check_pil(img)
    return ImageOps.autocontrast(img)


def equalize(img):
    _check_pil(img)
    return ImageOps.equalize(img)


# ---- numpy -> PIL without the `mode` argument of Image.fromarray (deprecated in Pillow 11.3)

_RAW_MODES = {"L": np.uint8, "P": np.uint8, "LA": np.uint8, "RGB": np.uint8, "RGBA": np.uint8,
              "RGBX": np.uint8, "CMYK": np.uint8, "YCbCr": np.uint8, "HSV": np.uint8, "I": np.int32,
              "F": np.float32, "I;16": np.uint16}


def _image_from_array(arr, mode):
    """An image of `mode` holding `arr` (H, W) or (H, W, bands), built from raw bytes."""
    if mode not in _RAW_MODES:
        raise ValueError(f"unsupported image mode {mode}")
    arr = np.ascontiguousarray(arr, dtype=_RAW_MODES[mode])
    h, w = arr.shape[:2]
    if mode == "I;16":
        return Image.frombuffer(mode, (w, h), arr.astype("<u2").tobytes(), "raw", "I;16", 0, 1)
    return Image.frombuffer(mode, (w, h), arr.tobytes(), "raw", mode, 0, 1)


def from_array(arr, mode=None):
    """Image.fromarray with an explicit mode on every Pillow version."""
    if mode is None:
        return Image.fromarray(arr)
    return _image_from_array(arr, mode)
