from core.optim.adam import Adam

__all__ = ["AdamW"]


class AdamW(Adam):
    r"""AdamW (Loshchilov & Hutter, "Decoupled Weight Decay Regularization"): each step first
    scales the parameters by ``1 - lr * weight_decay``, and the gradient gets no L2 term.

    Args:
        params (iterable): parameters to optimize or dicts defining parameter groups
        lr (float, optional): learning rate (default: 1e-3)
        betas (Tuple[float, float], optional): coefficients of the running averages of the
            gradient and its square (default: (0.9, 0.999))
        eps (float, optional): term added to the denominator (default: 1e-8)
        weight_decay (float, optional): weight decay coefficient (default: 1e-2)
        amsgrad (boolean, optional): use the AMSGrad variant (default: False)
        maximize (bool, optional): maximize the objective instead of minimizing (default: False)
    """

    _decoupled_weight_decay = True

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False, *,
                 maximize=False):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, maximize=maximize)
