"""ResNet (He et al. 2016), ResNeXt and Wide ResNet, module names and init as torchvision 0.9's resnet.py."""
import core
from core import nn
from core.nn.modules import _folding
from vision.models._api import handle_weights, imagenet1k_v1_enum
from vision.models._utils import load_pretrained

__all__ = ["ResNet", "ResNet18_Weights", "ResNet34_Weights", "ResNet50_Weights", "ResNet101_Weights",
           "ResNet152_Weights", "ResNeXt50_32X4D_Weights", "ResNeXt101_32X8D_Weights", "Wide_ResNet50_2_Weights",
           "Wide_ResNet101_2_Weights", "resnet18", "resnet34", "resnet50", "resnet101", "resnet152", "resnext50_32x4d",
           "resnext101_32x8d", "wide_resnet50_2", "wide_resnet101_2"]

_BASE = "https://download.pytorch.org/models/"
model_urls = {
    "resnet18": _BASE + "resnet18-f37072fd.pth",
    "resnet34": _BASE + "resnet34-b627a593.pth",
    "resnet50": _BASE + "resnet50-0676ba61.pth",
    "resnet101": _BASE + "resnet101-63fe2227.pth",
    "resnet152": _BASE + "resnet152-394f9c45.pth",
    "resnext50_32x4d": _BASE + "resnext50_32x4d-7cdf4587.pth",
    "resnext101_32x8d": _BASE + "resnext101_32x8d-8ba56ff5.pth",
    "wide_resnet50_2": _BASE + "wide_resnet50_2-95faca4d.pth",
    "wide_resnet101_2": _BASE + "wide_resnet101_2-32ee1156.pth",
}

# torchvision's IMAGENET1K_V1 facts of each checkpoint: (weights enum, num_params, acc@1, acc@5).
_WEIGHTS_META = {
    "resnet18": ("ResNet18_Weights", 11689512, 69.758, 89.078),
    "resnet34": ("ResNet34_Weights", 21797672, 73.314, 91.420),
    "resnet50": ("ResNet50_Weights", 25557032, 76.130, 92.862),
    "resnet101": ("ResNet101_Weights", 44549160, 77.374, 93.546),
    "resnet152": ("ResNet152_Weights", 60192808, 78.312, 94.046),
    "resnext50_32x4d": ("ResNeXt50_32X4D_Weights", 25028904, 77.618, 93.698),
    "resnext101_32x8d": ("ResNeXt101_32X8D_Weights", 88791336, 79.312, 94.526),
    "wide_resnet50_2": ("Wide_ResNet50_2_Weights", 68883240, 78.468, 94.086),
    "wide_resnet101_2": ("Wide_ResNet101_2_Weights", 126886696, 78.848, 94.284),
}


def _weights_enum(arch):
    name, num_params, acc1, acc5 = _WEIGHTS_META[arch]
    recipe = "https://github.com/pytorch/vision/tree/main/references/classification#resnet"
    return imagenet1k_v1_enum(name, model_urls[arch], num_params, acc1, acc5, recipe)


(ResNet18_Weights, ResNet34_Weights, ResNet50_Weights, ResNet101_Weights, ResNet152_Weights, ResNeXt50_32X4D_Weights,
 ResNeXt101_32X8D_Weights, Wide_ResNet50_2_Weights, Wide_ResNet101_2_Weights) = map(_weights_enum, _WEIGHTS_META)


def conv3x3(in_planes, out_planes, stride=1, groups=1, dilation=1):
    """3x3 convolution with padding"""
    return nn.Conv2d(in_planes, out_planes, kernel_size=3, stride=stride, padding=dilation, groups=groups,
                     bias=False, dilation=dilation)


def conv1x1(in_planes, out_planes, stride=1):
    """1x1 convolution"""
    return nn.Conv2d(in_planes, out_planes, kernel_size=1, stride=stride, bias=False)


def _runs_fused(block, x, pairs):
    """Whether this call may run the block as fused convolutions (core/nn/modules/_folding.py):
    inference on a real tensor, a plain ReLU, each conv-BatchNorm pair fusable, and no
    downsample or a plain Sequential of one more such pair. Nothing can then tell the
    difference, and the BatchNorm, ReLU and residual passes over the activations go."""
    downsample = block.downsample
    return (_folding.applicable(block, x) and _folding.plain_relu(block.relu)
            and all(_folding.conv_bn_fusable(conv, bn) for conv, bn in pairs)
            and (downsample is None or (type(downsample) is nn.Sequential and len(downsample) == 2
                                        and not downsample._has_hooks()
                                        and _folding.conv_bn_fusable(downsample[0], downsample[1]))))


