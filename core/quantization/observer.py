"""Observers: modules that watch tensors flowing through a model and compute the
quantization parameters (scale, zero_point) for them, with torch.quantization 1.8's math."""
import warnings
from functools import partial

import core
from core import nn

__all__ = [
    "ObserverBase", "MinMaxObserver", "MovingAverageMinMaxObserver", "PerChannelMinMaxObserver",
    "MovingAveragePerChannelMinMaxObserver", "HistogramObserver", "PlaceholderObserver", "RecordingObserver",
    "NoopObserver", "default_observer", "default_weight_observer", "default_per_channel_weight_observer",
    "default_histogram_observer", "default_dynamic_quant_observer", "default_float_qparams_observer",
    "default_debug_observer", "default_placeholder_observer", "get_observer_state_dict",
    "load_observer_state_dict",
]

_EPS = core.finfo(core.float32).eps


class _PartialWrapper:
    """Observer.with_args(...): a factory that calls the class with those arguments."""

    def __init__(self, p):
        self.p = p

    def __call__(self, *args, **keywords):
        return self.p(*args, **keywords)

    def __repr__(self):
        return self.p.__repr__()

    def with_args(self, **kwargs):
        return _with_args(self, **kwargs)


def _with_args(cls_or_self, **kwargs):
    return _PartialWrapper(partial(cls_or_self, **kwargs))


class ObserverBase(nn.Module):
    """Base observer: forward(x) records statistics and returns x; calculate_qparams()."""

    def __init__(self, dtype):
        super().__init__()
        self.dtype = dtype

    def forward(self, x):
        raise NotImplementedError

    def calculate_qparams(self, **kwargs):
        raise NotImplementedError

    with_args = classmethod(_with_args)


