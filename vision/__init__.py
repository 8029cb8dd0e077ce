"""tensorzoo vision: models, transforms, ops, io, datasets and utils (mirrors torchvision 0.9)."""
from vision import datasets, io, models, ops, transforms, utils  # noqa: F401
from vision.datasets.folder import get_image_backend, set_image_backend  # noqa: F401
