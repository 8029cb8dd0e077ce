"""vision.transforms: torchvision 0.9's transform classes, on PIL images and core tensors.

Parameters, defaults, reprs and the order of random draws follow torchvision 0.9, so the
same seed (core.manual_seed ~ torch.manual_seed) draws the same crops, angles and flips.
The classes that are nn.Modules in torchvision derive from core.nn.Module.
"""
import math
import numbers
import random
import warnings
from collections.abc import Sequence

import core
from core.nn import Module
from vision.transforms import _random as R
from vision.transforms import functional as F
from vision.transforms.functional import (InterpolationMode, _interpolation_modes_from_int,
                                          _interpolation_or_resample, _setup_size)

__all__ = ["Compose", "ToTensor", "PILToTensor", "ConvertImageDtype", "ToPILImage", "Normalize", "Resize", "Scale",
           "CenterCrop", "Pad", "Lambda", "RandomApply", "RandomChoice", "RandomOrder", "RandomCrop",
           "RandomHorizontalFlip", "RandomVerticalFlip", "RandomResizedCrop", "RandomSizedCrop", "FiveCrop",
           "TenCrop", "LinearTransformation", "ColorJitter", "RandomRotation", "RandomAffine", "Grayscale",
           "RandomGrayscale", "RandomPerspective", "RandomErasing", "GaussianBlur", "InterpolationMode",
           "RandomInvert", "RandomPosterize", "RandomSolarize", "RandomAdjustSharpness", "RandomAutocontrast",
           "RandomEqualize"]


def _is_tensor(x):
    return isinstance(x, core.Tensor)


def _interpolation_from_arg(interpolation):
    if isinstance(interpolation, int) and not isinstance(interpolation, bool):
        warnings.warn("Argument interpolation should be of type InterpolationMode instead of int. "
                      "Please, use InterpolationMode enum.")
        return _interpolation_modes_from_int(interpolation)
    return interpolation


def _tensor_fill(fill, img):
    """A numeric fill becomes one float per channel for tensors (torchvision's forward)."""
    if not _is_tensor(img) or fill is None:
        return fill
    if isinstance(fill, (int, float)):
        return [float(fill)] * F._get_image_num_channels(img)
    return [float(f) for f in fill]


def _check_sequence_input(x, name, req_sizes):
    msg = req_sizes[0] if len(req_sizes) < 2 else " or ".join([str(s) for s in req_sizes])
    if not isinstance(x, Sequence):
        raise TypeError(f"{name} should be a sequence of length {msg}.")
    if len(x) not in req_sizes:
        raise ValueError(f"{name} should be sequence of length {msg}.")


def _setup_angle(x, name, req_sizes=(2,)):
    if isinstance(x, numbers.Number):
        if x < 0:
            raise ValueError(f"If {name} is a single number, it must be positive.")
        x = [-x, x]
    else:
        _check_sequence_input(x, name, req_sizes)
    return [float(d) for d in x]


def _check_fill(fill):
    if fill is None:
        return 0
    if not isinstance(fill, (Sequence, numbers.Number)):
        raise TypeError("Fill should be either a sequence or a number.")
    return fill


class Compose:
    """Applies the transforms one after the other."""

    def __init__(self, transforms):
        self.transforms = transforms

    def __call__(self, img):
        for t in self.transforms:
            img = t(img)
        return img

    def __repr__(self):
        body = "".join(f"\n    {t}" for t in self.transforms)
        return f"{type(self).__name__}({body}\n)"


class ToTensor:
    """PIL image or HWC ndarray -> float tensor CHW in [0, 1] (uint8 data / 255)."""

    def __call__(self, pic):
        return F.to_tensor(pic)

    def __repr__(self):
        return type(self).__name__ + "()"


class PILToTensor:
    """PIL image -> CHW tensor of the same dtype, not scaled."""

    def __call__(self, pic):
        return F.pil_to_tensor(pic)

    def __repr__(self):
        return type(self).__name__ + "()"


class ConvertImageDtype(Module):
    """Converts a tensor image to `dtype`, rescaling between the integer and float ranges."""

    def __init__(self, dtype):
        super().__init__()
        self.dtype = dtype

    def forward(self, image):
        return F.convert_image_dtype(image, self.dtype)

    def __repr__(self):
        return type(self).__name__ + "()"


