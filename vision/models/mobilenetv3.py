"""MobileNetV3 (Howard et al. 2019), module names and init as torchvision 0.9's mobilenetv3.py."""
from collections.abc import Sequence
from functools import partial

import core
from core import nn
from core.nn import functional as F
from vision.models._api import classification_weights, handle_weights, weights_enum
from vision.models._utils import _make_divisible, load_pretrained
from vision.models.mobilenetv2 import ConvBNActivation, _init_weights

__all__ = ["MobileNetV3", "MobileNet_V3_Large_Weights", "MobileNet_V3_Small_Weights", "mobilenet_v3_large",
           "mobilenet_v3_small"]

model_urls = {
    "mobilenet_v3_large": "https://download.pytorch.org/models/mobilenet_v3_large-8738ca79.pth",
    "mobilenet_v3_small": "https://download.pytorch.org/models/mobilenet_v3_small-047dcff4.pth",
}

MobileNet_V3_Large_Weights = weights_enum("MobileNet_V3_Large_Weights", {
    "IMAGENET1K_V1": classification_weights(model_urls["mobilenet_v3_large"], 5483032, 74.042, 91.340,
                                            "https://github.com/pytorch/vision/tree/main/references/classification#mobilenetv3-large--small")}, "IMAGENET1K_V1")
MobileNet_V3_Small_Weights = weights_enum("MobileNet_V3_Small_Weights", {
    "IMAGENET1K_V1": classification_weights(model_urls["mobilenet_v3_small"], 2542856, 67.668, 87.402,
                                            "https://github.com/pytorch/vision/tree/main/references/classification#mobilenetv3-large--small")}, "IMAGENET1K_V1")