def _fused_identity(block, x):
    return x if block.downsample is None else _folding.fused_conv_bn(block.downsample[0], block.downsample[1], x)


class BasicBlock(nn.Module):
    expansion = 1

    def __init__(self, inplanes, planes, stride=1, downsample=None, groups=1, base_width=64, dilation=1,
                 norm_layer=None):
        super().__init__()
        if norm_layer is None:
            norm_layer = nn.BatchNorm2d
        if groups != 1 or base_width != 64:
            raise ValueError("BasicBlock only supports groups=1 and base_width=64")
        if dilation > 1:
            raise NotImplementedError("Dilation > 1 not supported in BasicBlock")
        # conv1 and downsample both reduce the resolution when stride != 1
        self.conv1 = conv3x3(inplanes, planes, stride)
        self.bn1 = norm_layer(planes)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = conv3x3(planes, planes)
        self.bn2 = norm_layer(planes)
        self.downsample = downsample
        self.stride = stride

    def forward(self, x):
        if _runs_fused(self, x, ((self.conv1, self.bn1), (self.conv2, self.bn2))):
            out = _folding.fused_conv_bn(self.conv1, self.bn1, x, "relu")
            return _folding.fused_conv_bn(self.conv2, self.bn2, out, "relu", _fused_identity(self, x))
        identity = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        if self.downsample is not None:
            identity = self.downsample(x)
        out += identity
        return self.relu(out)


class Bottleneck(nn.Module):
    # ResNet V1.5: the stride sits in the 3x3 convolution (conv2), not in the first 1x1
    expansion = 4

    def __init__(self, inplanes, planes, stride=1, downsample=None, groups=1, base_width=64, dilation=1,
                 norm_layer=None):
        super().__init__()
        if norm_layer is None:
            norm_layer = nn.BatchNorm2d
        width = int(planes * (base_width / 64.)) * groups
        self.conv1 = conv1x1(inplanes, width)
        self.bn1 = norm_layer(width)
        self.conv2 = conv3x3(width, width, stride, groups, dilation)
        self.bn2 = norm_layer(width)
        self.conv3 = conv1x1(width, planes * self.expansion)
        self.bn3 = norm_layer(planes * self.expansion)
        self.relu = nn.ReLU(inplace=True)
        self.downsample = downsample
        self.stride = stride

    def forward(self, x):
        if _runs_fused(self, x, ((self.conv1, self.bn1), (self.conv2, self.bn2), (self.conv3, self.bn3))):
            out = _folding.fused_conv_bn(self.conv1, self.bn1, x, "relu")
            out = _folding.fused_conv_bn(self.conv2, self.bn2, out, "relu")
            return _folding.fused_conv_bn(self.conv3, self.bn3, out, "relu", _fused_identity(self, x))
        identity = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.relu(self.bn2(self.conv2(out)))
        out = self.bn3(self.conv3(out))
        if self.downsample is not None:
            identity = self.downsample(x)
        out += identity
        return self.relu(out)