class ToPILImage:
    """CHW tensor or HWC ndarray -> PIL image (mode inferred from channels and dtype)."""

    def __init__(self, mode=None):
        self.mode = mode

    def __call__(self, pic):
        return F.to_pil_image(pic, self.mode)

    def __repr__(self):
        s = type(self).__name__ + "("
        if self.mode is not None:
            s += f"mode={self.mode}"
        return s + ")"


class Normalize(Module):
    """(x - mean) / std per channel of a float tensor image."""

    def __init__(self, mean, std, inplace=False):
        super().__init__()
        self.mean = mean
        self.std = std
        self.inplace = inplace

    def forward(self, tensor):
        return F.normalize(tensor, self.mean, self.std, self.inplace)

    def __repr__(self):
        return type(self).__name__ + f"(mean={self.mean}, std={self.std})"


class Resize(Module):
    """Resizes to `size` (h, w), or the smaller edge to an int `size` keeping the aspect ratio."""

    def __init__(self, size, interpolation=InterpolationMode.BILINEAR):
        super().__init__()
        if not isinstance(size, (int, Sequence)):
            raise TypeError(f"Size should be int or sequence. Got {type(size)}")
        if isinstance(size, Sequence) and len(size) not in (1, 2):
            raise ValueError("If size is a sequence, it should have 1 or 2 values")
        self.size = size
        self.interpolation = _interpolation_from_arg(interpolation)

    def forward(self, img):
        return F.resize(img, self.size, self.interpolation)

    def __repr__(self):
        return type(self).__name__ + f"(size={self.size}, interpolation={self.interpolation.value})"


class Scale(Resize):
    """Deprecated alias of Resize."""

    def __init__(self, *args, **kwargs):
        warnings.warn("The use of the transforms.Scale transform is deprecated, please use transforms.Resize instead.")
        super().__init__(*args, **kwargs)


class CenterCrop(Module):
    """Crops the centre (zero-padding first when the image is smaller than `size`)."""

    def __init__(self, size):
        super().__init__()
        self.size = _setup_size(size, error_msg="Please provide only two dimensions (h, w) for size.")

    def forward(self, img):
        return F.center_crop(img, self.size)

    def __repr__(self):
        return type(self).__name__ + f"(size={self.size})"


class Pad(Module):
    """Pads every side (int), left/right and top/bottom (2), or left, top, right, bottom (4)."""

    def __init__(self, padding, fill=0, padding_mode="constant"):
        super().__init__()
        if not isinstance(padding, (numbers.Number, tuple, list)):
            raise TypeError("Got inappropriate padding arg")
        if not isinstance(fill, (numbers.Number, str, tuple)):
            raise TypeError("Got inappropriate fill arg")
        if padding_mode not in ["constant", "edge", "reflect", "symmetric"]:
            raise ValueError("Padding mode should be either constant, edge, reflect or symmetric")
        if isinstance(padding, Sequence) and len(padding) not in [1, 2, 4]:
            raise ValueError("Padding must be an int or a 1, 2, or 4 element tuple, not a "
                             f"{len(padding)} element tuple")
        self.padding = padding
        self.fill = fill
        self.padding_mode = padding_mode

    def forward(self, img):
        return F.pad(img, self.padding, self.fill, self.padding_mode)

    def __repr__(self):
        return type(self).__name__ + f"(padding={self.padding}, fill={self.fill}, padding_mode={self.padding_mode})"


class Lambda:
    """Applies a user function."""

    def __init__(self, lambd):
        if not callable(lambd):
            raise TypeError(f"Argument lambd should be callable, got {repr(type(lambd).__name__)}")
        self.lambd = lambd

    def __call__(self, img):
        return self.lambd(img)

    def __repr__(self):
        return type(self).__name__ + "()"


