"""Sigmoid focal loss (RetinaNet, Lin et al. 2017)."""
import core
from core.nn import functional as F

__all__ = ["sigmoid_focal_loss"]


def sigmoid_focal_loss(inputs, targets, alpha=0.25, gamma=2, reduction="none"):
    """Binary cross-entropy on logits down-weighted for well-classified examples.

    Args:
        inputs (Tensor): logits of any shape.
        targets (Tensor): binary labels (0 or 1) of the same shape.
        alpha (float): weight of the positives in (0, 1); negatives get 1 - alpha. < 0: no weighting.
        gamma (float): the focusing exponent of (1 - p_t).
        reduction (str): 'none' | 'mean' | 'sum'.
    """
    p = core.sigmoid(inputs)
    ce_loss = F.binary_cross_entropy_with_logits(inputs, targets, reduction="none")
    p_t = p * targets + (1 - p) * (1 - targets)
    loss = ce_loss * ((1 - p_t) ** gamma)
    if alpha >= 0:
        alpha_t = alpha * targets + (1 - alpha) * (1 - targets)
        loss = alpha_t * loss
    if reduction == "mean":
        loss = loss.mean()
    elif reduction == "sum":
        loss = loss.sum()
    return loss
