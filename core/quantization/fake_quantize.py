"""FakeQuantize: simulated quantization in float (quantize then dequantize) for
quantization-aware training, with a straight-through gradient."""
import core
from core import nn
from core.quantization.observer import (MovingAverageMinMaxObserver, MovingAveragePerChannelMinMaxObserver,
                                        _with_args)

__all__ = ["FakeQuantizeBase", "FakeQuantize", "default_fake_quant", "default_weight_fake_quant",
           "default_per_channel_weight_fake_quant", "default_histogram_fake_quant", "disable_fake_quant",
           "enable_fake_quant", "disable_observer", "enable_observer"]


class FakeQuantizeBase(nn.Module):
    """The enable flags (uint8 buffers, as saved in QAT checkpoints) and their switches."""

    def __init__(self):
        super().__init__()
        self.register_buffer("fake_quant_enabled", core.tensor([1], dtype=core.uint8))
        self.register_buffer("observer_enabled", core.tensor([1], dtype=core.uint8))

    def enable_fake_quant(self, enabled=True):
        self.fake_quant_enabled[0] = 1 if enabled else 0
        return self

    def disable_fake_quant(self):
        return self.enable_fake_quant(False)

    def enable_observer(self, enabled=True):
        self.observer_enabled[0] = 1 if enabled else 0
        return self

    def disable_observer(self):
        return self.enable_observer(False)

    with_args = classmethod(_with_args)


class FakeQuantize(FakeQuantizeBase):
    """Observes its input (when enabled) and outputs quant-dequant(x) with the observer's qparams."""

    def __init__(self, observer=MovingAverageMinMaxObserver, quant_min=0, quant_max=255, **observer_kwargs):
        super().__init__()
        if not quant_min <= quant_max:
            raise AssertionError("quant_min must be less than or equal to quant_max")
        self.quant_min = quant_min
        self.quant_max = quant_max
        self.activation_post_process = observer(**observer_kwargs)
        if core.iinfo(self.activation_post_process.dtype).min > quant_min:
            raise AssertionError("quant_min out of bound")
        if quant_max > core.iinfo(self.activation_post_process.dtype).max:
            raise AssertionError("quant_max out of bound")
        self.register_buffer("scale", core.tensor([1.0]))
        self.register_buffer("zero_point", core.tensor([0]))
        self.dtype = self.activation_post_process.dtype
        self.qscheme = self.activation_post_process.qscheme
        self.ch_axis = getattr(self.activation_post_process, "ch_axis", -1)
        self.is_per_channel = self.qscheme in (core.per_channel_symmetric, core.per_channel_affine)

    def calculate_qparams(self):
        return self.activation_post_process.calculate_qparams()

    def forward(self, X):
        if self.observer_enabled[0] == 1:
            self.activation_post_process(X.detach())
            scale, zero_point = self.calculate_qparams()
            if self.scale.shape != scale.shape:
                self.scale = scale.clone()
                self.zero_point = zero_point.clone()
            else:
                self.scale.copy_(scale)
                self.zero_point.copy_(zero_point)
        if self.fake_quant_enabled[0] == 1:
            if self.is_per_channel:
                X = core.fake_quantize_per_channel_affine(X, self.scale, self.zero_point, self.ch_axis,
                                                          self.quant_min, self.quant_max)
            else:
                X = core.fake_quantize_per_tensor_affine(X, float(self.scale), int(self.zero_point),
                                                         self.quant_min, self.quant_max)
        return X

    def extra_repr(self):
        return (f"fake_quant_enabled={self.fake_quant_enabled}, observer_enabled={self.observer_enabled}, "
                f"quant_min={self.quant_min}, quant_max={self.quant_max}, dtype={self.dtype}, "
                f"qscheme={self.qscheme}, ch_axis={self.ch_axis}, scale={self.scale}, "
                f"zero_point={self.zero_point}")

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                              error_msgs):
        # scale and zero_point take the saved sizes (per-channel ones have one per channel).
        for name in ("scale", "zero_point"):
            key = prefix + name
            if key in state_dict:
                setattr(self, name, state_dict[key].detach().clone())
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                                      error_msgs)


default_fake_quant = FakeQuantize.with_args(observer=MovingAverageMinMaxObserver, quant_min=0, quant_max=255,
                                            dtype=core.quint8, qscheme=core.per_tensor_affine, reduce_range=True)
default_weight_fake_quant = FakeQuantize.with_args(observer=MovingAverageMinMaxObserver, quant_min=-128,
                                                   quant_max=127, dtype=core.qint8,
                                                   qscheme=core.per_tensor_symmetric, reduce_range=False)
default_per_channel_weight_fake_quant = FakeQuantize.with_args(
    observer=MovingAveragePerChannelMinMaxObserver, quant_min=-128, quant_max=127, dtype=core.qint8,
    qscheme=core.per_channel_symmetric, reduce_range=False, ch_axis=0)


def _histogram_fake_quant():
    from core.quantization.observer import HistogramObserver
    return FakeQuantize.with_args(observer=HistogramObserver, quant_min=0, quant_max=255, dtype=core.quint8,
                                  qscheme=core.per_tensor_affine, reduce_range=True)


default_histogram_fake_quant = _histogram_fake_quant()


def _is_fake_quant(mod):
    return isinstance(mod, FakeQuantizeBase)


def disable_fake_quant(mod):
    if _is_fake_quant(mod):
        mod.disable_fake_quant()


def enable_fake_quant(mod):
    if _is_fake_quant(mod):
        mod.enable_fake_quant()


def disable_observer(mod):
    if _is_fake_quant(mod):
        mod.disable_observer()


def enable_observer(mod):
    if _is_fake_quant(mod):
        mod.enable_observer()