class RandomTransforms:
    """Base of RandomChoice / RandomOrder: holds a sequence of transforms."""

    def __init__(self, transforms):
        if not isinstance(transforms, Sequence):
            raise TypeError("Argument transforms should be a sequence")
        self.transforms = transforms

    def __call__(self, *args, **kwargs):
        raise NotImplementedError()

    def __repr__(self):
        body = "".join(f"\n    {t}" for t in self.transforms)
        return f"{type(self).__name__}({body}\n)"


class RandomApply(Module):
    """Applies the list of transforms with probability p (one torch.rand(1) draw)."""

    def __init__(self, transforms, p=0.5):
        super().__init__()
        self.transforms = transforms
        self.p = p

    def forward(self, img):
        if R.p_lt_rand_tensor(self.p):
            return img
        for t in self.transforms:
            img = t(img)
        return img

    def __repr__(self):
        body = f"\n    p={self.p}" + "".join(f"\n    {t}" for t in self.transforms)
        return f"{type(self).__name__}({body}\n)"


class RandomOrder(RandomTransforms):
    """Applies the transforms in an order shuffled by Python's `random` (as torchvision)."""

    def __call__(self, img):
        order = list(range(len(self.transforms)))
        random.shuffle(order)
        for i in order:
            img = self.transforms[i](img)
        return img


class RandomChoice(RandomTransforms):
    """Applies one transform picked by Python's `random.choice` (as torchvision)."""

    def __call__(self, img):
        t = random.choice(self.transforms)
        return t(img)


class RandomCrop(Module):
    """Crops at a random location, after optional padding."""

    @staticmethod
    def get_params(img, output_size):
        w, h = F._get_image_size(img)
        th, tw = output_size
        if h + 1 < th or w + 1 < tw:
            raise ValueError(f"Required crop size {(th, tw)} is larger then input image size {(h, w)}")
        if w == tw and h == th:
            return 0, 0, h, w
        i = R.randint(0, h - th + 1)
        j = R.randint(0, w - tw + 1)
        return i, j, th, tw

    def __init__(self, size, padding=None, pad_if_needed=False, fill=0, padding_mode="constant"):
        super().__init__()
        self.size = tuple(_setup_size(size, error_msg="Please provide only two dimensions (h, w) for size."))
        self.padding = padding
        self.pad_if_needed = pad_if_needed
        self.fill = fill
        self.padding_mode = padding_mode

    def forward(self, img):
        if self.padding is not None:
            img = F.pad(img, self.padding, self.fill, self.padding_mode)
        width, height = F._get_image_size(img)
        if self.pad_if_needed and width < self.size[1]:
            img = F.pad(img, [self.size[1] - width, 0], self.fill, self.padding_mode)
        if self.pad_if_needed and height < self.size[0]:
            img = F.pad(img, [0, self.size[0] - height], self.fill, self.padding_mode)
        i, j, h, w = self.get_params(img, self.size)
        return F.crop(img, i, j, h, w)

    def __repr__(self):
        return type(self).__name__ + f"(size={self.size}, padding={self.padding})"


class RandomHorizontalFlip(Module):
    def __init__(self, p=0.5):
        super().__init__()
        self.p = p

    def forward(self, img):
        if R.rand_tensor_lt(self.p):
            return F.hflip(img)
        return img

    def __repr__(self):
        return type(self).__name__ + f"(p={self.p})"


class RandomVerticalFlip(Module):
    def __init__(self, p=0.5):
        super().__init__()
        self.p = p

    def forward(self, img):
        if R.rand_tensor_lt(self.p):
            return F.vflip(img)
        return img

    def __repr__(self):
        return type(self).__name__ + f"(p={self.p})"


