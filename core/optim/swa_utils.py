"""Stochastic Weight Averaging (torch.optim.swa_utils): AveragedModel (SWA running mean by
default, any avg_fn such as an EMA), SWALR (anneals each group's lr to its swa_lr) and
update_bn (recomputes BatchNorm statistics with the averaged weights)."""
from copy import deepcopy
import itertools
import math

import core
from core.nn import Module
from core.optim.lr_scheduler import _LRScheduler, _format_param

__all__ = ["AveragedModel", "update_bn", "SWALR", "get_ema_avg_fn", "get_swa_avg_fn"]


def get_ema_avg_fn(decay=0.999):
    """avg_fn of an exponential moving average: decay * averaged + (1 - decay) * current."""
    if decay < 0.0 or decay > 1.0:
        raise ValueError(f"Invalid decay value {decay} provided. Please provide a value in [0,1] range.")

    def ema_update(ema_param, current_param, num_averaged):
        return decay * ema_param + (1 - decay) * current_param
    return ema_update


def get_swa_avg_fn():
    """avg_fn of the equal-weight running mean (the default)."""
    def swa_update(averaged_param, current_param, num_averaged):
        return averaged_param + (current_param - averaged_param) / (num_averaged + 1)
    return swa_update


class AveragedModel(Module):
    r"""A copy of `model` whose parameters (and with ``use_buffers=True`` its buffers) hold a
    running average of the model's, updated by :meth:`update_parameters`. ``n_averaged`` (a
    long buffer) counts the updates; the first update copies the model's values.

    Args:
        model (Module): model to average
        device (optional): accepted for PyTorch compatibility (only the CPU exists)
        avg_fn (callable, optional): ``avg_fn(averaged, current, n_averaged)`` returning the new
            average (default: the equal-weight running mean)
        use_buffers (bool): average the buffers too instead of copying them (default: False)
    """

    def __init__(self, model, device=None, avg_fn=None, use_buffers=False):
        super().__init__()
        self.module = deepcopy(model)
        self.register_buffer("n_averaged", core.tensor(0, dtype=core.long))
        self.avg_fn = avg_fn if avg_fn is not None else get_swa_avg_fn()
        self.use_buffers = use_buffers

    def forward(self, *args, **kwargs):
        return self.module(*args, **kwargs)

    @core.no_grad()
    def update_parameters(self, model):
        if self.use_buffers:
            averaged = itertools.chain(self.module.parameters(), self.module.buffers())
            current = itertools.chain(model.parameters(), model.buffers())
        else:
            averaged, current = self.parameters(), model.parameters()
        first = int(self.n_averaged.item()) == 0
        for p_averaged, p_model in zip(averaged, current):
            p_model_ = p_model.detach()
            if first:
                p_averaged.detach().copy_(p_model_)
            else:
                p_averaged.detach().copy_(self.avg_fn(p_averaged.detach(), p_model_, self.n_averaged))
        if not self.use_buffers:
            # Buffers that aren't averaged follow the source model.
            for b_swa, b_model in zip(self.module.buffers(), model.buffers()):
                b_swa.detach().copy_(b_model.detach())
        self.n_averaged += 1


@core.no_grad()
def update_bn(loader, model, device=None):
    r"""Recomputes the running statistics of every BatchNorm layer of `model` with one pass
    over `loader` (cumulative averages: momentum None), leaving the train/eval mode as it was.
    Batches that are lists or tuples contribute their first element."""
    from core.nn.modules.batchnorm import _BatchNorm

    momenta = {}
    for module in model.modules():
        if isinstance(module, _BatchNorm):
            module.running_mean = core.zeros_like(module.running_mean)
            module.running_var = core.ones_like(module.running_var)
            momenta[module] = module.momentum
    if not momenta:
        return
    was_training = model.training
    model.train()
    for module in momenta:
        module.momentum = None
        module.num_batches_tracked *= 0
    for batch in loader:
        if isinstance(batch, (list, tuple)):
            batch = batch[0]
        model(batch)
    for module, momentum in momenta.items():
        module.momentum = momentum
    model.train(was_training)


class SWALR(_LRScheduler):
    r"""Anneals each group's lr from its current value to ``swa_lr`` over ``anneal_epochs``
    epochs ('cos' or 'linear'), then keeps it there.

    Args:
        optimizer (Optimizer): wrapped optimizer
        swa_lr (float or list): the SWA learning rate(s), one per group in a list
        anneal_epochs (int): epochs of the annealing phase (default: 10)
        anneal_strategy (str): 'cos' or 'linear' (default: 'cos')
        last_epoch (int): the index of the last epoch (default: -1)
    """

    def __init__(self, optimizer, swa_lr, anneal_epochs=10, anneal_strategy="cos", last_epoch=-1):
        swa_lrs = _format_param("swa_lr", optimizer, swa_lr)
        for value, group in zip(swa_lrs, optimizer.param_groups):
            group["swa_lr"] = value
        if anneal_strategy not in ["cos", "linear"]:
            raise ValueError("anneal_strategy must by one of 'cos' or 'linear', instead got {}".format(anneal_strategy))
        self._anneal_strategy = anneal_strategy
        if not isinstance(anneal_epochs, int) or anneal_epochs < 0:
            raise ValueError("anneal_epochs must be equal or greater than 0, got {}".format(anneal_epochs))
        self.anneal_epochs = anneal_epochs
        super().__init__(optimizer, last_epoch)

    def anneal_func(self, t):
        return t if self._anneal_strategy == "linear" else (1 - math.cos(math.pi * t)) / 2

    @staticmethod
    def _get_initial_lr(lr, swa_lr, alpha):
        if alpha == 1:
            return swa_lr
        return (lr - alpha * swa_lr) / (1 - alpha)

    def get_lr(self):
        self._warn_get_lr()
        step = self._step_count - 1
        if self.anneal_epochs == 0:
            step = max(1, step)
        # Recover the lr the annealing started from, then take the next point of the curve.
        prev_t = max(0, min(1, (step - 1) / max(1, self.anneal_epochs)))
        prev_alpha = self.anneal_func(prev_t)
        prev_lrs = [self._get_initial_lr(group["lr"], group["swa_lr"], prev_alpha)
                    for group in self.optimizer.param_groups]
        t = max(0, min(1, step / max(1, self.anneal_epochs)))
        alpha = self.anneal_func(t)
        return [group["swa_lr"] * alpha + lr * (1 - alpha) for group, lr in zip(self.optimizer.param_groups, prev_lrs)]
