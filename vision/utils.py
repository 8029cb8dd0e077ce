"""vision.utils: make_grid, save_image, draw_bounding_boxes (torchvision 0.9) and
draw_segmentation_masks (added to torchvision in 0.10; here with 0.11's signature)."""
import math
import os
import warnings

import numpy as np
from PIL import Image, ImageColor, ImageDraw, ImageFont

import core
from hub._atomic import atomic_open

__all__ = ["make_grid", "save_image", "draw_bounding_boxes", "draw_segmentation_masks"]


def make_grid(tensor, nrow=8, padding=2, normalize=False, value_range=None, scale_each=False, pad_value=0,
              **kwargs):
    """Tiles a batch (B, C, H, W) or a list of images into one image, `nrow` per row."""
    if not (isinstance(tensor, core.Tensor) or
            (isinstance(tensor, list) and all(isinstance(t, core.Tensor) for t in tensor))):
        raise TypeError(f"tensor or list of tensors expected, got {type(tensor)}")
    if "range" in kwargs:
        warnings.warn("range will be deprecated, please use value_range instead.")
        value_range = kwargs["range"]
    if isinstance(tensor, list):
        tensor = core.stack(tensor, dim=0)
    if tensor.ndim == 2:  # a single image H x W
        tensor = tensor.unsqueeze(0)
    if tensor.ndim == 3:  # a single image
        if tensor.shape[0] == 1:  # gray -> 3 channels
            tensor = core.cat((tensor, tensor, tensor), 0)
        tensor = tensor.unsqueeze(0)
    if tensor.ndim == 4 and tensor.shape[1] == 1:  # gray images
        tensor = core.cat((tensor, tensor, tensor), 1)

    if normalize is True:
        if value_range is not None and not isinstance(value_range, tuple):
            raise TypeError("value_range has to be a tuple (min, max) if specified. min and max are numbers")
        tensor = tensor.clone()  # the input is not modified

        def norm_ip(img, low, high):
            img.clamp_(min=low, max=high)
            img.sub_(low).div_(max(high - low, 1e-5))

        def norm_range(t):
            if value_range is not None:
                norm_ip(t, value_range[0], value_range[1])
            else:
                norm_ip(t, float(t.min()), float(t.max()))

        if scale_each is True:
            for i in range(tensor.shape[0]):  # each image of the batch on its own
                norm_range(tensor[i])
        else:
            norm_range(tensor)

    if tensor.shape[0] == 1:
        return tensor.squeeze(0)

    nmaps = tensor.shape[0]
    xmaps = min(nrow, nmaps)
    ymaps = int(math.ceil(float(nmaps) / xmaps))
    height, width = int(tensor.shape[2] + padding), int(tensor.shape[3] + padding)
    num_channels = tensor.shape[1]
    grid = core.full((num_channels, height * ymaps + padding, width * xmaps + padding), pad_value,
                     dtype=tensor.dtype)
    k = 0
    for y in range(ymaps):
        for x in range(xmaps):
            if k >= nmaps:
                break
            grid.narrow(1, y * height + padding, height - padding).narrow(
                2, x * width + padding, width - padding).copy_(tensor[k])
            k += 1
    return grid


def save_image(tensor, fp, format=None, **kwargs):
    """make_grid(tensor, **kwargs) scaled to uint8 and saved with PIL (atomically for paths)."""
    grid = make_grid(tensor, **kwargs)
    if not grid.dtype.is_floating_point:
        grid = grid.to(core.float32)
    # mul(255).add_(0.5).clamp_(0, 255) then a truncating cast: round half up
    pixels = grid.detach().mul(255).add_(0.5).clamp_(0, 255).to(core.uint8)
    im = Image.fromarray(np.ascontiguousarray(pixels.permute(1, 2, 0).numpy()))
    if isinstance(fp, (str, bytes, os.PathLike)):
        if format is None:  # PIL picks the format from the extension, which the temp name lacks
            ext = os.path.splitext(os.fsdecode(fp))[1].lower()
            format = Image.registered_extensions().get(ext)
            if format is None:
                raise ValueError(f"save_image(): unknown file extension: {ext!r}")
        with atomic_open(fp, "wb") as f:
            im.save(f, format=format)
    else:
        im.save(fp, format=format)