class ResNet(nn.Module):
    def __init__(self, block, layers, num_classes=1000, zero_init_residual=False, groups=1, width_per_group=64,
                 replace_stride_with_dilation=None, norm_layer=None):
        super().__init__()
        if norm_layer is None:
            norm_layer = nn.BatchNorm2d
        self._norm_layer = norm_layer
        self.inplanes = 64
        self.dilation = 1
        if replace_stride_with_dilation is None:
            # one flag per stage 2-4: replace its stride 2 by a dilated convolution
            replace_stride_with_dilation = [False, False, False]
        if len(replace_stride_with_dilation) != 3:
            raise ValueError("replace_stride_with_dilation should be None "
                             "or a 3-element tuple, got {}".format(replace_stride_with_dilation))
        self.groups = groups
        self.base_width = width_per_group
        self.conv1 = nn.Conv2d(3, self.inplanes, kernel_size=7, stride=2, padding=3, bias=False)
        self.bn1 = norm_layer(self.inplanes)
        self.relu = nn.ReLU(inplace=True)
        self.maxpool = nn.MaxPool2d(kernel_size=3, stride=2, padding=1)
        self.layer1 = self._make_layer(block, 64, layers[0])
        self.layer2 = self._make_layer(block, 128, layers[1], stride=2, dilate=replace_stride_with_dilation[0])
        self.layer3 = self._make_layer(block, 256, layers[2], stride=2, dilate=replace_stride_with_dilation[1])
        self.layer4 = self._make_layer(block, 512, layers[3], stride=2, dilate=replace_stride_with_dilation[2])
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(512 * block.expansion, num_classes)

        for m in self.modules():
            if isinstance(m, nn.Conv2d):
                nn.init.kaiming_normal_(m.weight, mode="fan_out", nonlinearity="relu")
            elif isinstance(m, (nn.BatchNorm2d, nn.GroupNorm)):
                nn.init.constant_(m.weight, 1)
                nn.init.constant_(m.bias, 0)
        # zero the last BN of each residual branch so every block starts as the identity
        # (+0.2~0.3% according to https://arxiv.org/abs/1706.02677)
        if zero_init_residual:
            for m in self.modules():
                if isinstance(m, Bottleneck):
                    nn.init.constant_(m.bn3.weight, 0)
                elif isinstance(m, BasicBlock):
                    nn.init.constant_(m.bn2.weight, 0)

    def _make_layer(self, block, planes, blocks, stride=1, dilate=False):
        norm_layer = self._norm_layer
        downsample = None
        previous_dilation = self.dilation
        if dilate:
            self.dilation *= stride
            stride = 1
        if stride != 1 or self.inplanes != planes * block.expansion:
            downsample = nn.Sequential(
                conv1x1(self.inplanes, planes * block.expansion, stride),
                norm_layer(planes * block.expansion),
            )
        layers = [block(self.inplanes, planes, stride, downsample, self.groups, self.base_width, previous_dilation,
                        norm_layer)]
        self.inplanes = planes * block.expansion
        for _ in range(1, blocks):
            layers.append(block(self.inplanes, planes, groups=self.groups, base_width=self.base_width,
                                dilation=self.dilation, norm_layer=norm_layer))
        return nn.Sequential(*layers)

    def _forward_impl(self, x):
        if (_folding.applicable(self, x) and _folding.plain_relu(self.relu)
                and _folding.conv_bn_fusable(self.conv1, self.bn1)):  # the stem as one convolution
            x = self.maxpool(_folding.fused_conv_bn(self.conv1, self.bn1, x, "relu"))
        else:
            x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
        x = self.layer1(x)
        x = self.layer2(x)
        x = self.layer3(x)
        x = self.layer4(x)
        x = self.avgpool(x)
        x = core.flatten(x, 1)
        return self.fc(x)

    def forward(self, x):
        return self._forward_impl(x)


def _resnet(arch, block, layers, pretrained, progress, **kwargs):
    if kwargs.pop("quantize", False):  # hub.load("resnet18", quantize=True): the int8 model
        from vision.models.quantization import resnet as quantized

        if not hasattr(quantized, arch):
            raise ValueError(f"{arch} has no quantized version (resnet18, resnet50, resnext101_32x8d do)")
        kwargs.pop("groups", None)
        kwargs.pop("width_per_group", None)
        return getattr(quantized, arch)(pretrained=pretrained, progress=progress, quantize=True, **kwargs)
    model = ResNet(block, layers, **kwargs)
    if pretrained:
        load_pretrained(model, arch, model_urls, progress)
    return model


@handle_weights(ResNet18_Weights)
def resnet18(pretrained=False, progress=True, **kwargs):
    """ResNet-18, following
    `"Deep Residual Learning for Image Recognition" <https://arxiv.org/pdf/1512.03385.pdf>`_.

    `pretrained` loads the ImageNet weights through the hub (cached, hash-checked);
    `progress` draws a download bar on stderr; other keyword arguments reach the model class.
    """
    return _resnet("resnet18", BasicBlock, [2, 2, 2, 2], pretrained, progress, **kwargs)


@handle_weights(ResNet34_Weights)
def resnet34(pretrained=False, progress=True, **kwargs):
    """ResNet-34, following
    `"Deep Residual Learning for Image Recognition" <https://arxiv.org/pdf/1512.03385.pdf>`_.

    `pretrained` loads the ImageNet weights through the hub (cached, hash-checked);
    `progress` draws a download bar on stderr; other keyword arguments reach the model class.
    """
    return _resnet("resnet34", BasicBlock, [3, 4, 6, 3], pretrained, progress, **kwargs)


