from core.optim import _functional as F
from core.optim.optimizer import _GroupwiseOptimizer, _check_non_negative

__all__ = ["RMSprop"]


class RMSprop(_GroupwiseOptimizer):
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

    _option_defaults = {"momentum": 0, "centered": False, "maximize": False}

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0, centered=False, *,
                 maximize=False):
        _check_non_negative(lr=lr, eps=eps, momentum=momentum, weight_decay=weight_decay, alpha=alpha)
        defaults = dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps, centered=centered,
                        weight_decay=weight_decay, maximize=maximize)
        super().__init__(params, defaults)

    def _update_group(self, group, params, grads):
        momentum, centered = group["momentum"], group["centered"]
        names = ["square_avg"] + ["momentum_buffer"] * (momentum > 0) + ["grad_avg"] * centered
        columns, _ = self._states(params, names)
        square_avgs = columns[0]
        momentum_buffers = columns[1] if momentum > 0 else []
        grad_avgs = columns[-1] if centered else []
        F.rmsprop(params, grads, square_avgs, momentum_buffers, grad_avgs, lr=group["lr"], alpha=group["alpha"],
                  eps=group["eps"], weight_decay=group["weight_decay"], momentum=momentum, centered=centered,
                  maximize=group["maximize"], fused=self._fused)
