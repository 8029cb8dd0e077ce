"""Quantized modules (torch.nn.quantized 1.8): quint8 activations, qint8 weights packed
for tensorzoo's int8 kernels; names, reprs and state_dict keys as PyTorch's."""
import core
from core import nn
from core._native import _C
from core.nn.modules.utils import _pair

_Q = _C._quantized

__all__ = ["Quantize", "DeQuantize", "Linear", "Conv2d", "ReLU6", "Hardswish", "Hardsigmoid", "LinearPackedParams"]


def _qparams_of(observer):
    scale, zero_point = observer.calculate_qparams()
    return float(scale), int(zero_point)


def _activation_post_process(mod, name):
    if not hasattr(mod, "activation_post_process"):
        raise RuntimeError(f"{name}.from_float: the input float module has no observer "
                           "(activation_post_process); run prepare() or prepare_qat() first")
    return mod.activation_post_process


def _quantize_weight(w, observer):
    """The float weight quantized with its observer's qparams (qint8, per tensor or channel)."""
    scale, zero_point = observer.calculate_qparams()
    if observer.dtype != core.qint8:
        raise AssertionError("Weight observer must have dtype torch.qint8")
    if observer.qscheme in (core.per_tensor_symmetric, core.per_tensor_affine):
        return core.quantize_per_tensor(w.float(), float(scale), int(zero_point), core.qint8)
    if observer.qscheme in (core.per_channel_symmetric, core.per_channel_affine):
        return core.quantize_per_channel(w.float(), scale.double(), zero_point.long(), observer.ch_axis, core.qint8)
    raise ValueError(f"Unexpected qscheme {observer.qscheme}")


class Quantize(nn.Module):
    """float -> quantized with fixed (scale, zero_point, dtype)."""

    def __init__(self, scale, zero_point, dtype):
        super().__init__()
        self.register_buffer("scale", core.tensor([scale]))
        self.register_buffer("zero_point", core.tensor([zero_point], dtype=core.int64))
        self.dtype = dtype

    def forward(self, X):
        return core.quantize_per_tensor(X, float(self.scale), int(self.zero_point), self.dtype)

    @staticmethod
    def from_float(mod):
        scale, zero_point = _qparams_of(_activation_post_process(mod, "Quantize"))
        return Quantize(scale, zero_point, mod.activation_post_process.dtype)

    def extra_repr(self):
        return f"scale={self.scale}, zero_point={self.zero_point}, dtype={self.dtype}"


class DeQuantize(nn.Module):
    """quantized -> float32."""

    def forward(self, Xq):
        return Xq.dequantize()

    @staticmethod
    def from_float(mod):
        return DeQuantize()


class LinearPackedParams(nn.Module):
    """The packed (weight, bias) of a quantized Linear; state_dict: dtype, _packed_params."""

    _version = 3

    def __init__(self, dtype=core.qint8):
        super().__init__()
        self.dtype = dtype
        if dtype != core.qint8:
            raise NotImplementedError(f"LinearPackedParams: only qint8 weights are supported, got {dtype}")
        self.set_weight_bias(core._make_per_tensor_quantized_tensor(core.zeros((1, 1), dtype=core.int8), 1.0, 0),
                             None)

    def set_weight_bias(self, weight, bias):
        self._packed_params = _Q.linear_prepack(weight, bias)

    def _weight_bias(self):
        return self._packed_params.unpack()

    def forward(self, x):
        return x

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        super()._save_to_state_dict(destination, prefix, keep_vars)
        destination[prefix + "dtype"] = self.dtype
        destination[prefix + "_packed_params"] = self._weight_bias()

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                              error_msgs):
        version = local_metadata.get("version", None)
        self.dtype = core.qint8 if version is None or version < 2 else state_dict.pop(prefix + "dtype")
        if version is None or version < 3:
            self.set_weight_bias(state_dict.pop(prefix + "weight"), state_dict.pop(prefix + "bias"))
        else:
            weight, bias = state_dict.pop(prefix + "_packed_params")
            self.set_weight_bias(weight, bias)
        super()._load_from_state_dict(state_dict, prefix, local_metadata, False, missing_keys, unexpected_keys,
                                      error_msgs)

    def __getstate__(self):  # deepcopy / pickle: the packed weight is rebuilt from (weight, bias)
        state = self.__dict__.copy()
        state["_packed_params"] = self._weight_bias()
        return state

    def __setstate__(self, state):
        weight, bias = state.pop("_packed_params")
        super().__setstate__(state)
        self.set_weight_bias(weight, bias)

    def __repr__(self):
        return self._weight_bias().__repr__()


