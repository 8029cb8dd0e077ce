"""Recurrent layers (RNN, LSTM, GRU) and cells, with torch.nn's parameter names, order, init and
shapes. Each layer projects the inputs of all time steps in one GEMM (both biases folded in
where the cell allows), then runs its time loop in one C++ op per direction (`_rnn_layer`: one
GEMM per step for the recurrent part of all gates, the cell's pointwise part fused, and a
backward of its own); a cell is that op with one step. The step-by-step composition below is
what the dynamically quantized layers run (their recurrent product is an int8 linear)."""
import math
import numbers
import warnings

import core
from core.nn import init
from core.nn.modules.module import Module
from core.nn.parameter import Parameter
from core.nn.utils.rnn import PackedSequence

__all__ = ["RNNBase", "RNN", "LSTM", "GRU", "RNNCellBase", "RNNCell", "LSTMCell", "GRUCell"]

_GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}
_MODE_CODES = {"RNN_TANH": 0, "RNN_RELU": 1, "LSTM": 2, "GRU": 3}  # as _rnn_layer numbers them


# ---------------------------------------------------------------- one step of each cell
# `gi` is the input projection of the step with the biases the cell allows folded in; `w_hh_t`
# the transposed recurrent weight.

# The pointwise part of each cell, from the summed gate pre-activations (the float cells form
# them with an addmm, the dynamically quantized ones with two int8 linears).
def _rnn_pointwise(pre, relu):
    return (core.clamp_min(pre, 0) if relu else core.tanh(pre)),


def _lstm_pointwise(gates, c):
    hidden = c.shape[-1]
    s = core.sigmoid(gates)  # i, f, (g), o: one sigmoid over all four, g's part unused
    g = core.tanh(gates.narrow(1, 2 * hidden, hidden))
    c = s.narrow(1, hidden, hidden) * c + s.narrow(1, 0, hidden) * g
    return s.narrow(1, 3 * hidden, hidden) * core.tanh(c), c


def _gru_pointwise(gi, gh, h):
    """gi = W_i x + b_i and gh = W_h h + b_h, each (batch, 3 * hidden) in r, z, n order."""
    hidden = h.shape[-1]
    rz = core.sigmoid(gi.narrow(1, 0, 2 * hidden) + gh.narrow(1, 0, 2 * hidden))
    n = core.tanh(gi.narrow(1, 2 * hidden, hidden) + rz.narrow(1, 0, hidden) * gh.narrow(1, 2 * hidden, hidden))
    return n + rz.narrow(1, hidden, hidden) * (h - n),


def _rnn_step(gi, h, w_hh_t, relu):
    return _rnn_pointwise(core.addmm(gi, h, w_hh_t), relu)


def _lstm_step(gi, h, c, w_hh_t, w_hr_t):
    h, c = _lstm_pointwise(core.addmm(gi, h, w_hh_t), c)
    if w_hr_t is not None:
        h = core.mm(h, w_hr_t)
    return h, c


def _gru_step(gi, h, w_hh_t, b_hh):
    return _gru_pointwise(gi, core.mm(h, w_hh_t) if b_hh is None else core.addmm(b_hh, h, w_hh_t), h)


def _input_bias(mode, b_ih, b_hh):
    """The bias added to the input projection: both biases, except GRU's hidden bias, which
    the reset gate multiplies."""
    if b_ih is None:
        return None
    return b_ih if mode == "GRU" else b_ih + b_hh


def _project(x, w_ih, bias):
    """x (..., in) @ w_ih^T + bias as one GEMM over all leading dims."""
    if x.dim() == 2:  # a cell's step
        return core.mm(x, w_ih.t()) if bias is None else core.addmm(bias, x, w_ih.t())
    flat = x.reshape(-1, x.shape[-1])
    out = core.mm(flat, w_ih.t()) if bias is None else core.addmm(bias, flat, w_ih.t())
    return out.reshape(tuple(x.shape[:-1]) + (w_ih.shape[0],))


