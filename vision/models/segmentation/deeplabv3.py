"""DeepLabV3 (Chen et al. 2017) with Atrous Spatial Pyramid Pooling, as torchvision 0.9 builds it."""
import core
from core import nn
from core.nn import functional as F
from vision.models.segmentation._utils import _SimpleSegmentationModel

__all__ = ["DeepLabV3"]


class DeepLabV3(_SimpleSegmentationModel):
    """DeepLabV3, from `"Rethinking Atrous Convolution for Semantic Image Segmentation"
    <https://arxiv.org/abs/1706.05587>`_.

    Args:
        backbone (nn.Module): returns an OrderedDict with the feature map "out" (and "aux" when
            aux_classifier is given)
        classifier (nn.Module): maps backbone["out"] to the per-class logits
        aux_classifier (nn.Module, optional): the auxiliary head used in training
    """


class DeepLabHead(nn.Sequential):
    """ASPP -> 3x3 conv + BN + ReLU -> 1x1 conv to the class logits."""

    def __init__(self, in_channels, num_classes, atrous_rates=(12, 24, 36)):
        super().__init__(
            ASPP(in_channels, atrous_rates),
            nn.Conv2d(256, 256, 3, padding=1, bias=False),
            nn.BatchNorm2d(256),
            nn.ReLU(),
            nn.Conv2d(256, num_classes, 1),
        )


class ASPPConv(nn.Sequential):
    """A 3x3 convolution at one atrous rate (padding = dilation keeps the size) + BN + ReLU."""

    def __init__(self, in_channels, out_channels, dilation):
        super().__init__(
            nn.Conv2d(in_channels, out_channels, 3, padding=dilation, dilation=dilation, bias=False),
            nn.BatchNorm2d(out_channels),
            nn.ReLU(),
        )


class ASPPPooling(nn.Sequential):
    """The image-level branch: global average -> 1x1 conv + BN + ReLU -> back to the input size."""

    def __init__(self, in_channels, out_channels):
        super().__init__(
            nn.AdaptiveAvgPool2d(1),
            nn.Conv2d(in_channels, out_channels, 1, bias=False),
            nn.BatchNorm2d(out_channels),
            nn.ReLU(),
        )

    def forward(self, x):
        size = x.shape[-2:]
        for module in self:
            x = module(x)
        return F.interpolate(x, size=size, mode="bilinear", align_corners=False)


class ASPP(nn.Module):
    """Parallel branches on one feature map (a 1x1 conv, one ASPPConv per rate, ASPPPooling),
    concatenated and projected back to `out_channels` (1x1 conv + BN + ReLU + Dropout(0.5))."""

    def __init__(self, in_channels, atrous_rates, out_channels=256):
        super().__init__()
        modules = [nn.Sequential(nn.Conv2d(in_channels, out_channels, 1, bias=False),
                                 nn.BatchNorm2d(out_channels), nn.ReLU())]
        rates = tuple(atrous_rates)
        for rate in rates:
            modules.append(ASPPConv(in_channels, out_channels, rate))
        modules.append(ASPPPooling(in_channels, out_channels))
        self.convs = nn.ModuleList(modules)
        self.project = nn.Sequential(
            nn.Conv2d(len(self.convs) * out_channels, out_channels, 1, bias=False),
            nn.BatchNorm2d(out_channels),
            nn.ReLU(),
            nn.Dropout(0.5),
        )

    def forward(self, x):
        return self.project(core.cat([conv(x) for conv in self.convs], dim=1))
