"""MultiScaleRoIAlign: RoIAlign on the FPN level that matches each box's size (FPN paper, eq. 1)."""
import math

import core
import core.onnx
from core import nn
from vision.ops._utils import convert_boxes_to_roi_format
from vision.ops.boxes import box_area
from vision.ops.roi_align import roi_align

__all__ = ["MultiScaleRoIAlign", "LevelMapper", "initLevelMapper"]


def initLevelMapper(k_min, k_max, canonical_scale=224, canonical_level=4, eps=1e-6):
    return LevelMapper(k_min, k_max, canonical_scale, canonical_level, eps)


class LevelMapper:
    """Maps boxes to pyramid levels: floor(lvl0 + log2(sqrt(area) / s0) + eps), clamped to
    [k_min, k_max], returned as indices from 0 (= k_min)."""

    def __init__(self, k_min, k_max, canonical_scale=224, canonical_level=4, eps=1e-6):
        self.k_min = k_min
        self.k_max = k_max
        self.s0 = canonical_scale
        self.lvl0 = canonical_level
        self.eps = eps

    def __call__(self, boxlists):
        s = core.sqrt(core.cat([box_area(boxlist) for boxlist in boxlists]))
        target_lvls = core.floor(self.lvl0 + core.log2(s / self.s0) + core.tensor(self.eps, dtype=s.dtype))
        target_lvls = core.clamp(target_lvls, min=self.k_min, max=self.k_max)
        return target_lvls.to(core.int64) - self.k_min


def _power_of_two_scale(feature_size, image_size):
    # as torchvision: log2 of the float32 ratio, rounded half to even
    ratio = core.tensor(float(feature_size) / float(image_size), dtype=core.float32)
    return 2 ** float(ratio.log2().round())


class MultiScaleRoIAlign(nn.Module):
    """RoIAlign over the feature maps `featmap_names` of a dict of features, each box pooled
    from the level LevelMapper picks for it. The level scales are inferred on the first call
    (from the feature and image sizes) and cached.

    Args:
        featmap_names (List[str]): the feature maps to pool from.
        output_size (int or Tuple[int, int]): the pooled (height, width).
        sampling_ratio (int): RoIAlign's sampling ratio.
        canonical_scale, canonical_level (int): LevelMapper's s0 and lvl0.
    """

    def __init__(self, featmap_names, output_size, sampling_ratio, *, canonical_scale=224, canonical_level=4):
        super().__init__()
        if isinstance(output_size, int):
            output_size = (output_size, output_size)
        self.featmap_names = featmap_names
        self.sampling_ratio = sampling_ratio
        self.output_size = tuple(output_size)
        self.scales = None
        self.map_levels = None
        self.canonical_scale = canonical_scale
        self.canonical_level = canonical_level

    def convert_to_roi_format(self, boxes):
        return convert_boxes_to_roi_format(boxes)

    def infer_scale(self, feature, original_size):
        possible_scales = [_power_of_two_scale(s1, s2) for s1, s2 in zip(feature.shape[-2:], original_size)]
        assert possible_scales[0] == possible_scales[1]
        return possible_scales[0]

    def setup_scales(self, features, image_shapes):
        assert len(image_shapes) != 0
        original_input_shape = (max(s[0] for s in image_shapes), max(s[1] for s in image_shapes))
        scales = [self.infer_scale(feat, original_input_shape) for feat in features]
        lvl_min = -math.log2(scales[0])
        lvl_max = -math.log2(scales[-1])
        self.scales = scales
        self.map_levels = initLevelMapper(int(lvl_min), int(lvl_max), canonical_scale=self.canonical_scale,
                                          canonical_level=self.canonical_level)

    def forward(self, x, boxes, image_shapes):
        """x: Dict[str, Tensor] of features; boxes: List[Tensor[L, 4]] per image (image
        coordinates); image_shapes: the (h, w) of each image. Returns Tensor[K, C, h, w]."""
        x_filtered = [v for k, v in x.items() if k in self.featmap_names]
        rois = self.convert_to_roi_format(boxes)
        if self.scales is None:
            self.setup_scales(x_filtered, image_shapes)
        scales = self.scales
        if len(x_filtered) == 1:
            return roi_align(x_filtered[0], rois, output_size=self.output_size, spatial_scale=scales[0],
                             sampling_ratio=self.sampling_ratio)

        levels = self.map_levels(boxes)
        if core.onnx.is_in_onnx_export():
            return self._merge_levels_in_graph(x_filtered, rois, levels)
        num_channels = x_filtered[0].shape[1]
        result = core.zeros((len(rois), num_channels) + self.output_size, dtype=x_filtered[0].dtype)
        for level, (per_level_feature, scale) in enumerate(zip(x_filtered, scales)):
            idx_in_level = core.where(levels == level)[0]
            if idx_in_level.numel() == 0:
                continue
            pooled = roi_align(per_level_feature, rois[idx_in_level], output_size=self.output_size,
                               spatial_scale=scale, sampling_ratio=self.sampling_ratio)
            if idx_in_level.numel() == len(rois):  # every box on this level (MobileNetV3's FPN)
                return pooled.to(result.dtype)
            result[idx_in_level] = pooled.to(result.dtype)
        return result

    def _merge_levels_in_graph(self, features, rois, levels):
        """forward's loop over the levels without its branches on the example's boxes: every
        level pools its boxes (maybe none) and scatters them into the result."""
        result = core.zeros((rois.shape[0], features[0].shape[1]) + self.output_size, dtype=features[0].dtype)
        for level, (per_level_feature, scale) in enumerate(zip(features, self.scales)):
            idx_in_level = core.where(levels == level)[0]
            pooled = roi_align(per_level_feature, rois[idx_in_level], output_size=self.output_size,
                               spatial_scale=scale, sampling_ratio=self.sampling_ratio)
            result = result.index_put((idx_in_level,), pooled.to(result.dtype))
        return result

    def __repr__(self):
        return (f"{self.__class__.__name__}(featmap_names={self.featmap_names}, output_size={self.output_size}, "
                f"sampling_ratio={self.sampling_ratio})")
