"""The tensor half of vision.transforms.functional (torchvision 0.9's functional_tensor), on
core ops end to end.

Images are tensors [..., C, H, W] (any number of leading dims; [H, W] where torchvision takes
it). Float images keep their dtype and their gradients; integer images compute in float32
and come back rounded half to even (resampling, filters) or truncated (colour maths), as
torchvision does. Images whose channels are interleaved in memory (channels-last) come back
channels-last.
"""
import functools
import warnings

import core
from core.nn import functional as nnf
from vision.transforms import _grid


def _is_tensor_a_torch_image(x):
    return x.ndim >= 2


def _assert_image_tensor(img):
    if not isinstance(img, core.Tensor):
        raise TypeError(f"img should be Tensor Image. Got {type(img)}")
    if not _is_tensor_a_torch_image(img):
        raise TypeError("Tensor is not a torch image.")


def _assert_image_3d(img):
    if img.ndim < 3:
        raise TypeError(f"Input image tensor should have at least 3 dimensions, but found {img.ndim}")


def _assert_uint8(img):
    if img.dtype != core.uint8:
        raise TypeError(f"Only torch.uint8 image tensors are supported, but found {img.dtype}")


def _get_image_size(img):
    _assert_image_tensor(img)
    return [img.shape[-1], img.shape[-2]]


def _get_image_num_channels(img):
    if img.ndim == 2:
        return 1
    if img.ndim > 2:
        return img.shape[-3]
    raise TypeError(f"Input ndim should be 2 or more. Got {img.ndim}")


def _assert_channels(img, permitted):
    c = _get_image_num_channels(img)
    if c not in permitted:
        raise TypeError(f"Input image tensor permitted channel values are {permitted}, but found {c}")


def _max_value(dtype):
    """The brightest pixel of a dtype: 1 for floats, the largest value for integers."""
    if dtype.is_floating_point:
        return 1
    if dtype == core.bool:
        return 1
    return core.iinfo(dtype).max


def _float_dtype(img):
    """The dtype pixel maths runs in: a float image's own, float32 for integer images."""
    return img.dtype if img.dtype.is_floating_point else core.float32


def _cast_back(out, dtype, rounded):
    """A float result in the image's dtype. Integer targets are clamped to their range and
    rounded half to even first (torchvision's _cast_squeeze_out) or truncated (a plain .to())."""
    if dtype.is_floating_point:
        return out.to(dtype)
    if rounded:
        out = out.round()
    info = core.iinfo(dtype)
    return out.clamp(info.min, info.max).to(dtype)


def _as_batch(img):
    """img as one batch [N, C, H, W] (a [H, W] image as [1, 1, H, W]) and a function giving a
    result [N, C', H', W'] the image's leading dims back."""
    if img.ndim == 2:
        return img.reshape(1, 1, *img.shape), lambda out: out.reshape(out.shape[-2:])
    lead = tuple(img.shape[:-3])
    return img.reshape(-1, *img.shape[-3:]), lambda out: out.reshape(*lead, *out.shape[-3:])


def _channels_last(t):
    """Whether an image [..., C, H, W] has its channels interleaved in memory."""
    return t.ndim >= 3 and t.shape[-3] > 1 and t.shape[-1] > 1 and t.stride(-3) < t.stride(-1)


def _layout_like(out, img):
    """out in img's memory layout: channels-last when img is, as it is otherwise."""
    if _channels_last(img) and out.ndim >= 3 and out.shape[-3] > 1 and not _channels_last(out):
        return out.movedim(-3, -1).contiguous().movedim(-1, -3)
    return out


def _keeps_layout(op):
    """op(img, ...) -> an image laid out in memory as img is (channels-last stays so)."""
    @functools.wraps(op)
    def keeping_layout(img, *args, **kwargs):
        return _layout_like(op(img, *args, **kwargs), img)

    return keeping_layout


