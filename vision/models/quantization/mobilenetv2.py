"""Quantizable MobileNetV2 (torchvision 0.9's models/quantization/mobilenetv2.py): residual adds
through FloatFunctional, fuse_model(); quantize=True gives the int8 model (qnnpack
post-training quantization, weights of the official checkpoint when pretrained)."""
from core import nn
from core.nn.quantized import FloatFunctional
from core.quantization import fuse_modules
from vision.models._utils import load_pretrained
from vision.models.mobilenetv2 import ConvBNReLU, InvertedResidual, MobileNetV2, model_urls
from vision.models.quantization.utils import _add_quant_stubs, _quantized_forward, _replace_relu, quantize_model

__all__ = ["QuantizableMobileNetV2", "mobilenet_v2"]

quant_model_urls = {
    "mobilenet_v2_qnnpack": "https://download.pytorch.org/models/quantized/mobilenet_v2_qnnpack_37f702c5.pth",
}


class QuantizableInvertedResidual(InvertedResidual):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.skip_add = FloatFunctional()

    def forward(self, x):
        if self.use_res_connect:
            return self.skip_add.add(x, self.conv(x))
        return self.conv(x)

    def fuse_model(self):
        """The projection conv with its batch norm."""
        for idx in range(len(self.conv)):
            if type(self.conv[idx]) is nn.Conv2d:
                fuse_modules(self.conv, [str(idx), str(idx + 1)], inplace=True)


class QuantizableMobileNetV2(MobileNetV2):
    """MobileNetV2 between a QuantStub and a DeQuantStub."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _add_quant_stubs(self)

    forward = _quantized_forward

    def fuse_model(self):
        """Every ConvBNReLU (conv, bn, relu) and every block's projection conv+bn."""
        for m in self.modules():
            if type(m) is ConvBNReLU:
                fuse_modules(m, ["0", "1", "2"], inplace=True)
            if type(m) is QuantizableInvertedResidual:
                m.fuse_model()


def mobilenet_v2(pretrained=False, progress=True, quantize=False, **kwargs):
    """MobileNetV2; quantize=True: int8 (qnnpack), the official quantized weights when pretrained."""
    model = QuantizableMobileNetV2(block=QuantizableInvertedResidual, **kwargs)
    _replace_relu(model)
    backend = "qnnpack"
    if quantize:  # the int8 layout first: the published file is the converted state dict
        quantize_model(model, backend)
    if pretrained:
        if quantize:
            load_pretrained(model, "mobilenet_v2_" + backend, quant_model_urls, progress)
        else:
            load_pretrained(model, "mobilenet_v2", model_urls, progress)
    return model


def quantized_mobilenet_v2(pretrained=False, progress=True, **kwargs):
    """The int8 MobileNetV2 (hub name quantized_mobilenet_v2)."""
    return mobilenet_v2(pretrained=pretrained, progress=progress, quantize=True, **kwargs)
