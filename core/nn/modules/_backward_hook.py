"""Module full backward hooks: identity autograd Functions around a module's tensor inputs and
outputs catch grad_output and grad_input and hand them to the user's hooks."""
from core._native import _C
from core.autograd.function import Function

_Tensor = _C._TensorBase


class _HookIdentity(Function):
    @staticmethod
    def forward(ctx, callback, *tensors):
        ctx.callback = callback
        ctx.set_materialize_grads(False)
        ctx.mark_non_differentiable(*(t for t in tensors if not t.requires_grad))
        return tensors

    @staticmethod
    def backward(ctx, *grads):
        return (None,) + tuple(ctx.callback(grads))


def _pack_with_none(indices, values, size):
    packed = [None] * size
    for i, v in zip(indices, values):
        packed[i] = v
    return tuple(packed)


def _wrap(values, callback):
    """values with their tensors replaced by identities that call callback(grads) in backward."""
    indices = [i for i, v in enumerate(values) if isinstance(v, _Tensor)]
    if not _C.is_grad_enabled() or not any(values[i].requires_grad for i in indices):
        return values, None
    wrapped = _HookIdentity.apply(callback, *(values[i] for i in indices))
    new_values = list(values)
    for i, w in zip(indices, wrapped):
        new_values[i] = w
    return tuple(new_values), indices


class BackwardHook:
    """One forward call's link between the outputs' gradients and the inputs' gradients."""

    def __init__(self, module, user_hooks):
        self.module = module
        self.user_hooks = user_hooks
        self.grad_outputs = None
        self.n_inputs = 0
        self.input_indices = None

    def setup_input_hook(self, args):
        self.n_inputs = len(args)
        new_args, self.input_indices = _wrap(args, self._input_backward)
        return new_args

    def setup_output_hook(self, result):
        single = isinstance(result, _Tensor)
        values = (result,) if single else result
        if not isinstance(values, tuple):
            return result
        n_outputs = len(values)

        def output_backward(grads):
            self.grad_outputs = _pack_with_none(indices, grads, n_outputs)
            if self.input_indices is None:  # no input needs a gradient: hooks see Nones
                grad_inputs = (None,) * self.n_inputs
                for hook in self.user_hooks:
                    res = hook(self.module, grad_inputs, self.grad_outputs)
                    if res is not None and not all(r is None for r in res):
                        raise RuntimeError("Backward hook for Modules where no input requires gradient "
                                           "should always return None or None for all gradients.")
            return grads

        new_values, indices = _wrap(values, output_backward)
        return new_values[0] if single else new_values

    def _input_backward(self, grads):
        grad_input = _pack_with_none(self.input_indices, grads, self.n_inputs)
        for hook in self.user_hooks:
            res = hook(self.module, grad_input, self.grad_outputs)
            if res is None:
                continue
            res = tuple(res) if isinstance(res, (tuple, list)) else (res,)
            if len(res) != len(grad_input):
                raise RuntimeError("Backward hook returned an invalid number of grad_input, "
                                   f"got {len(res)}, but expected {len(grad_input)}")
            grad_input = res
        return [grad_input[i] for i in self.input_indices]
