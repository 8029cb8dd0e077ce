"""torch.nn.functional's normalization functions."""
import core

__all__ = ["batch_norm", "instance_norm", "layer_norm", "group_norm", "local_response_norm"]


def _verify_batch_size(size):
    values = size[0]
    for s in size[2:]:
        values *= s
    if values == 1:
        raise ValueError(f"Expected more than 1 value per channel when training, got input size {size}")


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1, eps=1e-5):
    if training:
        _verify_batch_size(input.size())
    return core.batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, True)


def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats=True,
                  momentum=0.1, eps=1e-5):
    return core.instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps, True)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    return core.layer_norm(input, normalized_shape, weight, bias, eps, True)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    return core.group_norm(input, num_groups, weight, bias, eps, True)


def local_response_norm(input, size, alpha=1e-4, beta=0.75, k=1.0):
    # Average of squares over a window of `size` channels (zero-padded), like PyTorch's.
    dim = input.dim()
    if dim < 3:
        raise ValueError(f"Expected 3D or higher dimensionality input (got {dim} dimensions)")
    if input.numel() == 0:
        return input
    sq = input * input
    c = input.shape[1]
    pad_shape = list(input.shape)
    before, after = size // 2, (size - 1) // 2
    parts = []
    if before:
        pad_shape[1] = before
        parts.append(core.zeros(pad_shape, dtype=input.dtype))
    parts.append(sq)
    if after:
        pad_shape[1] = after
        parts.append(core.zeros(pad_shape, dtype=input.dtype))
    padded = core.cat(parts, 1) if len(parts) > 1 else sq
    total = padded.narrow(1, 0, c)
    for i in range(1, size):
        total = total + padded.narrow(1, i, c)
    div = (total * (alpha / size) + k).pow(beta)
    return input / div

