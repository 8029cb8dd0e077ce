"""MobileNetV2 (Sandler et al. 2018), module names and init as torchvision 0.9's mobilenetv2.py."""
import core
from core import nn
from vision.models._api import classification_weights, handle_weights, weights_enum
from vision.models._utils import _make_divisible, load_pretrained

__all__ = ["MobileNetV2", "MobileNet_V2_Weights", "mobilenet_v2"]

model_urls = {
    "mobilenet_v2": "https://download.pytorch.org/models/mobilenet_v2-b0353104.pth",
}

MobileNet_V2_Weights = weights_enum("MobileNet_V2_Weights", {
    "IMAGENET1K_V1": classification_weights(model_urls["mobilenet_v2"], 3504872, 71.878, 90.286,
                                            "https://github.com/pytorch/vision/tree/main/references/classification#mobilenetv2")}, "IMAGENET1K_V1")


class ConvBNActivation(nn.Sequential):
    """Conv2d (no bias, 'same' padding) -> norm -> activation(inplace=True); keeps .out_channels."""

    def __init__(self, in_planes, out_planes, kernel_size=3, stride=1, groups=1, norm_layer=None,
                 activation_layer=None, dilation=1):
        padding = (kernel_size - 1) // 2 * dilation
        if norm_layer is None:
            norm_layer = nn.BatchNorm2d
        if activation_layer is None:
            activation_layer = nn.ReLU6
        super().__init__(
            nn.Conv2d(in_planes, out_planes, kernel_size, stride, padding, dilation=dilation, groups=groups,
                      bias=False),
            norm_layer(out_planes),
            activation_layer(inplace=True),
        )
        self.out_channels = out_planes


# the name before activations became configurable
ConvBNReLU = ConvBNActivation


class InvertedResidual(nn.Module):
    """1x1 expansion (skipped at ratio 1) -> depthwise 3x3 -> linear 1x1 projection, with a
    residual connection when the shape is kept."""

    def __init__(self, inp, oup, stride, expand_ratio, norm_layer=None):
        super().__init__()
        self.stride = stride
        if stride not in [1, 2]:
            raise ValueError(f"stride should be 1 or 2 instead of {stride}")
        if norm_layer is None:
            norm_layer = nn.BatchNorm2d
        hidden_dim = int(round(inp * expand_ratio))
        self.use_res_connect = self.stride == 1 and inp == oup
        layers = []
        if expand_ratio != 1:
            layers.append(ConvBNReLU(inp, hidden_dim, kernel_size=1, norm_layer=norm_layer))
        layers.extend([
            ConvBNReLU(hidden_dim, hidden_dim, stride=stride, groups=hidden_dim, norm_layer=norm_layer),
            nn.Conv2d(hidden_dim, oup, 1, 1, 0, bias=False),
            norm_layer(oup),
        ])
        self.conv = nn.Sequential(*layers)
        self.out_channels = oup
        self._is_cn = stride > 1

    def forward(self, x):
        if self.use_res_connect:
            return x + self.conv(x)
        return self.conv(x)


class MobileNetV2(nn.Module):
    def __init__(self, num_classes=1000, width_mult=1.0, inverted_residual_setting=None, round_nearest=8,
                 block=None, norm_layer=None):
        """MobileNet V2.

        Args:
            num_classes (int): number of classes
            width_mult (float): multiplies the number of channels of every layer
            inverted_residual_setting: rows [t (expansion), c (channels), n (repeats), s (stride)]
            round_nearest (int): round channel counts to a multiple of this (1: no rounding)
            block: the inverted residual block class
            norm_layer: the normalization layer class
        """
        super().__init__()
        if block is None:
            block = InvertedResidual
        if norm_layer is None:
            norm_layer = nn.BatchNorm2d
        input_channel = 32
        last_channel = 1280
        if inverted_residual_setting is None:
            inverted_residual_setting = [
                # t, c, n, s
                [1, 16, 1, 1],
                [6, 24, 2, 2],
                [6, 32, 3, 2],
                [6, 64, 4, 2],
                [6, 96, 3, 1],
                [6, 160, 3, 2],
                [6, 320, 1, 1],
            ]
        # only the first row is checked, as torchvision does
        if len(inverted_residual_setting) == 0 or len(inverted_residual_setting[0]) != 4:
            raise ValueError("inverted_residual_setting should be non-empty "
                             "or a 4-element list, got {}".format(inverted_residual_setting))

        input_channel = _make_divisible(input_channel * width_mult, round_nearest)
        self.last_channel = _make_divisible(last_channel * max(1.0, width_mult), round_nearest)
        features = [ConvBNReLU(3, input_channel, stride=2, norm_layer=norm_layer)]
        for t, c, n, s in inverted_residual_setting:
            output_channel = _make_divisible(c * width_mult, round_nearest)
            for i in range(n):
                stride = s if i == 0 else 1
                features.append(block(input_channel, output_channel, stride, expand_ratio=t, norm_layer=norm_layer))
                input_channel = output_channel
        features.append(ConvBNReLU(input_channel, self.last_channel, kernel_size=1, norm_layer=norm_layer))
        self.features = nn.Sequential(*features)
        self.classifier = nn.Sequential(
            nn.Dropout(0.2),
            nn.Linear(self.last_channel, num_classes),
        )
        _init_weights(self)

    def _forward_impl(self, x):
        x = self.features(x)
        # adaptive pooling + flatten rather than squeeze: the batch may have size 1
        x = nn.functional.adaptive_avg_pool2d(x, (1, 1))
        x = core.flatten(x, 1)
        return self.classifier(x)

    def forward(self, x):
        return self._forward_impl(x)


def _init_weights(model):
    """The MobileNets' init: He-normal (fan_out) convs, unit norms, N(0, 0.01) linears, zero biases."""
    for m in model.modules():
        if isinstance(m, nn.Conv2d):
            nn.init.kaiming_normal_(m.weight, mode="fan_out")
            if m.bias is not None:
                nn.init.zeros_(m.bias)
        elif isinstance(m, (nn.BatchNorm2d, nn.GroupNorm)):
            nn.init.ones_(m.weight)
            nn.init.zeros_(m.bias)
        elif isinstance(m, nn.Linear):
            nn.init.normal_(m.weight, 0, 0.01)
            nn.init.zeros_(m.bias)


@handle_weights(MobileNet_V2_Weights)
def mobilenet_v2(pretrained=False, progress=True, **kwargs):
    """MobileNetV2, following
    `"MobileNetV2: Inverted Residuals and Linear Bottlenecks" <https://arxiv.org/abs/1801.04381>`_.

    `pretrained` loads the ImageNet weights through the hub (cached, hash-checked);
    `progress` draws a download bar on stderr; other keyword arguments reach the model class.
    """
    if kwargs.pop("quantize", False):  # hub.load("mobilenet_v2", quantize=True): the int8 model
        from vision.models.quantization import mobilenetv2 as quantized

        return quantized.mobilenet_v2(pretrained=pretrained, progress=progress, quantize=True, **kwargs)
    model = MobileNetV2(**kwargs)
    if pretrained:
        load_pretrained(model, "mobilenet_v2", model_urls, progress)
    return model
