"""Dynamically quantized modules (torch.nn.quantized.dynamic): int8 weights, activations
quantized on the fly per call, float in and out."""
import core
from core._native import _C
from core.nn.quantized import modules as nnq

_Q = _C._quantized

__all__ = ["Linear", "LSTM", "GRU", "LSTMCell", "GRUCell", "RNNCell"]


class Linear(nnq.Linear):
    """y = x W^T + b with W qint8 and x quantized per call (7-bit with reduce_range, as fbgemm)."""

    _version = 4

    def __init__(self, in_features, out_features, bias_=True, dtype=core.qint8):
        super().__init__(in_features, out_features, bias_, dtype=dtype)
        self.version = 4

    def forward(self, x):
        return _Q.linear_dynamic(x, self._packed_params._packed_params, True)

    def _get_name(self):
        return "DynamicQuantizedLinear"

    def extra_repr(self):
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"dtype={self._packed_params.dtype}, qscheme={self.weight().qscheme()}")

    @classmethod
    def from_float(cls, mod):
        """The dynamic quantized Linear of a float Linear with a (dynamic) qconfig."""
        if not hasattr(mod, "qconfig"):
            raise AssertionError("Input float module must have qconfig defined")
        from core.nn.intrinsic import _FusedModule
        if isinstance(mod, _FusedModule):
            mod = mod[0]
        weight_observer = mod.qconfig.weight() if mod.qconfig is not None else \
            core.quantization.default_dynamic_qconfig.weight()
        dtype = weight_observer.dtype
        if dtype != core.qint8:
            raise NotImplementedError(f"dynamic Linear: only qint8 weights are supported, got {dtype}")
        weight_observer(mod.weight)
        qweight = nnq._quantize_weight(mod.weight.detach().float(), weight_observer)
        qlinear = cls(mod.in_features, mod.out_features, dtype=dtype)
        qlinear.set_weight_bias(qweight, None if mod.bias is None else mod.bias.detach())
        return qlinear


from core.nn.quantized.dynamic.rnn import GRU, LSTM, GRUCell, LSTMCell, RNNCell  # noqa: E402,F401
