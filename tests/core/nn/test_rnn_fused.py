"""The fused recurrent layer op (_rnn_layer, the time loop in C++) against the step-by-step
composition it replaced (RNNBase._run_direction_stepwise, kept for the quantized layers), the
float64 gradcheck of the op itself in every mode, packed and reversed, and its errors."""
import numpy as np
import pytest

import core
import core.nn as nn
from core.autograd import gradcheck, gradgradcheck
from core.nn.modules import rnn as rnn_module
from core.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

R = np.random.default_rng(1)
_op = core._C._internal["_rnn_layer"]


def _tensor(*shape, dtype=core.float64, grad=True):
    return core.tensor(R.standard_normal(shape), dtype=dtype, requires_grad=grad)


def _outputs_and_grads(module, x, hx, packed_lengths):
    """Forward (optionally packed), then backward of a weighted sum of every output."""
    inp = pack_padded_sequence(x, packed_lengths) if packed_lengths else x
    out, h = module(inp, hx)
    if packed_lengths:
        out = pad_packed_sequence(out)[0]
    h = h if isinstance(h, tuple) else (h,)
    results = (out,) + h
    loss = sum(((r * core.tensor(R.standard_normal(tuple(r.shape)), dtype=r.dtype)).sum() for r in results))
    leaves = [x] + [s for s in (hx if isinstance(hx, tuple) else (hx,))] + list(module.parameters())
    grads = core.autograd.grad(loss, leaves)
    return [r.detach() for r in results], list(grads)


CASES = [
    ("RNN", {"nonlinearity": "tanh"}), ("RNN", {"nonlinearity": "relu", "bias": False}),
    ("LSTM", {}), ("LSTM", {"proj_size": 2}), ("LSTM", {"bidirectional": True, "num_layers": 2, "proj_size": 3}),
    ("GRU", {}), ("GRU", {"bias": False, "bidirectional": True}), ("RNN", {"num_layers": 2, "bidirectional": True}),
]


@pytest.mark.parametrize("packed", [False, True])
@pytest.mark.parametrize("kind,kwargs", CASES)
@pytest.mark.parametrize("dtype", [core.float64, core.float32])
def test_fused_matches_stepwise(kind, kwargs, packed, dtype, monkeypatch):
    core.manual_seed(0)
    m = getattr(nn, kind)(3, 4, **kwargs).to(dtype)
    d = 2 if m.bidirectional else 1
    p = m.proj_size or m.hidden_size
    x = _tensor(5, 3, 3, dtype=dtype)
    hx = _tensor(m.num_layers * d, 3, p, dtype=dtype)
    if kind == "LSTM":
        hx = (hx, _tensor(m.num_layers * d, 3, 4, dtype=dtype))
    lengths = [5, 3, 2] if packed else None
    seed = R.bit_generator.state
    fused = _outputs_and_grads(m, x, hx, lengths)
    monkeypatch.setattr(nn.RNNBase, "_run_direction", nn.RNNBase._run_direction_stepwise)
    R.bit_generator.state = seed
    reference = _outputs_and_grads(m, x, hx, lengths)
    tol = 1e-12 if dtype == core.float64 else 2e-5
    for a, b in zip(fused[0] + fused[1], reference[0] + reference[1]):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=tol, atol=tol)


@pytest.mark.parametrize("mode", ["RNN_TANH", "RNN_RELU", "LSTM", "GRU"])
@pytest.mark.parametrize("batch_sizes,reverse", [([3, 3, 3], False), ([3, 2, 2, 1], False), ([3, 2, 1], True)])
def test_layer_op_gradcheck(mode, batch_sizes, reverse):
    hidden, gates = 3, rnn_module._GATES[mode] * 3
    rows = sum(batch_sizes)
    gates_in = _tensor(rows, gates)
    if mode == "RNN_RELU":  # keep pre-activations away from relu's kink at 0
        gates_in = (gates_in.detach().abs() + 0.1).requires_grad_()
    hx, w_hh = _tensor(3, hidden), _tensor(gates, hidden) * 0.5
    w_hh = w_hh.detach().requires_grad_()
    cx = _tensor(3, hidden) if mode == "LSTM" else None
    b_hh = _tensor(gates)  # added per step inside the op (GRU's layers, every cell)
    code = rnn_module._MODE_CODES[mode]
    inputs = [t for t in (gates_in, hx, cx, w_hh, b_hh) if t is not None]

    def fn(*args):
        it = iter(args)
        g, h = next(it), next(it)
        c = next(it) if cx is not None else None
        w = next(it)
        b = next(it) if b_hh is not None else None
        out, hy, cy, _ = _op(g, h, c, w, b, None, batch_sizes, code, reverse)
        return (out, hy, cy) if mode == "LSTM" else (out, hy)
    assert gradcheck(fn, tuple(inputs))


