"""torch's top-level loss functions (torch.ctc_loss, torch.kl_div, ...): the reduction is an int
(0 none, 1 mean, 2 sum) like torch's; each calls core.nn.functional's. They live beside
core.nn (core's package root re-exports them once nn is loaded), so no core module imports up."""
import warnings

from core.nn import functional as F

__all__ = ["ctc_loss", "binary_cross_entropy_with_logits", "kl_div", "margin_ranking_loss",
           "cosine_embedding_loss", "triplet_margin_loss", "hinge_embedding_loss", "poisson_nll_loss"]

_NAMES = ("none", "mean", "sum")


def _reduction(code):
    if code not in (0, 1, 2):
        raise ValueError(f"{code} is not a valid value for reduction")
    return _NAMES[code]


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction=1, zero_infinity=False):
    return F.ctc_loss(log_probs, targets, input_lengths, target_lengths, blank, _reduction(reduction),
                         zero_infinity)


def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None, reduction=1):
    return F.binary_cross_entropy_with_logits(input, target, weight, reduction=_reduction(reduction),
                                                 pos_weight=pos_weight)


def kl_div(input, target, reduction=1, log_target=False):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the 'mean' deprecation warning is F.kl_div's, not torch.kl_div's
        return F.kl_div(input, target, reduction=_reduction(reduction), log_target=log_target)


def margin_ranking_loss(input1, input2, target, margin=0.0, reduction=1):
    return F.margin_ranking_loss(input1, input2, target, margin, reduction=_reduction(reduction))


def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction=1):
    return F.cosine_embedding_loss(input1, input2, target, margin, reduction=_reduction(reduction))


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False, reduction=1):
    return F.triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap,
                                    reduction=_reduction(reduction))


def hinge_embedding_loss(input, target, margin=1.0, reduction=1):
    return F.hinge_embedding_loss(input, target, margin, reduction=_reduction(reduction))


def poisson_nll_loss(input, target, log_input, full, eps, reduction):
    return F.poisson_nll_loss(input, target, log_input, full, eps=eps, reduction=_reduction(reduction))