class _ObserverBase(ObserverBase):
    """Common parts of the min/max-based observers: quant range and qparams math."""

    # Version 2 added the eps buffer; version 3 renamed per-channel min_vals/max_vals.
    _version = 3

    def __init__(self, dtype=core.quint8, qscheme=core.per_tensor_affine, reduce_range=False, quant_min=None,
                 quant_max=None):
        super().__init__(dtype=dtype)
        self.qscheme = qscheme
        self.reduce_range = reduce_range
        self.register_buffer("eps", core.tensor([_EPS]))
        if self.qscheme not in (core.per_tensor_affine, core.per_tensor_symmetric, core.per_channel_affine,
                                core.per_channel_symmetric, core.per_channel_affine_float_qparams):
            raise AssertionError("Default Observer only works for per_tensor_affine, per_tensor_symmetric, "
                                 "per_channel_affine, per_channel_symmetric and per_channel_float_qparams "
                                 "quantization scheme")
        if self.dtype not in (core.qint8, core.quint8):
            raise AssertionError("Default Observer only works for qint8 and quint8 data type")
        self.has_customized_qrange = quant_min is not None and quant_max is not None
        if self.has_customized_qrange:
            self._validate_qmin_qmax(quant_min, quant_max)
        self.quant_min = quant_min
        self.quant_max = quant_max

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                              error_msgs):
        version = local_metadata.get("version", None)
        if version is None or version == 1:
            state_dict[prefix + "eps"] = core.tensor([_EPS])  # eps was added in version 2
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                                      error_msgs)

    def _validate_qmin_qmax(self, quant_min, quant_max):
        if not quant_min <= 0 <= quant_max:
            raise AssertionError("Used-specified quantization range must include 0.")
        if quant_min >= quant_max:
            raise AssertionError("qmin must be strictly less than qmax for user-specified quantization range.")

    def _calculate_qmin_qmax(self):
        if self.has_customized_qrange:
            qrange_len = self.quant_max - self.quant_min + 1
            if not 0 < qrange_len <= 256:
                raise AssertionError("quantization range should be positive and not exceed the maximum bit "
                                     "range (=256).")
            if self.dtype == core.qint8:
                quant_min, quant_max = -qrange_len // 2, qrange_len // 2 - 1
            else:
                quant_min, quant_max = 0, qrange_len - 1
            if self.reduce_range:
                quant_min, quant_max = quant_min // 2, quant_max // 2
        elif self.dtype == core.qint8:
            quant_min, quant_max = (-64, 63) if self.reduce_range else (-128, 127)
        else:
            quant_min, quant_max = (0, 127) if self.reduce_range else (0, 255)
        return quant_min, quant_max

    def _calculate_qparams(self, min_val, max_val):
        """(scale float32, zero_point int64), each of min_val's shape (at least 1 element)."""
        if not _min_max_valid(min_val, max_val):
            return core.tensor([1.0]), core.tensor([0])
        quant_min, quant_max = self._calculate_qmin_qmax()
        min_val_neg = core.minimum(min_val, core.zeros_like(min_val))
        max_val_pos = core.maximum(max_val, core.zeros_like(max_val))
        zero_point = core.zeros(min_val_neg.shape, dtype=core.int64)
        if self.qscheme in (core.per_tensor_symmetric, core.per_channel_symmetric):
            max_val_pos = core.maximum(-min_val_neg, max_val_pos)
            scale = max_val_pos / (float(quant_max - quant_min) / 2)
            scale = core.maximum(scale, self.eps)
            if self.dtype == core.quint8:
                middle = (quant_min + quant_max) // 2 if self.has_customized_qrange else 128
                zero_point = core.full(zero_point.shape, middle, dtype=core.int64)
        elif self.qscheme == core.per_channel_affine_float_qparams:
            scale = (max_val - min_val) / float(quant_max - quant_min)
            scale = core.where(scale > self.eps, scale, core.ones_like(scale))
            # xq = round(x / scale + zero_point) with zero_point = -min / scale gives round((x - min) / scale)
            zero_point = -1 * min_val / scale
        else:
            scale = (max_val_pos - min_val_neg) / float(quant_max - quant_min)
            scale = core.maximum(scale, self.eps)
            zero_point = quant_min - core.round(min_val_neg / scale).to(core.int64)
            zero_point = core.clamp(zero_point, quant_min, quant_max)
        if scale.ndim == 0:
            scale = scale.reshape(1)
        if zero_point.ndim == 0:
            zero_point = zero_point.reshape(1)
        return scale, zero_point

    def extra_repr(self):
        return f"min_val={self.min_val}, max_val={self.max_val}" if hasattr(self, "min_val") else ""


def _min_max_valid(min_val, max_val):
    if min_val.numel() == 0 or max_val.numel() == 0:
        warnings.warn("must run observer before calling calculate_qparams. Returning default values.")
        return False
    if min_val.ndim == 0 or min_val.numel() == 1:
        if float(min_val.reshape(-1)[0]) == float("inf") and float(max_val.reshape(-1)[0]) == float("-inf"):
            warnings.warn("must run observer before calling calculate_qparams. Returning default values.")
            return False
        if float(min_val.reshape(-1)[0]) > float(max_val.reshape(-1)[0]):
            raise AssertionError(f"min {float(min_val)} should be less than max {float(max_val)}")
    elif not bool((min_val <= max_val).all()):
        raise AssertionError(f"min {min_val} should be less than max {max_val}")
    return True


def _float_input(x, observer):
    if x.dtype.is_quantized:
        raise TypeError(f"{observer}: expected a float tensor, got a quantized {x.dtype} one")
    return x.detach().float()


class MinMaxObserver(_ObserverBase):
    """Tracks the running minimum and maximum of the observed tensors."""

    def __init__(self, dtype=core.quint8, qscheme=core.per_tensor_affine, reduce_range=False, quant_min=None,
                 quant_max=None):
        super().__init__(dtype=dtype, qscheme=qscheme, reduce_range=reduce_range, quant_min=quant_min,
                         quant_max=quant_max)
        self.register_buffer("min_val", core.tensor(float("inf")))
        self.register_buffer("max_val", core.tensor(float("-inf")))
        if self.qscheme == core.per_tensor_symmetric and self.reduce_range and self.dtype == core.quint8:
            raise NotImplementedError("Cannot reduce range for symmetric quantization for quint8")

    def forward(self, x_orig):
        if x_orig.numel() == 0:
            return x_orig
        x = _float_input(x_orig, type(self).__name__)
        self.min_val = core.minimum(core.amin(x), self.min_val)
        self.max_val = core.maximum(core.amax(x), self.max_val)
        return x_orig

    def calculate_qparams(self):
        return self._calculate_qparams(self.min_val, self.max_val)

    def reset_min_max_vals(self):
        self.min_val = core.tensor(float("inf"))
        self.max_val = core.tensor(float("-inf"))


