"""vision.transforms.functional: torchvision 0.9's functional API on PIL images and core
tensors [..., C, H, W] alike (dispatching to functional_pil / functional_tensor)."""
import inspect
import math
import numbers
import warnings
from enum import Enum

import numpy as np
from PIL import Image

import core
from vision.transforms import functional_pil as F_pil
from vision.transforms import functional_tensor as F_t


class InterpolationMode(Enum):
    """Interpolation modes. Tensors support NEAREST, BILINEAR and BICUBIC; PIL images all."""
    NEAREST = "nearest"
    BILINEAR = "bilinear"
    BICUBIC = "bicubic"
    # for PIL compatibility
    BOX = "box"
    HAMMING = "hamming"
    LANCZOS = "lanczos"


def _interpolation_modes_from_int(i):
    inverse_modes_mapping = {
        0: InterpolationMode.NEAREST, 2: InterpolationMode.BILINEAR, 3: InterpolationMode.BICUBIC,
        4: InterpolationMode.BOX, 5: InterpolationMode.HAMMING, 1: InterpolationMode.LANCZOS,
    }
    return inverse_modes_mapping[i]


pil_modes_mapping = {
    InterpolationMode.NEAREST: 0, InterpolationMode.BILINEAR: 2, InterpolationMode.BICUBIC: 3,
    InterpolationMode.BOX: 4, InterpolationMode.HAMMING: 5, InterpolationMode.LANCZOS: 1,
}


def _interpolation_arg(interpolation, what="interpolation"):
    """InterpolationMode from an enum or (deprecated) a PIL integer constant."""
    if isinstance(interpolation, int) and not isinstance(interpolation, bool):
        warnings.warn(f"Argument {what} should be of type InterpolationMode instead of int. "
                      "Please, use InterpolationMode enum.")
        return _interpolation_modes_from_int(interpolation)
    if not isinstance(interpolation, InterpolationMode):
        raise TypeError("Argument interpolation should be a InterpolationMode")
    return interpolation


def _interpolation_or_resample(interpolation, resample):
    """The interpolation to use, honouring the deprecated PIL-integer `resample` argument."""
    if resample is not None:
        warnings.warn("Argument resample is deprecated and will be removed since v0.10.0. Please, use "
                      "interpolation instead")
        return _interpolation_modes_from_int(resample)
    return interpolation


_is_pil_image = F_pil._is_pil_image


def _is_tensor(img):
    return isinstance(img, core.Tensor)


def _get_image_size(img):
    """[width, height] of a PIL image or tensor."""
    if _is_tensor(img):
        return F_t._get_image_size(img)
    return list(F_pil._get_image_size(img))


def _get_image_num_channels(img):
    if _is_tensor(img):
        return F_t._get_image_num_channels(img)
    return F_pil._get_image_num_channels(img)


def _by_image_type(name):
    """functional.<name>: F_pil.<name> for PIL images, F_t.<name> for tensors (the two take
    the same arguments)."""
    pil_fn, tensor_fn = getattr(F_pil, name), getattr(F_t, name)

    def fn(img, *args, **kwargs):
        return (tensor_fn if _is_tensor(img) else pil_fn)(img, *args, **kwargs)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"{name} on a PIL image or a tensor [..., C, H, W]."
    fn.__signature__ = inspect.signature(tensor_fn)
    return fn


hflip = _by_image_type("hflip")
vflip = _by_image_type("vflip")
crop = _by_image_type("crop")
adjust_brightness = _by_image_type("adjust_brightness")
adjust_contrast = _by_image_type("adjust_contrast")
adjust_saturation = _by_image_type("adjust_saturation")
adjust_hue = _by_image_type("adjust_hue")
adjust_gamma = _by_image_type("adjust_gamma")
adjust_sharpness = _by_image_type("adjust_sharpness")
invert = _by_image_type("invert")
solarize = _by_image_type("solarize")
autocontrast = _by_image_type("autocontrast")
equalize = _by_image_type("equalize")


def _is_numpy(img):
    return isinstance(img, np.ndarray)


def _is_numpy_image(img):
    return img.ndim in {2, 3}


def _hwc_to_tensor(arr):
    """A CHW tensor holding its own copy of an HWC array (the PIL/numpy boundary)."""
    return core.from_numpy(np.array(arr.transpose((2, 0, 1)), order="C"))


