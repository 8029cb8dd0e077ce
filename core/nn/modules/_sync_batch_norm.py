"""Batch norm whose statistics span every rank of a process group (SyncBatchNorm's training pass).

Forward: each rank's per-channel count, mean and biased variance are all-gathered and combined
(Chan et al.'s parallel formula, in float64), so every rank normalises with the statistics of
the whole global batch. Backward: the per-channel sums of dy and dy*(x-mean) are all-reduced,
since every input element moves the global mean and variance; the weight and bias gradients stay
local (DistributedDataParallel averages them with the other gradients), as in torch.
"""
import core
import core.distributed as dist
from core.autograd import Function


def _channel_shape(input):
    return [1, input.shape[1]] + [1] * (input.dim() - 2)


def _reduce_dims(input):
    return [0] + list(range(2, input.dim()))


class SyncBatchNormFunction(Function):

    @staticmethod
    def forward(ctx, input, weight, bias, running_mean, running_var, eps, momentum, process_group):
        dims, channels = _reduce_dims(input), input.shape[1]
        count = input.numel() // channels
        var, mean = core.var_mean(input, dims, unbiased=False)
        local = core.cat([core.tensor([float(count)], dtype=core.float64), mean.double(), var.double()])
        gathered = [core.empty_like(local) for _ in range(process_group.size())]
        dist.all_gather(gathered, local, group=process_group)
        stats = core.stack(gathered)                      # (ranks, 1 + 2C): count, means, variances
        counts = stats[:, :1]
        total = float(counts.sum())
        if total <= 1:
            raise ValueError(f"Expected more than 1 value per channel when training, got input size "
                             f"{tuple(input.shape)} on every rank together")
        means, variances = stats[:, 1:1 + channels], stats[:, 1 + channels:]
        global_mean = (counts * means).sum(0) / total
        global_var = (counts * (variances + (means - global_mean) ** 2)).sum(0) / total
        if running_mean is not None:
            with core.no_grad():
                running_mean.mul_(1 - momentum).add_(global_mean.to(running_mean.dtype), alpha=momentum)
                unbiased = global_var * (total / (total - 1))
                running_var.mul_(1 - momentum).add_(unbiased.to(running_var.dtype), alpha=momentum)
        mean = global_mean.to(input.dtype)
        invstd = (global_var + eps).rsqrt().to(input.dtype)
        shape = _channel_shape(input)
        out = (input - mean.view(shape)) * invstd.view(shape)
        if weight is not None:
            out = out * weight.view(shape) + bias.view(shape)
        ctx.save_for_backward(input, weight, mean, invstd)
        ctx.total = total
        ctx.process_group = process_group
        return out

    @staticmethod
    def backward(ctx, grad_output):
        input, weight, mean, invstd = ctx.saved_tensors
        dims, shape = _reduce_dims(input), _channel_shape(input)
        xmu = input - mean.view(shape)
        sum_dy = grad_output.sum(dims)
        sum_dy_xmu = (grad_output * xmu).sum(dims)
        grad_input = grad_weight = grad_bias = None
        if weight is not None and ctx.needs_input_grad[1]:
            grad_weight = sum_dy_xmu * invstd
        if weight is not None and ctx.needs_input_grad[2]:
            grad_bias = sum_dy
        if ctx.needs_input_grad[0]:
            sums = core.cat([sum_dy, sum_dy_xmu])
            dist.all_reduce(sums, group=ctx.process_group)
            mean_dy, mean_dy_xmu = (sums / ctx.total).chunk(2)
            scale = invstd if weight is None else invstd * weight
            grad_input = (grad_output - mean_dy.view(shape)
                          - xmu * (invstd * invstd * mean_dy_xmu).view(shape)) * scale.view(shape)
        return grad_input, grad_weight, grad_bias, None, None, None, None, None
