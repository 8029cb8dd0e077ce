import core
from core.optim import _functional as F
from core.optim.optimizer import Optimizer

__all__ = ["RMSprop"]


class RMSprop(Optimizer):
    r"""RMSprop (Hinton's lecture notes). The centered version (Graves, 2013) normalises by an
    estimate of the gradient's variance. As in PyTorch, eps is added *outside* the square root:
    ``avg = sqrt(v) + eps`` (TensorFlow adds it inside), and lr multiplies the momentum buffer.

    Args:
        params (iterable): parameters to optimize or dicts defining parameter groups
        lr (float, optional): learning rate (default: 1e-2)
        momentum (float, optional): momentum factor (default: 0)
        alpha (float, optional): smoothing constant (default: 0.99)
        eps (float, optional): term added to the denominator (default: 1e-8)
        centered (bool, optional): normalise by the estimated variance of the gradient
        weight_decay (float, optional): weight decay (L2 penalty) (default: 0)
        maximize (bool, optional): maximize the objective instead of minimizing (default: False)
    """

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0, centered=False, *,
                 maximize=False):
        if not 0.0 <= lr:
            raise ValueError("Invalid learning rate: {}".format(lr))
        if not 0.0 <= eps:
            raise ValueError("Invalid epsilon value: {}".format(eps))
        if not 0.0 <= momentum:
            raise ValueError("Invalid momentum value: {}".format(momentum))
        if not 0.0 <= weight_decay:
            raise ValueError("Invalid weight_decay value: {}".format(weight_decay))
        if not 0.0 <= alpha:
            raise ValueError("Invalid alpha value: {}".format(alpha))
        defaults = dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps, centered=centered,
                        weight_decay=weight_decay, maximize=maximize)
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault("momentum", 0)
            group.setdefault("centered", False)
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
            square_avgs, momentum_buffers, grad_avgs = [], [], []
            for p in params:
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = 0
                    state["square_avg"] = core.zeros_like(p)
                    if group["momentum"] > 0:
                        state["momentum_buffer"] = core.zeros_like(p)
                    if group["centered"]:
                        state["grad_avg"] = core.zeros_like(p)
                state["step"] += 1
                square_avgs.append(state["square_avg"])
                if group["momentum"] > 0:
                    momentum_buffers.append(state["momentum_buffer"])
                if group["centered"]:
                    grad_avgs.append(state["grad_avg"])
            F.rmsprop(params, grads, square_avgs, momentum_buffers, grad_avgs, lr=group["lr"],
                      alpha=group["alpha"], eps=group["eps"], weight_decay=group["weight_decay"],
                      momentum=group["momentum"], centered=group["centered"], maximize=group["maximize"],
                      fused=self._fused)
        return loss
