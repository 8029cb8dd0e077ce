"""Dynamically quantized recurrent layers and cells (torch.nn.quantized.dynamic 1.8): qint8
weights packed once, activations quantized per call by the int8 dynamic linear (7-bit
inputs, as fbgemm), gates in float32. Names, reprs and state_dict keys are PyTorch's; the
packed values are saved portably as (weight_ih, weight_hh, bias_ih, bias_hh) tuples where
PyTorch saves TorchScript objects."""
import core
from core import nn
from core._native import _C
from core.nn.modules import rnn as float_rnn
from core.nn.quantized.modules import _hide_packed_params_repr

_Q = _C._quantized

__all__ = ["PackedParameter", "RNNBase", "LSTM", "GRU", "RNNCellBase", "RNNCell", "LSTMCell", "GRUCell"]

_MODES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}


def _linear(x, packed):
    """x (..., in) through a dynamically quantized linear (bias inside), float32 out."""
    flat = x.reshape(-1, x.shape[-1])
    out = _Q.linear_dynamic(flat, packed, True)
    return out.reshape(tuple(x.shape[:-1]) + (out.shape[-1],))


def _placeholder_weight(rows, cols):
    return core._make_per_tensor_quantized_tensor(core.zeros((rows, cols), dtype=core.int8), 1.0, 0)


def _quantized_weight(weight, observer_factory):
    """The float weight quantized with a fresh weight observer's qparams (per tensor or channel)."""
    from core.nn.quantized.modules import _quantize_weight
    observer = observer_factory()
    if observer.dtype != core.qint8:
        raise NotImplementedError(f"dynamic RNNs: only qint8 weights are supported, got {observer.dtype}")
    observer(weight)
    return _quantize_weight(weight.detach().float(), observer)


class _CellParams:
    """The packed input and hidden weights of one cell (one layer and direction)."""

    def __init__(self, w_ih, w_hh, b_ih, b_hh):
        self.state = (w_ih, w_hh, b_ih, b_hh)
        self.packed_ih = _Q.linear_prepack(w_ih, b_ih)
        self.packed_hh = _Q.linear_prepack(w_hh, b_hh)

    def __getstate__(self):  # deepcopy / pickle: repacked from the tensors
        return self.state

    def __setstate__(self, state):
        self.__init__(*state)


class PackedParameter(nn.Module):
    """Holds one cell's packed parameters; state_dict key `param`."""

    def __init__(self, param):
        super().__init__()
        self.param = param

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        super()._save_to_state_dict(destination, prefix, keep_vars)
        destination[prefix + "param"] = self.param.state

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                              error_msgs):
        self.param = _CellParams(*state_dict.pop(prefix + "param"))
        super()._load_from_state_dict(state_dict, prefix, local_metadata, False, missing_keys, unexpected_keys,
                                      error_msgs)


def _step(mode, packed_hh):
    """step(gi, state) of one time step, gi the input's gate pre-activations (bias included)."""
    if mode == "LSTM":
        return lambda gi, state: float_rnn._lstm_pointwise(gi + _linear(state[0], packed_hh), state[1])
    if mode == "GRU":
        return lambda gi, state: float_rnn._gru_pointwise(gi, _linear(state[0], packed_hh), state[0])
    relu = mode == "RNN_RELU"
    return lambda gi, state: float_rnn._rnn_pointwise(gi + _linear(state[0], packed_hh), relu)


