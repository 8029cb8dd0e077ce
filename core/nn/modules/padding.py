"""Padding modules of torch.nn (PyTorch 1.8) around F.pad."""
from core.nn import functional as F
from core.nn.modules.module import Module
from core.nn.modules.utils import _ntuple

__all__ = ["ConstantPad1d", "ConstantPad2d", "ConstantPad3d", "ZeroPad2d", "ReflectionPad1d", "ReflectionPad2d",
           "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d"]


class _ConstantPadNd(Module):
    __constants__ = ["padding", "value"]

    def __init__(self, value):
        super().__init__()
        self.value = value

    def forward(self, input):
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self):
        return "padding={}, value={}".format(self.padding, self.value)


class ConstantPad1d(_ConstantPadNd):
    def __init__(self, padding, value):
        super().__init__(value)
        self.padding = _ntuple(2)(padding)


class ConstantPad2d(_ConstantPadNd):
    def __init__(self, padding, value):
        super().__init__(value)
        self.padding = _ntuple(4)(padding)


class ConstantPad3d(_ConstantPadNd):
    def __init__(self, padding, value):
        super().__init__(value)
        self.padding = _ntuple(6)(padding)


class ZeroPad2d(ConstantPad2d):
    def __init__(self, padding):
        super().__init__(padding, 0.)


class _ModePadNd(Module):
    __constants__ = ["padding"]
    _mode = ""
    _n = 2

    def __init__(self, padding):
        super().__init__()
        self.padding = _ntuple(self._n)(padding)

    def forward(self, input):
        return F.pad(input, self.padding, self._mode)

    def extra_repr(self):
        return "{}".format(self.padding)


class ReflectionPad1d(_ModePadNd):
    _mode, _n = "reflect", 2


class ReflectionPad2d(_ModePadNd):
    _mode, _n = "reflect", 4


class ReplicationPad1d(_ModePadNd):
    _mode, _n = "replicate", 2


class ReplicationPad2d(_ModePadNd):
    _mode, _n = "replicate", 4


class ReplicationPad3d(_ModePadNd):
    _mode, _n = "replicate", 6
