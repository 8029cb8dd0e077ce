"""Fully Convolutional Networks (Long et al. 2015) as torchvision 0.9 builds them."""
from core import nn
from vision.models.segmentation._utils import _SimpleSegmentationModel

__all__ = ["FCN"]


class FCN(_SimpleSegmentationModel):
    """FCN, from `"Fully Convolutional Networks for Semantic Segmentation"
    <https://arxiv.org/abs/1411.4038>`_.

    Args:
        backbone (nn.Module): returns an OrderedDict with the feature map "out" (and "aux" when
            aux_classifier is given)
        classifier (nn.Module): maps backbone["out"] to the per-class logits
        aux_classifier (nn.Module, optional): the auxiliary head used in training
    """


class FCNHead(nn.Sequential):
    """3x3 conv (in -> in/4) + BN + ReLU + Dropout(0.1) + 1x1 conv to `channels`; also the
    auxiliary head of every torchvision segmentation model but LR-ASPP."""

    def __init__(self, in_channels, channels):
        inter_channels = in_channels // 4
        super().__init__(
            nn.Conv2d(in_channels, inter_channels, 3, padding=1, bias=False),
            nn.BatchNorm2d(inter_channels),
            nn.ReLU(),
            nn.Dropout(0.1),
            nn.Conv2d(inter_channels, channels, 1),
        )
