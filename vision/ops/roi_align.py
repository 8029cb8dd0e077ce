"""RoIAlign (Mask R-CNN): bilinear sampling of box bins, differentiable in the input."""
from core import nn
from vision.ops import _ops
from vision.ops._utils import _pair, as_rois

__all__ = ["roi_align", "RoIAlign"]


def roi_align(input, boxes, output_size, spatial_scale=1.0, sampling_ratio=-1, aligned=False):
    """Performs Region of Interest (RoI) Align, as in Mask R-CNN.

    Args:
        input (Tensor[N, C, H, W]): the feature map.
        boxes (Tensor[K, 5] or List[Tensor[L, 4]]): boxes (x1, y1, x2, y2) in input coordinates
            before `spatial_scale`; a [K, 5] tensor carries the batch index in column 0.
        output_size (int or Tuple[int, int]): the (height, width) of each output.
        spatial_scale (float): maps box coordinates to the input's (e.g. 1/16 for stride 16).
        sampling_ratio (int): sampling points per bin and axis; <= 0 means ceil(box / bins).
        aligned (bool): shift boxes by -0.5 pixel to align with pixel centers (Detectron2).

    Returns:
        Tensor[K, C, output_size[0], output_size[1]]
    """
    output_size = _pair(output_size)
    rois = as_rois(boxes)
    return _ops.roi_align(input, rois, float(spatial_scale), output_size[0], output_size[1], int(sampling_ratio),
                          bool(aligned))


class RoIAlign(nn.Module):
    """See roi_align."""

    def __init__(self, output_size, spatial_scale, sampling_ratio, aligned=False):
        super().__init__()
        self.output_size = output_size
        self.spatial_scale = spatial_scale
        self.sampling_ratio = sampling_ratio
        self.aligned = aligned

    def forward(self, input, rois):
        return roi_align(input, rois, self.output_size, self.spatial_scale, self.sampling_ratio, self.aligned)

    def __repr__(self):
        return (f"{self.__class__.__name__}(output_size={self.output_size}, spatial_scale={self.spatial_scale}, "
                f"sampling_ratio={self.sampling_ratio}, aligned={self.aligned})")