class Linear(nn.Module):
    """y = x W^T + b on quint8 x with qint8 W (per tensor or channel), requantized to
    (scale, zero_point)."""

    _version = 3
    _FLOAT_MODULE = nn.Linear

    def __init__(self, in_features, out_features, bias_=True, dtype=core.qint8):
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        bias = core.zeros(out_features) if bias_ else None
        qweight = core._make_per_tensor_quantized_tensor(core.zeros((out_features, in_features), dtype=core.int8),
                                                         1.0, 0)
        self._packed_params = LinearPackedParams(dtype)
        self._packed_params.set_weight_bias(qweight, bias)
        self.scale = 1.0
        self.zero_point = 0

    def _get_name(self):
        return "QuantizedLinear"

    def extra_repr(self):
        return (f"in_features={self.in_features}, out_features={self.out_features}, scale={self.scale}, "
                f"zero_point={self.zero_point}, qscheme={self.weight().qscheme()}")

    def _forward(self, x):
        return _Q.linear(x, self._packed_params._packed_params, self.scale, self.zero_point)

    def forward(self, x):
        return self._forward(x)

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        super()._save_to_state_dict(destination, prefix, keep_vars)
        destination[prefix + "scale"] = core.tensor(self.scale)
        destination[prefix + "zero_point"] = core.tensor(self.zero_point)

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                              error_msgs):
        self.scale = float(state_dict.pop(prefix + "scale"))
        self.zero_point = int(state_dict.pop(prefix + "zero_point"))
        version = local_metadata.get("version", None)
        if version is None or version == 1:  # the packed params were stored flat
            weight = state_dict.pop(prefix + "weight")
            bias = state_dict.pop(prefix + "bias")
            state_dict[prefix + "_packed_params.weight"] = weight
            state_dict[prefix + "_packed_params.bias"] = bias
        super()._load_from_state_dict(state_dict, prefix, local_metadata, False, missing_keys, unexpected_keys,
                                      error_msgs)

    def _weight_bias(self):
        return self._packed_params._weight_bias()

    def weight(self):
        return self._weight_bias()[0]

    def bias(self):
        return self._weight_bias()[1]

    def set_weight_bias(self, w, b):
        self._packed_params.set_weight_bias(w, b)

    @classmethod
    def from_float(cls, mod):
        """The quantized Linear of an observed float (or QAT) Linear."""
        if hasattr(mod, "weight_fake_quant"):  # QAT: the fake quantizer observed the weight
            weight_post_process = mod.weight_fake_quant
            activation_post_process = mod.activation_post_process
        else:
            if type(mod) is not cls._FLOAT_MODULE and not _is_fused_of(mod, cls._FLOAT_MODULE):
                raise AssertionError(f"nnq.{cls.__name__}.from_float only works for {cls._FLOAT_MODULE.__name__}")
            if not hasattr(mod, "qconfig"):
                raise AssertionError("Input float module must have qconfig defined")
            activation_post_process = _activation_post_process(mod, cls.__name__)
            if _is_fused(mod):
                mod = mod[0]
            weight_post_process = mod.qconfig.weight()
        weight_post_process(mod.weight)
        if weight_post_process.dtype != core.qint8:
            raise AssertionError("Weight observer must have dtype torch.qint8")
        qweight = _quantize_weight(mod.weight.detach().float(), weight_post_process)
        qlinear = cls(mod.in_features, mod.out_features, dtype=weight_post_process.dtype)
        qlinear.set_weight_bias(qweight, None if mod.bias is None else mod.bias.detach())
        qlinear.scale, qlinear.zero_point = _qparams_of(activation_post_process)
        return qlinear

    def __getstate__(self):
        return self.__dict__.copy()

    def __repr__(self):
        return _hide_packed_params_repr(self, LinearPackedParams)