@handle_weights(ResNet50_Weights)
def resnet50(pretrained=False, progress=True, **kwargs):
    """ResNet-50, following
    `"Deep Residual Learning for Image Recognition" <https://arxiv.org/pdf/1512.03385.pdf>`_.

    `pretrained` loads the ImageNet weights through the hub (cached, hash-checked);
    `progress` draws a download bar on stderr; other keyword arguments reach the model class.
    """
    return _resnet("resnet50", Bottleneck, [3, 4, 6, 3], pretrained, progress, **kwargs)


@handle_weights(ResNet101_Weights)
def resnet101(pretrained=False, progress=True, **kwargs):
    """ResNet-101, following
    `"Deep Residual Learning for Image Recognition" <https://arxiv.org/pdf/1512.03385.pdf>`_.

    `pretrained` loads the ImageNet weights through the hub (cached, hash-checked);
    `progress` draws a download bar on stderr; other keyword arguments reach the model class.
    """
    return _resnet("resnet101", Bottleneck, [3, 4, 23, 3], pretrained, progress, **kwargs)


@handle_weights(ResNet152_Weights)
def resnet152(pretrained=False, progress=True, **kwargs):
    """ResNet-152, following
    `"Deep Residual Learning for Image Recognition" <https://arxiv.org/pdf/1512.03385.pdf>`_.

    `pretrained` loads the ImageNet weights through the hub (cached, hash-checked);
    `progress` draws a download bar on stderr; other keyword arguments reach the model class.
    """
    return _resnet("resnet152", Bottleneck, [3, 8, 36, 3], pretrained, progress, **kwargs)


@handle_weights(ResNeXt50_32X4D_Weights)
def resnext50_32x4d(pretrained=False, progress=True, **kwargs):
    """ResNeXt-50 32x4d, following
    `"Aggregated Residual Transformation for Deep Neural Networks" <https://arxiv.org/pdf/1611.05431.pdf>`_.

    `pretrained` loads the ImageNet weights through the hub (cached, hash-checked);
    `progress` draws a download bar on stderr; other keyword arguments reach the model class.
    """
    kwargs["groups"] = 32
    kwargs["width_per_group"] = 4
    return _resnet("resnext50_32x4d", Bottleneck, [3, 4, 6, 3], pretrained, progress, **kwargs)


@handle_weights(ResNeXt101_32X8D_Weights)
def resnext101_32x8d(pretrained=False, progress=True, **kwargs):
    """ResNeXt-101 32x8d, following
    `"Aggregated Residual Transformation for Deep Neural Networks" <https://arxiv.org/pdf/1611.05431.pdf>`_.

    `pretrained` loads the ImageNet weights through the hub (cached, hash-checked);
    `progress` draws a download bar on stderr; other keyword arguments reach the model class.
    """
    kwargs["groups"] = 32
    kwargs["width_per_group"] = 8
    return _resnet("resnext101_32x8d", Bottleneck, [3, 4, 23, 3], pretrained, progress, **kwargs)


@handle_weights(Wide_ResNet50_2_Weights)
def wide_resnet50_2(pretrained=False, progress=True, **kwargs):
    """Wide ResNet-50-2, following
    `"Wide Residual Networks" <https://arxiv.org/pdf/1605.07146.pdf>`_.

    The model is the same as ResNet except for the bottleneck number of channels
    which is twice larger in every block. The number of channels in outer 1x1
    convolutions is the same.

    `pretrained` loads the ImageNet weights through the hub (cached, hash-checked);
    `progress` draws a download bar on stderr; other keyword arguments reach the model class.
    """
    kwargs["width_per_group"] = 64 * 2
    return _resnet("wide_resnet50_2", Bottleneck, [3, 4, 6, 3], pretrained, progress, **kwargs)


@handle_weights(Wide_ResNet101_2_Weights)
def wide_resnet101_2(pretrained=False, progress=True, **kwargs):
    """Wide ResNet-101-2, following
    `"Wide Residual Networks" <https://arxiv.org/pdf/1605.07146.pdf>`_.

    The model is the same as ResNet except for the bottleneck number of channels
    which is twice larger in every block. The number of channels in outer 1x1
    convolutions is the same.

    `pretrained` loads the ImageNet weights through the hub (cached, hash-checked);
    `progress` draws a download bar on stderr; other keyword arguments reach the model class.
    """
    kwargs["width_per_group"] = 64 * 2
    return _resnet("wide_resnet101_2", Bottleneck, [3, 4, 23, 3], pretrained, progress, **kwargs)
