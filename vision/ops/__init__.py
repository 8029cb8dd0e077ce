"""Operators for detection (torchvision 0.9's torchvision.ops): box utilities, NMS, RoI
pooling/align (C++ kernels in vision._C with backward), the FPN, deformable convolution."""
from vision.ops.boxes import (  # noqa: F401
                              batched_nms,
                              box_area,
                              box_convert,
                              box_iou,
                              clip_boxes_to_image,
                              generalized_box_iou,
                              nms,
                              remove_small_boxes,
)
from vision.ops.deform_conv import DeformConv2d, deform_conv2d  # noqa: F401
from vision.ops.feature_pyramid_network import FeaturePyramidNetwork  # noqa: F401
from vision.ops.focal_loss import sigmoid_focal_loss  # noqa: F401
from vision.ops.poolers import MultiScaleRoIAlign  # noqa: F401
from vision.ops.ps_roi_align import PSRoIAlign, ps_roi_align  # noqa: F401
from vision.ops.ps_roi_pool import PSRoIPool, ps_roi_pool  # noqa: F401
from vision.ops.roi_align import RoIAlign, roi_align  # noqa: F401
from vision.ops.roi_pool import RoIPool, roi_pool  # noqa: F401

__all__ = [
    "deform_conv2d", "DeformConv2d", "nms", "batched_nms", "remove_small_boxes", "clip_boxes_to_image",
    "box_convert", "box_area", "box_iou", "generalized_box_iou", "roi_align", "RoIAlign", "roi_pool", "RoIPool",
    "ps_roi_align", "PSRoIAlign", "ps_roi_pool", "PSRoIPool", "MultiScaleRoIAlign", "FeaturePyramidNetwork",
    "sigmoid_focal_loss",
]
