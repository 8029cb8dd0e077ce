"""Helpers of the quantizable models (torchvision.models.quantization.utils)."""
import core
from core import nn


def _add_quant_stubs(model):
    """The QuantStub / DeQuantStub pair of a quantizable classifier (names quant, dequant)."""
    model.quant = core.quantization.QuantStub()
    model.dequant = core.quantization.DeQuantStub()


def _quantized_forward(model, x):
    """forward of the quantizable classifiers: the float model between the stubs."""
    return model.dequant(model._forward_impl(model.quant(x)))


def _replace_relu(module):
    """Replaces every nn.ReLU / nn.ReLU6 (exact types) with nn.ReLU(inplace=False), recursively."""
    reassign = {}
    for name, mod in module.named_children():
        _replace_relu(mod)
        if type(mod) is nn.ReLU or type(mod) is nn.ReLU6:
            reassign[name] = nn.ReLU(inplace=False)
    for key, value in reassign.items():
        module._modules[key] = value


def quantize_model(model, backend):
    """Post-training quantization with one random calibration batch (torchvision's helper)."""
    _dummy_input_data = core.rand(1, 3, 299, 299)
    if backend not in core.backends.quantized.supported_engines:
        raise RuntimeError("Quantized backend not supported ")
    core.backends.quantized.engine = backend
    model.eval()
    if backend == "fbgemm":
        model.qconfig = core.quantization.QConfig(activation=core.quantization.default_observer,
                                                  weight=core.quantization.default_per_channel_weight_observer)
    elif backend == "qnnpack":
        model.qconfig = core.quantization.QConfig(activation=core.quantization.default_observer,
                                                  weight=core.quantization.default_weight_observer)
    model.fuse_model()
    core.quantization.prepare(model, inplace=True)
    model(_dummy_input_data)
    core.quantization.convert(model, inplace=True)