class RandomPerspective(Module):
    """Random perspective distortion of the four corners, with probability p."""

    def __init__(self, distortion_scale=0.5, p=0.5, interpolation=InterpolationMode.BILINEAR, fill=0):
        super().__init__()
        self.p = p
        self.interpolation = _interpolation_from_arg(interpolation)
        self.distortion_scale = distortion_scale
        self.fill = _check_fill(fill)

    def forward(self, img):
        fill = _tensor_fill(self.fill, img)
        if R.rand_tensor_lt(self.p):
            width, height = F._get_image_size(img)
            startpoints, endpoints = self.get_params(width, height, self.distortion_scale)
            return F.perspective(img, startpoints, endpoints, self.interpolation, fill)
        return img

    @staticmethod
    def get_params(width, height, distortion_scale):
        half_height = height // 2
        half_width = width // 2
        dx = int(distortion_scale * half_width)
        dy = int(distortion_scale * half_height)
        topleft = [R.randint(0, dx + 1), R.randint(0, dy + 1)]
        topright = [R.randint(width - dx - 1, width), R.randint(0, dy + 1)]
        botright = [R.randint(width - dx - 1, width), R.randint(height - dy - 1, height)]
        botleft = [R.randint(0, dx + 1), R.randint(height - dy - 1, height)]
        startpoints = [[0, 0], [width - 1, 0], [width - 1, height - 1], [0, height - 1]]
        endpoints = [topleft, topright, botright, botleft]
        return startpoints, endpoints

    def __repr__(self):
        return type(self).__name__ + f"(p={self.p})"


class RandomResizedCrop(Module):
    """A crop of random area (scale) and log-uniform aspect ratio, resized to `size`; after
    10 failed attempts, a centre crop clamped to the ratio range."""

    def __init__(self, size, scale=(0.08, 1.0), ratio=(3.0 / 4.0, 4.0 / 3.0),
                 interpolation=InterpolationMode.BILINEAR):
        super().__init__()
        self.size = _setup_size(size, error_msg="Please provide only two dimensions (h, w) for size.")
        if not isinstance(scale, Sequence):
            raise TypeError("Scale should be a sequence")
        if not isinstance(ratio, Sequence):
            raise TypeError("Ratio should be a sequence")
        if (scale[0] > scale[1]) or (ratio[0] > ratio[1]):
            warnings.warn("Scale and ratio should be of kind (min, max)")
        self.interpolation = _interpolation_from_arg(interpolation)
        self.scale = scale
        self.ratio = ratio

    @staticmethod
    def get_params(img, scale, ratio):
        width, height = F._get_image_size(img)
        area = height * width
        # torch.log(torch.tensor(ratio)): float32 bounds of the log-uniform draw
        log_ratio = (R.log_f32(ratio[0]), R.log_f32(ratio[1]))
        for _ in range(10):
            target_area = area * R.uniform(scale[0], scale[1])
            aspect_ratio = R.exp_f32(R.uniform(log_ratio[0], log_ratio[1]))
            w = int(round(math.sqrt(target_area * aspect_ratio)))
            h = int(round(math.sqrt(target_area / aspect_ratio)))
            if 0 < w <= width and 0 < h <= height:
                i = R.randint(0, height - h + 1)
                j = R.randint(0, width - w + 1)
                return i, j, h, w
        # fallback to a central crop
        in_ratio = float(width) / float(height)
        if in_ratio < min(ratio):
            w = width
            h = int(round(w / min(ratio)))
        elif in_ratio > max(ratio):
            h = height
            w = int(round(h * max(ratio)))
        else:
            w, h = width, height
        i = (height - h) // 2
        j = (width - w) // 2
        return i, j, h, w

    def forward(self, img):
        i, j, h, w = self.get_params(img, self.scale, self.ratio)
        return F.resized_crop(img, i, j, h, w, self.size, self.interpolation)

    def __repr__(self):
        s = type(self).__name__ + f"(size={self.size}"
        s += f", scale={tuple(round(v, 4) for v in self.scale)}"
        s += f", ratio={tuple(round(r, 4) for r in self.ratio)}"
        return s + f", interpolation={self.interpolation.value})"


class RandomSizedCrop(RandomResizedCrop):
    """Deprecated alias of RandomResizedCrop."""

    def __init__(self, *args, **kwargs):
        warnings.warn("The use of the transforms.RandomSizedCrop transform is deprecated, "
                      "please use transforms.RandomResizedCrop instead.")
        super().__init__(*args, **kwargs)


class FiveCrop(Module):
    """The four corner crops and the centre crop."""

    def __init__(self, size):
        super().__init__()
        self.size = _setup_size(size, error_msg="Please provide only two dimensions (h, w) for size.")

    def forward(self, img):
        return F.five_crop(img, self.size)

    def __repr__(self):
        return type(self).__name__ + f"(size={self.size})"