def _fused_layer(mode, gates_in, state, w_hh, b_hh, w_hr, batch_sizes, reverse):
    """Runs one direction of a layer in C++ over the rows of gates_in (N, G), steps one after
    another with batch_sizes[t] rows each; b_hh (or None) is added to each step's recurrent part.
    Returns the output rows (N, P) and the final state."""
    cx = state[1] if mode == "LSTM" else None
    out, hy, cy, _ = core._C._internal["_rnn_layer"](gates_in, state[0], cx, w_hh, b_hh, w_hr, batch_sizes,
                                                  _MODE_CODES[mode], reverse)
    return out, ((hy, cy) if mode == "LSTM" else (hy,))


def _make_step(mode, w_hh, b_hh, w_hr):
    w_hh_t = w_hh.t()
    if mode == "LSTM":
        w_hr_t = None if w_hr is None else w_hr.t()
        return lambda gi, state: _lstm_step(gi, state[0], state[1], w_hh_t, w_hr_t)
    if mode == "GRU":
        return lambda gi, state: _gru_step(gi, state[0], w_hh_t, b_hh)
    relu = mode == "RNN_RELU"
    return lambda gi, state: _rnn_step(gi, state[0], w_hh_t, relu)


def _run(step, gis, state, batch_sizes, reverse):
    """Runs one direction over the per-step projections `gis`. With batch_sizes (packed input),
    step t runs on the first batch_sizes[t] rows. Returns the outputs in time order and the
    final state (every sequence's state after its own last step)."""
    order = range(len(gis) - 1, -1, -1) if reverse else range(len(gis))
    outputs = [None] * len(gis)
    if batch_sizes is None:
        for t in order:
            state = step(gis[t], state)
            outputs[t] = state[0]
        return outputs, state
    initial = state
    if reverse:  # sequences join as time runs backwards: append their initial states
        rows = batch_sizes[-1]
        state = tuple(s.narrow(0, 0, rows) for s in initial)
        for t in order:
            b = batch_sizes[t]
            if b > rows:
                state = tuple(core.cat([s, s0.narrow(0, rows, b - rows)]) for s, s0 in zip(state, initial))
                rows = b
            state = step(gis[t], state)
            outputs[t] = state[0]
        return outputs, state
    finished = []  # states of sequences that ended, latest-ending (lowest rows) last
    rows = batch_sizes[0]
    for t in order:
        b = batch_sizes[t]
        if b < rows:
            finished.append(tuple(s.narrow(0, b, rows - b) for s in state))
            state = tuple(s.narrow(0, 0, b) for s in state)
            rows = b
        state = step(gis[t], state)
        outputs[t] = state[0]
    if finished:
        state = tuple(core.cat([s] + [f[k] for f in reversed(finished)]) for k, s in enumerate(state))
    return outputs, state