def to_tensor(pic):
    """PIL image or HWC ndarray -> float CHW tensor; uint8 data is divided by 255."""
    if not (F_pil._is_pil_image(pic) or _is_numpy(pic)):
        raise TypeError(f"pic should be PIL Image or ndarray. Got {type(pic)}")
    if _is_numpy(pic) and not _is_numpy_image(pic):
        raise ValueError(f"pic should be 2/3 dimensional. Got {pic.ndim} dimensions.")
    default_float_dtype = core.get_default_dtype()
    if isinstance(pic, np.ndarray):
        img = _hwc_to_tensor(pic[:, :, None] if pic.ndim == 2 else pic)
        if img.dtype == core.uint8:
            return img.to(default_float_dtype).div(255)
        return img
    mode_to_nptype = {"I": np.int32, "I;16": np.int16, "F": np.float32}
    arr = np.array(pic, mode_to_nptype.get(pic.mode, np.uint8), copy=True)
    if pic.mode == "1":
        arr = arr * np.uint8(255)
    img = _hwc_to_tensor(arr.reshape(pic.size[1], pic.size[0], len(pic.getbands())))
    if img.dtype == core.uint8:
        return img.to(default_float_dtype).div(255)
    return img


def pil_to_tensor(pic):
    """PIL image -> CHW tensor of its own dtype (no scaling; 16-bit data becomes int32)."""
    if not F_pil._is_pil_image(pic):
        raise TypeError(f"pic should be PIL Image. Got {type(pic)}")
    arr = np.asarray(pic)
    if arr.dtype == np.uint16:  # core has no uint16: 16-bit images widen to int32
        arr = arr.astype(np.int32)
    return _hwc_to_tensor(arr.reshape(pic.size[1], pic.size[0], len(pic.getbands())))


def convert_image_dtype(image, dtype=core.float32):
    if not _is_tensor(image):
        raise TypeError("Input img should be Tensor Image")
    return F_t.convert_image_dtype(image, dtype)


def to_pil_image(pic, mode=None):
    """CHW tensor or HWC ndarray -> PIL image; float data is multiplied by 255 unless mode 'F'."""
    if not (_is_tensor(pic) or isinstance(pic, np.ndarray)):
        raise TypeError(f"pic should be Tensor or ndarray. Got {type(pic)}.")
    if _is_tensor(pic):
        if pic.ndim not in {2, 3}:
            raise ValueError(f"pic should be 2/3 dimensional. Got {pic.ndim} dimensions.")
        if pic.ndim == 2:
            pic = pic.unsqueeze(0)
        if pic.shape[-3] > 4:
            raise ValueError(f"pic should not have > 4 channels. Got {pic.shape[-3]} channels.")
        if pic.dtype.is_floating_point and mode != "F":
            # .mul(255).byte(): truncation, wrapping modulo 256 like an integer cast
            pic = pic.mul(255).to(core.int64).to(core.uint8)
        npimg = np.transpose(pic.detach().numpy(), (1, 2, 0))
    else:
        if pic.ndim not in {2, 3}:
            raise ValueError(f"pic should be 2/3 dimensional. Got {pic.ndim} dimensions.")
        npimg = pic[:, :, None] if pic.ndim == 2 else pic
        if npimg.shape[-1] > 4:
            raise ValueError(f"pic should not have > 4 channels. Got {npimg.shape[-1]} channels.")

    if npimg.shape[2] == 1:
        expected_mode = None
        npimg = npimg[:, :, 0]
        if npimg.dtype == np.uint8:
            expected_mode = "L"
        elif npimg.dtype == np.int16:
            expected_mode = "I;16"
        elif npimg.dtype == np.int32:
            expected_mode = "I"
        elif npimg.dtype == np.float32:
            expected_mode = "F"
        if mode is not None and mode != expected_mode:
            raise ValueError(f"Incorrect mode ({mode}) supplied for input type {npimg.dtype}. "
                             f"Should be {expected_mode}")
        mode = expected_mode
    elif npimg.shape[2] == 2:
        permitted = ["LA"]
        if mode is not None and mode not in permitted:
            raise ValueError(f"Only modes {permitted} are supported for 2D inputs")
        if mode is None and npimg.dtype == np.uint8:
            mode = "LA"
    elif npimg.shape[2] == 4:
        permitted = ["RGBA", "CMYK", "RGBX"]
        if mode is not None and mode not in permitted:
            raise ValueError(f"Only modes {permitted} are supported for 4D inputs")
        if mode is None and npimg.dtype == np.uint8:
            mode = "RGBA"
    else:
        permitted = ["RGB", "YCbCr", "HSV"]
        if mode is not None and mode not in permitted:
            raise ValueError(f"Only modes {permitted} are supported for 3D inputs")
        if mode is None and npimg.dtype == np.uint8:
            mode = "RGB"
    if mode is None:
        raise TypeError(f"Input type {npimg.dtype} is not supported")
    return F_pil.from_array(npimg, mode)


