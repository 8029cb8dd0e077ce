"""vision.transforms: torchvision 0.9's transforms on PIL images and core tensors."""
from vision.transforms.transforms import *  # noqa: F401,F403
from vision.transforms.transforms import __all__ as _transforms_all
from vision.transforms.autoaugment import AutoAugment, AutoAugmentPolicy, RandAugment, TrivialAugmentWide
from vision.transforms import functional  # noqa: F401

__all__ = list(_transforms_all) + ["AutoAugment", "AutoAugmentPolicy", "RandAugment", "TrivialAugmentWide"]
