"""Backbones for detection: a classification network's body (with FrozenBatchNorm2d and its
early stages frozen) returning intermediate features, with a Feature Pyramid Network on top."""
import warnings

from core import nn
from vision.models import mobilenetv3, resnet
from vision.models._utils import IntermediateLayerGetter
from vision.ops import misc as misc_nn_ops
from vision.ops.feature_pyramid_network import FeaturePyramidNetwork, LastLevelMaxPool

__all__ = ["BackboneWithFPN", "resnet_fpn_backbone", "mobilenet_backbone", "IntermediateLayerGetter",
           "_validate_trainable_layers"]


class BackboneWithFPN(nn.Module):
    """body (IntermediateLayerGetter of `backbone` with `return_layers`) followed by an FPN of
    `out_channels` (LastLevelMaxPool extra level by default); `.out_channels` is set."""

    def __init__(self, backbone, return_layers, in_channels_list, out_channels, extra_blocks=None):
        super().__init__()
        if extra_blocks is None:
            extra_blocks = LastLevelMaxPool()
        self.body = IntermediateLayerGetter(backbone, return_layers=return_layers)
        self.fpn = FeaturePyramidNetwork(in_channels_list=in_channels_list, out_channels=out_channels,
                                         extra_blocks=extra_blocks)
        self.out_channels = out_channels

    def forward(self, x):
        return self.fpn(self.body(x))


def resnet_fpn_backbone(backbone_name, pretrained, norm_layer=misc_nn_ops.FrozenBatchNorm2d, trainable_layers=3,
                        returned_layers=None, extra_blocks=None):
    """A ResNet with an FPN (256 channels) over layer1..layer4 (or `returned_layers`); the
    last `trainable_layers` of (layer4, layer3, layer2, layer1, conv1) train."""
    backbone = getattr(resnet, backbone_name)(pretrained=pretrained, norm_layer=norm_layer)
    assert 0 <= trainable_layers <= 5
    layers_to_train = ["layer4", "layer3", "layer2", "layer1", "conv1"][:trainable_layers]
    if trainable_layers == 5:
        layers_to_train.append("bn1")
    for name, parameter in backbone.named_parameters():
        if all(not name.startswith(layer) for layer in layers_to_train):
            parameter.requires_grad_(False)
    if extra_blocks is None:
        extra_blocks = LastLevelMaxPool()
    if returned_layers is None:
        returned_layers = [1, 2, 3, 4]
    assert min(returned_layers) > 0 and max(returned_layers) < 5
    return_layers = {f"layer{k}": str(v) for v, k in enumerate(returned_layers)}
    in_channels_stage2 = backbone.inplanes // 8
    in_channels_list = [in_channels_stage2 * 2 ** (i - 1) for i in returned_layers]
    return BackboneWithFPN(backbone, return_layers, in_channels_list, 256, extra_blocks=extra_blocks)


def _validate_trainable_layers(pretrained, trainable_backbone_layers, max_value, default_value):
    """Without pretrained weights every layer trains; else the given count (default default_value)."""
    if not pretrained:
        if trainable_backbone_layers is not None:
            warnings.warn("Changing trainable_backbone_layers has not effect if neither pretrained nor "
                          "pretrained_backbone have been set to True, falling back to trainable_backbone_layers="
                          f"{max_value} so that all layers are trainable", stacklevel=3)
        trainable_backbone_layers = max_value
    if trainable_backbone_layers is None:
        trainable_backbone_layers = default_value
    assert 0 <= trainable_backbone_layers <= max_value
    return trainable_backbone_layers


def mobilenet_backbone(backbone_name, pretrained, fpn, norm_layer=misc_nn_ops.FrozenBatchNorm2d, trainable_layers=2,
                       returned_layers=None, extra_blocks=None):
    """A MobileNetV3's `features`, stages split at the stride-2 blocks ([0, 2, 4, 7, 13, 16] for
    large); all but the last `trainable_layers` stages frozen. With fpn: an FPN (256 channels)
    over the last two stages (both at stride 32 for large) plus "pool"; without: a 1x1 conv to
    256 channels."""
    backbone = getattr(mobilenetv3, backbone_name)(pretrained=pretrained, norm_layer=norm_layer).features
    stage_indices = [0] + [i for i, b in enumerate(backbone) if getattr(b, "_is_cn", False)] + [len(backbone) - 1]
    num_stages = len(stage_indices)
    assert 0 <= trainable_layers <= num_stages
    freeze_before = len(backbone) if trainable_layers == 0 else stage_indices[num_stages - trainable_layers]
    for b in backbone[:freeze_before]:
        for parameter in b.parameters():
            parameter.requires_grad_(False)
    out_channels = 256
    if fpn:
        if extra_blocks is None:
            extra_blocks = LastLevelMaxPool()
        if returned_layers is None:
            returned_layers = [num_stages - 2, num_stages - 1]
        assert min(returned_layers) >= 0 and max(returned_layers) < num_stages
        return_layers = {f"{stage_indices[k]}": str(v) for v, k in enumerate(returned_layers)}
        in_channels_list = [backbone[stage_indices[i]].out_channels for i in returned_layers]
        return BackboneWithFPN(backbone, return_layers, in_channels_list, out_channels, extra_blocks=extra_blocks)
    m = nn.Sequential(backbone, nn.Conv2d(backbone[-1].out_channels, out_channels, 1))
    m.out_channels = out_channels
    return m
