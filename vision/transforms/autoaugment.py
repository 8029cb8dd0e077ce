"""AutoAugment (torchvision 0.9, bit for bit in its draws and magnitudes), plus RandAugment
and TrivialAugmentWide (added to torchvision later; here they follow torchvision's later
definitions of their op spaces and draws, built on the same 0.9 functional ops).

0.9 AutoAugment quirks kept on purpose: signed Brightness/Color/Contrast/Sharpness
magnitudes (factor 1 +- m), Posterize bins [8,8,7,7,6,6,5,5,4,4], Solarize linspace(256, 0),
Translate as a fraction 150/331 of the size, shear angle = degrees(m), an op applied when
rand <= p, NEAREST interpolation by default.
"""
import math
from enum import Enum

import core
from core.nn import Module
from vision.transforms import _random as R
from vision.transforms import functional as F
from vision.transforms.functional import InterpolationMode
from vision.transforms.transforms import _tensor_fill

__all__ = ["AutoAugmentPolicy", "AutoAugment", "RandAugment", "TrivialAugmentWide"]


class AutoAugmentPolicy(Enum):
    """AutoAugment policies learned on different datasets."""
    IMAGENET = "imagenet"
    CIFAR10 = "cifar10"
    SVHN = "svhn"


# (op name, probability, magnitude bin) pairs; 25 sub-policies per dataset
_POLICIES = {
    AutoAugmentPolicy.IMAGENET: [
        (("Posterize", 0.4, 8), ("Rotate", 0.6, 9)),
        (("Solarize", 0.6, 5), ("AutoContrast", 0.6, None)),
        (("Equalize", 0.8, None), ("Equalize", 0.6, None)),
        (("Posterize", 0.6, 7), ("Posterize", 0.6, 6)),
        (("Equalize", 0.4, None), ("Solarize", 0.2, 4)),
        (("Equalize", 0.4, None), ("Rotate", 0.8, 8)),
        (("Solarize", 0.6, 3), ("Equalize", 0.6, None)),
        (("Posterize", 0.8, 5), ("Equalize", 1.0, None)),
        (("Rotate", 0.2, 3), ("Solarize", 0.6, 8)),
        (("Equalize", 0.6, None), ("Posterize", 0.4, 6)),
        (("Rotate", 0.8, 8), ("Color", 0.4, 0)),
        (("Rotate", 0.4, 9), ("Equalize", 0.6, None)),
        (("Equalize", 0.0, None), ("Equalize", 0.8, None)),
        (("Invert", 0.6, None), ("Equalize", 1.0, None)),
        (("Color", 0.6, 4), ("Contrast", 1.0, 8)),
        (("Rotate", 0.8, 8), ("Color", 1.0, 2)),
        (("Color", 0.8, 8), ("Solarize", 0.8, 7)),
        (("Sharpness", 0.4, 7), ("Invert", 0.6, None)),
        (("ShearX", 0.6, 5), ("Equalize", 1.0, None)),
        (("Color", 0.4, 0), ("Equalize", 0.6, None)),
        (("Equalize", 0.4, None), ("Solarize", 0.2, 4)),
        (("Solarize", 0.6, 5), ("AutoContrast", 0.6, None)),
        (("Invert", 0.6, None), ("Equalize", 1.0, None)),
        (("Color", 0.6, 4), ("Contrast", 1.0, 8)),
        (("Equalize", 0.8, None), ("Equalize", 0.6, None)),
    ],
    AutoAugmentPolicy.CIFAR10: [
        (("Invert", 0.1, None), ("Contrast", 0.2, 6)),
        (("Rotate", 0.7, 2), ("TranslateX", 0.3, 9)),
        (("Sharpness", 0.8, 1), ("Sharpness", 0.9, 3)),
        (("ShearY", 0.5, 8), ("TranslateY", 0.7, 9)),
        (("AutoContrast", 0.5, None), ("Equalize", 0.9, None)),
        (("ShearY", 0.2, 7), ("Posterize", 0.3, 7)),
        (("Color", 0.4, 3), ("Brightness", 0.6, 7)),
        (("Sharpness", 0.3, 9), ("Brightness", 0.7, 9)),
        (("Equalize", 0.6, None), ("Equalize", 0.5, None)),
        (("Contrast", 0.6, 7), ("Sharpness", 0.6, 5)),
        (("Color", 0.7, 7), ("TranslateX", 0.5, 8)),
        (("Equalize", 0.3, None), ("AutoContrast", 0.4, None)),
        (("TranslateY", 0.4, 3), ("Sharpness", 0.2, 6)),
        (("Brightness", 0.9, 6), ("Color", 0.2, 8)),
        (("Solarize", 0.5, 2), ("Invert", 0.0, None)),
        (("Equalize", 0.2, None), ("AutoContrast", 0.6, None)),
        (("Equalize", 0.2, None), ("Equalize", 0.6, None)),
        (("Color", 0.9, 9), ("Equalize", 0.6, None)),
        (("AutoContrast", 0.8, None), ("Solarize", 0.2, 8)),
        (("Brightness", 0.1, 3), ("Color", 0.7, 0)),
        (("Solarize", 0.4, 5), ("AutoContrast", 0.9, None)),
        (("TranslateY", 0.9, 9), ("TranslateY", 0.7, 9)),
        (("AutoContrast", 0.9, None), ("Solarize", 0.8, 3)),
        (("Equalize", 0.8, None), ("Invert", 0.1, None)),
        (("TranslateY", 0.7, 9), ("AutoContrast", 0.9, None)),
    ],
    AutoAugmentPolicy.SVHN: [
        (("ShearX", 0.9, 4), ("Invert", 0.2, None)),
        (("ShearY", 0.9, 8), ("Invert", 0.7, None)),
        (("Equalize", 0.6, None), ("Solarize", 0.6, 6)),
        (("Invert", 0.9, None), ("Equalize", 0.6, None)),
        (("Equalize", 0.6, None), ("Rotate", 0.9, 3)),
        (("ShearX", 0.9, 4), ("AutoContrast", 0.8, None)),
        (("ShearY", 0.9, 8), ("Invert", 0.4, None)),
        (("ShearY", 0.9, 5), ("Solarize", 0.2, 6)),
        (("Invert", 0.9, None), ("AutoContrast", 0.8, None)),
        (("Equalize", 0.6, None), ("Rotate", 0.9, 3)),
        (("ShearX", 0.9, 4), ("Solarize", 0.3, 3)),
        (("ShearY", 0.8, 8), ("Invert", 0.7, None)),
        (("Equalize", 0.9, None), ("TranslateY", 0.6, 6)),
        (("Invert", 0.9, None), ("Equalize", 0.6, None)),
        (("Contrast", 0.3, 3), ("Rotate", 0.8, 4)),
        (("Invert", 0.8, None), ("TranslateY", 0.0, 2)),
        (("ShearY", 0.7, 6), ("Solarize", 0.4, 8)),
        (("Invert", 0.6, None), ("Rotate", 0.8, 4)),
        (("ShearY", 0.3, 7), ("TranslateX", 0.9, 3)),
        (("ShearX", 0.1, 6), ("Invert", 0.6, None)),
        (("Solarize", 0.7, 2), ("TranslateY", 0.6, 7)),
        (("ShearY", 0.8, 4), ("Invert", 0.8, None)),
        (("ShearX", 0.7, 9), ("TranslateY", 0.8, 3)),
        (("ShearY", 0.8, 5), ("AutoContrast", 0.7, None)),
        (("ShearX", 0.7, 2), ("Invert", 0.1, None)),
    ],
}


