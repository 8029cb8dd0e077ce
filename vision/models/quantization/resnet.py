"""Quantizable ResNets (torchvision 0.9's models/quantization/resnet.py): residual adds with a
fused ReLU through FloatFunctional, fuse_model(); quantize=True gives the int8 model (fbgemm
post-training quantization, weights of the official checkpoints when pretrained)."""
from core import nn
from core.nn.quantized import FloatFunctional
from core.quantization import fuse_modules
from vision.models._utils import load_pretrained
from vision.models.quantization.utils import _add_quant_stubs, _quantized_forward, _replace_relu, quantize_model
from vision.models.resnet import BasicBlock, Bottleneck, ResNet, model_urls

__all__ = ["QuantizableResNet", "resnet18", "resnet50", "resnext101_32x8d"]

quant_model_urls = {
    "resnet18_fbgemm": "https://download.pytorch.org/models/quantized/resnet18_fbgemm_16fa66dd.pth",
    "resnet50_fbgemm": "https://download.pytorch.org/models/quantized/resnet50_fbgemm_bf931d71.pth",
    "resnext101_32x8d_fbgemm": "https://download.pytorch.org/models/quantized/resnext101_32x8_fbgemm_09835ccf.pth",
}


class QuantizableBasicBlock(BasicBlock):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.add_relu = FloatFunctional()

    def forward(self, x):
        identity = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        if self.downsample is not None:
            identity = self.downsample(x)
        return self.add_relu.add_relu(out, identity)

    def fuse_model(self):
        fuse_modules(self, [["conv1", "bn1", "relu"], ["conv2", "bn2"]], inplace=True)
        if self.downsample:
            fuse_modules(self.downsample, ["0", "1"], inplace=True)


class QuantizableBottleneck(Bottleneck):
    """Separate relu1 / relu2 modules (each fuses into its conv); `relu` stays, unused."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.skip_add_relu = FloatFunctional()
        self.relu1 = nn.ReLU(inplace=False)
        self.relu2 = nn.ReLU(inplace=False)

    def forward(self, x):
        identity = x
        out = self.relu1(self.bn1(self.conv1(x)))
        out = self.relu2(self.bn2(self.conv2(out)))
        out = self.bn3(self.conv3(out))
        if self.downsample is not None:
            identity = self.downsample(x)
        return self.skip_add_relu.add_relu(out, identity)

    def fuse_model(self):
        fuse_modules(self, [["conv1", "bn1", "relu1"], ["conv2", "bn2", "relu2"], ["conv3", "bn3"]], inplace=True)
        if self.downsample:
            fuse_modules(self.downsample, ["0", "1"], inplace=True)


class QuantizableResNet(ResNet):
    """ResNet between a QuantStub and a DeQuantStub."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _add_quant_stubs(self)

    forward = _quantized_forward

    def fuse_model(self):
        """The stem's conv1+bn1+relu and every block's conv+bn(+relu), downsample included."""
        fuse_modules(self, ["conv1", "bn1", "relu"], inplace=True)
        for m in self.modules():
            if type(m) is QuantizableBottleneck or type(m) is QuantizableBasicBlock:
                m.fuse_model()


def _resnet(arch, block, layers, pretrained, progress, quantize, **kwargs):
    model = QuantizableResNet(block, layers, **kwargs)
    _replace_relu(model)
    backend = "fbgemm"
    if quantize:  # the int8 layout first: the published file is the converted state dict
        quantize_model(model, backend)
    if pretrained:
        if quantize:
            load_pretrained(model, arch + "_" + backend, quant_model_urls, progress)
        else:
            load_pretrained(model, arch, model_urls, progress)
    return model


def resnet18(pretrained=False, progress=True, quantize=False, **kwargs):
    """ResNet-18; quantize=True: int8 (fbgemm), the official quantized weights when pretrained."""
    return _resnet("resnet18", QuantizableBasicBlock, [2, 2, 2, 2], pretrained, progress, quantize, **kwargs)


def resnet50(pretrained=False, progress=True, quantize=False, **kwargs):
    """ResNet-50; quantize=True: int8 (fbgemm), the official quantized weights when pretrained."""
    return _resnet("resnet50", QuantizableBottleneck, [3, 4, 6, 3], pretrained, progress, quantize, **kwargs)


def resnext101_32x8d(pretrained=False, progress=True, quantize=False, **kwargs):
    """ResNeXt-101 32x8d; quantize=True: int8 (fbgemm), the official quantized weights when pretrained."""
    kwargs["groups"] = 32
    kwargs["width_per_group"] = 8
    return _resnet("resnext101_32x8d", QuantizableBottleneck, [3, 4, 23, 3], pretrained, progress, quantize,
                   **kwargs)


def quantized_resnet18(pretrained=False, progress=True, **kwargs):
    """The int8 ResNet-18 (hub name quantized_resnet18)."""
    return resnet18(pretrained=pretrained, progress=progress, quantize=True, **kwargs)


def quantized_resnet50(pretrained=False, progress=True, **kwargs):
    """The int8 ResNet-50 (hub name quantized_resnet50)."""
    return resnet50(pretrained=pretrained, progress=progress, quantize=True, **kwargs)


def quantized_resnext101_32x8d(pretrained=False, progress=True, **kwargs):
    """The int8 ResNeXt-101 32x8d (hub name quantized_resnext101_32x8d)."""
    return resnext101_32x8d(pretrained=pretrained, progress=progress, quantize=True, **kwargs)
