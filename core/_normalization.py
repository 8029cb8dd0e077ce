"""torch.batch_norm, layer_norm, group_norm and instance_norm: the torch-level functions of the
normalization family, on the native_*_norm op-table entries."""
from core._native import _C

__all__ = ["batch_norm", "layer_norm", "group_norm", "instance_norm"]

_ops = _C._functions


def batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, cudnn_enabled=True):
    return _ops["native_batch_norm"](input, weight, bias, running_mean, running_var, training, momentum, eps)[0]


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5, cudnn_enable=True):
    if isinstance(normalized_shape, int):
        normalized_shape = (normalized_shape,)
    return _ops["native_layer_norm"](input, list(normalized_shape), weight, bias, eps)[0]


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5, cudnn_enabled=True):
    if input.dim() < 2:
        raise RuntimeError(f"group_norm(): Expected at least 2 dimensions for input tensor but received {input.dim()}")
    n, c = input.shape[0], input.shape[1]
    hxw = 1
    for s in input.shape[2:]:
        hxw *= s
    return _ops["native_group_norm"](input, weight, bias, n, c, hxw, num_groups, eps)[0]


def instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps,
                  cudnn_enabled=True):
    # Batch norm over the input viewed as (1, N * C, *): PyTorch's own formulation.
    if not use_input_stats and (running_mean is None or running_var is None):
        raise RuntimeError("instance_norm(): Expected running_mean and running_var to be defined when "
                           "use_input_stats is false")
    if input.dim() < 2:
        raise RuntimeError(f"instance_norm(): Expected at least 2 dimensions for input tensor but received {input.dim()}")
    shape = tuple(input.shape)
    b, c = shape[0], shape[1]
    x = input.contiguous().view(1, b * c, *shape[2:])

    def repeat(t):
        return None if t is None else t.repeat(b)

    rm, rv = repeat(running_mean), repeat(running_var)
    out = batch_norm(x, repeat(weight), repeat(bias), rm, rv, use_input_stats, momentum, eps)
    if use_input_stats:
        from core.autograd.grad_mode import no_grad
        with no_grad():
            if running_mean is not None:
                running_mean.copy_(rm.view(b, c).mean(0))
            if running_var is not None:
                running_var.copy_(rv.view(b, c).mean(0))
    return out.view(shape)


from core._argcheck import check_module as _check_module  # noqa: E402

_check_module(globals(), __all__)