class RNNBase(Module):
    __constants__ = ["mode", "input_size", "hidden_size", "num_layers", "bias", "batch_first", "dropout",
                     "bidirectional", "proj_size"]

    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, proj_size=0):
        super().__init__()
        if mode not in _GATES:
            raise ValueError("Unrecognized RNN mode: " + mode)
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        num_directions = 2 if bidirectional else 1
        if (not isinstance(dropout, numbers.Number) or not 0 <= dropout <= 1 or isinstance(dropout, bool)):
            raise ValueError("dropout should be a number in range [0, 1] representing the probability of an "
                             "element being zeroed")
        if dropout > 0 and num_layers == 1:
            warnings.warn("dropout option adds dropout after all but last recurrent layer, so non-zero dropout "
                          f"expects num_layers greater than 1, but got dropout={dropout} and num_layers={num_layers}")
        if proj_size < 0:
            raise ValueError("proj_size should be a positive integer or zero to disable projections")
        if proj_size >= hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")
        if proj_size and mode != "LSTM":
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        gate_size = _GATES[mode] * hidden_size
        real_hidden = proj_size if proj_size > 0 else hidden_size
        self._flat_weights_names = []
        self._all_weights = []
        for layer in range(num_layers):
            for direction in range(num_directions):
                layer_input = input_size if layer == 0 else real_hidden * num_directions
                suffix = f"_l{layer}" + ("_reverse" if direction == 1 else "")
                params = [("weight_ih", (gate_size, layer_input)), ("weight_hh", (gate_size, real_hidden))]
                if bias:
                    params += [("bias_ih", (gate_size,)), ("bias_hh", (gate_size,))]
                if proj_size > 0:
                    params.append(("weight_hr", (proj_size, hidden_size)))
                names = []
                for base, shape in params:
                    setattr(self, base + suffix, Parameter(core.empty(shape)))
                    names.append(base + suffix)
                self._flat_weights_names.extend(names)
                self._all_weights.append(names)
        self.reset_parameters()

    @property
    def _flat_weights(self):
        return [getattr(self, name) for name in self._flat_weights_names]

    @property
    def all_weights(self):
        return [[getattr(self, name) for name in names] for names in self._all_weights]

    def flatten_parameters(self):
        """No-op: weights are used where they are (cuDNN-only in torch)."""

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def extra_repr(self):
        s = "{input_size}, {hidden_size}"
        if self.proj_size != 0:
            s += ", proj_size={proj_size}"
        if self.num_layers != 1:
            s += ", num_layers={num_layers}"
        if self.bias is not True:
            s += ", bias={bias}"
        if self.batch_first is not False:
            s += ", batch_first={batch_first}"
        if self.dropout != 0:
            s += ", dropout={dropout}"
        if self.bidirectional is not False:
            s += ", bidirectional={bidirectional}"
        return s.format(**self.__dict__)

    def _layer_weights(self, layer, direction):
        suffix = f"_l{layer}" + ("_reverse" if direction == 1 else "")
        get = lambda base: getattr(self, base + suffix, None)  # noqa: E731
        return get("weight_ih"), get("weight_hh"), get("bias_ih"), get("bias_hh"), get("weight_hr")

    def _state_shapes(self, batch):
        d = 2 if self.bidirectional else 1
        real_hidden = self.proj_size if self.proj_size > 0 else self.hidden_size
        shapes = [(self.num_layers * d, batch, real_hidden)]
        if self.mode == "LSTM":
            shapes.append((self.num_layers * d, batch, self.hidden_size))
        return shapes

    def _check_input(self, input, batch_sizes):
        expected = 2 if batch_sizes is not None else 3
        if input.dim() != expected:
            raise RuntimeError(f"{type(self).__name__}: input must have {expected} dimensions, got {input.dim()}")
        if self.input_size != input.shape[-1]:
            raise RuntimeError(f"{type(self).__name__}: input.size(-1) must be equal to input_size. Expected "
                               f"{self.input_size}, got {input.shape[-1]}")

    def forward(self, input, hx=None):
        name = type(self).__name__
        packed = isinstance(input, PackedSequence)
        unbatched = False
        if packed:
            data, batch_sizes_t, sorted_indices, unsorted_indices = input
            batch_sizes = batch_sizes_t.tolist()
            batch = batch_sizes[0]
            self._check_input(data, batch_sizes)
        else:
            data, batch_sizes, sorted_indices, unsorted_indices = input, None, None, None
            if input.dim() == 2:  # unbatched (L, H_in)
                unbatched = True
                data = input.unsqueeze(1)
            elif self.batch_first:
                data = input.transpose(0, 1)
            self._check_input(data, None)
            batch = data.shape[1]
        shapes = self._state_shapes(batch)
        if hx is None:
            state = [core.zeros(s, dtype=data.dtype) for s in shapes]
        else:
            state = list(hx) if self.mode == "LSTM" else [hx]
            if self.mode == "LSTM" and len(state) != 2:
                raise RuntimeError(f"{name}: expected hx to be a tuple (h_0, c_0)")
            if unbatched:
                state = [s.unsqueeze(1) for s in state]
            if sorted_indices is not None:
                state = [s.index_select(1, sorted_indices) for s in state]
            for k, (s, shape) in enumerate(zip(state, shapes)):
                if tuple(s.shape) != shape:
                    which = f"hidden[{k}]" if self.mode == "LSTM" else "hidden"
                    raise RuntimeError(f"{name}: Expected {which} size {shape}, got {tuple(s.shape)}")

        output, finals = self._run_layers(data, state, batch_sizes)

        if packed:
            finals = [f.index_select(1, unsorted_indices) if unsorted_indices is not None else f for f in finals]
            output = PackedSequence(output, batch_sizes_t, sorted_indices, unsorted_indices)
        elif unbatched:
            output = output.squeeze(1)
            finals = [f.squeeze(1) for f in finals]
        elif self.batch_first:
            output = output.transpose(0, 1)
        return output, (tuple(finals) if self.mode == "LSTM" else finals[0])

    def _input_projection(self, x, layer, direction):
        """The gate pre-activations of every time step's input (one GEMM over the sequence)."""
        w_ih, _, b_ih, b_hh, _ = self._layer_weights(layer, direction)
        return _project(x, w_ih, _input_bias(self.mode, b_ih, b_hh))

    def _recurrent_step(self, layer, direction):
        """step(gi, state) -> new state of one time step."""
        _, w_hh, _, b_hh, w_hr = self._layer_weights(layer, direction)
        return _make_step(self.mode, w_hh, b_hh if self.mode == "GRU" else None, w_hr)

    def _run_direction(self, x, layer, direction, initial, batch_sizes):
        """One direction of one layer over x ((T, B, in), or packed rows (N, in) with batch_sizes):
        (its output sequence, its final state)."""
        proj = self._input_projection(x, layer, direction)
        _, w_hh, _, b_hh, w_hr = self._layer_weights(layer, direction)
        b_hh = b_hh if self.mode == "GRU" else None  # the others' is folded into proj
        if batch_sizes is None:  # padded: T steps of B rows
            steps, batch, gates = proj.shape
            out, final = _fused_layer(self.mode, proj.reshape(steps * batch, gates), initial, w_hh, b_hh, w_hr,
                                      [batch] * steps if batch else [], direction == 1)
            return out.reshape(steps, batch, out.shape[-1]), final
        return _fused_layer(self.mode, proj, initial, w_hh, b_hh, w_hr, batch_sizes, direction == 1)

    def _run_direction_stepwise(self, x, layer, direction, initial, batch_sizes):
        """_run_direction as a composition of one step function per time step."""
        proj = self._input_projection(x, layer, direction)
        gis = core.split(proj, batch_sizes) if batch_sizes is not None else proj.unbind(0)
        outputs, final = _run(self._recurrent_step(layer, direction), gis, initial, batch_sizes, direction == 1)
        return (core.cat(outputs) if batch_sizes is not None else core.stack(outputs)), final

    def _run_layers(self, data, state, batch_sizes):
        d = 2 if self.bidirectional else 1
        finals = [[] for _ in state]
        x = data
        for layer in range(self.num_layers):
            outs = []
            for direction in range(d):
                k = layer * d + direction
                out, final = self._run_direction(x, layer, direction, tuple(s[k] for s in state), batch_sizes)
                outs.append(out)
                for lst, f in zip(finals, final):
                    lst.append(f)
            x = outs[0] if d == 1 else core.cat(outs, -1)
            if self.dropout > 0 and self.training and layer < self.num_layers - 1:
                from core.nn.functional import dropout
                x = dropout(x, p=self.dropout, training=True)
        return x, [core.stack(f) for f in finals]