class MovingAverageMinMaxObserver(MinMaxObserver):
    """min/max as exponential moving averages: v <- v + c * (new - v)."""

    def __init__(self, averaging_constant=0.01, dtype=core.quint8, qscheme=core.per_tensor_affine,
                 reduce_range=False, quant_min=None, quant_max=None):
        self.averaging_constant = averaging_constant
        super().__init__(dtype=dtype, qscheme=qscheme, reduce_range=reduce_range, quant_min=quant_min,
                         quant_max=quant_max)

    def forward(self, x_orig):
        if x_orig.numel() == 0:
            return x_orig
        x = _float_input(x_orig, type(self).__name__)
        min_now, max_now = core.amin(x), core.amax(x)
        if float(self.min_val) == float("inf") and float(self.max_val) == float("-inf"):
            self.min_val, self.max_val = min_now, max_now
        else:
            c = self.averaging_constant
            self.min_val = self.min_val + c * (min_now - self.min_val)
            self.max_val = self.max_val + c * (max_now - self.max_val)
        return x_orig


class PerChannelMinMaxObserver(_ObserverBase):
    """Running min/max of each channel along ch_axis."""

    def __init__(self, ch_axis=0, dtype=core.quint8, qscheme=core.per_channel_affine, reduce_range=False,
                 quant_min=None, quant_max=None):
        super().__init__(dtype=dtype, qscheme=qscheme, reduce_range=reduce_range, quant_min=quant_min,
                         quant_max=quant_max)
        self.ch_axis = ch_axis
        self.register_buffer("min_val", core.tensor([]))
        self.register_buffer("max_val", core.tensor([]))
        if self.qscheme == core.per_channel_symmetric and self.reduce_range and self.dtype == core.quint8:
            raise NotImplementedError("Cannot reduce range for symmetric quantization for quint8")

    def _channel_min_max(self, x):
        y = x.movedim(self.ch_axis, 0).reshape(x.shape[self.ch_axis], -1)
        return core.amin(y, 1), core.amax(y, 1)

    def forward(self, x_orig):
        if x_orig.numel() == 0:
            return x_orig
        x = _float_input(x_orig, type(self).__name__)
        min_now, max_now = self._channel_min_max(x)
        if self.min_val.numel() == 0 or self.max_val.numel() == 0:
            self.min_val, self.max_val = min_now, max_now
        else:
            self.min_val = core.minimum(min_now, self.min_val)
            self.max_val = core.maximum(max_now, self.max_val)
        return x_orig

    def calculate_qparams(self):
        return self._calculate_qparams(self.min_val, self.max_val)

    def extra_repr(self):
        return f"min_val={self.min_val}, max_val={self.max_val}"

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                              error_msgs):
        version = local_metadata.get("version", None)
        for name in ("min_val", "max_val"):
            key = prefix + name
            if version is None or version < 3:  # the buffers were min_vals / max_vals
                old = prefix + name + "s"
                if old in state_dict:
                    state_dict[key] = state_dict.pop(old)
            if key in state_dict:  # the saved per-channel sizes replace the empty buffers
                setattr(self, name, state_dict[key].detach().clone())
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                                      error_msgs)

    def reset_min_max_vals(self):
        self.min_val = core.tensor([])
        self.max_val = core.tensor([])


