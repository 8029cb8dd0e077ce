"""core.backends.quantized.engine: the int8 engine name. tensorzoo runs its own int8 kernels
under every name; the name is kept for PyTorch programs (and picks the default qconfigs
they ask for): 'fbgemm' / 'x86' on x86, 'qnnpack' as on ARM. Under 'qnnpack' quantized
linear and convolution round their bias as qnnpack does (an int32 bias), else as fbgemm."""
import sys

supported_engines = ["none", "fbgemm", "qnnpack", "x86"]


class _QuantizedEngine(type(sys)):
    _engine = "fbgemm"

    @property
    def engine(self):
        return self._engine

    @engine.setter
    def engine(self, name):
        if name not in supported_engines:
            raise RuntimeError(f"quantized engine {name!r} is not supported; choose one of {supported_engines}")
        from core._native import _C
        _C._quantized.set_engine(name)
        type(self)._engine = name


sys.modules[__name__].__class__ = _QuantizedEngine
