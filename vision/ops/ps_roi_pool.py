"""Position-sensitive RoIPool (R-FCN): average pooling of each bin's own channel group."""
from core import nn
from vision.ops import _ops
from vision.ops._utils import _pair, as_rois

__all__ = ["ps_roi_pool", "PSRoIPool"]


def ps_roi_pool(input, boxes, output_size, spatial_scale=1.0):
    """Performs Position-Sensitive Region of Interest (RoI) Pool, as in R-FCN.

    Args:
        input (Tensor[N, C, H, W]): C must be a multiple of output_size[0] * output_size[1].
        boxes (Tensor[K, 5] or List[Tensor[L, 4]]): boxes (x1, y1, x2, y2); see roi_align.
        output_size (int or Tuple[int, int]): the (height, width) of each output.
        spatial_scale (float): maps box coordinates to the input's.

    Returns:
        Tensor[K, C / (output_size[0] * output_size[1]), output_size[0], output_size[1]]
    """
    output_size = _pair(output_size)
    rois = as_rois(boxes)
    return _ops.ps_roi_pool(input, rois, float(spatial_scale), output_size[0], output_size[1])


class PSRoIPool(nn.Module):
    """See ps_roi_pool."""

    def __init__(self, output_size, spatial_scale):
        super().__init__()
        self.output_size = output_size
        self.spatial_scale = spatial_scale

    def forward(self, input, rois):
        return ps_roi_pool(input, rois, self.output_size, self.spatial_scale)

    def __repr__(self):
        return f"{self.__class__.__name__}(output_size={self.output_size}, spatial_scale={self.spatial_scale})"
