"""Loss functions (torch.nn.functional's, PyTorch 1.8 semantics; label smoothing as in 1.10).

nll_loss, ctc_loss and the losses PyTorch records as one autograd node (mse_loss, smooth_l1_loss,
huber_loss, soft_margin_loss, binary_cross_entropy[_with_logits]) are C++ ops with their own
backward; the others are compositions of differentiable core ops, as in PyTorch.
"""
import math
import warnings

import core
from core._argcheck import warn

__all__ = [
    "nll_loss", "cross_entropy", "binary_cross_entropy", "binary_cross_entropy_with_logits",
    "mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss", "kl_div", "ctc_loss",
    "margin_ranking_loss", "cosine_embedding_loss", "triplet_margin_loss",
    "triplet_margin_with_distance_loss", "soft_margin_loss", "multilabel_soft_margin_loss",
    "hinge_embedding_loss", "poisson_nll_loss", "gaussian_nll_loss", "multi_margin_loss", "multilabel_margin_loss",
]

_REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}
_nn = core._C._internal  # the loss ops PyTorch keeps in torch._C._nn


def _legacy_get_string(size_average, reduce, emit_warning=True):
    """torch's _Reduction.legacy_get_string: the deprecated size_average/reduce pair as a reduction."""
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    if size_average and reduce:
        ret = "mean"
    elif reduce:
        ret = "sum"
    else:
        ret = "none"
    if emit_warning:
        warnings.warn(f"size_average and reduce args will be deprecated, please use reduction='{ret}' instead.")
    return ret


def _reduction(size_average, reduce, reduction):
    if size_average is not None or reduce is not None:
        return _legacy_get_string(size_average, reduce)
    return reduction


def _reduction_enum(reduction):
    try:
        return _REDUCTIONS[reduction]
    except (KeyError, TypeError):
        raise ValueError(f"{reduction} is not a valid value for reduction") from None


def _reduce(loss, reduction):
    code = _reduction_enum(reduction)
    if code == 1:
        return loss.mean()
    if code == 2:
        return loss.sum()
    return loss


def _check_tensor(name, **tensors):
    for arg, t in tensors.items():
        if not isinstance(t, core.Tensor):
            raise TypeError(f"{name}(): argument '{arg}' must be Tensor, not {type(t).__name__}")


def _logsigmoid(x):
    from core.nn.functional import logsigmoid  # the activation family's fused, stable op
    return logsigmoid(x)


# ---------------------------------------------------------------- classification

def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    _check_tensor("nll_loss", input=input, target=target)
    return core._nll_loss_forward(input, target, weight, _reduction_enum(reduction), ignore_index)[0]


def _weight_along(weight, ndim, class_dim):
    """weight (C,) shaped to broadcast along class_dim of an ndim-D tensor."""
    shape = [1] * ndim
    shape[class_dim] = weight.shape[0]
    return weight.reshape(shape)


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
                  reduction="mean", label_smoothing=0.0):
    reduction = _reduction(size_average, reduce, reduction)
    _check_tensor("cross_entropy", input=input, target=target)
    if not 0.0 <= label_smoothing <= 1.0:
        raise RuntimeError(f"cross_entropy(): label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
    code = _reduction_enum(reduction)
    class_dim = 0 if input.dim() == 1 else 1
    logp = core.log_softmax(input, class_dim)
    if input.shape == target.shape and input.dim() > 0:
        return _cross_entropy_probs(logp, target, weight, ignore_index, code, label_smoothing, class_dim)
    nll, total_weight = core._nll_loss_forward(logp, target, weight, code, ignore_index)
    if label_smoothing == 0.0:
        return nll
    # PyTorch 1.10: blend with the (weighted) mean of -log p over classes, ignored targets
    # contributing 0 and the mean normalised by the same total weight as nll_loss's.
    prod = logp if weight is None else logp * _weight_along(weight, logp.dim(), class_dim)
    smooth = core.masked_fill(-prod.sum(class_dim), target == ignore_index, 0.0)
    if code == 1:
        smooth = smooth.sum() / total_weight
    elif code == 2:
        smooth = smooth.sum()
    n_classes = input.shape[class_dim]
    return nll * (1.0 - label_smoothing) + smooth * (label_smoothing / n_classes)


def _cross_entropy_probs(logp, target, weight, ignore_index, code, label_smoothing, class_dim):
    if not target.dtype.is_floating_point:
        raise RuntimeError(f"cross_entropy(): Expected floating point type for target with class probabilities, "
                           f"got {target.dtype}")
    if ignore_index >= 0:
        raise RuntimeError("cross_entropy(): ignore_index is not supported for floating point target")
    n_classes = logp.shape[class_dim]
    if label_smoothing > 0.0:
        target = target * (1.0 - label_smoothing) + label_smoothing / n_classes
    prod = logp * target
    if weight is not None:
        prod = prod * _weight_along(weight, logp.dim(), class_dim)
    if code == 1:
        return -prod.sum() / (logp.numel() / n_classes)
    if code == 2:
        return -prod.sum()
    return -prod.sum(class_dim)


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    _check_tensor("binary_cross_entropy", input=input, target=target)
    if target.shape != input.shape:
        raise ValueError(f"binary_cross_entropy(): Using a target size ({target.shape}) that is different to the "
                         f"input size ({input.shape}) is deprecated. Please ensure they have the same size.")
    if bool(((input < 0) | (input > 1)).any()):
        raise RuntimeError("binary_cross_entropy(): all elements of input should be between 0 and 1")
    return _nn["binary_cross_entropy"](input, target, weight, _reduction_enum(reduction))


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None,
                                     reduction="mean", pos_weight=None):
    reduction = _reduction(size_average, reduce, reduction)
    _check_tensor("binary_cross_entropy_with_logits", input=input, target=target)
    if target.shape != input.shape:
        raise ValueError(f"binary_cross_entropy_with_logits(): Target size ({target.shape}) must be the same as "
                         f"input size ({input.shape})")
    return _nn["binary_cross_entropy_with_logits"](input, target, weight, pos_weight, _reduction_enum(reduction))


