"""The inference presets weights enums hand out (torchvision 0.13's transforms._presets):
`weights.transforms()` turns a PIL image or a uint8/float tensor into the model's input."""
import core
from core.nn import Module
from vision.transforms import functional as F
from vision.transforms.functional import InterpolationMode

__all__ = ["ObjectDetection", "ImageClassification", "SemanticSegmentation"]


class ObjectDetection(Module):
    """Detection models take [0, 1] float images: a PIL image or uint8 tensor is converted."""

    def forward(self, img):
        if not isinstance(img, core.Tensor):
            img = F.pil_to_tensor(img)
        return F.convert_image_dtype(img, core.float)

    def __repr__(self):
        return self.__class__.__name__ + "()"

    def describe(self):
        return ("Accepts PIL.Image and core.Tensor images. The images are rescaled to [0.0, 1.0].")


class ImageClassification(Module):
    """Resize the short side to resize_size, center-crop crop_size, scale to [0, 1] floats and
    normalize with the ImageNet mean and std."""

    def __init__(self, *, crop_size, resize_size=256, mean=(0.485, 0.456, 0.406), std=(0.229, 0.224, 0.225),
                 interpolation=InterpolationMode.BILINEAR, antialias=True):
        super().__init__()
        self.crop_size = [crop_size]
        self.resize_size = [resize_size]
        self.mean = list(mean)
        self.std = list(std)
        self.interpolation = interpolation
        self.antialias = antialias

    def forward(self, img):
        if not isinstance(img, core.Tensor):
            img = F.pil_to_tensor(img)
        img = F.resize(img, self.resize_size, interpolation=self.interpolation)
        img = F.center_crop(img, self.crop_size)
        img = F.convert_image_dtype(img, core.float)
        return F.normalize(img, mean=self.mean, std=self.std)

    def __repr__(self):
        lines = [f"    crop_size={self.crop_size}", f"    resize_size={self.resize_size}", f"    mean={self.mean}",
                 f"    std={self.std}", f"    interpolation={self.interpolation}"]
        return self.__class__.__name__ + "(\n" + "\n".join(lines) + "\n)"

    def describe(self):
        return ("Accepts PIL.Image and core.Tensor images. The images are resized to resize_size="
                f"{self.resize_size} using interpolation={self.interpolation}, followed by a central crop of "
                f"crop_size={self.crop_size}. Finally the values are first rescaled to [0.0, 1.0] and then "
                f"normalized using mean={self.mean} and std={self.std}.")


class SemanticSegmentation(Module):
    """Resize the short side to resize_size, scale to [0, 1] floats and normalize."""

    def __init__(self, *, resize_size, mean=(0.485, 0.456, 0.406), std=(0.229, 0.224, 0.225),
                 interpolation=InterpolationMode.BILINEAR, antialias=True):
        super().__init__()
        self.resize_size = [resize_size] if resize_size is not None else None
        self.mean = list(mean)
        self.std = list(std)
        self.interpolation = interpolation
        self.antialias = antialias

    def forward(self, img):
        if self.resize_size is not None:
            img = F.resize(img, self.resize_size, interpolation=self.interpolation)
        if not isinstance(img, core.Tensor):
            img = F.pil_to_tensor(img)
        img = F.convert_image_dtype(img, core.float)
        return F.normalize(img, mean=self.mean, std=self.std)

    def __repr__(self):
        lines = [f"    resize_size={self.resize_size}", f"    mean={self.mean}", f"    std={self.std}",
                 f"    interpolation={self.interpolation}"]
        return self.__class__.__name__ + "(\n" + "\n".join(lines) + "\n)"
