"""Transforms of an (image, mask) pair for segmentation: geometry applies to both (the mask with
NEAREST and padded with 255, the ignored label); colour only to the image."""
import random

import core
from vision import transforms as T
from vision.transforms import functional as F
from vision.transforms.functional import InterpolationMode


def pad_if_smaller(img, size, fill=0):
    width, height = img.size
    if min(width, height) >= size:
        return img
    return F.pad(img, (0, 0, max(size - width, 0), max(size - height, 0)), fill=fill)


class Compose:
    def __init__(self, transforms):
        self.transforms = transforms

    def __call__(self, image, target):
        for t in self.transforms:
            image, target = t(image, target)
        return image, target


class RandomResize:
    """The shorter side resized to a size drawn from [min_size, max_size] (Python's random, as
    torchvision's references draw it)."""

    def __init__(self, min_size, max_size=None):
        self.min_size = min_size
        self.max_size = min_size if max_size is None else max_size

    def __call__(self, image, target):
        size = random.randint(self.min_size, self.max_size)
        image = F.resize(image, size)
        target = F.resize(target, size, interpolation=InterpolationMode.NEAREST)
        return image, target


class RandomHorizontalFlip:
    def __init__(self, flip_prob):
        self.flip_prob = flip_prob

    def __call__(self, image, target):
        if random.random() < self.flip_prob:
            image, target = F.hflip(image), F.hflip(target)
        return image, target


class RandomCrop:
    def __init__(self, size):
        self.size = size

    def __call__(self, image, target):
        image = pad_if_smaller(image, self.size)
        target = pad_if_smaller(target, self.size, fill=255)
        crop_params = T.RandomCrop.get_params(image, (self.size, self.size))
        return F.crop(image, *crop_params), F.crop(target, *crop_params)


class CenterCrop:
    def __init__(self, size):
        self.size = size

    def __call__(self, image, target):
        return F.center_crop(image, self.size), F.center_crop(target, self.size)


class ToTensor:
    """The image as a float tensor, the mask as int64 class ids (H, W)."""

    def __call__(self, image, target):
        return F.to_tensor(image), F.pil_to_tensor(target).squeeze(0).to(core.int64)


class Normalize:
    def __init__(self, mean, std):
        self.mean, self.std = mean, std

    def __call__(self, image, target):
        return F.normalize(image, mean=self.mean, std=self.std), target