def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    _check_tensor("multilabel_soft_margin_loss", input=input, target=target)
    loss = -(target * _logsigmoid(input) + (1 - target) * _logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input.dim() - 1
    loss = loss.sum(class_dim) / input.shape[class_dim]
    return _reduce(loss, reduction)


def multi_margin_loss(input, target, p=1, margin=1.0, weight=None, size_average=None, reduce=None,
                      reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    _check_tensor("multi_margin_loss", input=input, target=target)
    if p not in (1, 2):
        raise ValueError("multi_margin_loss(): only p == 1 and p == 2 supported")
    if input.dim() not in (1, 2) or target.dim() != input.dim() - 1:
        raise RuntimeError(f"multi_margin_loss(): inconsistent target size: {target.shape} for input of size: "
                           f"{input.shape}")
    x = input if input.dim() == 2 else input.unsqueeze(0)
    y = target.reshape(-1, 1)
    if y.shape[0] != x.shape[0]:
        raise RuntimeError(f"multi_margin_loss(): inconsistent target size: {target.shape} for input of size: "
                           f"{input.shape}")
    n_classes = x.shape[1]
    z = core.clamp_min(margin - x.gather(1, y) + x, 0)
    if p == 2:
        z = z * z
    if weight is not None:
        z = z * weight.index_select(0, y.reshape(-1)).reshape(-1, 1)
    z = core.masked_fill(z, core.arange(n_classes).reshape(1, -1) == y, 0.0)
    loss = z.sum(1) / n_classes
    if input.dim() == 1:
        loss = loss.reshape(())
    return _reduce(loss, reduction)


def multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    _check_tensor("multilabel_margin_loss", input=input, target=target)
    if input.dim() not in (1, 2) or target.shape != input.shape:
        raise RuntimeError(f"multilabel_margin_loss(): inconsistent target size: {target.shape} for input of size: "
                           f"{input.shape}")
    x = input if input.dim() == 2 else input.unsqueeze(0)
    y = target if target.dim() == 2 else target.unsqueeze(0)
    # the targets of a sample are its entries before the first -1 (a class listed twice counts twice)
    valid = core.cumprod((y != -1).long(), 1) > 0
    idx = core.where(valid, y, 0)
    is_target = core.zeros(x.shape, dtype=x.dtype).scatter_add(1, idx, valid.to(x.dtype)) > 0
    # hinge of every (target j, non-target k) pair: 1 - x[y_j] + x[k]
    hinge = core.clamp_min(1 - x.gather(1, idx).unsqueeze(2) + x.unsqueeze(1), 0)
    pairs = valid.unsqueeze(2) & core.logical_not(is_target).unsqueeze(1)
    loss = core.where(pairs, hinge, 0.0).sum((1, 2)) / x.shape[1]
    if input.dim() == 1:
        loss = loss.reshape(())
    return _reduce(loss, reduction)


# ---------------------------------------------------------------- regression

def _broadcast_warning(name, input, target):
    if target.shape != input.shape:
        warn(f"Using a target size ({target.shape}) that is different to the input size ({input.shape}). "
             "This will likely lead to incorrect results due to broadcasting. "
             "Please ensure they have the same size.", stacklevel=3)


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    _check_tensor("mse_loss", input=input, target=target)
    _broadcast_warning("mse_loss", input, target)
    return _nn["mse_loss"](input, target, _reduction_enum(reduction))


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    _check_tensor("l1_loss", input=input, target=target)
    _broadcast_warning("l1_loss", input, target)
    return _reduce(core.abs(input - target), reduction)


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    reduction = _reduction(size_average, reduce, reduction)
    _check_tensor("smooth_l1_loss", input=input, target=target)
    _broadcast_warning("smooth_l1_loss", input, target)
    return _nn["smooth_l1_loss"](input, target, _reduction_enum(reduction), beta)


def huber_loss(input, target, reduction="mean", delta=1.0):
    _check_tensor("huber_loss", input=input, target=target)
    _broadcast_warning("huber_loss", input, target)
    return _nn["huber_loss"](input, target, _reduction_enum(reduction), delta)


def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):
    if size_average is not None or reduce is not None:
        reduction = _legacy_get_string(size_average, reduce)
    elif reduction == "mean":
        warnings.warn("reduction: 'mean' divides the total loss by both the batch size and the support size."
                      "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
                      "'mean' will be changed to behave the same as 'batchmean' in the next major release.")
    _check_tensor("kl_div", input=input, target=target)
    if log_target:
        loss = core.exp(target) * (target - input)
    else:
        loss = core.xlogy(target, target) - target * input
    if reduction == "batchmean":
        total = loss.sum()
        return total / input.shape[0] if input.dim() != 0 else total
    return _reduce(loss, reduction)


def poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8, reduce=None,
                     reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    _check_tensor("poisson_nll_loss", input=input, target=target)
    _reduction_enum(reduction)
    if log_input:
        loss = core.exp(input) - target * input
    else:
        loss = input - target * core.log(input + eps)
    if full:
        # Stirling's approximation of log(target!), for targets > 1 only.
        stirling = target * core.log(target) - target + 0.5 * core.log(2 * math.pi * target)
        loss = loss + core.masked_fill(stirling, target <= 1, 0.0)
    return _reduce(loss, reduction)


def gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction="mean"):
    _check_tensor("gaussian_nll_loss", input=input, target=target, var=var)
    if var.shape != input.shape:
        if input.shape[:-1] == var.shape:
            var = var.unsqueeze(-1)  # homoscedastic: one variance per sample
        elif not (input.shape[:-1] == var.shape[:-1] and var.dim() > 0 and var.shape[-1] == 1):
            raise ValueError("gaussian_nll_loss(): var is of incorrect size")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    if bool((var < 0).any()):
        raise ValueError("gaussian_nll_loss(): var has negative entry/entries")
    # clamped for stability; the gradient passes the clamp unchanged (PyTorch clamps under no_grad)
    var = var + (core.clamp_min(var, eps) - var).detach()
    loss = 0.5 * (core.log(var) + core.square(input - target) / var)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return _reduce(loss, reduction)


