"""The tensor half of vision.transforms.functional (torchvision 0.9 functional_tensor).

Images are core tensors [..., C, H, W] (any number of leading dims). Ops that core has
(flip, slicing, copy, sub_/div_, mm) run in core; pixel maths core lacks so far run in
numpy through _functional_tensor (see its docstring for the list).
"""
import warnings

import numpy as np

import core
from vision._numpy_bridge import from_numpy, numpy_dtype, to_numpy
from vision.transforms import _functional_tensor as K

_INT_DTYPES = (core.uint8, core.int8, core.int16, core.int32, core.int64)


def _is_tensor_a_torch_image(x):
    return x.ndim >= 2


def _assert_image_tensor(img):
    if not isinstance(img, core.Tensor):
        raise TypeError(f"img should be Tensor Image. Got {type(img)}")
    if not _is_tensor_a_torch_image(img):
        raise TypeError("Tensor is not a torch image.")


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
    limits = {core.uint8: 255, core.int8: 127, core.int16: 32767, core.int32: 2 ** 31 - 1,
              core.int64: 2 ** 63 - 1, core.bool: 1}
    return limits.get(dtype, 1)


def _compute_dtype(img):
    """Floating images compute in their own dtype, integer ones in float32 (as torchvision)."""
    return numpy_dtype(img.dtype) if img.dtype.is_floating_point else np.dtype(np.float32)


