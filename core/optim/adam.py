from core.optim import _functional as F
from core.optim.optimizer import _GroupwiseOptimizer, _check_betas, _check_non_negative

__all__ = ["Adam"]


class Adam(_GroupwiseOptimizer):
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

    _option_defaults = {"amsgrad": False, "maximize": False}
    _decoupled_weight_decay = False

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False, *,
                 maximize=False):
        _check_non_negative(lr=lr, eps=eps)
        _check_betas(betas)
        _check_non_negative(weight_decay=weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, amsgrad=amsgrad,
                        maximize=maximize)
        super().__init__(params, defaults)

    def _update_group(self, group, params, grads):
        amsgrad = group["amsgrad"]
        columns, steps = self._states(params, ["exp_avg", "exp_avg_sq"] + ["max_exp_avg_sq"] * amsgrad)
        beta1, beta2 = group["betas"]
        F.adam(params, grads, columns[0], columns[1], columns[2] if amsgrad else [], steps, amsgrad=amsgrad,
               beta1=beta1, beta2=beta2, lr=group["lr"], weight_decay=group["weight_decay"], eps=group["eps"],
               decoupled_weight_decay=self._decoupled_weight_decay, maximize=group["maximize"], fused=self._fused)
