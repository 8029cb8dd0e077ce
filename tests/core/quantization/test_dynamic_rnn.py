"""Dynamically quantized LSTM / GRU and cells: close to the float modules, packed sequences,
given states, save/load and deepcopy of the packed weights, the mapping of quantize_dynamic,
and bad input."""
import copy
import io

import numpy as np
import pytest

import core
import core.nn as nn
import core.quantization as tq
from core.nn.quantized import dynamic as nnqd
from core.nn.utils.rnn import pack_padded_sequence

RNG = np.random.default_rng(7)


def _close(a, b, atol):
    np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), atol=atol)


@pytest.mark.parametrize("kind,kwargs", [("LSTM", {"num_layers": 2, "bidirectional": True}),
                                         ("GRU", {"batch_first": True})])
def test_dynamic_layers_follow_the_float_ones(kind, kwargs):
    float_mod = getattr(nn, kind)(6, 12, **kwargs)
    qmod = tq.quantize_dynamic(nn.Sequential(float_mod))[0]
    assert type(qmod) is getattr(nnqd, kind) and qmod._get_name() == f"DynamicQuantized{kind}"
    x = core.tensor(RNG.normal(0, 1, (4, 3, 6)).astype(np.float32))
    out, state = qmod(x)
    ref_out, ref_state = float_mod(x)
    _close(out, ref_out, 0.03)
    directions = 2 if kwargs.get("bidirectional") else 1
    layers = kwargs.get("num_layers", 1)
    h0 = core.tensor(RNG.normal(0, 0.5, (layers * directions, 3 if kind == "LSTM" else 4, 12)).astype(np.float32))
    hx = (h0, h0 * 0.5) if kind == "LSTM" else h0
    _close(qmod(x, hx)[0], float_mod(x, hx)[0], 0.03)
    buf = io.BytesIO()
    core.save(qmod.state_dict(), buf)
    buf.seek(0)
    fresh = getattr(nnqd, kind)(6, 12, **kwargs)
    fresh.load_state_dict(core.load(buf))
    np.testing.assert_array_equal(fresh(x)[0].numpy(), out.numpy())
    np.testing.assert_array_equal(copy.deepcopy(qmod)(x)[0].numpy(), out.numpy())


def test_dynamic_lstm_packed_sequence():
    float_mod = nn.LSTM(5, 7)
    qmod = tq.quantize_dynamic(nn.Sequential(float_mod))[0]
    x = core.tensor(RNG.normal(0, 1, (6, 3, 5)).astype(np.float32))
    packed = pack_padded_sequence(x, [6, 4, 2])
    out, (h, c) = qmod(packed)
    ref, (rh, rc) = float_mod(packed)
    _close(out.data, ref.data, 0.03)
    _close(h, rh, 0.03)
    _close(c, rc, 0.03)


@pytest.mark.parametrize("kind", ["LSTMCell", "GRUCell", "RNNCell"])
def test_dynamic_cells(kind):
    cell = getattr(nn, kind)(5, 9)
    qcell = tq.quantize_dynamic(nn.Sequential(cell))[0]
    assert qcell._get_name() == f"DynamicQuantized{kind}" and repr(qcell) == f"DynamicQuantized{kind}(5, 9)"
    x = core.tensor(RNG.normal(0, 1, (4, 5)).astype(np.float32))
    out, ref = qcell(x), cell(x)
    for o, r in zip(out if isinstance(out, tuple) else [out], ref if isinstance(ref, tuple) else [ref]):
        _close(o, r, 0.03)
    single = qcell(x[0])  # unbatched input
    assert (single[0] if isinstance(single, tuple) else single).shape == (9,)
    assert list(qcell.state_dict()) == ["_packed_weight_ih", "_packed_weight_hh"]
    with pytest.raises(RuntimeError, match="input_size"):
        qcell(core.zeros(4, 6))


def test_dynamic_rnn_bad_input():
    with pytest.raises(NotImplementedError, match="qint8"):
        nnqd.LSTM(3, 4, dtype=core.float16)
    with pytest.raises(NotImplementedError, match="proj_size"):
        tq.quantize_dynamic(nn.Sequential(nn.LSTM(3, 4, proj_size=2)))
    qmod = nnqd.GRU(3, 4)
    with pytest.raises(RuntimeError, match="input_size"):
        qmod(core.zeros(2, 1, 5))