class TenCrop(Module):
    """FiveCrop of the image and of its flip (horizontal unless vertical_flip)."""

    def __init__(self, size, vertical_flip=False):
        super().__init__()
        self.size = _setup_size(size, error_msg="Please provide only two dimensions (h, w) for size.")
        self.vertical_flip = vertical_flip

    def forward(self, img):
        return F.ten_crop(img, self.size, self.vertical_flip)

    def __repr__(self):
        return type(self).__name__ + f"(size={self.size}, vertical_flip={self.vertical_flip})"


class LinearTransformation(Module):
    """(x.flatten() - mean_vector) @ transformation_matrix, reshaped back (e.g. ZCA whitening)."""

    def __init__(self, transformation_matrix, mean_vector):
        super().__init__()
        if transformation_matrix.size(0) != transformation_matrix.size(1):
            raise ValueError("transformation_matrix should be square. Got "
                             f"[{transformation_matrix.size(0)} x {transformation_matrix.size(1)}] rectangular matrix.")
        if mean_vector.size(0) != transformation_matrix.size(0):
            raise ValueError(f"mean_vector should have the same length {mean_vector.size(0)} as any one of the "
                             f"dimensions of the transformation_matrix [{tuple(transformation_matrix.size())}]")
        self.transformation_matrix = transformation_matrix
        self.mean_vector = mean_vector

    def forward(self, tensor):
        shape = tensor.shape
        n = shape[-3] * shape[-2] * shape[-1]
        if n != self.transformation_matrix.shape[0]:
            raise ValueError("Input tensor and transformation matrix have incompatible shape."
                             f"[{shape[-3]} x {shape[-2]} x {shape[-1]}] != {self.transformation_matrix.shape[0]}")
        flat_tensor = tensor.reshape(-1, n).sub(self.mean_vector)
        transformed = core.mm(flat_tensor, self.transformation_matrix)
        return transformed.reshape(shape)

    def __repr__(self):
        return (type(self).__name__ + f"(transformation_matrix={self.transformation_matrix.tolist()})"
                + f", (mean_vector={self.mean_vector.tolist()})")


class ColorJitter(Module):
    """Random brightness, contrast, saturation and hue, applied in a random order; each
    factor is drawn right before its adjustment (torchvision 0.9's forward)."""

    def __init__(self, brightness=0, contrast=0, saturation=0, hue=0):
        super().__init__()
        self.brightness = self._check_input(brightness, "brightness")
        self.contrast = self._check_input(contrast, "contrast")
        self.saturation = self._check_input(saturation, "saturation")
        self.hue = self._check_input(hue, "hue", center=0, bound=(-0.5, 0.5), clip_first_on_zero=False)

    @staticmethod
    def _check_input(value, name, center=1, bound=(0, float("inf")), clip_first_on_zero=True):
        if isinstance(value, numbers.Number):
            if value < 0:
                raise ValueError(f"If {name} is a single number, it must be non negative.")
            value = [center - float(value), center + float(value)]
            if clip_first_on_zero:
                value[0] = max(value[0], 0.0)
        elif isinstance(value, (tuple, list)) and len(value) == 2:
            if not bound[0] <= value[0] <= value[1] <= bound[1]:
                raise ValueError(f"{name} values should be between {bound}")
        else:
            raise TypeError(f"{name} should be a single number or a list/tuple with lenght 2.")
        # 0, (1, 1) or (0, 0) for hue: nothing to do
        if value[0] == value[1] == center:
            value = None
        return value

    @staticmethod
    def get_params(brightness, contrast, saturation, hue):
        """torchvision 0.9's legacy get_params: a Compose of the adjustments with factors and
        order from Python's `random` (forward does not use it)."""
        transforms = []
        if brightness is not None:
            brightness_factor = random.uniform(brightness[0], brightness[1])
            transforms.append(Lambda(lambda img: F.adjust_brightness(img, brightness_factor)))
        if contrast is not None:
            contrast_factor = random.uniform(contrast[0], contrast[1])
            transforms.append(Lambda(lambda img: F.adjust_contrast(img, contrast_factor)))
        if saturation is not None:
            saturation_factor = random.uniform(saturation[0], saturation[1])
            transforms.append(Lambda(lambda img: F.adjust_saturation(img, saturation_factor)))
        if hue is not None:
            hue_factor = random.uniform(hue[0], hue[1])
            transforms.append(Lambda(lambda img: F.adjust_hue(img, hue_factor)))
        random.shuffle(transforms)
        return Compose(transforms)

    def forward(self, img):
        adjust = ((self.brightness, F.adjust_brightness), (self.contrast, F.adjust_contrast),
                  (self.saturation, F.adjust_saturation), (self.hue, F.adjust_hue))
        for fn_id in R.randperm(4):
            bounds, fn = adjust[fn_id]
            if bounds is not None:
                factor = core.tensor(1.0).uniform_(float(bounds[0]), float(bounds[1])).item()
                img = fn(img, factor)
        return img

    def __repr__(self):
        return (type(self).__name__ + f"(brightness={self.brightness}, contrast={self.contrast}, "
                f"saturation={self.saturation}, hue={self.hue})")