class RNNBase(nn.Module):
    """Multi-layer, optionally bidirectional, dynamically quantized LSTM / GRU. The input
    handling (batch_first, PackedSequence, unbatched input) is nn.RNNBase's."""

    _FLOAT_MODULE = nn.RNNBase
    _version = 2

    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, dtype=core.qint8):
        super().__init__()
        if mode not in _MODES:
            raise ValueError("Unrecognized RNN mode: " + mode)
        if dtype != core.qint8:
            raise NotImplementedError(f"dynamic {mode}: only qint8 weights are supported, got {dtype}")
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = 0
        self.dtype = dtype
        self.version = 2
        self.training = False
        gate_size = _MODES[mode] * hidden_size
        directions = 2 if bidirectional else 1
        cells = []
        for layer in range(num_layers):
            layer_input = input_size if layer == 0 else hidden_size * directions
            for _ in range(directions):
                biases = (core.zeros(gate_size), core.zeros(gate_size)) if bias else (None, None)
                cells.append(PackedParameter(_CellParams(_placeholder_weight(gate_size, layer_input),
                                                         _placeholder_weight(gate_size, hidden_size), *biases)))
        self._all_weight_values = nn.ModuleList(cells)

    def _get_name(self):
        return "DynamicQuantizedRNN"

    extra_repr = float_rnn.RNNBase.extra_repr

    def __repr__(self):
        return _hide_packed_params_repr(self, nn.ModuleList)

    # nn.RNNBase's input handling, with the two hooks below for the quantized layers
    forward = float_rnn.RNNBase.forward
    _check_input = float_rnn.RNNBase._check_input
    _state_shapes = float_rnn.RNNBase._state_shapes
    _run_layers = float_rnn.RNNBase._run_layers
    _run_direction = float_rnn.RNNBase._run_direction_stepwise  # the int8 recurrent product runs per step

    def _cell(self, layer, direction):
        return self._all_weight_values[layer * (2 if self.bidirectional else 1) + direction].param

    def _input_projection(self, x, layer, direction):
        return _linear(x, self._cell(layer, direction).packed_ih)

    def _recurrent_step(self, layer, direction):
        return _step(self.mode, self._cell(layer, direction).packed_hh)

    def _weight_bias(self):
        """{'weight': {name: qint8 weight}, 'bias': {name: float bias}} with the float names."""
        weights, biases = {}, {}
        for layer in range(self.num_layers):
            for direction in range(2 if self.bidirectional else 1):
                suffix = f"_l{layer}" + ("_reverse" if direction == 1 else "")
                w_ih, w_hh, b_ih, b_hh = self._cell(layer, direction).state
                weights["weight_ih" + suffix], weights["weight_hh" + suffix] = w_ih, w_hh
                biases["bias_ih" + suffix], biases["bias_hh" + suffix] = b_ih, b_hh
        return {"weight": weights, "bias": biases}

    @classmethod
    def from_float(cls, mod):
        if type(mod) not in (nn.LSTM, nn.GRU):
            raise NotImplementedError("Only LSTM/GRU is supported for QuantizedRNN for now")
        if not hasattr(mod, "qconfig"):
            raise AssertionError("Input float module must have qconfig defined")
        if getattr(mod, "proj_size", 0):
            raise NotImplementedError("dynamic LSTM: proj_size is not supported")
        qconfig = mod.qconfig if mod.qconfig is not None else core.quantization.default_dynamic_qconfig
        qmod = cls(mod.input_size, mod.hidden_size, mod.num_layers, mod.bias, mod.batch_first, mod.dropout,
                   mod.bidirectional)
        cells = []
        for layer in range(mod.num_layers):
            for direction in range(2 if mod.bidirectional else 1):
                w_ih, w_hh, b_ih, b_hh, _ = mod._layer_weights(layer, direction)
                cells.append(PackedParameter(_CellParams(
                    _quantized_weight(w_ih, qconfig.weight), _quantized_weight(w_hh, qconfig.weight),
                    None if b_ih is None else b_ih.detach().float(), None if b_hh is None else b_hh.detach().float())))
        qmod._all_weight_values = nn.ModuleList(cells)
        return qmod


class LSTM(RNNBase):
    """Dynamically quantized LSTM: forward(input, (h_0, c_0)=None) -> output, (h_n, c_n)."""

    _FLOAT_MODULE = nn.LSTM

    def __init__(self, *args, **kwargs):
        super().__init__("LSTM", *args, **kwargs)

    def _get_name(self):
        return "DynamicQuantizedLSTM"


class GRU(RNNBase):
    """Dynamically quantized GRU: forward(input, h_0=None) -> output, h_n."""

    _FLOAT_MODULE = nn.GRU

    def __init__(self, *args, **kwargs):
        super().__init__("GRU", *args, **kwargs)

    def _get_name(self):
        return "DynamicQuantizedGRU"


