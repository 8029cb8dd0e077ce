"""GeneralizedRCNN: transform -> backbone -> RPN -> RoI heads -> postprocess."""
from collections import OrderedDict

import core
from core import nn

__all__ = ["GeneralizedRCNN"]


class GeneralizedRCNN(nn.Module):
    """forward(images: List[Tensor[C, H, W]] in [0, 1], targets: List[{boxes [N, 4] xyxy,
    labels [N] int64}] in training) -> the losses dict in training, else per image
    {boxes, labels, scores} in the original image coordinates."""

    def __init__(self, backbone, rpn, roi_heads, transform):
        super().__init__()
        self.transform = transform
        self.backbone = backbone
        self.rpn = rpn
        self.roi_heads = roi_heads

    def eager_outputs(self, losses, detections):
        return losses if self.training else detections

    def forward(self, images, targets=None):
        if self.training and targets is None:
            raise ValueError("In training mode, targets should be passed")
        if self.training:
            for target in targets:
                boxes = target["boxes"]
                if not isinstance(boxes, core.Tensor):
                    raise ValueError(f"Expected target boxes to be of type Tensor, got {type(boxes)}.")
                if len(boxes.shape) != 2 or boxes.shape[-1] != 4:
                    raise ValueError(f"Expected target boxes to be a tensor of shape [N, 4], got {boxes.shape}.")
        original_image_sizes = [tuple(img.shape[-2:]) for img in images]
        images, targets = self.transform(images, targets)
        if targets is not None:  # degenerate boxes, checked after resizing
            for target_idx, target in enumerate(targets):
                boxes = target["boxes"]
                degenerate_boxes = boxes[:, 2:] <= boxes[:, :2]
                if degenerate_boxes.any():
                    bb_idx = core.where(degenerate_boxes.any(dim=1))[0][0]
                    degen_bb = boxes[bb_idx].tolist()
                    raise ValueError("All bounding boxes should have positive height and width. "
                                     f"Found invalid box {degen_bb} for target at index {target_idx}.")
        features = self.backbone(images.tensors)
        if isinstance(features, core.Tensor):
            features = OrderedDict([("0", features)])
        proposals, proposal_losses = self.rpn(images, features, targets)
        detections, detector_losses = self.roi_heads(features, proposals, images.image_sizes, targets)
        detections = self.transform.postprocess(detections, images.image_sizes, original_image_sizes)
        losses = {}
        losses.update(detector_losses)
        losses.update(proposal_losses)
        return self.eager_outputs(losses, detections)