@pytest.mark.parametrize("reverse", [False, True])
def test_layer_op_gradcheck_projection(reverse):
    hidden, proj = 4, 2
    gates_in, hx, cx = _tensor(6, 16), _tensor(3, proj), _tensor(3, hidden)
    w_hh, w_hr = _tensor(16, proj), _tensor(proj, hidden)

    def fn(g, h, c, w, wr):
        out, hy, cy, _ = _op(g, h, c, w, None, wr, [3, 2, 1], 2, reverse)
        return out, hy, cy
    assert gradcheck(fn, (gates_in, hx, cx, w_hh, w_hr))


def test_cells_match_stepwise():
    for cls, mode in [(nn.LSTMCell, "LSTM"), (nn.GRUCell, "GRU"), (nn.RNNCell, "RNN_TANH")]:
        cell = cls(3, 4).double()
        x, h = _tensor(2, 3, grad=False), _tensor(2, 4, grad=False)
        state = (h, h * 0.5) if mode == "LSTM" else (h,)
        got = cell(x, state if mode == "LSTM" else h)
        got = got if isinstance(got, tuple) else (got,)
        gi = rnn_module._project(x, cell.weight_ih, rnn_module._input_bias(mode, cell.bias_ih, cell.bias_hh))
        step = rnn_module._make_step(mode, cell.weight_hh, cell.bias_hh if mode == "GRU" else None, None)
        for a, b in zip(got, step(gi, state)):
            np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=1e-12, atol=1e-12)


def test_lstm_cell_loop_gradient_flows_through_steps():
    cell = nn.LSTMCell(2, 3).double()
    x = _tensor(4, 5, 2)
    h = c = core.zeros(5, 3, dtype=core.float64)
    for t in range(4):
        h, c = cell(x[t], (h, c))
    (h.sum() + c.sum()).backward()
    assert x.grad is not None and float(x.grad[0].abs().sum()) > 0
    assert cell.weight_hh.grad.shape == (12, 3)


def test_empty_batch_and_sequence():
    m = nn.GRU(2, 3)
    out, h = m(core.zeros(4, 0, 2))
    assert out.shape == (4, 0, 3) and h.shape == (1, 0, 3)
    out, h = m(core.zeros(0, 2, 2))
    assert out.shape == (0, 2, 3) and h.shape == (1, 2, 3)


@pytest.mark.parametrize("mode", ["RNN_TANH", "LSTM", "GRU"])
@pytest.mark.parametrize("batch_sizes,reverse", [([2, 2], False), ([3, 2, 1], True)])
def test_layer_op_gradgradcheck(mode, batch_sizes, reverse):
    """A backward with create_graph records the differentiable replay: second derivatives."""
    hidden, gates = 2, rnn_module._GATES[mode] * 2
    gates_in, hx, w_hh, b_hh = _tensor(sum(batch_sizes), gates), _tensor(3, hidden), _tensor(gates, hidden), _tensor(gates)
    hx = hx[: batch_sizes[0]].detach().requires_grad_()
    cx = _tensor(batch_sizes[0], hidden) if mode == "LSTM" else None
    code = rnn_module._MODE_CODES[mode]
    inputs = [t for t in (gates_in, hx, cx, w_hh, b_hh) if t is not None]

    def fn(*args):
        g, h, *rest = args
        c = rest.pop(0) if cx is not None else None
        out, hy, cy, _ = _op(g, h, c, rest[0], rest[1], None, batch_sizes, code, reverse)
        return (out, hy, cy) if mode == "LSTM" else (out, hy)
    assert gradgradcheck(fn, tuple(inputs))


def test_layer_op_gradgradcheck_projection():
    gates_in, hx, cx, w_hh, w_hr = _tensor(3, 12), _tensor(2, 2), _tensor(2, 3), _tensor(12, 2), _tensor(2, 3)

    def fn(g, h, c, w, wr):
        out, hy, cy, _ = _op(g, h, c, w, None, wr, [2, 1], 2, False)
        return out, hy, cy
    assert gradgradcheck(fn, (gates_in, hx, cx, w_hh, w_hr))


@pytest.mark.parametrize("kind", ["LSTM", "GRU"])
def test_double_backward_matches_stepwise(kind, monkeypatch):
    """A gradient penalty through a module: the same second-order gradients as the stepwise cells."""
    def penalty_grads():
        core.manual_seed(0)
        m = getattr(nn, kind)(2, 3, num_layers=2).double()
        x = core.tensor(np.linspace(-1, 1, 24).reshape(4, 3, 2), dtype=core.float64, requires_grad=True)
        out, _ = m(x)
        (g,) = core.autograd.grad(out.square().sum(), x, create_graph=True)
        return core.autograd.grad(g.square().sum(), list(m.parameters()))
    fused = penalty_grads()
    monkeypatch.setattr(nn.RNNBase, "_run_direction", nn.RNNBase._run_direction_stepwise)
    for a, b in zip(fused, penalty_grads()):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-10, atol=1e-12)


def test_backward_of_the_layer_backward_op_is_refused():
    with pytest.raises(NotImplementedError, match="_rnn_layer_backward is not differentiable"):
        args = [_tensor(2, 2), _tensor(2, 2), _tensor(0), _tensor(2, 2), None, _tensor(2, 2), None, None,
                _tensor(2, 2, grad=False), _tensor(2, 2, grad=False), [2], 0, False]
        out = core._C._internal["_rnn_layer_backward"](*args)
        out[0].sum().backward()