def _get_transforms(policy):
    return _POLICIES.get(policy)


def _linspace(start, end, steps):
    """torch.linspace(start, end, steps) (float32) as a list of Python floats."""
    return core.linspace(start, end, steps, dtype=core.float32).tolist()


def _get_magnitudes():
    """name -> (magnitudes per bin or None, signed or None), torchvision 0.9's table."""
    bins = 10
    return {
        "ShearX": (_linspace(0.0, 0.3, bins), True),
        "ShearY": (_linspace(0.0, 0.3, bins), True),
        "TranslateX": (_linspace(0.0, 150.0 / 331.0, bins), True),
        "TranslateY": (_linspace(0.0, 150.0 / 331.0, bins), True),
        "Rotate": (_linspace(0.0, 30.0, bins), True),
        "Brightness": (_linspace(0.0, 0.9, bins), True),
        "Color": (_linspace(0.0, 0.9, bins), True),
        "Contrast": (_linspace(0.0, 0.9, bins), True),
        "Sharpness": (_linspace(0.0, 0.9, bins), True),
        "Posterize": ([8, 8, 7, 7, 6, 6, 5, 5, 4, 4], False),
        "Solarize": (_linspace(256.0, 0.0, bins), False),
        "AutoContrast": (None, None),
        "Equalize": (None, None),
        "Invert": (None, None),
    }