def _to_dtype_like(arr, dtype, rounding):
    """A float result back in the image's dtype: integer targets are clipped to their range
    and either rounded half to even (torchvision's _cast_squeeze_out) or truncated (.to())."""
    target = numpy_dtype(dtype)
    if target.kind == "f":
        return arr.astype(target, copy=False)
    if rounding:
        arr = K.round_half_even(arr)
    info = np.iinfo(target)
    return np.clip(arr, info.min, info.max).astype(target)


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
        # 1 - eps keeps 1.0 inside the top bucket
        eps = 1e-3
        a = to_numpy(image)
        scaled = a * a.dtype.type(_max_value(dtype) + 1.0 - eps)
        return from_numpy(scaled.astype(numpy_dtype(dtype)))
    input_max = _max_value(image.dtype)
    a = to_numpy(image)
    if dtype.is_floating_point:
        ft = numpy_dtype(dtype)
        return from_numpy(a.astype(ft) / ft.type(input_max))
    output_max = _max_value(dtype)
    if input_max > output_max:
        factor = (input_max + 1) // (output_max + 1)
        return from_numpy((a // factor).astype(numpy_dtype(dtype)))
    factor = (output_max + 1) // (input_max + 1)
    return from_numpy(a.astype(numpy_dtype(dtype)) * numpy_dtype(dtype).type(factor))


def vflip(img):
    _assert_image_tensor(img)
    return img.flip(-2)


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


def rgb_to_grayscale(img, num_output_channels=1):
    if img.ndim < 3:
        raise TypeError(f"Input image tensor should have at least 3 dimensions, but found {img.ndim}")
    _assert_channels(img, [1, 3])
    if num_output_channels not in (1, 3):
        raise ValueError("num_output_channels should be either 1 or 3")
    if img.shape[-3] == 1:  # already grayscale
        gray = img.clone()
    else:
        a = to_numpy(img)
        dt = _compute_dtype(img).type
        r, g, b = a[..., 0, :, :], a[..., 1, :, :], a[..., 2, :, :]
        l_img = dt(0.2989) * r + dt(0.587) * g + dt(0.114) * b
        gray = from_numpy(_to_dtype_like(l_img, img.dtype, rounding=False)[..., None, :, :])
    if num_output_channels == 3:
        return gray.expand(*img.shape[:-3], 3, img.shape[-2], img.shape[-1])
    return gray


def _blend_np(a1, a2, ratio, dtype):
    """ratio * img1 + (1 - ratio) * img2, clamped to the dtype's range, truncated back."""
    bound = 1.0 if dtype.is_floating_point else 255.0
    dt = a1.dtype.type if dtype.is_floating_point else np.float32
    out = dt(ratio) * a1 + dt(1.0 - ratio) * a2
    return _to_dtype_like(np.clip(out, 0, bound), dtype, rounding=False)


def _blend(img1, img2, ratio):
    return from_numpy(_blend_np(to_numpy(img1), to_numpy(img2), float(ratio), img1.dtype))


def adjust_brightness(img, brightness_factor):
    if brightness_factor < 0:
        raise ValueError(f"brightness_factor ({brightness_factor}) is not non-negative.")
    _assert_image_tensor(img)
    _assert_channels(img, [1, 3])
    a = to_numpy(img)
    return from_numpy(_blend_np(a, np.zeros_like(a), float(brightness_factor), img.dtype))


def adjust_contrast(img, contrast_factor):
    if contrast_factor < 0:
        raise ValueError(f"contrast_factor ({contrast_factor}) is not non-negative.")
    _assert_image_tensor(img)
    _assert_channels(img, [1, 3])
    dt = _compute_dtype(img)
    gray = to_numpy(rgb_to_grayscale(img)) if img.shape[-3] == 3 else to_numpy(img)
    # the mean of the grayscale image (accumulated in float64, then rounded like a float32 mean)
    mean = gray.astype(np.float64).mean(axis=(-3, -2, -1), keepdims=True).astype(dt)
    return from_numpy(_blend_np(to_numpy(img), mean, float(contrast_factor), img.dtype))


def adjust_saturation(img, saturation_factor):
    if saturation_factor < 0:
        raise ValueError(f"saturation_factor ({saturation_factor}) is not non-negative.")
    _assert_image_tensor(img)
    _assert_channels(img, [1, 3])
    if img.shape[-3] == 1:  # no colour to saturate
        return img
    return _blend(img, rgb_to_grayscale(img), saturation_factor)


def adjust_hue(img, hue_factor):
    if not -0.5 <= hue_factor <= 0.5:
        raise ValueError(f"hue_factor ({hue_factor}) is not in [-0.5, 0.5].")
    if not isinstance(img, core.Tensor):
        raise TypeError("Input img should be Tensor image")
    _assert_image_tensor(img)
    _assert_channels(img, [1, 3])
    if _get_image_num_channels(img) == 1:  # grayscale has no hue
        return img
    a = to_numpy(img)
    if img.dtype == core.uint8:
        a = a.astype(np.float32) / np.float32(255.0)
    hsv = K.rgb_to_hsv(a)
    dt = hsv.dtype.type
    hsv[..., 0, :, :] = np.mod(hsv[..., 0, :, :] + dt(hue_factor), dt(1.0))
    rgb = K.hsv_to_rgb(hsv)
    if img.dtype == core.uint8:
        return from_numpy((rgb * np.float32(255.0)).astype(np.uint8))
    return from_numpy(rgb.astype(a.dtype, copy=False))


def adjust_gamma(img, gamma, gain=1):
    if not isinstance(img, core.Tensor):
        raise TypeError("Input img should be a Tensor.")
    _assert_channels(img, [1, 3])
    if gamma < 0:
        raise ValueError("Gamma should be a non-negative real number")
    dtype = img.dtype
    result = img if dtype.is_floating_point else convert_image_dtype(img, core.float32)
    a = to_numpy(result)
    dt = a.dtype.type
    a = np.clip(dt(gain) * np.power(a, dt(gamma)), 0, 1).astype(a.dtype)
    return convert_image_dtype(from_numpy(a), dtype)


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
    a = to_numpy(img)
    # negative padding crops
    h, w = a.shape[-2:]
    a = a[..., max(-top, 0):h - max(-bottom, 0), max(-left, 0):w - max(-right, 0)]
    left, right, top, bottom = (max(p, 0) for p in (left, right, top, bottom))
    if padding_mode == "reflect" and (max(left, right) >= a.shape[-1] or max(top, bottom) >= a.shape[-2]):
        raise ValueError("pad(): padding size should be less than the corresponding input dimension "
                         f"in reflect mode, got padding {[left, right, top, bottom]} for size {list(a.shape[-2:])}")
    widths = [(0, 0)] * (a.ndim - 2) + [(top, bottom), (left, right)]
    if padding_mode == "constant":
        out = np.pad(a, widths, mode="constant", constant_values=np.array(fill).astype(a.dtype))
    else:
        out = np.pad(a, widths, mode=padding_mode)
    return from_numpy(out)


# ---------------------------------------------------------------- resize and grids

def _as_batch(a):
    """(N, C, H, W) view of an array [..., C, H, W] (or [H, W]) and the shape to restore."""
    shape = a.shape
    if a.ndim == 2:
        return a.reshape(1, 1, *shape), shape
    return a.reshape(-1, *shape[-3:]), shape


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
    a = to_numpy(img)
    work = a if a.dtype in (np.float32, np.float64) else a.astype(np.float32)
    out = K.interpolate(work, (size_h, size_w), interpolation)
    if not img.dtype.is_floating_point:
        out = _to_dtype_like(out, img.dtype, rounding=True)
    return from_numpy(out.astype(a.dtype, copy=False))


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
    """Samples img at grid (1, oh, ow, 2) like torchvision: a ones channel rides along so
    the pixels that fell outside the image can be set to `fill`."""
    a = to_numpy(img)
    batch, shape = _as_batch(a)
    work = batch if batch.dtype == grid.dtype else batch.astype(grid.dtype)
    n, c = work.shape[:2]
    if fill is not None:
        work = np.concatenate([work, np.ones((n, 1) + work.shape[2:], dtype=work.dtype)], axis=1)
    out = K.grid_sample(work, np.broadcast_to(grid, (n,) + grid.shape[1:]), mode)
    if fill is not None:
        mask, out = out[:, -1:], out[:, :-1]
        fill_list = list(fill) if isinstance(fill, (tuple, list)) else [float(fill)]
        fill_img = np.array(fill_list, dtype=out.dtype).reshape(1, len(fill_list), 1, 1)
        if mode == "nearest":
            out = np.where(mask < 0.5, np.broadcast_to(fill_img, out.shape), out)
        else:
            one = out.dtype.type(1.0)
            out = out * mask + (one - mask) * fill_img
    out = out.reshape(shape[:-2] + out.shape[-2:]) if len(shape) > 2 else out.reshape(out.shape[-2:])
    if not img.dtype.is_floating_point:
        out = _to_dtype_like(out, img.dtype, rounding=True)
    return from_numpy(out.astype(a.dtype, copy=False))


def _grid_dtype(img):
    return numpy_dtype(img.dtype) if img.dtype.is_floating_point else np.dtype(np.float32)


def affine(img, matrix, interpolation="nearest", fill=None):
    _assert_grid_transform_inputs(img, matrix, interpolation, fill, ["nearest", "bilinear"])
    theta = np.array(matrix, dtype=_grid_dtype(img)).reshape(2, 3)
    w, h = img.shape[-1], img.shape[-2]
    grid = K.affine_grid(theta, w=w, h=h, ow=w, oh=h)
    return _apply_grid_transform(img, grid, interpolation, fill)


def _compute_output_size(matrix, w, h):
    """Size of the canvas holding the whole rotated image (PIL's expand=True rule)."""
    pts = np.array([[-0.5 * w, -0.5 * h, 1.0], [-0.5 * w, 0.5 * h, 1.0],
                    [0.5 * w, 0.5 * h, 1.0], [0.5 * w, -0.5 * h, 1.0]], dtype=np.float32)
    theta = np.array(matrix, dtype=np.float32).reshape(2, 3)
    new_pts = pts @ theta.T
    # measured from the top-left corner as PIL does (torchvision 0.9 omitted this shift and
    # could come out one pixel smaller than PIL's expand=True)
    shift = np.array([w * 0.5, h * 0.5], dtype=np.float32)
    min_vals, max_vals = new_pts.min(axis=0) + shift, new_pts.max(axis=0) + shift
    tol = np.float32(1e-4)  # truncate to 1e-4 so that ceil(1e-15) does not add a pixel
    cmax = np.ceil(np.trunc(max_vals / tol) * tol)
    cmin = np.floor(np.trunc(min_vals / tol) * tol)
    size = cmax - cmin
    return int(size[0]), int(size[1])


def rotate(img, matrix, interpolation="nearest", expand=False, fill=None):
    _assert_grid_transform_inputs(img, matrix, interpolation, fill, ["nearest", "bilinear"])
    w, h = img.shape[-1], img.shape[-2]
    ow, oh = _compute_output_size(matrix, w, h) if expand else (w, h)
    theta = np.array(matrix, dtype=_grid_dtype(img)).reshape(2, 3)
    grid = K.affine_grid(theta, w=w, h=h, ow=ow, oh=oh)
    return _apply_grid_transform(img, grid, interpolation, fill)


def perspective(img, perspective_coeffs, interpolation="bilinear", fill=None):
    if not isinstance(img, core.Tensor):
        raise TypeError("Input img should be Tensor.")
    _assert_grid_transform_inputs(img, None, interpolation, fill, ["nearest", "bilinear"],
                                  coeffs=perspective_coeffs)
    ow, oh = img.shape[-1], img.shape[-2]
    grid = K.perspective_grid(perspective_coeffs, ow=ow, oh=oh, dtype=_grid_dtype(img))
    return _apply_grid_transform(img, grid, interpolation, fill)


# ---------------------------------------------------------------- filters

def _gaussian_kernel1d(kernel_size, sigma, dtype):
    half = (kernel_size - 1) * 0.5
    x = K.linspace(-half, half, kernel_size, np.float32)
    pdf = np.exp(np.float32(-0.5) * np.square(x / np.float32(sigma)))
    return (pdf / pdf.sum(dtype=np.float32)).astype(dtype)


def gaussian_blur(img, kernel_size, sigma):
    if not isinstance(img, core.Tensor):
        raise TypeError(f"img should be Tensor. Got {type(img)}")
    _assert_image_tensor(img)
    dt = _compute_dtype(img)
    kx = _gaussian_kernel1d(kernel_size[0], sigma[0], dt)
    ky = _gaussian_kernel1d(kernel_size[1], sigma[1], dt)
    a = to_numpy(img)
    padded = to_numpy(pad(from_numpy(a.astype(dt, copy=False)),
                          [kernel_size[0] // 2, kernel_size[1] // 2], padding_mode="reflect"))
    # one 2-D kernel, the outer product ky x kx, in one depthwise convolution (like torchvision)
    out = K.depthwise_conv2d(padded, np.outer(ky, kx))
    if not img.dtype.is_floating_point:
        out = _to_dtype_like(out, img.dtype, rounding=True)
    return from_numpy(out)


def invert(img):
    _assert_image_tensor(img)
    if img.ndim < 3:
        raise TypeError(f"Input image tensor should have at least 3 dimensions, but found {img.ndim}")
    _assert_channels(img, [1, 3])
    a = to_numpy(img)
    bound = a.dtype.type(1 if img.dtype.is_floating_point else 255)
    return from_numpy(bound - a)


def posterize(img, bits):
    _assert_image_tensor(img)
    if img.ndim < 3:
        raise TypeError(f"Input image tensor should have at least 3 dimensions, but found {img.ndim}")
    if img.dtype != core.uint8:
        raise TypeError(f"Only torch.uint8 image tensors are supported, but found {img.dtype}")
    _assert_channels(img, [1, 3])
    mask = np.uint8((-int(2 ** (8 - bits))) & 0xFF)
    return from_numpy(to_numpy(img) & mask)


def solarize(img, threshold):
    _assert_image_tensor(img)
    if img.ndim < 3:
        raise TypeError(f"Input image tensor should have at least 3 dimensions, but found {img.ndim}")
    _assert_channels(img, [1, 3])
    a = to_numpy(img)
    bound = a.dtype.type(1 if img.dtype.is_floating_point else 255)
    return from_numpy(np.where(a >= threshold, bound - a, a))


def _blurred_degenerate_image(a, dtype):
    """PIL's SMOOTH filter (centre weight 5 of 13) on the inner pixels; the border stays."""
    dt = a.dtype.type if dtype.is_floating_point else np.float32
    kernel = np.ones((3, 3), dtype=dt)
    kernel[1, 1] = 5.0
    kernel /= kernel.sum()
    inner = K.depthwise_conv2d(a.astype(dt, copy=False), kernel)
    result = a.copy()
    result[..., 1:-1, 1:-1] = _to_dtype_like(inner, dtype, rounding=True)
    return result


def adjust_sharpness(img, sharpness_factor):
    if sharpness_factor < 0:
        raise ValueError(f"sharpness_factor ({sharpness_factor}) is not non-negative.")
    _assert_image_tensor(img)
    _assert_channels(img, [1, 3])
    if img.shape[-1] <= 2 or img.shape[-2] <= 2:
        return img
    a = to_numpy(img)
    return from_numpy(_blend_np(a, _blurred_degenerate_image(a, img.dtype), float(sharpness_factor), img.dtype))


def autocontrast(img):
    _assert_image_tensor(img)
    if img.ndim < 3:
        raise TypeError(f"Input image tensor should have at least 3 dimensions, but found {img.ndim}")
    _assert_channels(img, [1, 3])
    a = to_numpy(img)
    dt = _compute_dtype(img).type
    bound = dt(1.0 if img.dtype.is_floating_point else 255.0)
    minimum = a.min(axis=(-2, -1), keepdims=True).astype(dt)
    maximum = a.max(axis=(-2, -1), keepdims=True).astype(dt)
    flat = minimum == maximum  # a constant channel is left as it is
    minimum = np.where(flat, dt(0), minimum)
    maximum = np.where(flat, bound, maximum)
    # `bound / tensor` is computed by torch as reciprocal(tensor) * bound (two roundings)
    with np.errstate(divide="ignore"):
        scale = (dt(1) / (maximum - minimum)) * bound
    out = np.clip((a - minimum) * scale, 0, bound)
    return from_numpy(_to_dtype_like(out, img.dtype, rounding=False))


def equalize(img):
    _assert_image_tensor(img)
    if img.ndim < 3:
        raise TypeError(f"Input image tensor should have at least 3 dimensions, but found {img.ndim}")
    if img.dtype != core.uint8:
        raise TypeError(f"Only torch.uint8 image tensors are supported, but found {img.dtype}")
    _assert_channels(img, [1, 3])
    return from_numpy(K.equalize_channels(to_numpy(img)))


def normalize(tensor, mean, std, inplace=False):
    _assert_image_tensor(tensor)
    if not tensor.dtype.is_floating_point:
        raise TypeError(f"Input tensor should be a float tensor. Got {tensor.dtype}.")
    if tensor.ndim < 3:
        raise ValueError("Expected tensor to be a tensor image of size (..., C, H, W). Got tensor.size() = "
                         f"{tensor.size()}.")
    if not inplace:
        tensor = tensor.clone()
    dtype = tensor.dtype
    mean_a = np.asarray(mean if not isinstance(mean, core.Tensor) else to_numpy(mean), dtype=numpy_dtype(dtype))
    std_a = np.asarray(std if not isinstance(std, core.Tensor) else to_numpy(std), dtype=numpy_dtype(dtype))
    if (std_a == 0).any():
        raise ValueError(f"std evaluated to zero after conversion to {dtype}, leading to division by zero.")
    if mean_a.ndim == 1:
        mean_a = mean_a.reshape(-1, 1, 1)
    if std_a.ndim == 1:
        std_a = std_a.reshape(-1, 1, 1)
    tensor.sub_(from_numpy(mean_a)).div_(from_numpy(std_a))
    return tensor


def erase(img, i, j, h, w, v, inplace=False):
    _assert_image_tensor(img)
    if not inplace:
        img = img.clone()
    img[..., i:i + h, j:j + w] = v
    return img