def test_layer_op_errors():
    g, h, c, w = _tensor(6, 12, grad=False), _tensor(3, 3, grad=False), _tensor(3, 3, grad=False), _tensor(12, 3, grad=False)
    with pytest.raises(ValueError, match="non-increasing"):
        _op(g, h, c, w, None, None, [2, 3, 1], 2, False)
    with pytest.raises(ValueError, match="batch_sizes sum to"):
        _op(g, h, c, w, None, None, [3, 2], 2, False)
    with pytest.raises(ValueError, match="cx is required for LSTM"):
        _op(g, h, None, w, None, None, [3, 3], 2, False)
    with pytest.raises(TypeError, match="dtype"):
        _op(g, h.float(), c, w, None, None, [3, 3], 2, False)
    with pytest.raises(ValueError, match="not a multiple of the 3 gates of GRU"):
        _op(g, h, None, _tensor(10, 3, grad=False), None, None, [3, 3], 3, False)
    with pytest.raises(ValueError, match="unknown mode"):
        _op(g, h, c, w, None, None, [3, 3], 7, False)
    with pytest.raises(RuntimeError, match=r"Expected hidden\[0\] size \(1, 2, 3\), got \(1, 2, 4\)"):
        nn.LSTM(2, 3)(core.zeros(4, 2, 2), (core.zeros(1, 2, 4), core.zeros(1, 2, 3)))
    with pytest.raises(RuntimeError, match="hidden0 has inconsistent hidden_size"):
        nn.GRUCell(2, 3)(core.zeros(4, 2), core.zeros(4, 5))


@pytest.mark.parametrize("dtype,rtol,tiny", [(core.float64, 4e-16, 1e-300), (core.float32, 3e-7, 1e-37)])
def test_cell_activations_against_numpy(dtype, rtol, tiny):
    """The kernels' own exp/tanh/sigmoid (vectorised float64 ones included) over both branches,
    their boundary and the clamped ranges: with zero recurrent weights and states, an RNN step
    is tanh(x) and an LSTM step is sigmoid(o) * tanh(sigmoid(i) * tanh(g))."""
    values = np.array([0.0, 1e-300, -1e-12, 3e-5, 0.3, -0.6249, 0.625, 0.7, -2.5, 9.0, 19.9, -20.5, 40.0,
                       -300.0, 710.0, -750.0] * 2)[:, None] * np.ones((1, 3))
    values = values.astype(np.float64 if dtype == core.float64 else np.float32).astype(np.float64)  # as stored
    x = core.tensor(values, dtype=dtype)
    rows = values.shape[0]
    zeros = lambda *s: core.zeros(*s, dtype=dtype)  # noqa: E731
    out = _op(x, zeros(rows, 3), None, zeros(3, 3), None, None, [rows], 0, False)[0]
    np.testing.assert_allclose(out.numpy(), np.tanh(values), rtol=rtol, atol=tiny)
    gates = np.concatenate([values, values[::-1], -values, values * 0.5], axis=1)
    out = _op(core.tensor(gates, dtype=dtype), zeros(rows, 3), zeros(rows, 3), zeros(12, 3), None, None, [rows], 2,
              False)[0]
    def sig(v):
        e = np.exp(-np.abs(v))
        return np.where(v < 0, e / (1 + e), 1 / (1 + e))
    i, g, o = sig(gates[:, :3]), np.tanh(gates[:, 6:9]), sig(gates[:, 9:])
    np.testing.assert_allclose(out.numpy(), o * np.tanh(i * g), rtol=4 * rtol, atol=tiny)
    nan = core.tensor([[float("nan")] * 3], dtype=dtype)
    assert np.isnan(_op(nan, zeros(1, 3), None, zeros(3, 3), None, None, [1], 0, False)[0].numpy()).all()
    assert np.isnan(_op(core.cat([nan] * 4, 1), zeros(1, 3), zeros(1, 3), zeros(12, 3), None, None, [1], 2,
                        False)[0].numpy()).all()


@pytest.mark.parametrize("kind,kwargs", [("RNN", {"nonlinearity": "tanh"}), ("RNN", {"nonlinearity": "relu"}),
                                         ("LSTM", {}), ("LSTM", {"proj_size": 2}), ("GRU", {})])
@pytest.mark.parametrize("packed", [False, True])
def test_module_gradcheck_bidirectional_two_layers(kind, kwargs, packed):
    core.manual_seed(0)
    m = getattr(nn, kind)(2, 3, num_layers=2, bidirectional=True, **kwargs).double()
    x = _tensor(3, 2, 2)
    h0 = _tensor(4, 2, m.proj_size or 3)
    states = (h0, _tensor(4, 2, 3)) if kind == "LSTM" else (h0,)

    def fn(x, *hx):
        out, h = m(pack_padded_sequence(x, [3, 2]) if packed else x, hx if kind == "LSTM" else hx[0])
        out = pad_packed_sequence(out)[0] if packed else out
        return (out,) + (h if isinstance(h, tuple) else (h,))
    assert gradcheck(fn, (x,) + states)
