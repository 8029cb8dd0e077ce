"""The random draws of the transforms, made exactly as torchvision 0.9 makes them with
torch's generator (core's generator is bit-compatible), including the precision of the
comparisons: ``torch.rand(1) < p`` compares in float32, ``torch.rand(1).item() < p`` in
float64."""
import math

import numpy as np

import core


def rand_tensor_lt(p):
    """``torch.rand(1) < p``: a float32 tensor against a Python number (compared in float32)."""
    return bool(np.float32(core.rand(1).item()) < np.float32(p))


def p_lt_rand_tensor(p):
    """``p < torch.rand(1)`` (RandomApply's test, in float32)."""
    return bool(np.float32(p) < np.float32(core.rand(1).item()))


def rand_item():
    """``torch.rand(1).item()``."""
    return core.rand(1).item()


def uniform(low, high):
    """``torch.empty(1).uniform_(low, high).item()``: a float32 draw, as a Python float."""
    return core.empty(1).uniform_(float(low), float(high)).item()


def randint(low, high):
    """``torch.randint(low, high, size=(1,)).item()``."""
    return int(core.randint(int(low), int(high), (1,)).item())


def randperm(n):
    """``torch.randperm(n)`` as a list."""
    return [int(v) for v in core.randperm(n).tolist()]


def float32(x):
    """x rounded to float32, as a Python float."""
    return float(np.float32(x))


def log_f32(x):
    """``torch.log`` of a float32 value: the correctly rounded float32 logarithm."""
    return float32(math.log(float32(x)))


def exp_f32(x):
    """``torch.exp`` of a float32 value: the correctly rounded float32 exponential."""
    return float32(math.exp(float32(x)))