def _apply_op(img, op_name, magnitude, interpolation, fill, shear_as_atan=False):
    """One image operation. `shear_as_atan` selects the later torchvision shear (an angle of
    atan(m) around the top-left corner) used by RandAugment / TrivialAugmentWide; AutoAugment
    0.9 shears by degrees(m) around the centre. Translate magnitudes are in pixels here."""
    if op_name in ("ShearX", "ShearY"):
        if shear_as_atan:
            angle, center = math.degrees(math.atan(magnitude)), [0, 0]
        else:
            angle, center = math.degrees(magnitude), None
        shear = [angle, 0.0] if op_name == "ShearX" else [0.0, angle]
        return F.affine(img, angle=0.0, translate=[0, 0], scale=1.0, shear=shear, interpolation=interpolation,
                        fill=fill, center=center)
    if op_name == "TranslateX":
        return F.affine(img, angle=0.0, translate=[int(magnitude), 0], scale=1.0, interpolation=interpolation,
                        shear=[0.0, 0.0], fill=fill)
    if op_name == "TranslateY":
        return F.affine(img, angle=0.0, translate=[0, int(magnitude)], scale=1.0, interpolation=interpolation,
                        shear=[0.0, 0.0], fill=fill)
    if op_name == "Rotate":
        return F.rotate(img, magnitude, interpolation=interpolation, fill=fill)
    if op_name == "Brightness":
        return F.adjust_brightness(img, 1.0 + magnitude)
    if op_name == "Color":
        return F.adjust_saturation(img, 1.0 + magnitude)
    if op_name == "Contrast":
        return F.adjust_contrast(img, 1.0 + magnitude)
    if op_name == "Sharpness":
        return F.adjust_sharpness(img, 1.0 + magnitude)
    if op_name == "Posterize":
        return F.posterize(img, int(magnitude))
    if op_name == "Solarize":
        return F.solarize(img, magnitude)
    if op_name == "AutoContrast":
        return F.autocontrast(img)
    if op_name == "Equalize":
        return F.equalize(img)
    if op_name == "Invert":
        return F.invert(img)
    if op_name == "Identity":
        return img
    raise ValueError(f"The provided operator {op_name} is not recognized.")


def _check_input_image(img):
    if isinstance(img, core.Tensor):
        if img.dtype != core.uint8:
            raise TypeError(f"AutoAugment expects a uint8 tensor image, got {img.dtype}")
        if img.ndim < 3 or img.shape[-3] not in (1, 3):
            raise TypeError(f"AutoAugment expects a tensor image of shape [..., 1 or 3, H, W], got "
                            f"{list(img.shape)}")
    elif hasattr(img, "mode"):
        if img.mode not in ("L", "RGB"):
            raise TypeError(f"AutoAugment expects a PIL image of mode 'L' or 'RGB', got '{img.mode}'")
    else:
        raise TypeError(f"img should be PIL Image or Tensor. Got {type(img)}")


class AutoAugment(Module):
    """AutoAugment ("AutoAugment: Learning Augmentation Strategies from Data"): one of the
    policy's 25 sub-policies, each of its two ops applied with its probability.
    Tensors must be uint8 [..., 1 or 3, H, W]; PIL images "L" or "RGB"."""

    def __init__(self, policy=AutoAugmentPolicy.IMAGENET, interpolation=InterpolationMode.NEAREST, fill=None):
        super().__init__()
        self.policy = policy
        self.interpolation = interpolation
        self.fill = fill
        self.transforms = _get_transforms(policy)
        if self.transforms is None:
            raise ValueError(f"The provided policy {policy} is not recognized.")
        self._op_meta = _get_magnitudes()

    @staticmethod
    def get_params(transform_num):
        """(policy_id, probs[2], signs[2]) drawn as torch.randint / torch.rand / torch.randint."""
        policy_id = int(core.randint(transform_num, (1,)).item())
        probs = core.rand((2,))
        signs = core.randint(2, (2,))
        return policy_id, probs, signs

    def _get_op_meta(self, name):
        return self._op_meta[name]

    def forward(self, img):
        _check_input_image(img)
        fill = _tensor_fill(self.fill, img)
        transform_id, probs, signs = self.get_params(len(self.transforms))
        signs = signs.tolist()
        for i, (op_name, p, magnitude_id) in enumerate(self.transforms[transform_id]):
            if probs[i] <= p:  # a float32 tensor against p: compared in float32, as torch does
                magnitudes, signed = self._get_op_meta(op_name)
                magnitude = float(magnitudes[magnitude_id]) if magnitudes is not None and magnitude_id is not None \
                    else 0.0
                if signed and signs[i] == 0:
                    magnitude *= -1.0
                if op_name == "TranslateX":
                    magnitude = int(F._get_image_size(img)[0] * magnitude)
                elif op_name == "TranslateY":
                    magnitude = int(F._get_image_size(img)[1] * magnitude)
                img = _apply_op(img, op_name, magnitude, interpolation=self.interpolation, fill=fill)
        return img

    def __repr__(self):
        return type(self).__name__ + f"(policy={self.policy}, fill={self.fill})"