def normalize(tensor, mean, std, inplace=False):
    if not _is_tensor(tensor):
        raise TypeError(f"Input tensor should be a torch tensor. Got {type(tensor)}.")
    return F_t.normalize(tensor, mean=mean, std=std, inplace=inplace)


def resize(img, size, interpolation=InterpolationMode.BILINEAR):
    interpolation = _interpolation_arg(interpolation)
    if not _is_tensor(img):
        return F_pil.resize(img, size=size, interpolation=pil_modes_mapping[interpolation])
    return F_t.resize(img, size=size, interpolation=interpolation.value)


def scale(*args, **kwargs):
    warnings.warn("The use of the transforms.Scale transform is deprecated, please use transforms.Resize instead.")
    return resize(*args, **kwargs)


def pad(img, padding, fill=0, padding_mode="constant"):
    if not _is_tensor(img):
        return F_pil.pad(img, padding=padding, fill=fill, padding_mode=padding_mode)
    return F_t.pad(img, padding=padding, fill=fill, padding_mode=padding_mode)


def _setup_size(size, error_msg="Please provide only two dimensions (h, w) for size."):
    """(h, w) from an int, a 1-sequence or a 2-sequence."""
    if isinstance(size, numbers.Number):
        return int(size), int(size)
    if isinstance(size, (tuple, list)) and len(size) == 1:
        return size[0], size[0]
    if len(size) != 2:
        raise ValueError(error_msg)
    return size


def center_crop(img, output_size):
    output_size = _setup_size(output_size)
    image_width, image_height = _get_image_size(img)
    crop_height, crop_width = output_size
    if crop_width > image_width or crop_height > image_height:
        padding_ltrb = [
            (crop_width - image_width) // 2 if crop_width > image_width else 0,
            (crop_height - image_height) // 2 if crop_height > image_height else 0,
            (crop_width - image_width + 1) // 2 if crop_width > image_width else 0,
            (crop_height - image_height + 1) // 2 if crop_height > image_height else 0,
        ]
        img = pad(img, padding_ltrb, fill=0)
        image_width, image_height = _get_image_size(img)
        if crop_width == image_width and crop_height == image_height:
            return img
    # torchvision 0.9 rounds halves up here (its TorchScript workaround for round())
    crop_top = int((image_height - crop_height + 1) * 0.5)
    crop_left = int((image_width - crop_width + 1) * 0.5)
    return crop(img, crop_top, crop_left, crop_height, crop_width)


def resized_crop(img, top, left, height, width, size, interpolation=InterpolationMode.BILINEAR):
    img = crop(img, top, left, height, width)
    return resize(img, size, interpolation)




def _get_perspective_coeffs(startpoints, endpoints):
    """The 8 coefficients of the projective map that sends endpoints to startpoints (the
    inverse map PIL's PERSPECTIVE transform wants), by least squares."""
    a_matrix = np.zeros((2 * len(startpoints), 8), dtype=np.float64)
    for i, (p1, p2) in enumerate(zip(endpoints, startpoints)):
        a_matrix[2 * i, :] = [p1[0], p1[1], 1, 0, 0, 0, -p2[0] * p1[0], -p2[0] * p1[1]]
        a_matrix[2 * i + 1, :] = [0, 0, 0, p1[0], p1[1], 1, -p2[1] * p1[0], -p2[1] * p1[1]]
    b_matrix = np.array(startpoints, dtype=np.float64).reshape(8)
    res = np.linalg.lstsq(a_matrix, b_matrix, rcond=None)[0]
    return [float(np.float32(v)) for v in res]