# ---------------------------------------------------------------- embeddings and margins

def margin_ranking_loss(input1, input2, target, margin=0.0, size_average=None, reduce=None, reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    _check_tensor("margin_ranking_loss", input1=input1, input2=input2, target=target)
    if input1.dim() != input2.dim() or input1.dim() != target.dim():
        raise RuntimeError(f"margin_ranking_loss(): All input tensors should have same dimension but got sizes: "
                           f"input1: {input1.shape}, input2: {input2.shape}, target: {target.shape} ")
    return _reduce(core.clamp_min(-target * (input1 - input2) + margin, 0), reduction)


def hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None, reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    _check_tensor("hinge_embedding_loss", input=input, target=target)
    margin_part = core.where(target != 1, core.clamp_min(margin - input, 0), 0.0)
    self_part = core.where(target != -1, input, 0.0)
    return _reduce(margin_part + self_part, reduction)


def soft_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    _check_tensor("soft_margin_loss", input=input, target=target)
    return _nn["soft_margin_loss"](input, target, _reduction_enum(reduction))


def cosine_embedding_loss(input1, input2, target, margin=0.0, size_average=None, reduce=None, reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    _check_tensor("cosine_embedding_loss", input1=input1, input2=input2, target=target)
    d = target.dim()
    if d > 1:
        raise RuntimeError("cosine_embedding_loss(): 0D or 1D target tensor expected, multi-target not supported")
    if input1.dim() != d + 1 or input2.dim() != d + 1:
        raise RuntimeError(f"cosine_embedding_loss(): {d}D target tensor expects {d + 1}D input tensors, but found "
                           f"inputs with sizes {list(input1.shape)} and {list(input2.shape)}.")
    eps = 1e-12
    prod = (input1 * input2).sum(d)
    mag = ((input1 * input1).sum(d) + eps) * ((input2 * input2).sum(d) + eps)
    cos = prod / core.sqrt(mag)
    pos = core.where(target == 1, 1 - cos, 0.0)
    neg = core.where(target == -1, core.clamp_min(cos - margin, 0), 0.0)
    return _reduce(pos + neg, reduction)


def _pairwise_distance(x1, x2, p, eps):
    return core.pairwise_distance(x1, x2, p, eps)


def _check_triplet_dims(name, anchor, positive, negative):
    if not (anchor.dim() == positive.dim() == negative.dim()):
        raise RuntimeError(f"{name}(): The anchor, positive, and negative tensors are expected to have the same "
                           f"number of dimensions, but got: anchor {anchor.dim()}D, positive {positive.dim()}D, "
                           f"and negative {negative.dim()}D inputs")


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False, size_average=None,
                        reduce=None, reduction="mean"):
    reduction = _reduction(size_average, reduce, reduction)
    _check_tensor("triplet_margin_loss", anchor=anchor, positive=positive, negative=negative)
    _check_triplet_dims("triplet_margin_loss", anchor, positive, negative)
    d_pos = _pairwise_distance(anchor, positive, p, eps)
    d_neg = _pairwise_distance(anchor, negative, p, eps)
    if swap:
        d_neg = core.minimum(d_neg, _pairwise_distance(positive, negative, p, eps))
    return _reduce(core.clamp_min(margin + d_pos - d_neg, 0), reduction)


def triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None, margin=1.0,
                                      swap=False, reduction="mean"):
    _check_tensor("triplet_margin_with_distance_loss", anchor=anchor, positive=positive, negative=negative)
    _check_triplet_dims("triplet_margin_with_distance_loss", anchor, positive, negative)
    if margin <= 0:
        raise ValueError(f"triplet_margin_with_distance_loss(): margin must be greater than 0, got {margin}")
    dist = distance_function if distance_function is not None else (
        lambda a, b: _pairwise_distance(a, b, 2.0, 1e-6))
    d_pos = dist(anchor, positive)
    d_neg = dist(anchor, negative)
    if swap:
        d_neg = core.minimum(d_neg, dist(positive, negative))
    return _reduce(core.clamp_min(margin + d_pos - d_neg, 0), reduction)


# ---------------------------------------------------------------- sequences

def _lengths(name, lengths):
    if isinstance(lengths, core.Tensor):
        if lengths.dtype.is_floating_point:
            raise RuntimeError(f"ctc_loss(): {name} must be integral, got {lengths.dtype}")
        lengths = lengths.reshape(-1).tolist()
    elif isinstance(lengths, int):
        lengths = [lengths]
    return [int(v) for v in lengths]


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean", zero_infinity=False):
    _check_tensor("ctc_loss", log_probs=log_probs, targets=targets)
    code = _reduction_enum(reduction)
    il = _lengths("input_lengths", input_lengths)
    tl = _lengths("target_lengths", target_lengths)
    unbatched = log_probs.dim() == 2
    if unbatched:
        log_probs = log_probs.unsqueeze(1)
        targets = targets.unsqueeze(0)
    nll = core._ctc_loss(log_probs, targets, il, tl, blank, zero_infinity)[0]
    if zero_infinity:
        nll = core.where(nll == math.inf, 0.0, nll)
    if code == 1:
        return (nll / core.clamp_min(core.tensor(tl, dtype=nll.dtype), 1)).mean()
    if code == 2:
        return nll.sum()
    return nll.reshape(()) if unbatched else nll
