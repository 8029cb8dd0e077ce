import core
from core.optim import _functional as F
from core.optim.optimizer import Optimizer

__all__ = ["Adadelta"]


class Adadelta(Optimizer):
    r"""Adadelta (Zeiler, 2012).

    Args:
        params (iterable): parameters to optimize or dicts defining parameter groups
        lr (float, optional): coefficient that scales delta before it is applied (default: 1.0)
        rho (float, optional): coefficient of the running average of squared gradients (default: 0.9)
        eps (float, optional): term added to the denominator (default: 1e-6)
        weight_decay (float, optional): weight decay (L2 penalty) (default: 0)
        maximize (bool, optional): maximize the objective instead of minimizing (default: False)
    """

    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, *, maximize=False):
        if not 0.0 <= lr:
            raise ValueError("Invalid learning rate: {}".format(lr))
        if not 0.0 <= rho <= 1.0:
            raise ValueError("Invalid rho value: {}".format(rho))
        if not 0.0 <= eps:
            raise ValueError("Invalid epsilon value: {}".format(eps))
        if not 0.0 <= weight_decay:
            raise ValueError("Invalid weight_decay value: {}".format(weight_decay))
        defaults = dict(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay, maximize=maximize)
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault("maximize", False)

    @core.no_grad()
    def step(self, closure=None):
        """Performs a single optimization step.

        Args:
            closure (callable, optional): A closure that reevaluates the model and returns the loss.
        """
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            params, grads = self._params_with_grad(group)
            square_avgs, acc_deltas = [], []
            for p in params:
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = 0
                    state["square_avg"] = core.zeros_like(p)
                    state["acc_delta"] = core.zeros_like(p)
                square_avgs.append(state["square_avg"])
                acc_deltas.append(state["acc_delta"])
                state["step"] += 1
            F.adadelta(params, grads, square_avgs, acc_deltas, lr=group["lr"], rho=group["rho"], eps=group["eps"],
                       weight_decay=group["weight_decay"], maximize=group["maximize"], fused=self._fused)
        return loss
