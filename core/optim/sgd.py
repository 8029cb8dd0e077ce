import core
from core.optim import _functional as F
from core.optim.optimizer import Optimizer, required

__all__ = ["SGD"]


class SGD(Optimizer):
    r"""Stochastic gradient descent, optionally with momentum (Nesterov momentum as in
    Sutskever et al., 2013). Like PyTorch, the velocity update is ``v = mu * v + g`` and
    ``p = p - lr * v`` (lr outside the buffer); the first step's buffer is the gradient itself.

    Args:
        params (iterable): parameters to optimize or dicts defining parameter groups
        lr (float): learning rate
        momentum (float, optional): momentum factor (default: 0)
        weight_decay (float, optional): weight decay (L2 penalty) (default: 0)
        dampening (float, optional): dampening for momentum (default: 0)
        nesterov (bool, optional): enables Nesterov momentum (default: False)
        maximize (bool, optional): maximize the objective instead of minimizing (default: False)
    """

    def __init__(self, params, lr=required, momentum=0, dampening=0, weight_decay=0, nesterov=False, *,
                 maximize=False):
        if lr is not required and lr < 0.0:
            raise ValueError("Invalid learning rate: {}".format(lr))
        if momentum < 0.0:
            raise ValueError("Invalid momentum value: {}".format(momentum))
        if weight_decay < 0.0:
            raise ValueError("Invalid weight_decay value: {}".format(weight_decay))
        defaults = dict(lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay,
                        nesterov=nesterov, maximize=maximize)
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault("nesterov", False)
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
            momentum = group["momentum"]
            # Without momentum there is no per-parameter state (no entries are created).
            buffers = [self.state[p].get("momentum_buffer") for p in params] if momentum != 0 else []
            F.sgd(params, grads, buffers, lr=group["lr"], momentum=momentum, dampening=group["dampening"],
                  weight_decay=group["weight_decay"], nesterov=group["nesterov"], maximize=group["maximize"],
                  fused=self._fused)
            if momentum != 0:
                for p, buf in zip(params, buffers):
                    self.state[p]["momentum_buffer"] = buf
        return loss
