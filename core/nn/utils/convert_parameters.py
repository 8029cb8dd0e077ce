"""parameters_to_vector and vector_to_parameters."""
from core._native import _C
from core.autograd.grad_mode import no_grad
from core.nn.modules.module import _typename

__all__ = ["parameters_to_vector", "vector_to_parameters"]


def parameters_to_vector(parameters):
    """All parameters flattened and concatenated into one 1-d tensor (differentiable)."""
    return _C._functions["cat"]([param.view(-1) for param in parameters])


def vector_to_parameters(vec, parameters):
    """Copies consecutive slices of the 1-d `vec` into the parameters. (PyTorch rebinds each
    parameter's .data to a view of vec; here the values are copied, which reads the same.)"""
    if not isinstance(vec, _C._TensorBase):
        raise TypeError(f"expected torch.Tensor, but got: {_typename(vec)}")
    pointer = 0
    with no_grad():
        for param in parameters:
            num_param = param.numel()
            param.copy_(vec[pointer:pointer + num_param].view_as(param))
            pointer += num_param