class MovingAveragePerChannelMinMaxObserver(PerChannelMinMaxObserver):
    """Per-channel min/max as exponential moving averages."""

    def __init__(self, averaging_constant=0.01, ch_axis=0, dtype=core.quint8, qscheme=core.per_channel_affine,
                 reduce_range=False, quant_min=None, quant_max=None):
        super().__init__(ch_axis=ch_axis, dtype=dtype, qscheme=qscheme, reduce_range=reduce_range,
                         quant_min=quant_min, quant_max=quant_max)
        self.averaging_constant = averaging_constant

    def forward(self, x_orig):
        if x_orig.numel() == 0:
            return x_orig
        x = _float_input(x_orig, type(self).__name__)
        min_now, max_now = self._channel_min_max(x)
        if self.min_val.numel() == 0 or self.max_val.numel() == 0:
            self.min_val, self.max_val = min_now, max_now
        else:
            c = self.averaging_constant
            self.min_val = self.min_val + c * (min_now - self.min_val)
            self.max_val = self.max_val + c * (max_now - self.max_val)
        return x_orig


class HistogramObserver(_ObserverBase):
    """A histogram of the observed values; qparams minimise the L2 quantization error over
    the range (PyTorch's non-linear search over quantiles)."""

    def __init__(self, bins=2048, upsample_rate=128, dtype=core.quint8, qscheme=core.per_tensor_affine,
                 reduce_range=False):
        super().__init__(dtype=dtype, qscheme=qscheme, reduce_range=reduce_range)
        self.bins = bins
        self.register_buffer("histogram", core.zeros(self.bins))
        self.register_buffer("min_val", core.tensor(float("inf")))
        self.register_buffer("max_val", core.tensor(float("-inf")))
        self.dst_nbins = 2 ** core.iinfo(self.dtype).bits
        self.upsample_rate = upsample_rate

    @staticmethod
    def _get_norm(delta_begin, delta_end, density):
        norm = (delta_end * delta_end * delta_end - delta_begin * delta_begin * delta_begin) / 3
        return density * norm

    def _compute_quantization_error(self, next_start_bin, next_end_bin):
        bin_width = (float(self.max_val) - float(self.min_val)) / self.bins
        dst_bin_width = bin_width * (next_end_bin - next_start_bin + 1) / self.dst_nbins
        if dst_bin_width == 0.0:
            return 0.0
        src_bin = core.arange(self.bins, dtype=core.float32)
        src_bin_begin = (src_bin - next_start_bin) * bin_width
        src_bin_end = src_bin_begin + bin_width
        dst_bin_of_begin = core.clamp(core.floor(src_bin_begin / dst_bin_width), 0, self.dst_nbins - 1)
        dst_bin_of_begin_center = (dst_bin_of_begin + 0.5) * dst_bin_width
        dst_bin_of_end = core.clamp(core.floor(src_bin_end / dst_bin_width), 0, self.dst_nbins - 1)
        density = self.histogram / bin_width
        half = dst_bin_width / 2
        norm = self._get_norm(src_bin_begin - dst_bin_of_begin_center, core.full((self.bins,), half), density)
        norm = norm + (dst_bin_of_end - dst_bin_of_begin - 1) * self._get_norm(
            core.tensor(-half), core.tensor(half), density)
        dst_bin_of_end_center = dst_bin_of_end * dst_bin_width + half
        norm = norm + self._get_norm(core.tensor(-half), src_bin_end - dst_bin_of_end_center, density)
        return float(norm.sum())

    def _non_linear_param_search(self):
        bin_width = (self.max_val - self.min_val) / self.bins
        total = float(self.histogram.sum())
        csum = core.cumsum(self.histogram, 0).tolist()
        stepsize = 1e-5
        alpha, beta = 0.0, 1.0
        start_bin, end_bin = 0, self.bins - 1
        norm_min = float("inf")
        while alpha < beta:
            next_alpha, next_beta = alpha + stepsize, beta - stepsize
            left, right = start_bin, end_bin
            while left < end_bin and csum[left] < next_alpha * total:
                left += 1
            while right > start_bin and csum[right] > next_beta * total:
                right -= 1
            next_start_bin, next_end_bin = start_bin, end_bin
            if (left - start_bin) > (end_bin - right):
                next_start_bin = left
                alpha = next_alpha
            else:
                next_end_bin = right
                beta = next_beta
            if next_start_bin == start_bin and next_end_bin == end_bin:
                continue
            norm = self._compute_quantization_error(next_start_bin, next_end_bin)
            if norm > norm_min:
                break
            norm_min = norm
            start_bin, end_bin = next_start_bin, next_end_bin
        new_min = self.min_val + bin_width * start_bin
        new_max = self.min_val + bin_width * (end_bin + 1)
        return new_min, new_max

    def _adjust_min_max(self, combined_min, combined_max, upsample_rate):
        hist_bin_width = (self.max_val - self.min_val) / (self.bins * upsample_rate)
        downsample_rate = int(math_ceil(float((combined_max - combined_min) / (self.bins * hist_bin_width))))
        e = downsample_rate * (self.bins * hist_bin_width) - (combined_max - combined_min)
        combined_max = combined_max + e  # only the max moves: one-sided ranges keep min 0
        start_idx = int(round(float((self.min_val - combined_min) / hist_bin_width)))
        return combined_min, combined_max, downsample_rate, start_idx

    def _combine_histograms(self, orig_hist, new_hist, upsample_rate, downsample_rate, start_idx, nbins):
        upsampled = core.repeat_interleave(new_hist, upsample_rate)
        wide = core.zeros(nbins * downsample_rate)
        wide[start_idx:nbins * upsample_rate + start_idx] = upsampled
        integral = core.cumsum(wide.double(), 0)[downsample_rate - 1::downsample_rate]
        shifted = core.zeros(nbins, dtype=core.float64)
        shifted[1:nbins] = integral[0:-1]
        return orig_hist + ((integral - shifted) / upsample_rate).float()

    def forward(self, x_orig):
        if x_orig.numel() == 0:
            return x_orig
        x = _float_input(x_orig, type(self).__name__)
        min_val, max_val = self.min_val, self.max_val
        same_values = float(min_val) == float(max_val)
        uninitialized = float(min_val) == float("inf") and float(max_val) == float("-inf")
        if uninitialized or same_values:
            min_val, max_val = core.amin(x), core.amax(x)
            self.min_val, self.max_val = min_val.clone(), max_val.clone()
            # int(): PyTorch 1.8 truncates the histogram's range to integers here
            self.histogram = _histc(x, self.bins, int(float(min_val)), int(float(max_val)))
        else:
            combined_min = core.minimum(core.amin(x), min_val)
            combined_max = core.maximum(core.amax(x), max_val)
            combined_min, combined_max, downsample_rate, start_idx = self._adjust_min_max(
                combined_min, combined_max, self.upsample_rate)
            combined = _histc(x, self.bins, int(float(combined_min)), int(float(combined_max)))
            if float(combined_min) == float(min_val) and float(combined_max) == float(max_val):
                combined = combined + self.histogram
            else:
                combined = self._combine_histograms(combined, self.histogram, self.upsample_rate, downsample_rate,
                                                    start_idx, self.bins)
            self.histogram = combined
            self.min_val, self.max_val = combined_min.clone(), combined_max.clone()
        return x_orig

    def calculate_qparams(self):
        if float(self.min_val) == float("inf") and float(self.max_val) == float("-inf"):
            warnings.warn("must run observer before calling calculate_qparams. Returning default scale and "
                          "zero point ")
            return core.tensor([1.0]), core.tensor([0])
        if self.bins != len(self.histogram):
            raise AssertionError("The number of bins in histogram should be equal to the number of bins supplied "
                                 "while making this observer")
        new_min, new_max = self._non_linear_param_search()
        return self._calculate_qparams(new_min, new_max)

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                              error_msgs):
        for name in ("min_val", "max_val"):  # version < 3 stored empty tensors when uninitialised
            key = prefix + name
            if key in state_dict and state_dict[key].shape == (0,):
                state_dict[key] = core.tensor(float("inf") if name == "min_val" else float("-inf"))
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                                      error_msgs)