class RandomRotation(Module):
    """Rotates by an angle drawn uniformly from `degrees`."""

    def __init__(self, degrees, interpolation=InterpolationMode.NEAREST, expand=False, center=None, fill=0,
                 resample=None):
        super().__init__()
        interpolation = _interpolation_from_arg(_interpolation_or_resample(interpolation, resample))
        self.degrees = _setup_angle(degrees, name="degrees", req_sizes=(2,))
        if center is not None:
            _check_sequence_input(center, "center", req_sizes=(2,))
        self.center = center
        self.resample = self.interpolation = interpolation
        self.expand = expand
        self.fill = _check_fill(fill)

    @staticmethod
    def get_params(degrees):
        return float(R.uniform(float(degrees[0]), float(degrees[1])))

    def forward(self, img):
        fill = _tensor_fill(self.fill, img)
        angle = self.get_params(self.degrees)
        return F.rotate(img, angle, self.resample, self.expand, self.center, fill)

    def __repr__(self):
        s = type(self).__name__ + f"(degrees={self.degrees}"
        s += f", interpolation={self.interpolation.value}"
        s += f", expand={self.expand}"
        if self.center is not None:
            s += f", center={self.center}"
        if self.fill is not None:
            s += f", fill={self.fill}"
        return s + ")"


class RandomAffine(Module):
    """Random rotation, translation (fractions of the size), scale and shear, keeping the centre."""

    def __init__(self, degrees, translate=None, scale=None, shear=None, interpolation=InterpolationMode.NEAREST,
                 fill=0, fillcolor=None, resample=None):
        super().__init__()
        interpolation = _interpolation_from_arg(_interpolation_or_resample(interpolation, resample))
        if fillcolor is not None:
            warnings.warn("Argument fillcolor is deprecated and will be removed since v0.10.0. Please, use fill "
                          "instead")
            fill = fillcolor
        self.degrees = _setup_angle(degrees, name="degrees", req_sizes=(2,))
        if translate is not None:
            _check_sequence_input(translate, "translate", req_sizes=(2,))
            for t in translate:
                if not (0.0 <= t <= 1.0):
                    raise ValueError("translation values should be between 0 and 1")
        self.translate = translate
        if scale is not None:
            _check_sequence_input(scale, "scale", req_sizes=(2,))
            for s in scale:
                if s <= 0:
                    raise ValueError("scale values should be positive")
        self.scale = scale
        self.shear = _setup_angle(shear, name="shear", req_sizes=(2, 4)) if shear is not None else shear
        self.resample = self.interpolation = interpolation
        self.fillcolor = self.fill = _check_fill(fill)

    @staticmethod
    def get_params(degrees, translate, scale_ranges, shears, img_size):
        angle = float(R.uniform(float(degrees[0]), float(degrees[1])))
        if translate is not None:
            max_dx = float(translate[0] * img_size[0])
            max_dy = float(translate[1] * img_size[1])
            tx = int(round(R.uniform(-max_dx, max_dx)))
            ty = int(round(R.uniform(-max_dy, max_dy)))
            translations = (tx, ty)
        else:
            translations = (0, 0)
        if scale_ranges is not None:
            scale = float(R.uniform(scale_ranges[0], scale_ranges[1]))
        else:
            scale = 1.0
        shear_x = shear_y = 0.0
        if shears is not None:
            shear_x = float(R.uniform(shears[0], shears[1]))
            if len(shears) == 4:
                shear_y = float(R.uniform(shears[2], shears[3]))
        return angle, translations, scale, (shear_x, shear_y)

    def forward(self, img):
        fill = _tensor_fill(self.fill, img)
        img_size = F._get_image_size(img)
        ret = self.get_params(self.degrees, self.translate, self.scale, self.shear, img_size)
        return F.affine(img, *ret, interpolation=self.interpolation, fill=fill)

    def __repr__(self):
        s = type(self).__name__ + f"(degrees={self.degrees}"
        if self.translate is not None:
            s += f", translate={self.translate}"
        if self.scale is not None:
            s += f", scale={self.scale}"
        if self.shear is not None:
            s += f", shear={self.shear}"
        if self.interpolation != InterpolationMode.NEAREST:
            s += f", interpolation={self.interpolation.value}"
        if self.fill != 0:
            s += f", fill={self.fill}"
        return s + ")"


