"""Lite R-ASPP (the segmentation head of MobileNetV3, Howard et al. 2019) as torchvision 0.9 builds it."""
from collections import OrderedDict

from core import nn
from core.nn import functional as F

__all__ = ["LRASPP"]


class LRASPP(nn.Module):
    """Lite R-ASPP, from `"Searching for MobileNetV3" <https://arxiv.org/abs/1905.02244>`_.

    Args:
        backbone (nn.Module): returns an OrderedDict with the feature maps "low" (output stride 8)
            and "high" (output stride 16)
        low_channels (int): channels of the low-level features
        high_channels (int): channels of the high-level features
        num_classes (int): output classes (background included)
        inter_channels (int): channels of the intermediate computations

    forward(input) -> OrderedDict(out=(N, num_classes, H, W))
    """

    def __init__(self, backbone, low_channels, high_channels, num_classes, inter_channels=128):
        super().__init__()
        self.backbone = backbone
        self.classifier = LRASPPHead(low_channels, high_channels, num_classes, inter_channels)

    def forward(self, input):
        features = self.backbone(input)
        out = self.classifier(features)
        out = F.interpolate(out, size=input.shape[-2:], mode="bilinear", align_corners=False)
        result = OrderedDict()
        result["out"] = out
        return result


class LRASPPHead(nn.Module):
    """high -> 1x1 conv + BN + ReLU, gated by a sigmoid of its pooled 1x1 projection, upsampled to
    the low-level size; logits = 1x1(low) + 1x1(gated high)."""

    def __init__(self, low_channels, high_channels, num_classes, inter_channels):
        super().__init__()
        self.cbr = nn.Sequential(
            nn.Conv2d(high_channels, inter_channels, 1, bias=False),
            nn.BatchNorm2d(inter_channels),
            nn.ReLU(inplace=True),
        )
        self.scale = nn.Sequential(
            nn.AdaptiveAvgPool2d(1),
            nn.Conv2d(high_channels, inter_channels, 1, bias=False),
            nn.Sigmoid(),
        )
        self.low_classifier = nn.Conv2d(low_channels, num_classes, 1)
        self.high_classifier = nn.Conv2d(inter_channels, num_classes, 1)

    def forward(self, input):
        low = input["low"]
        high = input["high"]
        x = self.cbr(high) * self.scale(high)
        x = F.interpolate(x, size=low.shape[-2:], mode="bilinear", align_corners=False)
        return self.low_classifier(low) + self.high_classifier(x)
