"""Quantized BatchNorm2d and the quantized (8-bit, per-row float qparams) Embedding and
EmbeddingBag of torch.nn.quantized 1.8: names, reprs and state_dict keys as PyTorch's."""
import core
from core import nn
from core.nn.quantized.modules import _hide_packed_params_repr, _qparams_of

__all__ = ["BatchNorm2d", "Embedding", "EmbeddingBag", "EmbeddingPackedParams"]


def _batch_norm_ints(x, mod, relu):
    """quantized::batch_norm2d: per channel y = round((x - zx) * alpha + beta) clamped to quint8, with
    alpha = w / sqrt(var + eps) * sx / sy and beta = (b - mean * w / sqrt(var + eps)) / sy + zy."""
    if not x.is_quantized or x.dtype != core.quint8:
        raise TypeError(f"{mod._get_name()}: expected a quint8 input, got {x.dtype}")
    if x.ndim != 4:
        raise ValueError(f"{mod._get_name()}: expected a 4-d (N, C, H, W) input, got {x.ndim}-d")
    inv_sigma = (mod.running_var.float() + mod.eps).rsqrt()
    weight = mod.weight.detach().float() if mod.weight is not None else core.ones_like(inv_sigma)
    bias = mod.bias.detach().float() if mod.bias is not None else core.zeros_like(inv_sigma)
    alpha = (weight * inv_sigma * (x.q_scale() / mod.scale)).reshape(1, -1, 1, 1)
    beta = ((bias - mod.running_mean.float() * weight * inv_sigma) / mod.scale + mod.zero_point).reshape(1, -1, 1, 1)
    ints = (x.int_repr().float() - x.q_zero_point()) * alpha + beta
    ints = ints.round().clamp(mod.zero_point if relu else 0, 255).to(core.uint8)
    return core._make_per_tensor_quantized_tensor(ints, mod.scale, mod.zero_point)


class BatchNorm2d(nn.BatchNorm2d):
    """Batch norm (eval statistics) of a quint8 tensor, requantized to (scale, zero_point)."""

    _FUSED_RELU = False

    def __init__(self, num_features, eps=1e-5, momentum=0.1):
        super().__init__(num_features, eps=eps, momentum=momentum)
        self.scale = 1.0
        self.zero_point = 0

    def forward(self, input):
        return _batch_norm_ints(input, self, self._FUSED_RELU)

    def _get_name(self):
        return "QuantizedBatchNorm2d"

    @classmethod
    def from_float(cls, mod):
        from core.nn.intrinsic import BNReLU2d
        if not hasattr(mod, "activation_post_process"):
            raise RuntimeError(f"{cls.__name__}.from_float: the input float module has no observer "
                               "(activation_post_process); run prepare() first")
        activation_post_process = mod.activation_post_process
        if type(mod) is BNReLU2d:
            mod = mod[0]
        new_mod = cls(mod.num_features, mod.eps)
        new_mod.weight, new_mod.bias = mod.weight, mod.bias
        new_mod.running_mean, new_mod.running_var = mod.running_mean, mod.running_var
        new_mod.scale, new_mod.zero_point = _qparams_of(activation_post_process)
        return new_mod


def _row_qparams(weight):
    scales = weight.q_per_channel_scales().float()
    zero_points = weight.q_per_channel_zero_points().float()
    return scales, zero_points


def _check_float_qparams_weight(weight, op):
    if not weight.is_quantized or weight.dtype != core.quint8 or \
            weight.qscheme() is not core.per_channel_affine_float_qparams or weight.q_per_channel_axis() != 0:
        raise TypeError(f"{op}: the weight must be quint8, quantized per row (axis 0) with float qparams "
                        "(per_channel_affine_float_qparams)")


class EmbeddingPackedParams(nn.Module):
    """The quantized embedding table; state_dict: dtype, _packed_weight."""

    _version = 1

    def __init__(self, num_embeddings, embedding_dim, dtype=core.quint8):
        super().__init__()
        if dtype != core.quint8:
            raise NotImplementedError(f"quantized Embedding: only quint8 weights are supported, got {dtype}")
        self.dtype = dtype
        self.set_weight(core.quantize_per_channel(core.zeros(num_embeddings, embedding_dim), core.ones(num_embeddings),
                                                  core.zeros(num_embeddings), 0, core.quint8))

    def set_weight(self, weight):
        _check_float_qparams_weight(weight, "EmbeddingPackedParams.set_weight")
        self._packed_weight = weight

    def _weight(self):
        return self._packed_weight

    def forward(self, x):
        return x

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        super()._save_to_state_dict(destination, prefix, keep_vars)
        destination[prefix + "dtype"] = self.dtype
        destination[prefix + "_packed_weight"] = self._weight()

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                              error_msgs):
        self.dtype = state_dict.pop(prefix + "dtype")
        self.set_weight(state_dict.pop(prefix + "_packed_weight"))
        super()._load_from_state_dict(state_dict, prefix, local_metadata, False, missing_keys, unexpected_keys,
                                      error_msgs)

    def __repr__(self):
        return self._weight().__repr__()


