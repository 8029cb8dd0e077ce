"""Which float module becomes which observed, QAT or quantized module."""
import copy

from core import nn
from core.nn import intrinsic as nni
from core.nn import qat as nnqat
from core.nn import quantized as nnq
from core.nn.intrinsic import qat as nniqat
from core.nn.intrinsic import quantized as nniq
from core.nn.quantized import dynamic as nnqd
from core.quantization.stubs import DeQuantStub, QuantStub

__all__ = ["get_default_static_quant_module_mappings", "get_default_qat_module_mappings",
           "get_default_dynamic_quant_module_mappings", "get_default_qconfig_propagation_list",
           "no_observer_set", "get_static_quant_module_class", "get_dynamic_quant_module_class"]

DEFAULT_STATIC_QUANT_MODULE_MAPPINGS = {
    QuantStub: nnq.Quantize,
    DeQuantStub: nnq.DeQuantize,
    nn.BatchNorm2d: nnq.BatchNorm2d,
    nn.Conv2d: nnq.Conv2d,
    nn.Embedding: nnq.Embedding,
    nn.EmbeddingBag: nnq.EmbeddingBag,
    nn.Hardswish: nnq.Hardswish,
    nn.Linear: nnq.Linear,
    nn.ReLU6: nnq.ReLU6,
    nnq.FloatFunctional: nnq.QFunctional,
    nni.BNReLU2d: nniq.BNReLU2d,
    nni.ConvReLU2d: nniq.ConvReLU2d,
    nni.LinearReLU: nniq.LinearReLU,
    nniqat.ConvBn2d: nnq.Conv2d,
    nniqat.ConvBnReLU2d: nniq.ConvReLU2d,
    nniqat.ConvReLU2d: nniq.ConvReLU2d,
    nniqat.LinearReLU: nniq.LinearReLU,
    nnqat.Linear: nnq.Linear,
    nnqat.Conv2d: nnq.Conv2d,
}

DEFAULT_QAT_MODULE_MAPPINGS = {
    nn.Conv2d: nnqat.Conv2d,
    nn.Linear: nnqat.Linear,
    nni.ConvBn2d: nniqat.ConvBn2d,
    nni.ConvBnReLU2d: nniqat.ConvBnReLU2d,
    nni.ConvReLU2d: nniqat.ConvReLU2d,
    nni.LinearReLU: nniqat.LinearReLU,
}

DEFAULT_DYNAMIC_QUANT_MODULE_MAPPINGS = {
    nn.GRUCell: nnqd.GRUCell,
    nn.Linear: nnqd.Linear,
    nn.LSTM: nnqd.LSTM,
    nn.GRU: nnqd.GRU,
    nn.LSTMCell: nnqd.LSTMCell,
    nn.RNNCell: nnqd.RNNCell,
    nn.EmbeddingBag: nnq.EmbeddingBag,
}

_INCLUDE_QCONFIG_PROPAGATE_LIST = {nn.Sequential}


def get_default_static_quant_module_mappings():
    return copy.deepcopy(DEFAULT_STATIC_QUANT_MODULE_MAPPINGS)


def get_default_qat_module_mappings():
    return copy.deepcopy(DEFAULT_QAT_MODULE_MAPPINGS)


def get_default_dynamic_quant_module_mappings():
    return DEFAULT_DYNAMIC_QUANT_MODULE_MAPPINGS


def get_default_qconfig_propagation_list():
    """The module types that get a qconfig (and observers) in prepare()."""
    return (set(DEFAULT_STATIC_QUANT_MODULE_MAPPINGS) | set(DEFAULT_QAT_MODULE_MAPPINGS)
            | set(DEFAULT_DYNAMIC_QUANT_MODULE_MAPPINGS) | _INCLUDE_QCONFIG_PROPAGATE_LIST)


def get_default_compare_output_module_list():
    return (set(DEFAULT_STATIC_QUANT_MODULE_MAPPINGS.values()) | set(DEFAULT_QAT_MODULE_MAPPINGS.values())
            | set(DEFAULT_DYNAMIC_QUANT_MODULE_MAPPINGS.values()) | set(DEFAULT_STATIC_QUANT_MODULE_MAPPINGS)
            | set(DEFAULT_QAT_MODULE_MAPPINGS) | set(DEFAULT_DYNAMIC_QUANT_MODULE_MAPPINGS)
            | _INCLUDE_QCONFIG_PROPAGATE_LIST)


def get_static_quant_module_class(float_module_class, additional_static_quant_mapping=None):
    mapping = dict(DEFAULT_STATIC_QUANT_MODULE_MAPPINGS, **(additional_static_quant_mapping or {}))
    if float_module_class not in mapping:
        raise AssertionError(f"Floating point module class {float_module_class} does not have a corresponding "
                             "quantized module class")
    return copy.deepcopy(mapping[float_module_class])


def get_dynamic_quant_module_class(float_module_class, additional_dynamic_quant_mapping=None):
    mapping = dict(DEFAULT_DYNAMIC_QUANT_MODULE_MAPPINGS, **(additional_dynamic_quant_mapping or {}))
    if float_module_class not in mapping:
        raise AssertionError(f"Floating point module class {float_module_class} does not have a corresponding "
                             "quantized module class")
    return copy.deepcopy(mapping[float_module_class])


def no_observer_set():
    """Modules whose output is not observed (they compute it themselves)."""
    return set()