class Grayscale(Module):
    """RGB -> grayscale with 1 or 3 output channels."""

    def __init__(self, num_output_channels=1):
        super().__init__()
        self.num_output_channels = num_output_channels

    def forward(self, img):
        return F.rgb_to_grayscale(img, num_output_channels=self.num_output_channels)

    def __repr__(self):
        return type(self).__name__ + f"(num_output_channels={self.num_output_channels})"


class RandomGrayscale(Module):
    """Grayscale with as many channels as the input, with probability p."""

    def __init__(self, p=0.1):
        super().__init__()
        self.p = p

    def forward(self, img):
        num_output_channels = F._get_image_num_channels(img)
        if R.rand_tensor_lt(self.p):
            return F.rgb_to_grayscale(img, num_output_channels=num_output_channels)
        return img

    def __repr__(self):
        return type(self).__name__ + f"(p={self.p})"


class RandomErasing(Module):
    """Erases a random rectangle of a tensor image with probability p ('Random Erasing Data
    Augmentation', Zhong et al.). The aspect ratio is uniform in `ratio` (torchvision 0.9)."""

    def __init__(self, p=0.5, scale=(0.02, 0.33), ratio=(0.3, 3.3), value=0, inplace=False):
        super().__init__()
        if not isinstance(value, (numbers.Number, str, tuple, list)):
            raise TypeError("Argument value should be either a number or str or a sequence")
        if isinstance(value, str) and value != "random":
            raise ValueError("If value is str, it should be 'random'")
        if not isinstance(scale, (tuple, list)):
            raise TypeError("Scale should be a sequence")
        if not isinstance(ratio, (tuple, list)):
            raise TypeError("Ratio should be a sequence")
        if (scale[0] > scale[1]) or (ratio[0] > ratio[1]):
            warnings.warn("Scale and ratio should be of kind (min, max)")
        if scale[0] < 0 or scale[1] > 1:
            raise ValueError("Scale should be between 0 and 1")
        if p < 0 or p > 1:
            raise ValueError("Random erasing probability should be between 0 and 1")
        self.p = p
        self.scale = scale
        self.ratio = ratio
        self.value = value
        self.inplace = inplace

    @staticmethod
    def get_params(img, scale, ratio, value=None):
        img_c, img_h, img_w = img.shape[-3], img.shape[-2], img.shape[-1]
        area = img_h * img_w
        for _ in range(10):
            erase_area = area * R.uniform(scale[0], scale[1])
            aspect_ratio = R.uniform(ratio[0], ratio[1])
            h = int(round(math.sqrt(erase_area * aspect_ratio)))
            w = int(round(math.sqrt(erase_area / aspect_ratio)))
            if not (h < img_h and w < img_w):
                continue
            if value is None:
                v = core.empty([img_c, h, w], dtype=core.float32).normal_()
            else:
                v = core.tensor(value)[:, None, None]
            i = R.randint(0, img_h - h + 1)
            j = R.randint(0, img_w - w + 1)
            return i, j, h, w, v
        # nothing fitted: return the image itself
        return 0, 0, img_h, img_w, img

    def forward(self, img):
        if not _is_tensor(img):
            raise TypeError(f"RandomErasing works on tensor images (apply it after ToTensor), got {type(img)}")
        if R.rand_tensor_lt(self.p):
            if isinstance(self.value, (int, float)):
                value = [self.value]
            elif isinstance(self.value, str):
                value = None
            else:
                value = list(self.value)
            if value is not None and not (len(value) in (1, img.shape[-3])):
                raise ValueError("If value is a sequence, it should have either a single value or "
                                 f"{img.shape[-3]} (number of input channels)")
            x, y, h, w, v = self.get_params(img, scale=self.scale, ratio=self.ratio, value=value)
            return F.erase(img, x, y, h, w, v, self.inplace)
        return img

    def __repr__(self):
        return (type(self).__name__ + f"(p={self.p}, scale={self.scale}, ratio={self.ratio}, value={self.value}, "
                f"inplace={self.inplace})")


