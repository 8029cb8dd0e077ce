"""QConfig: which observer (or fake quantizer) watches a module's activations and weights."""
from collections import namedtuple

import core
from core import nn
from core.quantization.fake_quantize import (FakeQuantize, default_fake_quant, default_per_channel_weight_fake_quant,
                                             default_weight_fake_quant)
from core.quantization.observer import (HistogramObserver, MovingAverageMinMaxObserver,
                                        PlaceholderObserver, default_debug_observer,
                                        default_dynamic_quant_observer, default_float_qparams_observer,
                                        default_observer, default_per_channel_weight_observer,
                                        default_placeholder_observer, default_weight_observer)

__all__ = ["QConfig", "QConfigDynamic", "default_qconfig", "default_debug_qconfig", "default_per_channel_qconfig",
           "default_dynamic_qconfig", "float16_dynamic_qconfig", "float16_static_qconfig",
           "per_channel_dynamic_qconfig", "float_qparams_weight_only_qconfig", "default_qat_qconfig",
           "default_weight_only_qconfig", "default_activation_only_qconfig", "get_default_qconfig",
           "get_default_qat_qconfig"]


def _check_class(value, field):
    if isinstance(value, nn.Module):
        raise ValueError(f"QConfig received observer instance, please pass observer class instead. "
                         f"Use MyObserver.with_args(x=1) to override arguments to constructor if needed "
                         f"({field})")


class QConfig(namedtuple("QConfig", ["activation", "weight"])):
    """activation / weight: observer classes (or with_args partials), never instances."""

    def __new__(cls, activation, weight):
        _check_class(activation, "activation")
        _check_class(weight, "weight")
        return super().__new__(cls, activation, weight)


class QConfigDynamic(namedtuple("QConfigDynamic", ["activation", "weight"])):
    """The qconfig of dynamic quantization (activations are quantized on the fly)."""

    def __new__(cls, activation=nn.Identity, weight=nn.Identity):
        _check_class(weight, "weight")
        return super().__new__(cls, activation, weight)


default_qconfig = QConfig(activation=default_observer, weight=default_weight_observer)
default_debug_qconfig = QConfig(weight=default_weight_observer, activation=default_debug_observer)
default_per_channel_qconfig = QConfig(activation=default_observer, weight=default_per_channel_weight_observer)
default_dynamic_qconfig = QConfigDynamic(activation=default_dynamic_quant_observer, weight=default_weight_observer)
float16_dynamic_qconfig = QConfigDynamic(activation=PlaceholderObserver.with_args(dtype=core.float16),
                                         weight=PlaceholderObserver.with_args(dtype=core.float16))
float16_static_qconfig = QConfig(activation=PlaceholderObserver.with_args(dtype=core.float16),
                                 weight=PlaceholderObserver.with_args(dtype=core.float16))
per_channel_dynamic_qconfig = QConfigDynamic(activation=default_dynamic_quant_observer,
                                             weight=default_per_channel_weight_observer)
float_qparams_weight_only_qconfig = QConfigDynamic(activation=default_placeholder_observer,
                                                   weight=default_float_qparams_observer)
default_qat_qconfig = QConfig(activation=default_fake_quant, weight=default_weight_fake_quant)
default_weight_only_qconfig = QConfig(activation=nn.Identity, weight=default_weight_fake_quant)
default_activation_only_qconfig = QConfig(activation=default_fake_quant, weight=nn.Identity)


def get_default_qconfig(backend="fbgemm"):
    """fbgemm/x86: histogram activations (7-bit) and per-channel weights; qnnpack: 8-bit
    histogram activations and per-tensor weights; anything else: default_qconfig."""
    if backend in ("fbgemm", "x86"):
        return QConfig(activation=HistogramObserver.with_args(reduce_range=True),
                       weight=default_per_channel_weight_observer)
    if backend == "qnnpack":
        return QConfig(activation=HistogramObserver.with_args(reduce_range=False), weight=default_weight_observer)
    return default_qconfig


def get_default_qat_qconfig(backend="fbgemm"):
    """The QAT counterpart of get_default_qconfig (moving-average fake quantizers)."""
    if backend in ("fbgemm", "x86"):
        return QConfig(activation=FakeQuantize.with_args(observer=MovingAverageMinMaxObserver, quant_min=0,
                                                         quant_max=255, reduce_range=True),
                       weight=default_per_channel_weight_fake_quant)
    if backend == "qnnpack":
        return QConfig(activation=FakeQuantize.with_args(observer=MovingAverageMinMaxObserver, quant_min=0,
                                                         quant_max=255, reduce_range=False),
                       weight=default_weight_fake_quant)
    return default_qat_qconfig


def assert_valid_qconfig(qconfig, mod):
    """Per-channel weight observers are not supported for ConvTranspose."""