def _check_rgb_uint8(image):
    if not isinstance(image, core.Tensor):
        raise TypeError(f"Tensor expected, got {type(image)}")
    if image.dtype != core.uint8:
        raise ValueError(f"Tensor uint8 expected, got {image.dtype}")
    if image.ndim != 3:
        raise ValueError("Pass individual images, not batches")


def draw_bounding_boxes(image, boxes, labels=None, colors=None, fill=False, width=1, font=None, font_size=10):
    """Draws (x1, y1, x2, y2) boxes, optionally filled (alpha 100) and labelled, on a uint8
    image [3, H, W]; returns a new uint8 tensor."""
    _check_rgb_uint8(image)
    ndarr = np.ascontiguousarray(image.detach().numpy().transpose(1, 2, 0))
    img_to_draw = Image.fromarray(ndarr[:, :, 0] if ndarr.shape[2] == 1 else ndarr)
    if not isinstance(boxes, core.Tensor):
        boxes = core.tensor(boxes, dtype=core.float64)
    img_boxes = boxes.to(core.int64).tolist()
    draw = ImageDraw.Draw(img_to_draw, "RGBA") if fill else ImageDraw.Draw(img_to_draw)
    txt_font = ImageFont.load_default() if font is None else ImageFont.truetype(font=font, size=font_size)
    for i, bbox in enumerate(img_boxes):
        color = None if colors is None else colors[i]
        if fill:
            if color is None:
                fill_color = (255, 255, 255, 100)
            elif isinstance(color, str):
                fill_color = ImageColor.getrgb(color) + (100,)  # raises for an unknown colour name
            else:
                fill_color = tuple(color) + (100,)
            draw.rectangle(bbox, width=width, outline=color, fill=fill_color)
        else:
            draw.rectangle(bbox, width=width, outline=color)
        if labels is not None:
            draw.text((bbox[0], bbox[1]), labels[i], fill=color, font=txt_font)
    out = np.asarray(img_to_draw)
    return core.tensor((out[:, :, None] if out.ndim == 2 else out).transpose(2, 0, 1))


def _generate_color_palette(num_masks):
    palette = (2 ** 25 - 1, 2 ** 15 - 1, 2 ** 21 - 1)
    return [tuple((i * p) % 255 for p in palette) for i in range(num_masks)]


def draw_segmentation_masks(image, masks, alpha=0.8, colors=None):
    """Blends boolean masks (N, H, W) or (H, W), each in its colour, into a uint8 RGB image."""
    _check_rgb_uint8(image)
    if image.shape[0] != 3:
        raise ValueError("Pass an RGB image. Other Image formats are not supported")
    if not isinstance(masks, core.Tensor):
        raise TypeError(f"masks must be a tensor, got {type(masks)}")
    if masks.ndim == 2:
        masks = masks.unsqueeze(0)
    if masks.ndim != 3:
        raise ValueError("masks must be of shape (H, W) or (batch_size, H, W)")
    if masks.dtype != core.bool:
        raise ValueError(f"The masks must be of dtype bool. Got {masks.dtype}")
    if tuple(masks.shape[-2:]) != tuple(image.shape[-2:]):
        raise ValueError("The image and the masks must have the same height and width")
    num_masks = masks.shape[0]
    if colors is not None and not isinstance(colors, list):
        colors = [colors]
    if colors is not None and num_masks > len(colors):
        raise ValueError(f"There are more masks ({num_masks}) than colors ({len(colors)})")
    if colors is None:
        colors = _generate_color_palette(num_masks)
    rgb = []
    for color in colors:
        if isinstance(color, str):
            color = ImageColor.getrgb(color)
        if not isinstance(color, tuple) or len(color) != 3:
            raise ValueError("colors must be a tuple of 3 ints or a colour name, or a list thereof")
        rgb.append(core.tensor(color, dtype=core.uint8).reshape(3, 1, 1))
    img_to_draw = image.detach()
    for mask, color in zip(masks.unbind(0), rgb):
        img_to_draw = core.where(mask, color, img_to_draw)
    return (image * (1 - alpha) + img_to_draw * alpha).to(core.uint8)
