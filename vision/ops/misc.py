"""FrozenBatchNorm2d: batch norm with fixed statistics and affine parameters (buffers)."""
import core
from core import nn

__all__ = ["FrozenBatchNorm2d"]


class FrozenBatchNorm2d(nn.Module):
    """BatchNorm2d whose statistics and affine parameters are buffers, never updated.

    y = x * weight * rsqrt(running_var + eps) + (bias - running_mean * scale)
    """

    def __init__(self, num_features, eps=1e-5, n=None):
        if n is not None:
            import warnings

            warnings.warn("`n` argument is deprecated and has been renamed `num_features`", DeprecationWarning,
                          stacklevel=2)
            num_features = n
        super().__init__()
        self.eps = eps
        self.register_buffer("weight", core.ones(num_features))
        self.register_buffer("bias", core.zeros(num_features))
        self.register_buffer("running_mean", core.zeros(num_features))
        self.register_buffer("running_var", core.ones(num_features))

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                              error_msgs):
        # checkpoints of a BatchNorm2d carry num_batches_tracked, which has no meaning here
        state_dict.pop(prefix + "num_batches_tracked", None)
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                                      error_msgs)

    def forward(self, x):
        w = self.weight.reshape(1, -1, 1, 1)
        b = self.bias.reshape(1, -1, 1, 1)
        rv = self.running_var.reshape(1, -1, 1, 1)
        rm = self.running_mean.reshape(1, -1, 1, 1)
        scale = w * (rv + self.eps).rsqrt()
        bias = b - rm * scale
        return x * scale + bias

    def __repr__(self):
        return f"{self.__class__.__name__}({self.weight.shape[0]}, eps={self.eps})"
