"""FloatFunctional (float ops with an observable output) and QFunctional, its quantized form."""
import core
from core import nn
from core._native import _C

_Q = _C._quantized

__all__ = ["FloatFunctional", "QFunctional"]


class FloatFunctional(nn.Module):
    """add, cat, mul, add_relu, add_scalar, mul_scalar as module methods, each output going
    through activation_post_process (an observer after prepare(), identity before)."""

    def __init__(self):
        super().__init__()
        self.activation_post_process = nn.Identity()

    def forward(self, x):
        raise RuntimeError("FloatFunctional is not intended to use the 'forward'. Please use the underlying "
                           "operation")

    def add(self, x, y):
        return self.activation_post_process(core.add(x, y))

    def add_scalar(self, x, y):
        return core.add(x, y)  # not observed: the scale stays the input's

    def mul(self, x, y):
        return self.activation_post_process(core.mul(x, y))

    def mul_scalar(self, x, y):
        return core.mul(x, y)

    def cat(self, x, dim=0):
        return self.activation_post_process(core.cat(x, dim=dim))

    def add_relu(self, x, y):
        return self.activation_post_process(core.relu(core.add(x, y)))


class QFunctional(nn.Module):
    """The quantized FloatFunctional: outputs quantized with its scale and zero_point."""

    def __init__(self):
        super().__init__()
        self.scale = 1.0
        self.zero_point = 0
        self.activation_post_process = nn.Identity()

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        super()._save_to_state_dict(destination, prefix, keep_vars)
        destination[prefix + "scale"] = core.tensor(self.scale)
        destination[prefix + "zero_point"] = core.tensor(self.zero_point)

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                              error_msgs):
        self.scale = float(state_dict.pop(prefix + "scale"))
        self.zero_point = int(state_dict.pop(prefix + "zero_point"))
        super()._load_from_state_dict(state_dict, prefix, local_metadata, False, missing_keys, unexpected_keys,
                                      error_msgs)

    def _get_name(self):
        return "QFunctional"

    def extra_repr(self):
        return f"scale={self.scale}, zero_point={self.zero_point}"

    def forward(self, x):
        raise RuntimeError("Functional is not intended to use the 'forward'. Please use the underlying operation")

    def add(self, x, y):
        return self.activation_post_process(_Q.add(x, y, self.scale, self.zero_point))

    def add_scalar(self, x, y):
        return self.activation_post_process(_Q.add_scalar(x, y))

    def mul(self, x, y):
        return self.activation_post_process(_Q.mul(x, y, self.scale, self.zero_point))

    def mul_scalar(self, x, y):
        return self.activation_post_process(_Q.mul_scalar(x, y))

    def cat(self, x, dim=0):
        return self.activation_post_process(_Q.cat(x, dim, self.scale, self.zero_point))

    def add_relu(self, x, y):
        return self.activation_post_process(_Q.add_relu(x, y, self.scale, self.zero_point))

    @classmethod
    def from_float(cls, mod):
        if type(mod) is not FloatFunctional:
            raise AssertionError("QFunctional.from_float expects an instance of FloatFunctional")
        scale, zero_point = mod.activation_post_process.calculate_qparams()
        new_mod = QFunctional()
        new_mod.scale = float(scale)
        new_mod.zero_point = int(zero_point)
        return new_mod