def _hide_packed_params_repr(module, packed_params_cls):
    """The module's repr without its packed-params children (PyTorch's _hide_packed_params_repr)."""
    return module._repr_with_children((key, child) for key, child in module._modules.items()
                                      if not isinstance(child, packed_params_cls))


def _is_fused(mod):
    from core.nn.intrinsic import _FusedModule
    return isinstance(mod, _FusedModule)


def _is_fused_of(mod, float_cls):
    return _is_fused(mod) and type(mod[0]) is float_cls


class _ConvHardswish:
    """A quantized Conv2d and the Hardswish after it as one op (Conv2d._fused_step)."""

    __slots__ = ("conv", "hardswish")

    def __init__(self, conv, hardswish):
        self.conv, self.hardswish = conv, hardswish

    def forward(self, input):
        conv, hardswish = self.conv, self.hardswish
        if input.ndim != 4:
            raise ValueError("Input shape must be `(N, C, H, W)`!")
        return _Q.conv2d_hardswish(input, conv._packed_params, conv.scale, conv.zero_point,
                                   float(hardswish.scale), int(hardswish.zero_point))


class Conv2d(nn.Module):
    """2-d convolution on quint8 input with qint8 weights, requantized to (scale, zero_point);
    the output is in channels_last memory. state_dict: weight, bias, scale, zero_point."""

    _version = 2
    _FLOAT_MODULE = nn.Conv2d

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 bias=True, padding_mode="zeros"):
        super().__init__()
        if in_channels % groups != 0 or out_channels % groups != 0:
            raise ValueError("in_channels and out_channels must be divisible by groups")
        if padding_mode != "zeros":
            raise NotImplementedError(f"quantized Conv2d: padding_mode {padding_mode!r} is not supported")
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = _pair(kernel_size)
        self.stride = _pair(stride)
        self.padding = _pair(padding)
        self.dilation = _pair(dilation)
        self.transposed = False
        self.output_padding = _pair(0)
        self.groups = groups
        self.padding_mode = padding_mode
        qweight = core._make_per_tensor_quantized_tensor(
            core.zeros((out_channels, in_channels // groups) + self.kernel_size, dtype=core.int8), 1.0, 0)
        self.set_weight_bias(qweight, core.zeros(out_channels) if bias else None)
        self.scale = 1.0
        self.zero_point = 0

    def _get_name(self):
        return "QuantizedConv2d"

    def extra_repr(self):
        s = ("{in_channels}, {out_channels}, kernel_size={kernel_size}, stride={stride}, scale={scale}, "
             "zero_point={zero_point}")
        if self.padding != (0,) * len(self.padding):
            s += ", padding={padding}"
        if self.dilation != (1,) * len(self.dilation):
            s += ", dilation={dilation}"
        if self.groups != 1:
            s += ", groups={groups}"
        if self.bias() is None:
            s += ", bias=False"
        return s.format(**self.__dict__)

    def set_weight_bias(self, w, b):
        self._packed_params = _Q.conv2d_prepack(w, b, list(self.stride), list(self.padding), list(self.dilation),
                                                self.groups)

    def _weight_bias(self):
        return self._packed_params.unpack()

    def weight(self):
        return self._weight_bias()[0]

    def bias(self):
        return self._weight_bias()[1]

    def forward(self, input):
        if input.ndim != 4:
            raise ValueError("Input shape must be `(N, C, H, W)`!")
        return _Q.conv2d(input, self._packed_params, self.scale, self.zero_point)

    def _fused_step(self, modules, i):
        """Sequential's inference plan (nn/modules/_folding.py): this conv and a Hardswish after
        it, past the Identity modules fuse_modules leaves, as one op that maps the conv's bytes
        through hardswish's table while they are in cache; the bytes are those of the two
        modules run one after the other. Returns (step, index past the Hardswish) or None."""
        if type(self) is not Conv2d:  # subclasses (ConvReLU2d) clamp first
            return None
        j = i + 1
        while j < len(modules) and type(modules[j]) is nn.Identity and not modules[j]._has_hooks():
            j += 1
        if j == len(modules) or type(modules[j]) is not Hardswish or modules[j]._has_hooks():
            return None
        return _ConvHardswish(self, modules[j]), j + 1

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        super()._save_to_state_dict(destination, prefix, keep_vars)
        w, b = self._weight_bias()
        destination[prefix + "weight"] = w
        destination[prefix + "bias"] = b
        destination[prefix + "scale"] = core.tensor(self.scale)
        destination[prefix + "zero_point"] = core.tensor(self.zero_point)

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                              error_msgs):
        self.set_weight_bias(state_dict.pop(prefix + "weight"), state_dict.pop(prefix + "bias"))
        self.scale = float(state_dict.pop(prefix + "scale"))
        self.zero_point = int(state_dict.pop(prefix + "zero_point"))
        super()._load_from_state_dict(state_dict, prefix, local_metadata, False, missing_keys, unexpected_keys,
                                      error_msgs)

    def __getstate__(self):
        state = self.__dict__.copy()
        state["_packed_params"] = self._weight_bias()
        return state

    def __setstate__(self, state):
        weight, bias = state.pop("_packed_params")
        super().__setstate__(state)
        self.set_weight_bias(weight, bias)

    @classmethod
    def from_float(cls, mod):
        """The quantized Conv2d of an observed float, fused or QAT Conv2d."""
        if hasattr(mod, "weight_fake_quant"):  # QAT modules (BN already folded into the weight)
            if hasattr(mod, "bn"):
                mod.weight, mod.bias = _fold_bn_of_qat(mod)
            weight_post_process = mod.weight_fake_quant
            activation_post_process = mod.activation_post_process
        else:
            if not hasattr(mod, "qconfig"):
                raise AssertionError("Input float module must have qconfig defined.")
            activation_post_process = _activation_post_process(mod, cls.__name__)
            if _is_fused(mod):
                mod = mod[0]
            weight_post_process = mod.qconfig.weight()
        weight_post_process(mod.weight)
        qweight = _quantize_weight(mod.weight.detach().float(), weight_post_process)
        qconv = cls(mod.in_channels, mod.out_channels, mod.kernel_size, mod.stride, mod.padding, mod.dilation,
                    mod.groups, mod.bias is not None, mod.padding_mode)
        qconv.set_weight_bias(qweight, None if mod.bias is None else mod.bias.detach())
        qconv.scale, qconv.zero_point = _qparams_of(activation_post_process)
        return qconv


def _fold_bn_of_qat(mod):
    """(weight, bias) of a QAT ConvBn module with its batch norm folded in (eval statistics)."""
    from core.nn.utils.fusion import fuse_conv_bn_weights
    weight, bias = fuse_conv_bn_weights(mod.weight, mod.bias, mod.bn.running_mean, mod.bn.running_var, mod.bn.eps,
                                        mod.bn.weight, mod.bn.bias)
    return nn.Parameter(weight.detach()), nn.Parameter(bias.detach())


class ReLU6(nn.ReLU):
    """min(max(x, 0), 6) on stored integers; keeps the input's qparams."""

    def __init__(self, inplace=False):
        super().__init__(inplace)
        self.inplace = inplace

    def forward(self, input):
        return _Q.clamp(input, 0.0, 6.0)

    def _get_name(self):
        return "QuantizedReLU6"

    @staticmethod
    def from_float(mod):
        return ReLU6(mod.inplace)


class Hardswish(nn.Hardswish):
    """x * relu6(x + 3) / 6, requantized to (scale, zero_point)."""

    def __init__(self, scale, zero_point):
        super().__init__()
        self.scale = scale
        self.zero_point = zero_point

    def forward(self, input):
        return _Q.hardswish(input, float(self.scale), int(self.zero_point))

    def _get_name(self):
        return "QuantizedHardswish"

    @staticmethod
    def from_float(mod):
        scale, zero_point = _qparams_of(mod.activation_post_process)
        return Hardswish(scale, zero_point)


class Hardsigmoid(nn.Hardsigmoid):
    """relu6(x + 3) / 6 with PyTorch's fixed output qparams (scale 1/256, zero point 0)."""

    def forward(self, input):
        return _Q.hardsigmoid(input)

    def _get_name(self):
        return "QuantizedHardsigmoid"

    @staticmethod
    def from_float(mod):
        return Hardsigmoid()