class Embedding(nn.Module):
    """Rows of an 8-bit table (per-row float scale and zero point), returned as float32."""

    _version = 1

    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, max_norm=None, norm_type=2.0,
                 scale_grad_by_freq=False, sparse=False, _weight=None, dtype=core.quint8):
        super().__init__()
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        self._packed_params = EmbeddingPackedParams(num_embeddings, embedding_dim, dtype)
        if _weight is not None:
            if list(_weight.shape) != [num_embeddings, embedding_dim]:
                raise ValueError("Shape of _weight does not match num_embeddings and embedding_dim")
            self._packed_params.set_weight(_weight)

    def _rows(self, indices):
        """The dequantized rows of `indices` (flattened)."""
        if indices.dtype not in (core.int64, core.int32):
            raise TypeError(f"{self._get_name()}: indices must be int64 or int32, got {indices.dtype}")
        flat = indices.reshape(-1).long()
        if flat.numel() and (int(flat.min()) < 0 or int(flat.max()) >= self.num_embeddings):
            raise IndexError(f"{self._get_name()}: index out of range for {self.num_embeddings} embeddings")
        weight = self._packed_params._packed_weight
        scales, zero_points = _row_qparams(weight)
        rows = weight.int_repr().index_select(0, flat).float()
        return (rows - zero_points.index_select(0, flat).unsqueeze(1)) * scales.index_select(0, flat).unsqueeze(1)

    def forward(self, indices):
        return self._rows(indices).reshape(tuple(indices.shape) + (self.embedding_dim,))

    def _get_name(self):
        return "QuantizedEmbedding"

    def __repr__(self):
        return _hide_packed_params_repr(self, EmbeddingPackedParams)

    def extra_repr(self):
        return (f"num_embeddings={self.num_embeddings}, embedding_dim={self.embedding_dim}, "
                f"dtype={self._packed_params.dtype}, qscheme={self.weight().qscheme()}")

    def set_weight(self, w):
        self._packed_params.set_weight(w)

    def weight(self):
        return self._packed_params._weight()

    @classmethod
    def _quantized_weight_of(cls, mod):
        if type(mod) is not cls._FLOAT_MODULE:
            raise AssertionError(f"nnq.{cls.__name__}.from_float only works for {cls._FLOAT_MODULE.__name__}")
        if not hasattr(mod, "qconfig") or mod.qconfig is None:
            raise AssertionError(f"{cls.__name__} input float module must have qconfig defined")
        weight_observer = mod.qconfig.weight()
        if weight_observer.qscheme is not core.per_channel_affine_float_qparams:
            raise AssertionError(f"{cls.__name__} quantization is only supported with "
                                 "float_qparams_weight_only_qconfig")
        if weight_observer.dtype != core.quint8:
            raise AssertionError(f"The only supported dtype for nnq.{cls.__name__} is torch.quint8")
        weight_observer(mod.weight)
        return _quantize_weight_float_qparams(mod.weight.detach().float(), weight_observer)

    @classmethod
    def from_float(cls, mod):
        qembedding = cls(mod.num_embeddings, mod.embedding_dim)
        qembedding.set_weight(cls._quantized_weight_of(mod))
        return qembedding


Embedding._FLOAT_MODULE = nn.Embedding


def _quantize_weight_float_qparams(w, observer):
    scales, zero_points = observer.calculate_qparams()
    return core.quantize_per_channel(w, scales.float(), zero_points.float(), observer.ch_axis, core.quint8)


class EmbeddingBag(Embedding):
    """Sums of 8-bit rows per bag (PyTorch 1.8 quantizes the 'sum' mode), float32 out."""

    _version = 1
    _FLOAT_MODULE = nn.EmbeddingBag

    def __init__(self, num_embeddings, embedding_dim, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
                 mode="sum", sparse=False, _weight=None, include_last_offset=False, dtype=core.quint8):
        super().__init__(num_embeddings, embedding_dim, _weight=_weight, dtype=dtype)
        if mode != "sum":
            raise NotImplementedError(f"quantized EmbeddingBag: only mode='sum' is supported, got {mode!r}")
        self.mode = mode
        self.pruned_weights = False
        self.include_last_offset = include_last_offset
        self.dtype = dtype

    def forward(self, indices, offsets=None, per_sample_weights=None, compressed_indices_mapping=None):
        if compressed_indices_mapping is not None:
            raise NotImplementedError("quantized EmbeddingBag: pruned weights are not supported")
        rows = self._rows(indices)
        positions = core.arange(rows.shape[0])
        if indices.ndim == 2:
            positions = positions.reshape(indices.shape)
        return nn.functional.embedding_bag(positions, rows, offsets, mode="sum",
                                           per_sample_weights=per_sample_weights,
                                           include_last_offset=self.include_last_offset)

    def _get_name(self):
        return "QuantizedEmbeddingBag"

    @classmethod
    def from_float(cls, mod):
        qweight = cls._quantized_weight_of(mod)
        qembedding_bag = cls(mod.num_embeddings, mod.embedding_dim, include_last_offset=mod.include_last_offset,
                             dtype=qweight.dtype)
        qembedding_bag.set_weight(qweight)
        return qembedding_bag