def math_ceil(v):
    import math
    return math.ceil(v)


def _histc(x, bins, lo, hi):
    """torch.histc: `bins` equal bins over [lo, hi] (the data's range when lo == hi); values
    outside are ignored, the top edge belongs to the last bin."""
    x = x.reshape(-1)
    lo, hi = float(lo), float(hi)
    if lo == hi:
        lo, hi = float(core.amin(x)), float(core.amax(x))
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    inside = x[(x >= lo) & (x <= hi)]
    index = ((inside - lo) * (bins / (hi - lo))).long().clamp(0, bins - 1)
    return core.zeros(bins).index_add_(0, index, core.ones(index.shape[0]))


class PlaceholderObserver(ObserverBase):
    """Observes nothing; carries the dtype (and compute dtype) of dynamic quantization."""

    def __init__(self, dtype=core.float32, custom_op_name="", compute_dtype=None):
        super().__init__(dtype=dtype)
        self.dtype = dtype
        self.custom_op = custom_op_name
        self.compute_dtype = compute_dtype

    def forward(self, x):
        return x

    def calculate_qparams(self):
        raise Exception("calculate_qparams should not be called for PlaceholderObserver")


class RecordingObserver(_ObserverBase):
    """Keeps every observed tensor (for debugging)."""

    __annotations__ = {"tensor_val": list}

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.tensor_val = []

    def forward(self, x):
        self.tensor_val.append(x.clone())
        return x

    def calculate_qparams(self):
        raise Exception("calculate_qparams should not be called for RecordingObserver")

    def get_tensor_value(self):
        return self.tensor_val


