"""GeneralizedRCNNTransform: normalizes, resizes and batches the input images (and rescales
the target boxes); maps the detections back to the original image sizes."""
import math

import core
import core.onnx
from core import nn
from core.nn import functional as F
from vision.models.detection._utils import size_max
from vision.models.detection.image_list import ImageList

__all__ = ["GeneralizedRCNNTransform", "resize_boxes"]


def _resize_image(image, self_min_size, self_max_size):
    # scale the short side to min_size unless the long side would exceed max_size
    if core.onnx.is_in_onnx_export():
        return _resize_image_in_graph(image, self_min_size, self_max_size)
    min_size, max_size = float(min(image.shape[-2:])), float(max(image.shape[-2:]))
    scale_factor = self_min_size / min_size
    if max_size * scale_factor > self_max_size:
        scale_factor = self_max_size / max_size
    return F.interpolate(image[None], scale_factor=scale_factor, mode="bilinear", recompute_scale_factor=True,
                         align_corners=False)[0]


def _resize_image_in_graph(image, self_min_size, self_max_size):
    """_resize_image with the scale computed from the image's shape in the exported graph, so that
    the graph resizes images of any size (the same scale, in float64, as the eager branch)."""
    im_shape = core.tensor(image.shape[-2:], dtype=core.float64)
    scale = core.minimum(self_min_size / im_shape.min(), self_max_size / im_shape.max())
    return F.interpolate(image[None], scale_factor=scale.item(), mode="bilinear", recompute_scale_factor=True,
                         align_corners=False)[0]


def resize_boxes(boxes, original_size, new_size):
    """Scales boxes [N, 4] from an image of original_size (h, w) to one of new_size."""
    ratio_height, ratio_width = [core.tensor(s, dtype=core.float32) / core.tensor(s_orig, dtype=core.float32)
                                 for s, s_orig in zip(new_size, original_size)]
    xmin, ymin, xmax, ymax = boxes.unbind(1)
    return core.stack((xmin * ratio_width, ymin * ratio_height, xmax * ratio_width, ymax * ratio_height), dim=1)


class GeneralizedRCNNTransform(nn.Module):
    """Normalizes with image_mean/image_std, resizes each image so that its short side is
    min_size (a random choice of the tuple in training) and its long side at most max_size,
    and zero-pads the batch to a multiple of 32. forward(images, targets) -> (ImageList, targets).
    """

    def __init__(self, min_size, max_size, image_mean, image_std):
        super().__init__()
        if not isinstance(min_size, (list, tuple)):
            min_size = (min_size,)
        self.min_size = min_size
        self.max_size = max_size
        self.image_mean = image_mean
        self.image_std = image_std

    def forward(self, images, targets=None):
        images = list(images)
        if targets is not None:
            targets = [dict(t) for t in targets]  # copies: the caller's dicts stay unchanged
        for i, image in enumerate(images):
            target = targets[i] if targets is not None else None
            if image.dim() != 3:
                raise ValueError(f"images is expected to be a list of 3d tensors of shape [C, H, W], got {image.shape}")
            image = self.normalize(image)
            image, target = self.resize(image, target)
            images[i] = image
            if targets is not None and target is not None:
                targets[i] = target
        image_sizes = [tuple(img.shape[-2:]) for img in images]
        return ImageList(self.batch_images(images), image_sizes), targets

    def normalize(self, image):
        if not image.is_floating_point():
            raise TypeError(f"Expected input images to be of floating type (in range [0, 1]), but found type "
                            f"{image.dtype} instead")
        mean = core.tensor(self.image_mean, dtype=image.dtype)
        std = core.tensor(self.image_std, dtype=image.dtype)
        return (image - mean[:, None, None]) / std[:, None, None]

    def torch_choice(self, k):
        """A uniformly random element of k, drawn with the global generator as torchvision does."""
        index = int(core.empty(1).uniform_(0.0, float(len(k))).item())
        return k[index]

    def resize(self, image, target=None):
        h, w = image.shape[-2:]
        size = float(self.torch_choice(self.min_size)) if self.training else float(self.min_size[-1])
        image = _resize_image(image, size, float(self.max_size))
        if target is None:
            return image, target
        target["boxes"] = resize_boxes(target["boxes"], (h, w), image.shape[-2:])
        return image, target

    def max_by_axis(self, the_list):
        maxes = the_list[0]
        for sublist in the_list[1:]:
            for index, item in enumerate(sublist):
                maxes[index] = max(maxes[index], item)
        return maxes

    def batch_images(self, images, size_divisible=32):
        if not images:  # IndexError, as torchvision's max_by_axis raises on an empty list
            raise IndexError("GeneralizedRCNNTransform: expected a non-empty list of images, got an empty list")
        if core.onnx.is_in_onnx_export():
            return self._pad_in_graph(images, size_divisible)
        max_size = self.max_by_axis([list(img.shape) for img in images])
        stride = float(size_divisible)
        max_size[1] = int(math.ceil(float(max_size[1]) / stride) * stride)
        max_size[2] = int(math.ceil(float(max_size[2]) / stride) * stride)
        batched_imgs = core.zeros([len(images)] + max_size, dtype=images[0].dtype)
        for img, pad_img in zip(images, batched_imgs):
            pad_img[: img.shape[0], : img.shape[1], : img.shape[2]].copy_(img)
        return batched_imgs

    def _pad_in_graph(self, images, size_divisible):
        """batch_images with the padded size computed in the exported graph from the images' shapes."""
        height, width = images[0].shape[-2], images[0].shape[-1]
        for img in images[1:]:
            height, width = size_max(height, img.shape[-2]), size_max(width, img.shape[-1])
        height = (height + size_divisible - 1) // size_divisible * size_divisible
        width = (width + size_divisible - 1) // size_divisible * size_divisible
        return core.stack([F.pad(img, (0, width - img.shape[-1], 0, height - img.shape[-2])) for img in images])

    def postprocess(self, result, image_shapes, original_image_sizes):
        """Rescales the detected boxes to the original image sizes (not in training)."""
        if self.training:
            return result
        for pred, im_s, o_im_s in zip(result, image_shapes, original_image_sizes):
            pred["boxes"] = resize_boxes(pred["boxes"], im_s, o_im_s)
        return result

    def __repr__(self):
        indent = "\n    "
        return (f"{self.__class__.__name__}({indent}Normalize(mean={self.image_mean}, std={self.image_std})"
                f"{indent}Resize(min_size={self.min_size}, max_size={self.max_size}, mode='bilinear')\n)")
