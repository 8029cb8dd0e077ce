"""ImageNet-1k class names in class-index order (torchvision's _IMAGENET_CATEGORIES)."""
import functools
import os

__all__ = ["imagenet_categories"]

_CLASSES_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_imagenet_classes.txt")


@functools.lru_cache(maxsize=None)
def _read_categories():
    with open(_CLASSES_FILE, encoding="utf-8") as f:
        return tuple(line.rstrip("\n") for line in f if line.strip())


def imagenet_categories():
    """The 1000 ImageNet class names; entry i names output logit i of the classifiers."""
    return list(_read_categories())
