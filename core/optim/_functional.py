"""The update formulas of the optimizers, on lists of parameters of one group.

Each formula has two paths with identical results: the fused multi-tensor C++ op (float32 and
float64 parameters; one pass over memory, all tensors split over the thread pool) and the
op-by-op reference below it (every other dtype, and ``Optimizer._fused = False``). The fused
kernels perform the reference's operations in the same order without contraction, so both
paths agree bit for bit. Against PyTorch they agree within float32 rounding: PyTorch computes
``add(x, alpha=a)`` with a fused multiply-add and ``addcmul(t, a, b, value=v)`` as ``t + v*a*b``
where we compute ``t + v*(a*b)``.
"""
import math

import core
from core import _C

_FUSED_DTYPES = (core.float32, core.float64)


def _fused_op(name):
    return _C._internal[name]


def _batches(params, grads, fused):
    """Index lists to update together: one per float32/float64 dtype on the fused path (when
    ``fused``), and one op-by-op batch for everything else. Yields (use_fused, indices)."""
    if not fused:
        return [(False, list(range(len(params))))]
    batches = {}
    for i, (p, g) in enumerate(zip(params, grads)):
        key = p.dtype if p.dtype in _FUSED_DTYPES and g.dtype == p.dtype else None
        batches.setdefault(key, []).append(i)
    return [(key is not None, idx) for key, idx in batches.items()]


def _pick(seq, idx):
    return [seq[i] for i in idx]


def _grad(grad, param, maximize, weight_decay):
    grad = grad.neg() if maximize else grad
    return grad.add(param, alpha=weight_decay) if weight_decay != 0 else grad


def sgd(params, grads, momentum_buffers, *, lr, momentum, dampening, weight_decay, nesterov,
        maximize=False, fused=True):
    """momentum_buffers: one entry per parameter, None where the buffer doesn't exist yet; new
    buffers are stored into the list."""
    for use_fused, idx in _batches(params, grads, fused):
        if use_fused:
            if momentum == 0:
                _fused_op("_fused_sgd_step")(_pick(params, idx), _pick(grads, idx), [], lr, momentum,
                                         dampening, weight_decay, nesterov, maximize, False)
                continue
            for first in (False, True):
                sub = [i for i in idx if (momentum_buffers[i] is None) == first]
                if not sub:
                    continue
                if first:
                    for i in sub:
                        momentum_buffers[i] = core.empty_like(params[i])
                _fused_op("_fused_sgd_step")(_pick(params, sub), _pick(grads, sub), _pick(momentum_buffers, sub),
                                         lr, momentum, dampening, weight_decay, nesterov, maximize, first)
            continue
        for i in idx:
            param = params[i]
            d_p = _grad(grads[i], param, maximize, weight_decay)
            if momentum != 0:
                buf = momentum_buffers[i]
                if buf is None:
                    buf = d_p.clone()
                    momentum_buffers[i] = buf
                else:
                    buf.mul_(momentum).add_(d_p, alpha=1 - dampening)
                d_p = d_p.add(buf, alpha=momentum) if nesterov else buf
            param.add_(d_p, alpha=-lr)


def rmsprop(params, grads, square_avgs, momentum_buffers, grad_avgs, *, lr, alpha, eps, weight_decay,
            momentum, centered, maximize=False, fused=True):
    """momentum_buffers / grad_avgs: lists of the parameters' buffers, empty when momentum == 0 /
    not centered."""
    for use_fused, idx in _batches(params, grads, fused):
        if use_fused:
            _fused_op("_fused_rmsprop_step")(
                _pick(params, idx), _pick(grads, idx), _pick(square_avgs, idx),
                _pick(momentum_buffers, idx) if momentum > 0 else [],
                _pick(grad_avgs, idx) if centered else [], lr, alpha, eps, weight_decay, momentum,
                centered, maximize)
            continue
        for i in idx:
            param, square_avg = params[i], square_avgs[i]
            grad = _grad(grads[i], param, maximize, weight_decay)
            square_avg.mul_(alpha).add_(grad * grad, alpha=1 - alpha)
            if centered:
                grad_avg = grad_avgs[i]
                grad_avg.mul_(alpha).add_(grad, alpha=1 - alpha)
                avg = square_avg.sub(grad_avg * grad_avg).sqrt_().add_(eps)
            else:
                avg = square_avg.sqrt().add_(eps)
            if momentum > 0:
                buf = momentum_buffers[i]
                buf.mul_(momentum).add_(grad.div(avg))
                param.add_(buf, alpha=-lr)
            else:
                param.add_(grad.div(avg), alpha=-lr)