class RNNCellBase(nn.Module):
    """A dynamically quantized cell; state_dict keys _packed_weight_ih, _packed_weight_hh."""

    __constants__ = ["input_size", "hidden_size", "bias"]
    _MODE = None
    _STATES = 1

    def __init__(self, input_size, hidden_size, bias=True, num_chunks=4, dtype=core.qint8):
        super().__init__()
        if dtype != core.qint8:
            raise NotImplementedError(f"dynamic cells: only qint8 weights are supported, got {dtype}")
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        self.weight_dtype = dtype
        gate_size = num_chunks * hidden_size
        biases = (core.zeros(gate_size), core.zeros(gate_size)) if bias else (None, None)
        self._params = _CellParams(_placeholder_weight(gate_size, input_size),
                                   _placeholder_weight(gate_size, hidden_size), *biases)

    def _get_name(self):
        return "DynamicQuantizedRNNBase"

    extra_repr = nn.RNNCellBase.extra_repr
    _inputs_and_states = nn.RNNCellBase._inputs_and_states

    @property
    def bias_ih(self):
        return self._params.state[2]

    @property
    def bias_hh(self):
        return self._params.state[3]

    def _mode(self):
        return self._MODE

    def forward(self, input, hx=None):
        x, states, unbatched = self._inputs_and_states(input, hx, self._STATES)
        out = _step(self._mode(), self._params.packed_hh)(_linear(x, self._params.packed_ih), states)
        out = tuple(o.squeeze(0) for o in out) if unbatched else out
        return out if self._STATES == 2 else out[0]

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        super()._save_to_state_dict(destination, prefix, keep_vars)
        w_ih, w_hh, b_ih, b_hh = self._params.state
        destination[prefix + "_packed_weight_ih"] = (w_ih, b_ih)
        destination[prefix + "_packed_weight_hh"] = (w_hh, b_hh)

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                              error_msgs):
        w_ih, b_ih = state_dict.pop(prefix + "_packed_weight_ih")
        w_hh, b_hh = state_dict.pop(prefix + "_packed_weight_hh")
        self._params = _CellParams(w_ih, w_hh, b_ih, b_hh)
        super()._load_from_state_dict(state_dict, prefix, local_metadata, False, missing_keys, unexpected_keys,
                                      error_msgs)

    @classmethod
    def from_float(cls, mod):
        if type(mod) not in (nn.LSTMCell, nn.GRUCell, nn.RNNCell):
            raise NotImplementedError("Only LSTMCell, GRUCell and RNNCell are supported for QuantizedRNN for now")
        if not hasattr(mod, "qconfig"):
            raise AssertionError("Input float module must have qconfig defined")
        qconfig = mod.qconfig if mod.qconfig is not None else core.quantization.default_dynamic_qconfig
        kwargs = {"nonlinearity": mod.nonlinearity} if type(mod) is nn.RNNCell else {}
        qcell = cls(mod.input_size, mod.hidden_size, bias=mod.bias, **kwargs)
        qcell._params = _CellParams(_quantized_weight(mod.weight_ih, qconfig.weight),
                                    _quantized_weight(mod.weight_hh, qconfig.weight),
                                    None if mod.bias_ih is None else mod.bias_ih.detach().float(),
                                    None if mod.bias_hh is None else mod.bias_hh.detach().float())
        return qcell


class RNNCell(RNNCellBase):
    """h' = tanh(W_ih x + b_ih + W_hh h + b_hh) (or relu), int8 weights."""

    __constants__ = ["input_size", "hidden_size", "bias", "nonlinearity"]

    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh", dtype=core.qint8):
        super().__init__(input_size, hidden_size, bias, num_chunks=1, dtype=dtype)
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"Unknown nonlinearity: {nonlinearity}")
        self.nonlinearity = nonlinearity

    def _get_name(self):
        return "DynamicQuantizedRNNCell"

    def _mode(self):
        return "RNN_TANH" if self.nonlinearity == "tanh" else "RNN_RELU"


class LSTMCell(RNNCellBase):
    """(h', c') of one LSTM step, int8 weights."""

    _MODE = "LSTM"
    _STATES = 2

    def __init__(self, input_size, hidden_size, bias=True, dtype=core.qint8):
        super().__init__(input_size, hidden_size, bias, num_chunks=4, dtype=dtype)

    def _get_name(self):
        return "DynamicQuantizedLSTMCell"


class GRUCell(RNNCellBase):
    """h' of one GRU step, int8 weights."""

    _MODE = "GRU"

    def __init__(self, input_size, hidden_size, bias=True, dtype=core.qint8):
        super().__init__(input_size, hidden_size, bias, num_chunks=3, dtype=dtype)

    def _get_name(self):
        return "DynamicQuantizedGRUCell"