class RNN(RNNBase):
    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        self.nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if len(args) > 3:
            self.nonlinearity = args[3]
            args = args[:3] + args[4:]
        if self.nonlinearity == "tanh":
            mode = "RNN_TANH"
        elif self.nonlinearity == "relu":
            mode = "RNN_RELU"
        else:
            raise ValueError(f"Unknown nonlinearity '{self.nonlinearity}'")
        super().__init__(mode, *args, **kwargs)

    def extra_repr(self):
        s = super().extra_repr()
        return s + (f", nonlinearity={self.nonlinearity}" if self.nonlinearity != "tanh" else "")


class LSTM(RNNBase):
    def __init__(self, *args, **kwargs):
        super().__init__("LSTM", *args, **kwargs)


class GRU(RNNBase):
    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", *args, **kwargs)


# ---------------------------------------------------------------- cells

class RNNCellBase(Module):
    __constants__ = ["input_size", "hidden_size", "bias"]

    def __init__(self, input_size, hidden_size, bias, num_chunks):
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        self.weight_ih = Parameter(core.empty((num_chunks * hidden_size, input_size)))
        self.weight_hh = Parameter(core.empty((num_chunks * hidden_size, hidden_size)))
        if bias:
            self.bias_ih = Parameter(core.empty((num_chunks * hidden_size,)))
            self.bias_hh = Parameter(core.empty((num_chunks * hidden_size,)))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def extra_repr(self):
        s = "{input_size}, {hidden_size}"
        if "bias" in self.__dict__ and self.bias is not True:
            s += ", bias={bias}"
        if "nonlinearity" in self.__dict__ and self.nonlinearity != "tanh":
            s += ", nonlinearity={nonlinearity}"
        return s.format(**self.__dict__)

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def _inputs_and_states(self, input, hx, n_states):
        """(x as a batch, the n_states initial states, whether input was unbatched), checked.
        Sizes are read with size(d): this runs once per cell per time step."""
        name = type(self).__name__
        if input.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected input to be 1-D or 2-D but received {input.dim()}-D tensor")
        if input.size(-1) != self.input_size:
            raise RuntimeError(f"{name}: input has inconsistent input_size: got {input.size(-1)}, expected "
                               f"{self.input_size}")
        unbatched = input.dim() == 1
        x = input.unsqueeze(0) if unbatched else input
        batch = x.size(0)
        if hx is None:
            states = [core.zeros((batch, self.hidden_size), dtype=x.dtype) for _ in range(n_states)]
        else:
            states = list(hx) if n_states == 2 else [hx]
            states = [s.unsqueeze(0) if unbatched else s for s in states]
            for k, s in enumerate(states):
                if s.size(0) != batch:
                    raise RuntimeError(f"{name}: Input batch size {batch} doesn't match hidden{k} batch size "
                                       f"{s.size(0)}")
                if s.size(-1) != self.hidden_size:
                    raise RuntimeError(f"{name}: hidden{k} has inconsistent hidden_size: got {s.size(-1)}, "
                                       f"expected {self.hidden_size}")
        return x, tuple(states), unbatched

    def _prepare(self, input, hx, mode, n_states):
        """One step of the fused layer op: the input's GEMM, then the recurrent GEMM and the
        cell's pointwise part in one node."""
        x, states, unbatched = self._inputs_and_states(input, hx, n_states)
        gi = _project(x, self.weight_ih, self.bias_ih)  # b_hh is added in the op: one node less per step
        batch = x.size(0)
        _, out = _fused_layer(mode, gi, states, self.weight_hh, self.bias_hh, None, [batch] if batch else [], False)
        return tuple(o.squeeze(0) for o in out) if unbatched else out


class RNNCell(RNNCellBase):
    __constants__ = ["input_size", "hidden_size", "bias", "nonlinearity"]

    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh"):
        super().__init__(input_size, hidden_size, bias, num_chunks=1)
        self.nonlinearity = nonlinearity

    def forward(self, input, hx=None):
        if self.nonlinearity not in ("tanh", "relu"):
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        mode = "RNN_TANH" if self.nonlinearity == "tanh" else "RNN_RELU"
        return self._prepare(input, hx, mode, 1)[0]


class LSTMCell(RNNCellBase):
    def __init__(self, input_size, hidden_size, bias=True):
        super().__init__(input_size, hidden_size, bias, num_chunks=4)

    def forward(self, input, hx=None):
        return self._prepare(input, hx, "LSTM", 2)


class GRUCell(RNNCellBase):
    def __init__(self, input_size, hidden_size, bias=True):
        super().__init__(input_size, hidden_size, bias, num_chunks=3)

    def forward(self, input, hx=None):
        return self._prepare(input, hx, "GRU", 1)[0]
