"""Fused module patterns (torch.nn.intrinsic): Sequentials that quantization treats as one."""
from core import nn

__all__ = ["_FusedModule", "ConvBn2d", "ConvBnReLU2d", "ConvReLU2d", "LinearReLU", "BNReLU2d"]


class _FusedModule(nn.Sequential):
    pass


def _check_types(name, mods, expected):
    got = tuple(type(m) for m in mods)
    if len(got) != len(expected) or any(not issubclass(g, e) for g, e in zip(got, expected)):
        raise AssertionError(f"Incorrect types for input modules of {name}: "
                             f"{', '.join(t.__name__ for t in got)}")


class ConvReLU2d(_FusedModule):
    """Conv2d followed by ReLU."""

    def __init__(self, conv, relu):
        _check_types("ConvReLU2d", (conv, relu), (nn.Conv2d, nn.ReLU))
        super().__init__(conv, relu)


class LinearReLU(_FusedModule):
    """Linear followed by ReLU."""

    def __init__(self, linear, relu):
        _check_types("LinearReLU", (linear, relu), (nn.Linear, nn.ReLU))
        super().__init__(linear, relu)


class ConvBn2d(_FusedModule):
    """Conv2d followed by BatchNorm2d (for QAT; eval-mode fusion folds the BN instead)."""

    def __init__(self, conv, bn):
        _check_types("ConvBn2d", (conv, bn), (nn.Conv2d, nn.BatchNorm2d))
        super().__init__(conv, bn)


class ConvBnReLU2d(_FusedModule):
    """Conv2d, BatchNorm2d and ReLU."""

    def __init__(self, conv, bn, relu):
        _check_types("ConvBnReLU2d", (conv, bn, relu), (nn.Conv2d, nn.BatchNorm2d, nn.ReLU))
        super().__init__(conv, bn, relu)


class BNReLU2d(_FusedModule):
    """BatchNorm2d followed by ReLU."""

    def __init__(self, batch_norm, relu):
        _check_types("BNReLU2d", (batch_norm, relu), (nn.BatchNorm2d, nn.ReLU))
        super().__init__(batch_norm, relu)
