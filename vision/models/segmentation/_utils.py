"""The backbone + classifier (+ auxiliary classifier) frame shared by FCN and DeepLabV3."""
from collections import OrderedDict

from core import nn
from core.nn import functional as F


class _SimpleSegmentationModel(nn.Module):
    """`backbone` returns an OrderedDict with "out" (and "aux" when `aux_classifier` is given);
    each head's logits are upsampled bilinearly to the input size.

    forward(x) -> OrderedDict(out=(N, num_classes, H, W)[, aux=(N, num_classes, H, W)])
    """

    __constants__ = ["aux_classifier"]

    def __init__(self, backbone, classifier, aux_classifier=None):
        super().__init__()
        self.backbone = backbone
        self.classifier = classifier
        self.aux_classifier = aux_classifier

    def forward(self, x):
        input_shape = x.shape[-2:]
        features = self.backbone(x)
        result = OrderedDict()
        result["out"] = _upsample(self.classifier(features["out"]), input_shape)
        if self.aux_classifier is not None:
            result["aux"] = _upsample(self.aux_classifier(features["aux"]), input_shape)
        return result


def _upsample(x, size):
    return F.interpolate(x, size=size, mode="bilinear", align_corners=False)