def _op_space(num_bins, shear, translate, rotate, enhance, posterize_drop):
    """The op space of RandAugment / TrivialAugmentWide (later torchvision): name ->
    (magnitude per bin or None, signed). Posterize keeps 8 - round(i * drop / (bins - 1)) bits."""
    if num_bins > 1:
        posterize = (8 - (core.arange(num_bins) / ((num_bins - 1) / posterize_drop)).round().int()).tolist()
    else:
        posterize = [8]
    return {
        "Identity": (None, False),
        "ShearX": (_linspace(0.0, shear, num_bins), True),
        "ShearY": (_linspace(0.0, shear, num_bins), True),
        "TranslateX": (_linspace(0.0, translate[0], num_bins), True),
        "TranslateY": (_linspace(0.0, translate[1], num_bins), True),
        "Rotate": (_linspace(0.0, rotate, num_bins), True),
        "Brightness": (_linspace(0.0, enhance, num_bins), True),
        "Color": (_linspace(0.0, enhance, num_bins), True),
        "Contrast": (_linspace(0.0, enhance, num_bins), True),
        "Sharpness": (_linspace(0.0, enhance, num_bins), True),
        "Posterize": (posterize, False),
        "Solarize": (_linspace(255.0, 0.0, num_bins), False),
        "AutoContrast": (None, False),
        "Equalize": (None, False),
    }


def _signed_draw():
    """``torch.randint(2, (1,))`` as a bool: flip the sign of a signed magnitude."""
    return bool(R.randint(0, 2))


class RandAugment(Module):
    """RandAugment ("RandAugment: Practical automated data augmentation with a reduced search
    space"): `num_ops` ops drawn uniformly, all at bin `magnitude` of `num_magnitude_bins`."""

    def __init__(self, num_ops=2, magnitude=9, num_magnitude_bins=31, interpolation=InterpolationMode.NEAREST,
                 fill=None):
        super().__init__()
        self.num_ops = num_ops
        self.magnitude = magnitude
        self.num_magnitude_bins = num_magnitude_bins
        self.interpolation = interpolation
        self.fill = fill

    @staticmethod
    def _augmentation_space(num_bins, image_size):
        """name -> (magnitudes per bin or None, signed); image_size is (height, width)."""
        return _op_space(num_bins, shear=0.3, translate=(150.0 / 331.0 * image_size[1], 150.0 / 331.0 * image_size[0]),
                         rotate=30.0, enhance=0.9, posterize_drop=4)

    def forward(self, img):
        _check_input_image(img)
        fill = _tensor_fill(self.fill, img)
        width, height = F._get_image_size(img)
        op_meta = self._augmentation_space(self.num_magnitude_bins, (height, width))
        names = list(op_meta)
        for _ in range(self.num_ops):
            op_name = names[R.randint(0, len(op_meta))]
            magnitudes, signed = op_meta[op_name]
            magnitude = float(magnitudes[self.magnitude]) if magnitudes is not None else 0.0
            if signed and _signed_draw():
                magnitude *= -1.0
            img = _apply_op(img, op_name, magnitude, interpolation=self.interpolation, fill=fill, shear_as_atan=True)
        return img

    def __repr__(self):
        return (type(self).__name__ + f"(num_ops={self.num_ops}, magnitude={self.magnitude}, "
                f"num_magnitude_bins={self.num_magnitude_bins}, interpolation={self.interpolation}, fill={self.fill})")


class TrivialAugmentWide(Module):
    """TrivialAugment Wide ("TrivialAugment: Tuning-free Yet State-of-the-Art Data
    Augmentation"): one op and one magnitude bin, both drawn uniformly."""

    def __init__(self, num_magnitude_bins=31, interpolation=InterpolationMode.NEAREST, fill=None):
        super().__init__()
        self.num_magnitude_bins = num_magnitude_bins
        self.interpolation = interpolation
        self.fill = fill

    @staticmethod
    def _augmentation_space(num_bins):
        return _op_space(num_bins, shear=0.99, translate=(32.0, 32.0), rotate=135.0, enhance=0.99, posterize_drop=6)

    def forward(self, img):
        _check_input_image(img)
        fill = _tensor_fill(self.fill, img)
        op_meta = self._augmentation_space(self.num_magnitude_bins)
        op_name = list(op_meta)[R.randint(0, len(op_meta))]
        magnitudes, signed = op_meta[op_name]
        magnitude = float(magnitudes[R.randint(0, len(magnitudes))]) if magnitudes is not None else 0.0
        if signed and _signed_draw():
            magnitude *= -1.0
        return _apply_op(img, op_name, magnitude, interpolation=self.interpolation, fill=fill, shear_as_atan=True)

    def __repr__(self):
        return (type(self).__name__ + f"(num_magnitude_bins={self.num_magnitude_bins}, "
                f"interpolation={self.interpolation}, fill={self.fill})")