class GaussianBlur(Module):
    """Gaussian blur with sigma drawn uniformly from `sigma` (min, max) on every call."""

    def __init__(self, kernel_size, sigma=(0.1, 2.0)):
        super().__init__()
        self.kernel_size = _setup_size(kernel_size, "Kernel size should be a tuple/list of two integers")
        for ks in self.kernel_size:
            if ks <= 0 or ks % 2 == 0:
                raise ValueError("Kernel size value should be an odd and positive number.")
        if isinstance(sigma, numbers.Number):
            if sigma <= 0:
                raise ValueError("If sigma is a single number, it must be positive.")
            sigma = (sigma, sigma)
        elif isinstance(sigma, Sequence) and len(sigma) == 2:
            if not 0.0 < sigma[0] <= sigma[1]:
                raise ValueError("sigma values should be positive and of the form (min, max).")
        else:
            raise ValueError("sigma should be a single number or a list/tuple with length 2.")
        self.sigma = sigma

    @staticmethod
    def get_params(sigma_min, sigma_max):
        return R.uniform(sigma_min, sigma_max)

    def forward(self, img):
        sigma = self.get_params(self.sigma[0], self.sigma[1])
        return F.gaussian_blur(img, self.kernel_size, [sigma, sigma])

    def __repr__(self):
        return type(self).__name__ + f"(kernel_size={self.kernel_size}, sigma={self.sigma})"


class _RandomPixelOp(Module):
    """Applies `_op(img, *parameter)` with probability p (``torch.rand(1).item() < p``);
    `_param` names the one parameter of the op, if any."""
    _param = None

    def __init__(self, p=0.5):
        super().__init__()
        self.p = p

    def forward(self, img):
        if R.rand_item() < self.p:
            args = () if self._param is None else (getattr(self, self._param),)
            return type(self)._op(img, *args)
        return img

    def __repr__(self):
        param = "" if self._param is None else f"{self._param}={getattr(self, self._param)},"
        return type(self).__name__ + f"({param}p={self.p})"


class RandomInvert(_RandomPixelOp):
    _op = staticmethod(F.invert)


class RandomPosterize(_RandomPixelOp):
    _op, _param = staticmethod(F.posterize), "bits"

    def __init__(self, bits, p=0.5):
        super().__init__(p)
        self.bits = bits


class RandomSolarize(_RandomPixelOp):
    _op, _param = staticmethod(F.solarize), "threshold"

    def __init__(self, threshold, p=0.5):
        super().__init__(p)
        self.threshold = threshold


class RandomAdjustSharpness(_RandomPixelOp):
    _op, _param = staticmethod(F.adjust_sharpness), "sharpness_factor"

    def __init__(self, sharpness_factor, p=0.5):
        super().__init__(p)
        self.sharpness_factor = sharpness_factor


class RandomAutocontrast(_RandomPixelOp):
    _op = staticmethod(F.autocontrast)


class RandomEqualize(_RandomPixelOp):
    _op = staticmethod(F.equalize)
