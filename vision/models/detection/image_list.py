"""ImageList: a padded batch of images with each image's size before padding."""

__all__ = ["ImageList"]


class ImageList:
    """tensors: the batch [N, C, H, W] (zero-padded); image_sizes: each image's (h, w) after
    resizing, before padding."""

    def __init__(self, tensors, image_sizes):
        self.tensors = tensors
        self.image_sizes = image_sizes

    def to(self, device):
        return ImageList(self.tensors.to(device), self.image_sizes)
