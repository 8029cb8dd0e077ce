import core
from core.optim import _functional as F
from core.optim.optimizer import Optimizer

__all__ = ["Adam"]


def _check_adam_args(lr, betas, eps, weight_decay):
    if not 0.0 <= lr:
        raise ValueError("Invalid learning rate: {}".format(lr))
    if not 0.0 <= eps:
        raise ValueError("Invalid epsilon value: {}".format(eps))
    if not 0.0 <= betas[0] < 1.0:
        raise ValueError("Invalid beta parameter at index 0: {}".format(betas[0]))
    if not 0.0 <= betas[1] < 1.0:
        raise ValueError("Invalid beta parameter at index 1: {}".format(betas[1]))
    if not 0.0 <= weight_decay:
        raise ValueError("Invalid weight_decay value: {}".format(weight_decay))


class Adam(Optimizer):
    r"""Adam (Kingma & Ba, 2014), with the AMSGrad variant (Reddi et al., 2018).
    ``weight_decay`` adds an L2 term to the gradient (see :class:`AdamW` for decoupled decay).

    Args:
        params (iterable): parameters to optimize or dicts defining parameter groups
        lr (float, optional): learning rate (default: 1e-3)
        betas (Tuple[float, float], optional): coefficients of the running averages of the
            gradient and its square (default: (0.9, 0.999))
        eps (float, optional): term added to the denominator (default: 1e-8)
        weight_decay (float, optional): weight decay (L2 penalty) (default: 0)
        amsgrad (boolean, optional): use the AMSGrad variant (default: False)
        maximize (bool, optional): maximize the objective instead of minimizing (default: False)
    """

    _decoupled_weight_decay = False

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False, *,
                 maximize=False):
        _check_adam_args(lr, betas, eps, weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, amsgrad=amsgrad,
                        maximize=maximize)
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault("amsgrad", False)
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
            exp_avgs, exp_avg_sqs, max_exp_avg_sqs, steps = [], [], [], []
            for p in params:
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = 0
                    state["exp_avg"] = core.zeros_like(p)
                    state["exp_avg_sq"] = core.zeros_like(p)
                    if group["amsgrad"]:
                        state["max_exp_avg_sq"] = core.zeros_like(p)
                exp_avgs.append(state["exp_avg"])
                exp_avg_sqs.append(state["exp_avg_sq"])
                if group["amsgrad"]:
                    max_exp_avg_sqs.append(state["max_exp_avg_sq"])
                state["step"] += 1
                steps.append(state["step"])
            beta1, beta2 = group["betas"]
            F.adam(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, steps, amsgrad=group["amsgrad"],
                   beta1=beta1, beta2=beta2, lr=group["lr"], weight_decay=group["weight_decay"], eps=group["eps"],
                   decoupled_weight_decay=self._decoupled_weight_decay, maximize=group["maximize"],
                   fused=self._fused)
        return loss
