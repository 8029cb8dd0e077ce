"""tensorzoo vision: models, transforms, ops, io, datasets and utils (mirrors torchvision 0.9)."""
