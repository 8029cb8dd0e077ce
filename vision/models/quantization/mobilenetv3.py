"""Quantizable MobileNetV3-Large (torchvision 0.9's models/quantization/mobilenetv3.py): the
float model with quant/dequant stubs, FloatFunctional residual adds and SE multiplies, and
fuse_model(); quantize=True gives the int8 model of the official QAT checkpoint."""
import core
from core import nn
from core._native import _C
from core.nn.intrinsic.quantized import ConvReLU2d as QuantizedConvReLU2d
from core.nn.modules import _folding
from core.nn.modules import module as _module
from core.nn.quantized import Conv2d as QuantizedConv2d
from core.nn.quantized import FloatFunctional, QFunctional
from core.quantization import fuse_modules
from vision.models._api import classification_weights, weights_enum
from vision.models._utils import load_pretrained
from vision.models.mobilenetv2 import ConvBNActivation
from vision.models.mobilenetv3 import (InvertedResidual, MobileNet_V3_Large_Weights, MobileNetV3,
                                       SqueezeExcitation, _mobilenet_v3_conf, model_urls)
from vision.models.quantization.utils import _add_quant_stubs, _quantized_forward, _replace_relu

__all__ = ["QuantizableMobileNetV3", "MobileNet_V3_Large_QuantizedWeights", "mobilenet_v3_large"]

quant_model_urls = {
    "mobilenet_v3_large_qnnpack":
        "https://download.pytorch.org/models/quantized/mobilenet_v3_large_qnnpack-5bcacf28.pth",
}


MobileNet_V3_Large_QuantizedWeights = weights_enum("MobileNet_V3_Large_QuantizedWeights", {
    "IMAGENET1K_QNNPACK_V1": classification_weights(
        quant_model_urls["mobilenet_v3_large_qnnpack"], 5483032, 73.004, 90.858,
        "https://github.com/pytorch/vision/tree/main/references/classification#qat-mobilenetv3",
        backend="qnnpack", unquantized=MobileNet_V3_Large_Weights.IMAGENET1K_V1)}, "IMAGENET1K_QNNPACK_V1")


def _is_int8_image(x):
    return isinstance(x, core.Tensor) and x.is_quantized and x.ndim == 4


def _only_calls_its_op(functional):
    """Whether calling this QFunctional's add or mul only runs the op: an Identity after it,
    no hooks on either."""
    after = functional.activation_post_process if type(functional) is QFunctional else None
    return type(after) is nn.Identity and not functional._has_hooks() and not after._has_hooks()


def _decided(module, key, children, decide):
    """decide(), kept on the module under `key` until any module changes (module.structure_epoch)
    or `children` differ (convert() swaps children in place, past __setattr__)."""
    decided = module.__dict__.get(key)
    if decided is None or decided[0] != _module.structure_epoch or decided[1] != children:
        decided = (_module.structure_epoch, children, decide())
        module.__dict__[key] = decided  # past __setattr__, which would count a change
    return decided[2]


class QuantizableSqueezeExcitation(SqueezeExcitation):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.skip_mul = FloatFunctional()

    def forward(self, input):
        if self._runs_int8_ops(input):
            return self._int8_forward(input)
        return self.skip_mul.mul(self._scale(input, False), input)

    def _runs_int8_ops(self, input):
        """Whether the converted block may call its five int8 ops itself: each of its modules
        would only call its op (their exact quantized types, no hooks anywhere). Their calls,
        not the ops, were most of the block's time at batch 1."""
        if not _is_int8_image(input) or _module._global_forward_pre_hooks or _module._global_forward_hooks:
            return False
        children = (tuple(self._modules.values()), tuple(self._modules["skip_mul"]._modules.values()))
        return _decided(self, "_int8_ops_decided", children, self._is_converted)

    def _is_converted(self):
        fc1, relu, fc2 = self.fc1, self.relu, self.fc2
        return (type(fc1) is QuantizedConvReLU2d and type(relu) is nn.Identity and type(fc2) is QuantizedConv2d
                and type(self)._scale is SqueezeExcitation._scale and _only_calls_its_op(self.skip_mul)
                and not any(m._has_hooks() for m in (fc1, relu, fc2)))

    def _int8_forward(self, input):
        """skip_mul.mul(_scale(input), input) of the converted block, each module's op called here."""
        modules = self._modules
        fc1, fc2, mul = modules["fc1"], modules["fc2"], modules["skip_mul"]
        scale = _C._quantized.adaptive_avg_pool2d(input, [1, 1])
        scale = _C._quantized.conv2d_relu(scale, fc1._packed_params, fc1.scale, fc1.zero_point)
        scale = _C._quantized.hardsigmoid(_C._quantized.conv2d(scale, fc2._packed_params, fc2.scale, fc2.zero_point))
        return _C._quantized.mul(scale, input, mul.scale, mul.zero_point)

    def fuse_model(self):
        fuse_modules(self, ["fc1", "relu"], inplace=True)