def perspective(img, startpoints, endpoints, interpolation=InterpolationMode.BILINEAR, fill=None):
    coeffs = _get_perspective_coeffs(startpoints, endpoints)
    interpolation = _interpolation_arg(interpolation)
    if not _is_tensor(img):
        return F_pil.perspective(img, coeffs, interpolation=pil_modes_mapping[interpolation], fill=fill)
    return F_t.perspective(img, coeffs, interpolation=interpolation.value, fill=fill)


def five_crop(img, size):
    size = _setup_size(size)
    image_width, image_height = _get_image_size(img)
    crop_height, crop_width = size
    if crop_width > image_width or crop_height > image_height:
        raise ValueError(f"Requested crop size {size} is bigger than input size {(image_height, image_width)}")
    tl = crop(img, 0, 0, crop_height, crop_width)
    tr = crop(img, 0, image_width - crop_width, crop_height, crop_width)
    bl = crop(img, image_height - crop_height, 0, crop_height, crop_width)
    br = crop(img, image_height - crop_height, image_width - crop_width, crop_height, crop_width)
    center = center_crop(img, [crop_height, crop_width])
    return tl, tr, bl, br, center


def ten_crop(img, size, vertical_flip=False):
    size = _setup_size(size)
    first_five = five_crop(img, size)
    img = vflip(img) if vertical_flip else hflip(img)
    second_five = five_crop(img, size)
    return first_five + second_five






def _get_inverse_affine_matrix(center, angle, translate, scale, shear):
    """The inverse of M = T * C * RSS * C^-1 (translation, centre, rotation-scale-shear), the
    output -> input map that PIL and the tensor grid sampler want."""
    rot = math.radians(angle)
    sx, sy = [math.radians(s) for s in shear]
    cx, cy = center
    tx, ty = translate
    # RSS without scaling
    a = math.cos(rot - sy) / math.cos(sy)
    b = -math.cos(rot - sy) * math.tan(sx) / math.cos(sy) - math.sin(rot)
    c = math.sin(rot - sy) / math.cos(sy)
    d = -math.sin(rot - sy) * math.tan(sx) / math.cos(sy) + math.cos(rot)
    # inverted rotation-shear (determinant 1) with scale
    matrix = [d, -b, 0.0, -c, a, 0.0]
    matrix = [x / scale for x in matrix]
    # RSS^-1 * C^-1 * T^-1, then C * ...
    matrix[2] += matrix[0] * (-cx - tx) + matrix[1] * (-cy - ty)
    matrix[5] += matrix[3] * (-cx - tx) + matrix[4] * (-cy - ty)
    matrix[2] += cx
    matrix[5] += cy
    return matrix


def rotate(img, angle, interpolation=InterpolationMode.NEAREST, expand=False, center=None, fill=None,
           resample=None):
    """Rotates counter-clockwise by `angle` degrees around `center` (default: the image centre)."""
    interpolation = _interpolation_arg(_interpolation_or_resample(interpolation, resample))
    if not isinstance(angle, (int, float)):
        raise TypeError("Argument angle should be int or float")
    if center is not None and not isinstance(center, (list, tuple)):
        raise TypeError("Argument center should be a sequence")
    if not _is_tensor(img):
        return F_pil.rotate(img, angle=angle, interpolation=pil_modes_mapping[interpolation], expand=expand,
                            center=center, fill=fill)
    center_f = [0.0, 0.0]
    if center is not None:
        img_size = _get_image_size(img)
        # pixel coordinates relative to the image centre
        center_f = [1.0 * (c - s * 0.5) for c, s in zip(center, img_size)]
    # the tensor grid rotates the other way round from PIL: negate the angle
    matrix = _get_inverse_affine_matrix(center_f, -angle, [0.0, 0.0], 1.0, [0.0, 0.0])
    return F_t.rotate(img, matrix=matrix, interpolation=interpolation.value, expand=expand, fill=fill)


