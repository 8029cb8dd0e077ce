from core.optim import _functional as F
from core.optim.optimizer import _GroupwiseOptimizer, _check_non_negative, required

__all__ = ["SGD"]


class SGD(_GroupwiseOptimizer):
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

    _option_defaults = {"nesterov": False, "maximize": False}

    def __init__(self, params, lr=required, momentum=0, dampening=0, weight_decay=0, nesterov=False, *,
                 maximize=False):
        if lr is not required:
            _check_non_negative(lr=lr)
        _check_non_negative(momentum=momentum, weight_decay=weight_decay)
        defaults = dict(lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay,
                        nesterov=nesterov, maximize=maximize)
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, defaults)

    def _update_group(self, group, params, grads):
        momentum = group["momentum"]
        # Without momentum there is no per-parameter state (no entries are created).
        buffers = [self.state[p].get("momentum_buffer") for p in params] if momentum != 0 else []
        F.sgd(params, grads, buffers, lr=group["lr"], momentum=momentum, dampening=group["dampening"],
              weight_decay=group["weight_decay"], nesterov=group["nesterov"], maximize=group["maximize"],
              fused=self._fused)
        for p, buf in zip(params, buffers):
            self.state[p]["momentum_buffer"] = buf