class NoopObserver(ObserverBase):
    """Observes nothing (float16 weights of dynamic quantization)."""

    def __init__(self, dtype=core.float16, custom_op_name=""):
        super().__init__(dtype=dtype)
        self.dtype = dtype
        self.custom_op = custom_op_name

    def forward(self, x):
        return x

    def calculate_qparams(self):
        raise Exception("calculate_qparams should not be called for NoopObserver")


def _is_observer_script_module(mod, obs_type_name):
    return False


def get_observer_state_dict(mod):
    """The state of every observer / fake-quant in `mod` (keys containing 'activation_post_process')."""
    from collections import OrderedDict
    od = OrderedDict()
    for k, v in mod.state_dict().items():
        if "activation_post_process" in k:
            od[k] = v
    od._metadata = getattr(mod.state_dict(), "_metadata", {})
    return od


def load_observer_state_dict(mod, obs_dict):
    """Loads observer state into `mod`'s observers (strict on their keys)."""
    missing_keys, unexpected_keys = [], []
    for name, module in mod.named_modules():
        prefix = name + "."
        if isinstance(module, (_ObserverBase,)):
            module._load_from_state_dict(obs_dict, prefix, {}, False, missing_keys, unexpected_keys, [])
    for k in missing_keys:
        if "observer" in k or "activation_post_process" in k:
            raise Exception(f"Missing keys for observer {k} in state_dict")
    for k in unexpected_keys:
        if "observer" in k or "activation_post_process" in k:
            raise Exception(f"Unexpected keys for observer {k} in state_dict")


default_observer = MinMaxObserver.with_args(reduce_range=True)
default_placeholder_observer = PlaceholderObserver
default_debug_observer = RecordingObserver
default_weight_observer = MinMaxObserver.with_args(dtype=core.qint8, qscheme=core.per_tensor_symmetric)
default_histogram_observer = HistogramObserver.with_args(reduce_range=True)
default_per_channel_weight_observer = PerChannelMinMaxObserver.with_args(
    dtype=core.qint8, qscheme=core.per_channel_symmetric)
default_dynamic_quant_observer = PlaceholderObserver.with_args(dtype=core.float32, compute_dtype=core.quint8)
default_float_qparams_observer = PerChannelMinMaxObserver.with_args(
    dtype=core.quint8, qscheme=core.per_channel_affine_float_qparams, ch_axis=0)
