import core
from core.optim import _functional as F
from core.optim.optimizer import _GroupwiseOptimizer, _check_non_negative

__all__ = ["Adagrad"]


class Adagrad(_GroupwiseOptimizer):
    r"""Adagrad (Duchi et al., 2011). The state (``step`` and the accumulator ``sum``) is created
    for every parameter when the optimizer is constructed, as PyTorch does.

    Args:
        params (iterable): parameters to optimize or dicts defining parameter groups
        lr (float, optional): learning rate (default: 1e-2)
        lr_decay (float, optional): learning rate decay (default: 0)
        weight_decay (float, optional): weight decay (L2 penalty) (default: 0)
        initial_accumulator_value (float, optional): starting value of the accumulator (default: 0)
        eps (float, optional): term added to the denominator (default: 1e-10)
        maximize (bool, optional): maximize the objective instead of minimizing (default: False)
    """

    _option_defaults = {"maximize": False}

    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0, eps=1e-10, *,
                 maximize=False):
        _check_non_negative(lr=lr, lr_decay=lr_decay, weight_decay=weight_decay,
                            initial_accumulator_value=initial_accumulator_value, eps=eps)
        defaults = dict(lr=lr, lr_decay=lr_decay, eps=eps, weight_decay=weight_decay,
                        initial_accumulator_value=initial_accumulator_value, maximize=maximize)
        super().__init__(params, defaults)
        for group in self.param_groups:
            for p in group["params"]:
                state = self.state[p]
                state["step"] = 0
                state["sum"] = core.full_like(p, initial_accumulator_value)

    def share_memory(self):
        for group in self.param_groups:
            for p in group["params"]:
                share = getattr(self.state[p]["sum"], "share_memory_", None)
                if share is not None:
                    share()

    def _update_group(self, group, params, grads):
        (state_sums,), steps = self._states(params, ["sum"])
        F.adagrad(params, grads, state_sums, steps, lr=group["lr"], weight_decay=group["weight_decay"],
                  lr_decay=group["lr_decay"], eps=group["eps"], maximize=group["maximize"], fused=self._fused)