class QuantizableInvertedResidual(InvertedResidual):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, se_layer=QuantizableSqueezeExcitation, **kwargs)
        self.skip_add = FloatFunctional()

    def forward(self, x):
        if self.use_res_connect:
            steps = self._int8_residual_steps(x)
            if steps is not None:
                return self._int8_residual_forward(steps, x)
            return self.skip_add.add(x, self.block(x))
        return self.block(x)

    def _int8_residual_steps(self, x):
        """The block's plan steps (nn/modules/_folding.py) when the converted block may run them
        and then its projection conv and the residual add as one op (quantized::conv2d_add):
        the plan ends with a plain quantized 1x1 Conv2d of x's channels, and skip_add would
        only call its op. Else None."""
        if not _is_int8_image(x):
            return None
        steps = _folding.inference_steps(self._modules["block"], x)
        if not steps:
            return None
        project = steps[-1]
        if (type(project) is not QuantizedConv2d or project.kernel_size != (1, 1) or project.stride != (1, 1)
                or project.padding != (0, 0) or project.groups != 1 or project.out_channels != x._sizes[1]):
            return None
        add = self._modules["skip_add"]
        children = (add, tuple(add._modules.values()))
        return steps if _decided(self, "_int8_add_decided", children, lambda: _only_calls_its_op(add)) else None

    def _int8_residual_forward(self, steps, x):
        """skip_add.add(x, block(x)) of the converted block: its steps but the last, then the
        projection conv and the add as one op (the bytes of the two apart)."""
        out = x
        for step in steps[:-1]:
            out = step.forward(out)
        project, add = steps[-1], self._modules["skip_add"]
        return _C._quantized.conv2d_add(out, project._packed_params, project.scale, project.zero_point, x, add.scale,
                                        add.zero_point)


class QuantizableMobileNetV3(MobileNetV3):
    """MobileNetV3 between a QuantStub and a DeQuantStub."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _add_quant_stubs(self)

    forward = _quantized_forward

    def fuse_model(self):
        """Conv+BN(+ReLU) of every ConvBNActivation and the SE's fc1+ReLU (Hardswish is not fused)."""
        for m in self.modules():
            if type(m) is ConvBNActivation:
                modules_to_fuse = ["0", "1"]
                if type(m[2]) is nn.ReLU:
                    modules_to_fuse.append("2")
                fuse_modules(m, modules_to_fuse, inplace=True)
            elif type(m) is QuantizableSqueezeExcitation:
                m.fuse_model()


def _mobilenet_v3_model(arch, inverted_residual_setting, last_channel, pretrained, progress, quantize, **kwargs):
    model = QuantizableMobileNetV3(inverted_residual_setting, last_channel, block=QuantizableInvertedResidual,
                                   **kwargs)
    _replace_relu(model)
    if quantize:
        backend = "qnnpack"
        model.fuse_model()
        model.qconfig = core.quantization.get_default_qat_qconfig(backend)
        core.quantization.prepare_qat(model, inplace=True)
        if pretrained:  # the published file is the QAT (prepared) state dict
            load_pretrained(model, arch + "_" + backend, quant_model_urls, progress)
        core.quantization.convert(model, inplace=True)
        model.eval()
    elif pretrained:
        load_pretrained(model, arch, model_urls, progress)
    return model


def mobilenet_v3_large(pretrained=False, progress=True, quantize=False, *, weights=None, **kwargs):
    """MobileNetV3-Large; with quantize=True the int8 model (weights of the official qnnpack
    QAT checkpoint when pretrained), else the quantizable float model. `weights` is a
    MobileNet_V3_Large_QuantizedWeights member with quantize=True, else a
    MobileNet_V3_Large_Weights member (or their names)."""
    weights_cls = MobileNet_V3_Large_QuantizedWeights if quantize else MobileNet_V3_Large_Weights
    if weights_cls.verify(weights) is not None:
        pretrained = True
    arch = "mobilenet_v3_large"
    inverted_residual_setting, last_channel = _mobilenet_v3_conf(arch, kwargs)
    return _mobilenet_v3_model(arch, inverted_residual_setting, last_channel, pretrained, progress, quantize,
                               **kwargs)


def quantized_mobilenet_v3_large(pretrained=False, progress=True, **kwargs):
    """The int8 MobileNetV3-Large (hub name quantized_mobilenet_v3_large)."""
    return mobilenet_v3_large(pretrained=pretrained, progress=progress, quantize=True, **kwargs)
