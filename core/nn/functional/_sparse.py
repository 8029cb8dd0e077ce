"""Sparse-layer functions of torch.nn.functional (PyTorch 1.8 semantics): embedding,
embedding_bag, one_hot."""
import warnings

import core
from core._native import _C

__all__ = ["embedding", "embedding_bag", "one_hot"]

_ops = _C._functions
one_hot = _ops["one_hot"]


def _padding_index(padding_idx, num_embeddings, what):
    """padding_idx checked and made non-negative (None stays None)."""
    if padding_idx is None:
        return None
    if padding_idx > 0:
        assert padding_idx < num_embeddings, "{} must be within num_embeddings".format(what)
    elif padding_idx < 0:
        assert padding_idx >= -num_embeddings, "{} must be within num_embeddings".format(what)
        padding_idx = num_embeddings + padding_idx
    return padding_idx


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
              sparse=False):
    padding_idx = _padding_index(padding_idx, weight.size(0), "Padding_idx")
    padding_idx = -1 if padding_idx is None else padding_idx
    if max_norm is not None:
        input = input.contiguous()
        with core.no_grad():
            _ops["embedding_renorm_"](weight, input, max_norm, norm_type)
    return _ops["embedding"](weight, input, padding_idx, scale_grad_by_freq, sparse)


def embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2, scale_grad_by_freq=False, mode="mean",
                  sparse=False, per_sample_weights=None, include_last_offset=False, padding_idx=None):
    # The argument order used to be (weight, input).
    if weight.dtype == core.long and input.is_floating_point():
        warnings.warn("Argument order of nn.functional.embedding_bag was changed. Usage `embedding_bag(weight, "
                      "input, ...)` is deprecated, and should now be `embedding_bag(input, weight, ...)`.")
        weight, input = input, weight
    if per_sample_weights is not None and input.size() != per_sample_weights.size():
        raise ValueError("embedding_bag: If per_sample_weights ({}) is not None, then it must have the same shape "
                         "as the input ({})".format(per_sample_weights.shape, input.shape))
    bag_name = None
    if input.dim() == 2:
        if offsets is not None:
            raise ValueError("if input is 2D, then offsets has to be None, as input is treated is a mini-batch of "
                             "fixed length sequences. However, found offsets of type {}".format(type(offsets)))
        offsets = core.arange(0, input.numel(), input.size(1), dtype=input.dtype)
        bag_name = input.names[0]  # a named batch of sequences: the bags keep its name
        input = input.flatten()
        if per_sample_weights is not None:
            per_sample_weights = per_sample_weights.flatten()
    elif input.dim() == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        if offsets.dim() != 1:
            raise ValueError("offsets has to be a 1D Tensor")
    else:
        raise ValueError("input has to be 1D or 2D Tensor, but got Tensor of dimension {}".format(input.dim()))
    if mode == "sum":
        mode_enum = 0
    elif mode == "mean":
        mode_enum = 1
    elif mode == "max":
        mode_enum = 2
        if scale_grad_by_freq:
            raise ValueError("max mode does not support scaling the gradient by the frequency")
        if sparse:
            raise ValueError("max mode does not support sparse weights")
    else:
        raise ValueError("mode has to be one of sum, mean or max")
    if max_norm is not None:
        with core.no_grad():
            _ops["embedding_renorm_"](weight, input, max_norm, norm_type)
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError("embedding_bag: per_sample_weights was not None. per_sample_weights is only "
                                  "supported for mode='sum' (got mode='{}'). Please open a feature request on "
                                  "GitHub.".format(mode))
    padding_idx = _padding_index(padding_idx, weight.size(0), "padding_idx")
    padding_idx = -1 if padding_idx is None else padding_idx
    ret, _, _, _ = _ops["embedding_bag"](weight, input, offsets, scale_grad_by_freq, mode_enum, sparse,
                                         per_sample_weights, include_last_offset, padding_idx)
    return ret if bag_name is None else ret.refine_names(bag_name, None)
