"""Transforms of an (image, target) pair for detection: the target's boxes (and masks,
keypoints) follow the image."""
import core
from vision.transforms import functional as F


class Compose:
    def __init__(self, transforms):
        self.transforms = transforms

    def __call__(self, image, target):
        for t in self.transforms:
            image, target = t(image, target)
        return image, target


class ToTensor:
    def __call__(self, image, target):
        return F.to_tensor(image), target


class RandomHorizontalFlip:
    """Flips the image and its target with probability `prob` (torch.rand(1) < prob)."""

    def __init__(self, prob=0.5):
        self.prob = prob

    def __call__(self, image, target):
        if core.rand(1).item() < self.prob:
            width = image.shape[-1]
            image = image.flip(-1)
            if target is not None:
                target = dict(target)
                boxes = target["boxes"].clone()
                boxes[:, [0, 2]] = width - target["boxes"][:, [2, 0]]
                target["boxes"] = boxes
                if "masks" in target:
                    target["masks"] = target["masks"].flip(-1)
        return image, target
