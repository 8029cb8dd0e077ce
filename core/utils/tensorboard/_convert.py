"""Values handed to SummaryWriter (core tensors, numpy arrays, Python numbers) as host data."""
import numbers

import numpy as np

from core._tensor import Tensor


def to_numpy(value):
    """A numpy array of `value`; reduced-precision floats widen to float32."""
    if isinstance(value, Tensor):
        value = value.detach()
        if value.dtype.is_floating_point and value.element_size() < 4:
            value = value.float()
        return value.numpy()
    return np.asarray(value)


def to_float(value, what):
    """One number from a Python number, a one-element tensor or array."""
    if isinstance(value, numbers.Number):
        return float(value)
    array = to_numpy(value)
    if array.size != 1:
        raise ValueError(f"{what}: expected a single number, got an array of shape {array.shape}")
    return float(array.reshape(()))