def adam(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, steps, *, amsgrad, beta1, beta2, lr,
         weight_decay, eps, decoupled_weight_decay=False, maximize=False, fused=True):
    """Adam, or AdamW with ``decoupled_weight_decay`` (p *= 1 - lr * weight_decay first, no L2
    term in the gradient). steps: each parameter's step count, this step included."""
    for use_fused, idx in _batches(params, grads, fused):
        if use_fused:
            _fused_op("_fused_adam_step")(
                _pick(params, idx), _pick(grads, idx), _pick(exp_avgs, idx), _pick(exp_avg_sqs, idx),
                _pick(max_exp_avg_sqs, idx) if amsgrad else [], _pick(steps, idx), lr, beta1, beta2, eps,
                weight_decay, amsgrad, decoupled_weight_decay, maximize)
            continue
        for i in idx:
            param, exp_avg, exp_avg_sq, step = params[i], exp_avgs[i], exp_avg_sqs[i], steps[i]
            if decoupled_weight_decay and weight_decay != 0:
                param.mul_(1 - lr * weight_decay)
            grad = _grad(grads[i], param, maximize, 0 if decoupled_weight_decay else weight_decay)
            bias_correction1 = 1 - beta1 ** step
            bias_correction2 = 1 - beta2 ** step
            exp_avg.mul_(beta1).add_(grad, alpha=1 - beta1)
            exp_avg_sq.mul_(beta2).add_(grad * grad, alpha=1 - beta2)
            second = exp_avg_sq
            if amsgrad:
                second = max_exp_avg_sqs[i]
                second.copy_(core.maximum(second, exp_avg_sq))
            denom = second.sqrt().div_(math.sqrt(bias_correction2)).add_(eps)
            param.add_(exp_avg.div(denom), alpha=-(lr / bias_correction1))


def adagrad(params, grads, state_sums, steps, *, lr, weight_decay, lr_decay, eps, maximize=False, fused=True):
    for use_fused, idx in _batches(params, grads, fused):
        if use_fused:
            _fused_op("_fused_adagrad_step")(_pick(params, idx), _pick(grads, idx), _pick(state_sums, idx),
                                         _pick(steps, idx), lr, lr_decay, weight_decay, eps, maximize)
            continue
        for i in idx:
            param, state_sum = params[i], state_sums[i]
            grad = _grad(grads[i], param, maximize, weight_decay)
            clr = lr / (1 + (steps[i] - 1) * lr_decay)
            state_sum.add_(grad * grad)
            std = state_sum.sqrt().add_(eps)
            param.add_(grad.div(std), alpha=-clr)


def adadelta(params, grads, square_avgs, acc_deltas, *, lr, rho, eps, weight_decay, maximize=False, fused=True):
    for use_fused, idx in _batches(params, grads, fused):
        if use_fused:
            _fused_op("_fused_adadelta_step")(_pick(params, idx), _pick(grads, idx), _pick(square_avgs, idx),
                                          _pick(acc_deltas, idx), lr, rho, eps, weight_decay, maximize)
            continue
        for i in idx:
            param, square_avg, acc_delta = params[i], square_avgs[i], acc_deltas[i]
            grad = _grad(grads[i], param, maximize, weight_decay)
            square_avg.mul_(rho).add_(grad * grad, alpha=1 - rho)
            std = square_avg.add(eps).sqrt_()
            delta = acc_delta.add(eps).sqrt_().div_(std).mul_(grad)
            param.add_(delta, alpha=-lr)
            acc_delta.mul_(rho).add_(delta * delta, alpha=1 - rho)


def adamax(params, grads, exp_avgs, exp_infs, steps, *, eps, beta1, beta2, lr, weight_decay, maximize=False,
           fused=True):
    for use_fused, idx in _batches(params, grads, fused):
        if use_fused:
            _fused_op("_fused_adamax_step")(_pick(params, idx), _pick(grads, idx), _pick(exp_avgs, idx),
                                        _pick(exp_infs, idx), _pick(steps, idx), lr, beta1, beta2, eps,
                                        weight_decay, maximize)
            continue
        for i in idx:
            param, exp_avg, exp_inf = params[i], exp_avgs[i], exp_infs[i]
            grad = _grad(grads[i], param, maximize, weight_decay)
            exp_avg.mul_(beta1).add_(grad, alpha=1 - beta1)
            exp_inf.copy_(core.maximum(exp_inf.mul_(beta2), grad.abs().add_(eps)))
            clr = lr / (1 - beta1 ** steps[i])
            param.add_(exp_avg.div(exp_inf), alpha=-clr)
