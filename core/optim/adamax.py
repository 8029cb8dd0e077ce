from core.optim import _functional as F
from core.optim.optimizer import _GroupwiseOptimizer, _check_betas, _check_non_negative

__all__ = ["Adamax"]


class Adamax(_GroupwiseOptimizer):
    r"""Adamax, the infinity-norm variant of Adam (Kingma & Ba, 2014).

    Args:
        params (iterable): parameters to optimize or dicts defining parameter groups
        lr (float, optional): learning rate (default: 2e-3)
        betas (Tuple[float, float], optional): coefficients of the running averages of the
            gradient and of its infinity norm (default: (0.9, 0.999))
        eps (float, optional): term added to the denominator (default: 1e-8)
        weight_decay (float, optional): weight decay (L2 penalty) (default: 0)
        maximize (bool, optional): maximize the objective instead of minimizing (default: False)
    """

    _option_defaults = {"maximize": False}

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, *, maximize=False):
        _check_non_negative(lr=lr, eps=eps)
        _check_betas(betas)
        _check_non_negative(weight_decay=weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, maximize=maximize)
        super().__init__(params, defaults)

    def _update_group(self, group, params, grads):
        (exp_avgs, exp_infs), steps = self._states(params, ["exp_avg", "exp_inf"])
        beta1, beta2 = group["betas"]
        F.adamax(params, grads, exp_avgs, exp_infs, steps, eps=group["eps"], beta1=beta1, beta2=beta2, lr=group["lr"],
                 weight_decay=group["weight_decay"], maximize=group["maximize"], fused=self._fused)