def affine(img, angle, translate, scale, shear, interpolation=InterpolationMode.NEAREST, fill=None,
           resample=None, fillcolor=None, center=None):
    """Affine transform keeping the image centre fixed (or `center`, a later torchvision
    extension). Angles and shears in degrees."""
    interpolation = _interpolation_arg(_interpolation_or_resample(interpolation, resample))
    if fillcolor is not None:
        warnings.warn("Argument fillcolor is deprecated and will be removed since v0.10.0. Please, use fill "
                      "instead")
        fill = fillcolor
    if not isinstance(angle, (int, float)):
        raise TypeError("Argument angle should be int or float")
    if not isinstance(translate, (list, tuple)):
        raise TypeError("Argument translate should be a sequence")
    if len(translate) != 2:
        raise ValueError("Argument translate should be a sequence of length 2")
    if scale <= 0.0:
        raise ValueError("Argument scale should be positive")
    if not isinstance(shear, (numbers.Number, list, tuple)):
        raise TypeError("Shear should be either a single value or a sequence of two values")
    angle = float(angle)
    translate = list(translate)
    if isinstance(shear, numbers.Number):
        shear = [shear, 0.0]
    shear = list(shear)
    if len(shear) == 1:
        shear = [shear[0], shear[0]]
    if len(shear) != 2:
        raise ValueError(f"Shear should be a sequence containing two values. Got {shear}")
    img_size = _get_image_size(img)
    if not _is_tensor(img):
        # the centre without the 0.5 offset keeps a 90 degree rotation aligned with rot90
        pil_center = [img_size[0] * 0.5, img_size[1] * 0.5]
        if center is not None:
            pil_center = list(center)
        matrix = _get_inverse_affine_matrix(pil_center, angle, translate, scale, shear)
        return F_pil.affine(img, matrix=matrix, interpolation=pil_modes_mapping[interpolation], fill=fill)
    center_f = [0.0, 0.0]
    if center is not None:
        center_f = [1.0 * (c - s * 0.5) for c, s in zip(center, img_size)]
    translate_f = [1.0 * t for t in translate]
    matrix = _get_inverse_affine_matrix(center_f, angle, translate_f, scale, shear)
    return F_t.affine(img, matrix=matrix, interpolation=interpolation.value, fill=fill)


def to_grayscale(img, num_output_channels=1):
    if isinstance(img, Image.Image):
        return F_pil.to_grayscale(img, num_output_channels)
    raise TypeError("Input should be PIL Image")


def rgb_to_grayscale(img, num_output_channels=1):
    if not _is_tensor(img):
        return F_pil.to_grayscale(img, num_output_channels)
    return F_t.rgb_to_grayscale(img, num_output_channels)


def erase(img, i, j, h, w, v, inplace=False):
    if not _is_tensor(img):
        raise TypeError(f"img should be Tensor Image. Got {type(img)}")
    return F_t.erase(img, i, j, h, w, v, inplace=inplace)


def gaussian_blur(img, kernel_size, sigma=None):
    if not isinstance(kernel_size, (int, list, tuple)):
        raise TypeError(f"kernel_size should be int or a sequence of integers. Got {type(kernel_size)}")
    if isinstance(kernel_size, int):
        kernel_size = [kernel_size, kernel_size]
    if len(kernel_size) != 2:
        raise ValueError(f"If kernel_size is a sequence its length should be 2. Got {len(kernel_size)}")
    for ksize in kernel_size:
        if ksize % 2 == 0 or ksize < 0:
            raise ValueError(f"kernel_size should have odd and positive integers. Got {kernel_size}")
    if sigma is None:
        sigma = [ksize * 0.15 + 0.35 for ksize in kernel_size]
    if not isinstance(sigma, (int, float, list, tuple)):
        raise TypeError(f"sigma should be either float or sequence of floats. Got {type(sigma)}")
    if isinstance(sigma, (int, float)):
        sigma = [float(sigma), float(sigma)]
    if isinstance(sigma, (list, tuple)) and len(sigma) == 1:
        sigma = [sigma[0], sigma[0]]
    if len(sigma) != 2:
        raise ValueError(f"If sigma is a sequence, its length should be 2. Got {len(sigma)}")
    for s in sigma:
        if s <= 0.0:
            raise ValueError(f"sigma should have positive values. Got {sigma}")
    t_img = img
    if not _is_tensor(img):
        if not F_pil._is_pil_image(img):
            raise TypeError(f"img should be PIL Image or Tensor. Got {type(img)}")
        t_img = pil_to_tensor(img)
    output = F_t.gaussian_blur(t_img, list(kernel_size), list(sigma))
    if not _is_tensor(img):
        output = to_pil_image(output, mode=img.mode)
    return output



def posterize(img, bits):
    if not (0 <= bits <= 8):
        raise ValueError(f"The number if bits should be between 0 and 8. Got {bits}")
    if not _is_tensor(img):
        return F_pil.posterize(img, bits)
    return F_t.posterize(img, bits)
