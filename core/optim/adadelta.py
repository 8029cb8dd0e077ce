from core.optim import _functional as F
from core.optim.optimizer import _GroupwiseOptimizer, _check_non_negative

__all__ = ["Adadelta"]


class Adadelta(_GroupwiseOptimizer):
    r"""Adadelta (Zeiler, 2012).

    Args:
        params (iterable): parameters to optimize or dicts defining parameter groups
        lr (float, optional): coefficient that scales delta before it is applied (default: 1.0)
        rho (float, optional): coefficient of the running average of squared gradients (default: 0.9)
        eps (float, optional): term added to the denominator (default: 1e-6)
        weight_decay (float, optional): weight decay (L2 penalty) (default: 0)
        maximize (bool, optional): maximize the objective instead of minimizing (default: False)
    """

    _option_defaults = {"maximize": False}

    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, *, maximize=False):
        _check_non_negative(lr=lr)
        if not 0.0 <= rho <= 1.0:
            raise ValueError("Invalid rho value: {}".format(rho))
        _check_non_negative(eps=eps, weight_decay=weight_decay)
        defaults = dict(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay, maximize=maximize)
        super().__init__(params, defaults)

    def _update_group(self, group, params, grads):
        (square_avgs, acc_deltas), _ = self._states(params, ["square_avg", "acc_delta"])
        F.adadelta(params, grads, square_avgs, acc_deltas, lr=group["lr"], rho=group["rho"], eps=group["eps"],
                   weight_decay=group["weight_decay"], maximize=group["maximize"], fused=self._fused)