# ---------------------------------------------------------------- dtypes and flips

@_keeps_layout
def convert_image_dtype(image, dtype=core.float32):
    if not isinstance(image, core.Tensor):
        raise TypeError("Input img should be Tensor Image")
    if image.dtype == dtype:
        return image
    if image.dtype.is_floating_point:
        if dtype.is_floating_point:
            return image.to(dtype)
        if (image.dtype == core.float32 and dtype in (core.int32, core.int64)) or (
                image.dtype == core.float64 and dtype == core.int64):
            raise RuntimeError(f"The cast from {image.dtype} to {dtype} cannot be performed safely.")
        eps = 1e-3  # 1 - eps keeps 1.0 inside the top bucket
        return image.mul(_max_value(dtype) + 1.0 - eps).to(dtype)
    input_max = _max_value(image.dtype)
    if dtype.is_floating_point:
        return image.to(dtype).div(input_max)
    output_max = _max_value(dtype)
    if input_max > output_max:
        return image.floor_divide((input_max + 1) // (output_max + 1)).to(dtype)
    return image.to(dtype).mul((output_max + 1) // (input_max + 1))


@_keeps_layout
def vflip(img):
    _assert_image_tensor(img)
    return img.flip(-2)


@_keeps_layout
def hflip(img):
    _assert_image_tensor(img)
    return img.flip(-1)


def crop(img, top, left, height, width):
    """A view when the window lies inside the image; zero padding where it does not (as a
    PIL crop does)."""
    _assert_image_tensor(img)
    w, h = _get_image_size(img)
    top, left, height, width = int(top), int(left), int(height), int(width)
    if top >= 0 and left >= 0 and top + height <= h and left + width <= w:
        return img[..., top:top + height, left:left + width]
    padding = [max(-left, 0), max(-top, 0), max(left + width - w, 0), max(top + height - h, 0)]
    inside = img[..., max(top, 0):min(top + height, h), max(left, 0):min(left + width, w)]
    return pad(inside, padding, fill=0)


# ---------------------------------------------------------------- colour

def rgb_to_grayscale(img, num_output_channels=1):
    if img.ndim < 3:
        raise TypeError(f"Input image tensor should have at least 3 dimensions, but found {img.ndim}")
    _assert_channels(img, [1, 3])
    if num_output_channels not in (1, 3):
        raise ValueError("num_output_channels should be either 1 or 3")
    if img.shape[-3] == 1:  # already grayscale
        gray = img.clone()
    else:
        r, g, b = img.unbind(-3)
        # integer images compute in float32 and are truncated back, as torchvision's .to()
        gray = (0.2989 * r + 0.587 * g + 0.114 * b).to(img.dtype).unsqueeze(-3)
    if num_output_channels == 3:
        return gray.expand(*img.shape[:-3], 3, img.shape[-2], img.shape[-1])
    return gray


def _blend(img1, img2, ratio):
    """ratio * img1 + (1 - ratio) * img2, clamped to the dtype's range, truncated back;
    img2 may be a Python number."""
    ratio = float(ratio)
    bound = 1.0 if img1.dtype.is_floating_point else 255.0
    return (ratio * img1 + (1.0 - ratio) * img2).clamp(0, bound).to(img1.dtype)


@_keeps_layout
def adjust_brightness(img, brightness_factor):
    if brightness_factor < 0:
        raise ValueError(f"brightness_factor ({brightness_factor}) is not non-negative.")
    _assert_image_tensor(img)
    _assert_channels(img, [1, 3])
    return _blend(img, 0.0, brightness_factor)  # a blend with black


@_keeps_layout
def adjust_contrast(img, contrast_factor):
    if contrast_factor < 0:
        raise ValueError(f"contrast_factor ({contrast_factor}) is not non-negative.")
    _assert_image_tensor(img)
    _assert_channels(img, [1, 3])
    gray = rgb_to_grayscale(img) if img.shape[-3] == 3 else img
    # the mean of the grayscale image, accumulated in float64 and rounded once
    mean = gray.to(core.float64).mean(dim=(-3, -2, -1), keepdim=True).to(_float_dtype(img))
    return _blend(img, mean, contrast_factor)


@_keeps_layout
def adjust_saturation(img, saturation_factor):
    if saturation_factor < 0:
        raise ValueError(f"saturation_factor ({saturation_factor}) is not non-negative.")
    _assert_image_tensor(img)
    _assert_channels(img, [1, 3])
    if img.shape[-3] == 1:  # no colour to saturate
        return img
    return _blend(img, rgb_to_grayscale(img), saturation_factor)


def _rgb_to_hsv(img):
    """torchvision's _rgb2hsv: float [..., 3, H, W] in [0, 1] -> (h, s, v) planes."""
    r, g, b = img.unbind(-3)
    maxc = img.amax(dim=-3)
    minc = img.amin(dim=-3)
    eqc = maxc == minc
    cr = maxc - minc
    ones = core.ones_like(maxc)
    s = cr / core.where(eqc, ones, maxc)
    cr_divisor = core.where(eqc, ones, cr)  # grey pixels: any divisor, the hue is 0
    rc = (maxc - r) / cr_divisor
    gc = (maxc - g) / cr_divisor
    bc = (maxc - b) / cr_divisor
    hr = (maxc == r) * (bc - gc)
    hg = ((maxc == g) & (maxc != r)) * (2.0 + rc - bc)
    hb = ((maxc != g) & (maxc != r)) * (4.0 + gc - rc)
    h = core.fmod((hr + hg + hb) / 6.0 + 1.0, 1.0)
    return h, s, maxc


def _hsv_to_rgb(h, s, v):
    """torchvision's _hsv2rgb: (h, s, v) planes -> float [..., 3, H, W]."""
    i = (h * 6.0).floor()
    f = h * 6.0 - i
    sector = (i.to(core.int64) % 6).unsqueeze(-3).unsqueeze(-3)
    p = (v * (1.0 - s)).clamp(0.0, 1.0)
    q = (v * (1.0 - s * f)).clamp(0.0, 1.0)
    t = (v * (1.0 - s * (1.0 - f))).clamp(0.0, 1.0)
    # per sector of the colour wheel: which of v, q, p, t each of r, g, b takes
    candidates = core.stack([core.stack(planes, dim=-3) for planes in
                             ((v, q, p, p, t, v), (t, v, v, q, p, p), (p, p, t, v, v, q))], dim=-4)
    index = sector.expand(*candidates.shape[:-3], 1, *candidates.shape[-2:])
    return candidates.gather(-3, index).squeeze(-3)


@_keeps_layout
def adjust_hue(img, hue_factor):
    if not -0.5 <= hue_factor <= 0.5:
        raise ValueError(f"hue_factor ({hue_factor}) is not in [-0.5, 0.5].")
    if not isinstance(img, core.Tensor):
        raise TypeError("Input img should be Tensor image")
    _assert_image_tensor(img)
    _assert_channels(img, [1, 3])
    if _get_image_num_channels(img) == 1:  # grayscale has no hue
        return img
    work = convert_image_dtype(img, core.float32) if img.dtype == core.uint8 else img
    h, s, v = _rgb_to_hsv(work)
    rgb = _hsv_to_rgb((h + float(hue_factor)) % 1.0, s, v)
    if img.dtype == core.uint8:
        return (rgb * 255.0).to(core.uint8)
    return rgb.to(img.dtype)


@_keeps_layout
def adjust_gamma(img, gamma, gain=1):
    if not isinstance(img, core.Tensor):
        raise TypeError("Input img should be a Tensor.")
    _assert_channels(img, [1, 3])
    if gamma < 0:
        raise ValueError("Gamma should be a non-negative real number")
    result = img if img.dtype.is_floating_point else convert_image_dtype(img, core.float32)
    result = (float(gain) * result ** float(gamma)).clamp(0, 1)
    return convert_image_dtype(result, img.dtype)


# ---------------------------------------------------------------- padding

def _parse_padding(padding):
    """[left, right, top, bottom] from an int or a 1-, 2- or 4-sequence."""
    if isinstance(padding, int):
        return [padding] * 4
    padding = list(padding)
    if len(padding) == 1:
        return [padding[0]] * 4
    if len(padding) == 2:
        return [padding[0], padding[0], padding[1], padding[1]]
    return [padding[0], padding[2], padding[1], padding[3]]


def _symmetric_source(n, before, after):
    """For each position of a dim of size n padded symmetrically (edge pixels repeated:
    ... 1 0 | 0 1 ... n-1 | n-1 n-2 ...), the index it copies; any padding size."""
    k = core.arange(-before, n + after) % (2 * n)
    return core.where(k < n, k, 2 * n - 1 - k)


@_keeps_layout
def pad(img, padding, fill=0, padding_mode="constant"):
    _assert_image_tensor(img)
    if not isinstance(padding, (int, tuple, list)):
        raise TypeError("Got inappropriate padding arg")
    if not isinstance(fill, (int, float)):
        raise TypeError("Got inappropriate fill arg")
    if not isinstance(padding_mode, str):
        raise TypeError("Got inappropriate padding_mode arg")
    if isinstance(padding, (tuple, list)) and len(padding) not in (1, 2, 4):
        raise ValueError("Padding must be an int or a 1, 2, or 4 element tuple, not a "
                         f"{len(padding)} element tuple")
    if padding_mode not in ("constant", "edge", "reflect", "symmetric"):
        raise ValueError("Padding mode should be either constant, edge, reflect or symmetric")
    left, right, top, bottom = (int(p) for p in _parse_padding(padding))
    # negative padding crops
    h, w = img.shape[-2:]
    src = img[..., max(-top, 0):h - max(-bottom, 0), max(-left, 0):w - max(-right, 0)]
    left, right, top, bottom = (max(p, 0) for p in (left, right, top, bottom))
    h, w = src.shape[-2:]
    if padding_mode == "reflect" and (max(left, right) >= w or max(top, bottom) >= h):
        raise ValueError("pad(): padding size should be less than the corresponding input dimension "
                         f"in reflect mode, got padding {[left, right, top, bottom]} for size {[h, w]}")
    if padding_mode in ("edge", "symmetric") and (w == 0 and left + right > 0 or h == 0 and top + bottom > 0):
        raise ValueError(f"pad(): cannot pad an empty dimension in {padding_mode} mode")
    if padding_mode == "constant":
        out = nnf.pad(src, [left, right, top, bottom], mode="constant", value=fill)
    elif padding_mode == "symmetric":
        out = src.index_select(src.ndim - 1, _symmetric_source(w, left, right))
        out = out.index_select(src.ndim - 2, _symmetric_source(h, top, bottom))
    else:
        batch, restore = _as_batch(src)
        mode = "replicate" if padding_mode == "edge" else "reflect"
        out = restore(nnf.pad(batch, [left, right, top, bottom], mode=mode))
    return out


# ---------------------------------------------------------------- resize and grids

@_keeps_layout
def resize(img, size, interpolation="bilinear"):
    _assert_image_tensor(img)
    if not isinstance(size, (int, tuple, list)):
        raise TypeError("Got inappropriate size arg")
    if not isinstance(interpolation, str):
        raise TypeError("Got inappropriate interpolation arg")
    if interpolation not in ("nearest", "bilinear", "bicubic"):
        raise ValueError("This interpolation mode is unsupported with Tensor input")
    if isinstance(size, (tuple, list)) and len(size) not in (1, 2):
        raise ValueError("Size must be an int or a 1 or 2 element tuple/list, not a "
                         f"{len(size)} element tuple/list")
    w, h = _get_image_size(img)
    if isinstance(size, int):
        size_w = size_h = size
    elif len(size) < 2:
        size_w = size_h = size[0]
    else:
        size_w, size_h = size[1], size[0]  # (h, w) convention
    if isinstance(size, int) or len(size) < 2:
        if w < h:
            size_h = int(size_w * h / w)
        else:
            size_w = int(size_h * w / h)
        if (w <= h and w == size_w) or (h <= w and h == size_h):
            return img
    batch, restore = _as_batch(img)
    if batch.dtype not in (core.float32, core.float64):
        batch = batch.to(core.float32)
    align_corners = None if interpolation == "nearest" else False
    out = nnf.interpolate(batch, size=[size_h, size_w], mode=interpolation, align_corners=align_corners)
    return _cast_back(restore(out), img.dtype, rounded=True)


def _assert_grid_transform_inputs(img, matrix, interpolation, fill, supported_interpolation_modes, coeffs=None):
    if not isinstance(img, core.Tensor):
        raise TypeError("Input img should be Tensor")
    _assert_image_tensor(img)
    if matrix is not None and not isinstance(matrix, list):
        raise TypeError("Argument matrix should be a list")
    if matrix is not None and len(matrix) != 6:
        raise ValueError("Argument matrix should have 6 float values")
    if coeffs is not None and len(coeffs) != 8:
        raise ValueError("Argument coeffs should have 8 float values")
    if fill is not None and not isinstance(fill, (int, float, tuple, list)):
        warnings.warn("Argument fill should be either int, float, tuple or list")
    num_channels = _get_image_num_channels(img)
    if isinstance(fill, (tuple, list)) and len(fill) > 1 and len(fill) != num_channels:
        raise ValueError("The number of elements in 'fill' cannot broadcast to match the number of "
                         f"channels of the image ({len(fill)} != {num_channels})")
    if interpolation not in supported_interpolation_modes:
        raise ValueError(f"Interpolation mode '{interpolation}' is unsupported with Tensor input")


def _apply_grid_transform(img, grid, mode, fill):
    """img sampled at grid [1, oh, ow, 2] (normalised input coordinates), then brought back to
    img's dtype and layout; pixels from outside the image become `fill` when it is given."""
    batch, restore = _as_batch(img)
    out = restore(_grid.sample(batch.to(grid.dtype), grid, mode, fill))
    if mode == "nearest" and fill is None:  # every pixel is an input pixel or 0: nothing to round
        return out.to(img.dtype)
    return _cast_back(out, img.dtype, rounded=True)


@_keeps_layout
def affine(img, matrix, interpolation="nearest", fill=None):
    _assert_grid_transform_inputs(img, matrix, interpolation, fill, ["nearest", "bilinear"])
    w, h = img.shape[-1], img.shape[-2]
    grid = _grid.affine_grid(matrix, w=w, h=h, ow=w, oh=h, dtype=_float_dtype(img))
    return _apply_grid_transform(img, grid, interpolation, fill)


@_keeps_layout
def rotate(img, matrix, interpolation="nearest", expand=False, fill=None):
    _assert_grid_transform_inputs(img, matrix, interpolation, fill, ["nearest", "bilinear"])
    w, h = img.shape[-1], img.shape[-2]
    ow, oh = _grid.expanded_size(matrix, w, h) if expand else (w, h)
    grid = _grid.affine_grid(matrix, w=w, h=h, ow=ow, oh=oh, dtype=_float_dtype(img))
    return _apply_grid_transform(img, grid, interpolation, fill)


@_keeps_layout
def perspective(img, perspective_coeffs, interpolation="bilinear", fill=None):
    if not isinstance(img, core.Tensor):
        raise TypeError("Input img should be Tensor.")
    _assert_grid_transform_inputs(img, None, interpolation, fill, ["nearest", "bilinear"],
                                  coeffs=perspective_coeffs)
    ow, oh = img.shape[-1], img.shape[-2]
    grid = _grid.perspective_grid(perspective_coeffs, ow=ow, oh=oh, dtype=_float_dtype(img))
    return _apply_grid_transform(img, grid, interpolation, fill)


# ---------------------------------------------------------------- filters

def _depthwise_conv2d(batch, kernel):
    """'valid' cross-correlation of every channel of batch [N, C, H, W] with one 2-D kernel
    (conv2d with groups = C, torchvision's call)."""
    channels = batch.shape[1]
    weight = kernel.reshape(1, 1, *kernel.shape).expand(channels, 1, *kernel.shape).contiguous()
    return nnf.conv2d(batch, weight, groups=channels)


def _gaussian_kernel1d(kernel_size, sigma):
    half = (kernel_size - 1) * 0.5
    x = core.linspace(-half, half, kernel_size, dtype=core.float32)
    pdf = ((x / float(sigma)).pow(2) * -0.5).exp()
    return pdf / pdf.sum()


@_keeps_layout
def gaussian_blur(img, kernel_size, sigma):
    if not isinstance(img, core.Tensor):
        raise TypeError(f"img should be Tensor. Got {type(img)}")
    _assert_image_tensor(img)
    dtype = _float_dtype(img)
    kx = _gaussian_kernel1d(kernel_size[0], sigma[0]).to(dtype)
    ky = _gaussian_kernel1d(kernel_size[1], sigma[1]).to(dtype)
    batch, restore = _as_batch(img)
    padding = [kernel_size[0] // 2, kernel_size[0] // 2, kernel_size[1] // 2, kernel_size[1] // 2]
    padded = nnf.pad(batch.to(dtype), padding, mode="reflect")
    # one 2-D kernel, the outer product ky x kx, in one depthwise convolution (like torchvision)
    out = _depthwise_conv2d(padded, ky.unsqueeze(1) * kx.unsqueeze(0))
    return _cast_back(restore(out), img.dtype, rounded=True)


@_keeps_layout
def invert(img):
    _assert_image_tensor(img)
    _assert_image_3d(img)
    _assert_channels(img, [1, 3])
    return (1.0 if img.dtype.is_floating_point else 255) - img


@_keeps_layout
def posterize(img, bits):
    _assert_image_tensor(img)
    _assert_image_3d(img)
    _assert_uint8(img)
    _assert_channels(img, [1, 3])
    return img & ((-int(2 ** (8 - bits))) & 0xFF)  # keeps the top `bits` bits


@_keeps_layout
def solarize(img, threshold):
    _assert_image_tensor(img)
    _assert_image_3d(img)
    _assert_channels(img, [1, 3])
    # compared as a number: an integer threshold past the dtype's range must not wrap around
    return core.where(img >= float(threshold), invert(img), img)


def _blurred_degenerate_image(img):
    """PIL's SMOOTH filter (centre weight 5 of 13) on the inner pixels; the border stays."""
    kernel = core.ones(3, 3, dtype=_float_dtype(img))
    kernel[1, 1] = 5.0
    kernel = kernel / kernel.sum()
    batch, restore = _as_batch(img)
    inner = _cast_back(_depthwise_conv2d(batch.to(kernel.dtype), kernel), img.dtype, rounded=True)
    result = batch.clone()
    result[..., 1:-1, 1:-1] = inner
    return restore(result)


@_keeps_layout
def adjust_sharpness(img, sharpness_factor):
    if sharpness_factor < 0:
        raise ValueError(f"sharpness_factor ({sharpness_factor}) is not non-negative.")
    _assert_image_tensor(img)
    _assert_channels(img, [1, 3])
    if img.shape[-1] <= 2 or img.shape[-2] <= 2:
        return img
    return _blend(img, _blurred_degenerate_image(img), sharpness_factor)


@_keeps_layout
def autocontrast(img):
    _assert_image_tensor(img)
    _assert_image_3d(img)
    _assert_channels(img, [1, 3])
    dtype = _float_dtype(img)
    bound = 1.0 if img.dtype.is_floating_point else 255.0
    minimum = img.amin(dim=(-2, -1), keepdim=True).to(dtype)
    maximum = img.amax(dim=(-2, -1), keepdim=True).to(dtype)
    flat = minimum == maximum  # a constant channel is left as it is
    minimum = core.where(flat, core.zeros_like(minimum), minimum)
    maximum = core.where(flat, core.full_like(maximum, bound), maximum)
    # `bound / tensor` is computed by torch as reciprocal(tensor) * bound (two roundings)
    scale = (maximum - minimum).reciprocal() * bound
    return ((img - minimum) * scale).clamp(0, bound).to(img.dtype)


# Planes are equalized a few at a time: ~1.5 MB of int64 pixel indices stay in cache between
# the histogram and the lookup (a batch at once went to memory and back: 2.7x slower).
_EQUALIZE_PIXELS_PER_PASS = 3 << 16


def _equalize_planes(planes):
    """torchvision's _scale_channel for every row of planes [M, H*W] (uint8) at once."""
    pixels = planes.to(core.int64)
    once = core.ones(1, 1, dtype=core.int64).expand_as(pixels)
    histogram = core.zeros(planes.shape[0], 256, dtype=core.int64).scatter_add_(1, pixels, once)
    # the pixels outside the brightest occupied bin, spread over 255 steps
    brightest = histogram.gather(1, planes.amax(dim=1, keepdim=True).to(core.int64))
    step = (planes.shape[1] - brightest) // 255
    lut = (histogram.cumsum(1) + step // 2) // step.clamp(min=1)
    lut = core.cat([core.zeros_like(lut[:, :1]), lut[:, :-1]], 1).clamp(0, 255)  # value v maps by bin v - 1
    lut = core.where(step == 0, core.arange(256).expand_as(lut), lut)  # nothing to spread: unchanged
    return lut.to(core.uint8).gather(1, pixels)


@_keeps_layout
def equalize(img):
    _assert_image_tensor(img)
    _assert_image_3d(img)
    _assert_uint8(img)
    _assert_channels(img, [1, 3])
    h, w = img.shape[-2:]
    if img.numel() == 0:
        return img.clone()
    planes = img.reshape(-1, h * w)
    per_pass = max(1, _EQUALIZE_PIXELS_PER_PASS // (h * w))
    return core.cat([_equalize_planes(chunk) for chunk in planes.split(per_pass)]).reshape(img.shape)


@_keeps_layout
def normalize(tensor, mean, std, inplace=False):
    _assert_image_tensor(tensor)
    if not tensor.dtype.is_floating_point:
        raise TypeError(f"Input tensor should be a float tensor. Got {tensor.dtype}.")
    if tensor.ndim < 3:
        raise ValueError("Expected tensor to be a tensor image of size (..., C, H, W). Got tensor.size() = "
                         f"{tensor.size()}.")
    dtype = tensor.dtype
    mean = core.as_tensor(mean, dtype=dtype)
    std = core.as_tensor(std, dtype=dtype)
    if bool((std == 0).any()):
        raise ValueError(f"std evaluated to zero after conversion to {dtype}, leading to division by zero.")
    if mean.ndim == 1:
        mean = mean.reshape(-1, 1, 1)
    if std.ndim == 1:
        std = std.reshape(-1, 1, 1)
    if inplace:
        return tensor.sub_(mean).div_(std)
    return tensor.sub(mean).div(std)


@_keeps_layout
def erase(img, i, j, h, w, v, inplace=False):
    _assert_image_tensor(img)
    if not inplace:
        img = img.clone()
    img[..., i:i + h, j:j + w] = v
    return img