class SqueezeExcitation(nn.Module):
    """Channel attention: pooled input -> 1x1 squeeze (ReLU) -> 1x1 excite -> hardsigmoid -> scale."""

    def __init__(self, input_channels, squeeze_factor=4):
        super().__init__()
        squeeze_channels = _make_divisible(input_channels // squeeze_factor, 8)
        self.fc1 = nn.Conv2d(input_channels, squeeze_channels, 1)
        self.relu = nn.ReLU(inplace=True)
        self.fc2 = nn.Conv2d(squeeze_channels, input_channels, 1)

    def _scale(self, input, inplace):
        # a separate method so that the quantized variant can reuse it
        scale = F.adaptive_avg_pool2d(input, 1)
        scale = self.fc1(scale)
        scale = self.relu(scale)
        scale = self.fc2(scale)
        return F.hardsigmoid(scale, inplace=inplace)

    def forward(self, input):
        scale = self._scale(input, True)
        return scale * input


class InvertedResidualConfig:
    """One bottleneck row of the architecture table; channels scaled by width_mult."""

    def __init__(self, input_channels, kernel, expanded_channels, out_channels, use_se, activation, stride,
                 dilation, width_mult):
        self.input_channels = self.adjust_channels(input_channels, width_mult)
        self.kernel = kernel
        self.expanded_channels = self.adjust_channels(expanded_channels, width_mult)
        self.out_channels = self.adjust_channels(out_channels, width_mult)
        self.use_se = use_se
        self.use_hs = activation == "HS"
        self.stride = stride
        self.dilation = dilation

    @staticmethod
    def adjust_channels(channels, width_mult):
        return _make_divisible(channels * width_mult, 8)


class InvertedResidual(nn.Module):
    def __init__(self, cnf, norm_layer, se_layer=SqueezeExcitation):
        super().__init__()
        if not (1 <= cnf.stride <= 2):
            raise ValueError("illegal stride value")
        self.use_res_connect = cnf.stride == 1 and cnf.input_channels == cnf.out_channels
        layers = []
        activation_layer = nn.Hardswish if cnf.use_hs else nn.ReLU
        if cnf.expanded_channels != cnf.input_channels:  # expand
            layers.append(ConvBNActivation(cnf.input_channels, cnf.expanded_channels, kernel_size=1,
                                           norm_layer=norm_layer, activation_layer=activation_layer))
        stride = 1 if cnf.dilation > 1 else cnf.stride  # dilation replaces the stride
        layers.append(ConvBNActivation(cnf.expanded_channels, cnf.expanded_channels, kernel_size=cnf.kernel,
                                       stride=stride, dilation=cnf.dilation, groups=cnf.expanded_channels,
                                       norm_layer=norm_layer, activation_layer=activation_layer))
        if cnf.use_se:
            layers.append(se_layer(cnf.expanded_channels))
        layers.append(ConvBNActivation(cnf.expanded_channels, cnf.out_channels, kernel_size=1,
                                       norm_layer=norm_layer, activation_layer=nn.Identity))
        self.block = nn.Sequential(*layers)
        self.out_channels = cnf.out_channels
        self._is_cn = cnf.stride > 1  # marks stage boundaries (also under dilation)

    def forward(self, input):
        result = self.block(input)
        if self.use_res_connect:
            result += input
        return result


class MobileNetV3(nn.Module):
    def __init__(self, inverted_residual_setting, last_channel, num_classes=1000, block=None, norm_layer=None):
        """MobileNet V3 main class.

        Args:
            inverted_residual_setting (List[InvertedResidualConfig]): the network structure
            last_channel (int): the number of channels of the penultimate layer
            num_classes (int): number of classes
            block: the inverted residual block class
            norm_layer: the normalization layer class (default BatchNorm2d(eps=0.001, momentum=0.01))
        """
        super().__init__()
        if not inverted_residual_setting:
            raise ValueError("The inverted_residual_setting should not be empty")
        if not (isinstance(inverted_residual_setting, Sequence)
                and all(isinstance(s, InvertedResidualConfig) for s in inverted_residual_setting)):
            raise TypeError("The inverted_residual_setting should be List[InvertedResidualConfig]")
        if block is None:
            block = InvertedResidual
        if norm_layer is None:
            norm_layer = partial(nn.BatchNorm2d, eps=0.001, momentum=0.01)

        firstconv_output_channels = inverted_residual_setting[0].input_channels
        layers = [ConvBNActivation(3, firstconv_output_channels, kernel_size=3, stride=2, norm_layer=norm_layer,
                                   activation_layer=nn.Hardswish)]
        for cnf in inverted_residual_setting:
            layers.append(block(cnf, norm_layer))
        lastconv_input_channels = inverted_residual_setting[-1].out_channels
        lastconv_output_channels = 6 * lastconv_input_channels
        layers.append(ConvBNActivation(lastconv_input_channels, lastconv_output_channels, kernel_size=1,
                                       norm_layer=norm_layer, activation_layer=nn.Hardswish))
        self.features = nn.Sequential(*layers)
        self.avgpool = nn.AdaptiveAvgPool2d(1)
        self.classifier = nn.Sequential(
            nn.Linear(lastconv_output_channels, last_channel),
            nn.Hardswish(inplace=True),
            nn.Dropout(p=0.2, inplace=True),
            nn.Linear(last_channel, num_classes),
        )
        _init_weights(self)

    def _forward_impl(self, x):
        x = self.features(x)
        x = self.avgpool(x)
        x = core.flatten(x, 1)
        return self.classifier(x)

    def forward(self, x):
        return self._forward_impl(x)


def _mobilenet_v3_conf(arch, params):
    """The block table of `arch`; pops the private keys _reduced_tail, _dilated, _width_mult."""
    reduce_divider = 2 if params.pop("_reduced_tail", False) else 1
    dilation = 2 if params.pop("_dilated", False) else 1
    width_mult = params.pop("_width_mult", 1.0)

    bneck_conf = partial(InvertedResidualConfig, width_mult=width_mult)
    adjust_channels = partial(InvertedResidualConfig.adjust_channels, width_mult=width_mult)
    r = reduce_divider
    if arch == "mobilenet_v3_large":
        inverted_residual_setting = [
            # in, kernel, expanded, out, SE, activation, stride, dilation
            bneck_conf(16, 3, 16, 16, False, "RE", 1, 1),
            bneck_conf(16, 3, 64, 24, False, "RE", 2, 1),  # C1
            bneck_conf(24, 3, 72, 24, False, "RE", 1, 1),
            bneck_conf(24, 5, 72, 40, True, "RE", 2, 1),  # C2
            bneck_conf(40, 5, 120, 40, True, "RE", 1, 1),
            bneck_conf(40, 5, 120, 40, True, "RE", 1, 1),
            bneck_conf(40, 3, 240, 80, False, "HS", 2, 1),  # C3
            bneck_conf(80, 3, 200, 80, False, "HS", 1, 1),
            bneck_conf(80, 3, 184, 80, False, "HS", 1, 1),
            bneck_conf(80, 3, 184, 80, False, "HS", 1, 1),
            bneck_conf(80, 3, 480, 112, True, "HS", 1, 1),
            bneck_conf(112, 3, 672, 112, True, "HS", 1, 1),
            bneck_conf(112, 5, 672, 160 // r, True, "HS", 2, dilation),  # C4
            bneck_conf(160 // r, 5, 960 // r, 160 // r, True, "HS", 1, dilation),
            bneck_conf(160 // r, 5, 960 // r, 160 // r, True, "HS", 1, dilation),
        ]
        last_channel = adjust_channels(1280 // r)  # C5
    elif arch == "mobilenet_v3_small":
        inverted_residual_setting = [
            bneck_conf(16, 3, 16, 16, True, "RE", 2, 1),  # C1
            bneck_conf(16, 3, 72, 24, False, "RE", 2, 1),  # C2
            bneck_conf(24, 3, 88, 24, False, "RE", 1, 1),
            bneck_conf(24, 5, 96, 40, True, "HS", 2, 1),  # C3
            bneck_conf(40, 5, 240, 40, True, "HS", 1, 1),
            bneck_conf(40, 5, 240, 40, True, "HS", 1, 1),
            bneck_conf(40, 5, 120, 48, True, "HS", 1, 1),
            bneck_conf(48, 5, 144, 48, True, "HS", 1, 1),
            bneck_conf(48, 5, 288, 96 // r, True, "HS", 2, dilation),  # C4
            bneck_conf(96 // r, 5, 576 // r, 96 // r, True, "HS", 1, dilation),
            bneck_conf(96 // r, 5, 576 // r, 96 // r, True, "HS", 1, dilation),
        ]
        last_channel = adjust_channels(1024 // r)  # C5
    else:
        raise ValueError("Unsupported model type {}".format(arch))
    return inverted_residual_setting, last_channel


def _mobilenet_v3_model(arch, inverted_residual_setting, last_channel, pretrained, progress, **kwargs):
    model = MobileNetV3(inverted_residual_setting, last_channel, **kwargs)
    if pretrained:
        load_pretrained(model, arch, model_urls, progress)
    return model


@handle_weights(MobileNet_V3_Large_Weights)
def mobilenet_v3_large(pretrained=False, progress=True, **kwargs):
    """MobileNetV3-Large, following
    `"Searching for MobileNetV3" <https://arxiv.org/abs/1905.02244>`_.

    `pretrained` loads the ImageNet weights through the hub (cached, hash-checked);
    `progress` draws a download bar on stderr; other keyword arguments reach the model class.
    """
    if kwargs.pop("quantize", False):  # hub.load("mobilenet_v3_large", quantize=True): the int8 model
        from vision.models.quantization import mobilenetv3 as quantized

        return quantized.mobilenet_v3_large(pretrained=pretrained, progress=progress, quantize=True, **kwargs)
    arch = "mobilenet_v3_large"
    inverted_residual_setting, last_channel = _mobilenet_v3_conf(arch, kwargs)
    return _mobilenet_v3_model(arch, inverted_residual_setting, last_channel, pretrained, progress, **kwargs)


@handle_weights(MobileNet_V3_Small_Weights)
def mobilenet_v3_small(pretrained=False, progress=True, **kwargs):
    """MobileNetV3-Small, following
    `"Searching for MobileNetV3" <https://arxiv.org/abs/1905.02244>`_.

    `pretrained` loads the ImageNet weights through the hub (cached, hash-checked);
    `progress` draws a download bar on stderr; other keyword arguments reach the model class.
    """
    arch = "mobilenet_v3_small"
    inverted_residual_setting, last_channel = _mobilenet_v3_conf(arch, kwargs)
    return _mobilenet_v3_model(arch, inverted_residual_setting, last_channel, pretrained, progress, **kwargs)
