"""RNN/LSTM/GRU and cells: gradchecks w.r.t. inputs and parameters, shapes, names, errors; packing."""
import numpy as np
import pytest

import core
import core.nn as nn
from core.autograd import gradcheck
from core.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence, PackedSequence

R = np.random.default_rng(0)


def _gradcheck_module(module, *inputs):
    params = list(module.parameters())
    names = [n for n, _ in module.named_parameters()]

    def fn(*args):
        xs, ps = args[:len(inputs)], args[len(inputs):]
        saved = {n: getattr(module, n) for n in names}
        for n, p in zip(names, ps):
            module.__dict__[n] = p  # shadow the parameter with the gradcheck input
        try:
            out, h = module(*xs)
        finally:
            for n in names:
                del module.__dict__[n]
        h = h if isinstance(h, tuple) else (h,)
        return (out,) + h
    return gradcheck(fn, tuple(inputs) + tuple(p.detach().clone().requires_grad_() for p in params))


@pytest.mark.parametrize("cls,kwargs", [
    (nn.RNN, {}), (nn.RNN, {"nonlinearity": "relu", "bias": False}), (nn.LSTM, {"bidirectional": True}),
    (nn.LSTM, {"proj_size": 2}), (nn.GRU, {"num_layers": 2}), (nn.GRU, {"bidirectional": True, "bias": False})])
def test_rnn_gradcheck(cls, kwargs):
    m = cls(2, 3, **kwargs).double()
    x = core.tensor(R.standard_normal((3, 2, 2)), requires_grad=True)
    assert _gradcheck_module(m, x)


def test_rnn_gradcheck_packed():
    m = nn.GRU(2, 3, bidirectional=True).double()
    x = core.tensor(R.standard_normal((3, 2, 2)), requires_grad=True)

    def fn(x):
        out, h = m(pack_padded_sequence(x, [3, 1]))
        return pad_packed_sequence(out)[0], h
    assert gradcheck(fn, (x,))


@pytest.mark.parametrize("cls", [nn.RNNCell, nn.LSTMCell, nn.GRUCell])
def test_cell_gradcheck(cls):
    m = cls(2, 3).double()
    x = core.tensor(R.standard_normal((2, 2)), requires_grad=True)
    h = core.tensor(R.standard_normal((2, 3)), requires_grad=True)
    if cls is nn.LSTMCell:
        assert gradcheck(lambda x, h: m(x, (h, h * 2)), (x, h))
    else:
        assert gradcheck(lambda x, h: m(x, h), (x, h))


def test_parameter_names_shapes_and_outputs():
    m = nn.LSTM(5, 4, num_layers=2, bidirectional=True, proj_size=3, batch_first=True)
    names = [n for n, _ in m.named_parameters()]
    assert names[:5] == ["weight_ih_l0", "weight_hh_l0", "bias_ih_l0", "bias_hh_l0", "weight_hr_l0"]
    assert names[5] == "weight_ih_l0_reverse" and names[-1] == "weight_hr_l1_reverse"
    assert m.weight_ih_l1.shape == (16, 6) and m.weight_hh_l0.shape == (16, 3)
    out, (h, c) = m(core.randn(2, 7, 5))
    assert out.shape == (2, 7, 6) and h.shape == (4, 2, 3) and c.shape == (4, 2, 4)
    out, h = nn.GRU(5, 4)(core.randn(7, 5))  # unbatched
    assert out.shape == (7, 4) and h.shape == (1, 4)
    assert repr(nn.GRU(5, 4, num_layers=2, dropout=0.5)) == "GRU(5, 4, num_layers=2, dropout=0.5)"
    assert repr(nn.LSTMCell(3, 2)) == "LSTMCell(3, 2)"


def test_dropout_between_layers_only_in_training():
    m = nn.LSTM(3, 8, num_layers=2, dropout=0.5)
    x = core.randn(4, 2, 3)
    m.eval()
    a, b = m(x)[0], m(x)[0]
    assert np.array_equal(a.detach().numpy(), b.detach().numpy())


def test_rnn_errors():
    with pytest.raises(ValueError, match="dropout should be a number in range"):
        nn.LSTM(3, 4, dropout=1.5)
    with pytest.raises(ValueError, match="proj_size has to be smaller than hidden_size"):
        nn.LSTM(3, 4, proj_size=4)
    with pytest.raises(ValueError, match="only supported for LSTM"):
        nn.GRU(3, 4, proj_size=2)
    with pytest.raises(ValueError, match="Unknown nonlinearity"):
        nn.RNN(3, 4, nonlinearity="sigmoid")
    m = nn.LSTM(3, 4)
    with pytest.raises(RuntimeError, match="input.size\\(-1\\) must be equal to input_size. Expected 3, got 5"):
        m(core.randn(2, 1, 5))
    with pytest.raises(RuntimeError, match=r"Expected hidden\[0\] size \(1, 2, 4\), got \(1, 3, 4\)"):
        m(core.randn(5, 2, 3), (core.zeros(1, 3, 4), core.zeros(1, 2, 4)))
    with pytest.raises(RuntimeError, match="input has inconsistent input_size"):
        nn.GRUCell(3, 4)(core.randn(2, 5))


def test_packing_utilities():
    seqs = [core.randn(n, 2) for n in (3, 1, 2)]
    padded = pad_sequence(seqs, batch_first=True, padding_value=-1.0)
    assert padded.shape == (3, 3, 2) and padded[1, 1, 0].item() == -1.0
    packed = pack_padded_sequence(padded, [3, 1, 2], batch_first=True, enforce_sorted=False)
    assert isinstance(packed, PackedSequence) and packed.batch_sizes.tolist() == [3, 2, 1]
    back, lengths = pad_packed_sequence(packed, batch_first=True, padding_value=-1.0)
    assert lengths.tolist() == [3, 1, 2] and np.array_equal(back.numpy(), padded.numpy())
    with pytest.raises(RuntimeError, match="must be sorted in decreasing order"):
        pack_padded_sequence(padded, [3, 1, 2], batch_first=True)
    with pytest.raises(ValueError, match="Expected total_length to be at least"):
        pad_packed_sequence(packed, total_length=2)
