"""MultiheadAttention / multi_head_attention_forward and the Transformer encoder."""
import numpy as np
import pytest

import core
import core.nn as nn
import core.nn.functional as F
from core.autograd import gradcheck

R = np.random.default_rng(0)


def _x(*shape):
    return core.tensor(R.standard_normal(shape), requires_grad=True)


@pytest.mark.parametrize("options", [{}, {"add_bias_kv": True, "add_zero_attn": True}, {"kdim": 3, "vdim": 2}])
def test_mha_gradcheck_inputs_and_parameters(options):
    m = nn.MultiheadAttention(4, 2, **options).double()
    q, k, v = _x(3, 2, 4), _x(5, 2, options.get("kdim", 4)), _x(5, 2, options.get("vdim", 4))
    mask = core.tensor(R.uniform(0, 1, (3, 5)) < 0.3)
    pad = core.tensor(np.array([[False] * 4 + [True], [False] * 5]))
    names = [n for n, _ in m.named_parameters()]
    params = [p.detach().clone().requires_grad_() for p in m.parameters()]

    def fn(q, k, v, *ps):
        d = dict(zip(names, ps))
        w_in = d.get("in_proj_weight")
        return F.multi_head_attention_forward(
            q, k, v, 4, 2, w_in, d["in_proj_bias"], d.get("bias_k"), d.get("bias_v"), m.add_zero_attn, 0.0,
            d["out_proj.weight"], d["out_proj.bias"], key_padding_mask=pad, attn_mask=mask,
            use_separate_proj_weight=w_in is None, q_proj_weight=d.get("q_proj_weight"),
            k_proj_weight=d.get("k_proj_weight"), v_proj_weight=d.get("v_proj_weight"))
    assert gradcheck(fn, (q, k, v, *params))


def test_mha_shapes_state_dict_and_batch_first():
    m = nn.MultiheadAttention(6, 3, batch_first=True)
    assert list(m.state_dict().keys()) == ["in_proj_weight", "in_proj_bias", "out_proj.weight", "out_proj.bias"]
    x = core.randn(2, 5, 6)
    out, w = m(x, x, x)
    assert out.shape == (2, 5, 6) and w.shape == (2, 5, 5)
    assert np.allclose(w.sum(-1).detach().numpy(), 1.0)
    out, w = m(core.randn(5, 6), core.randn(4, 6), core.randn(4, 6))  # unbatched
    assert out.shape == (5, 6) and w.shape == (5, 4)
    keys = list(nn.MultiheadAttention(6, 3, kdim=2, vdim=4, bias=False).state_dict().keys())
    assert keys == ["q_proj_weight", "k_proj_weight", "v_proj_weight", "out_proj.weight"]


def test_mha_errors():
    with pytest.raises(AssertionError, match="divisible"):
        nn.MultiheadAttention(5, 2)
    m = nn.MultiheadAttention(4, 2)
    x = core.randn(3, 2, 4)
    with pytest.raises(RuntimeError, match="The size of the 2D attn_mask is not correct"):
        m(x, x, x, attn_mask=core.zeros(3, 4, dtype=core.bool))
    with pytest.raises(RuntimeError, match="expecting key_padding_mask shape"):
        m(x, x, x, key_padding_mask=core.zeros(2, 4, dtype=core.bool))
    with pytest.raises(RuntimeError, match="was expecting embedding dimension of 4"):
        m(core.randn(3, 2, 5), x, x)


def test_fully_masked_rows_give_nan_like_torch():
    m = nn.MultiheadAttention(4, 1)
    x = core.randn(2, 1, 4)
    out, _ = m(x, x, x, key_padding_mask=core.tensor([[True, True]]))
    assert bool(core.isnan(out).all())


def test_transformer_encoder_structure():
    layer = nn.TransformerEncoderLayer(8, 2)
    enc = nn.TransformerEncoder(layer, 3, norm=nn.LayerNorm(8))
    keys = list(enc.state_dict().keys())
    assert keys[:4] == ["layers.0.self_attn.in_proj_weight", "layers.0.self_attn.in_proj_bias",
                        "layers.0.self_attn.out_proj.weight", "layers.0.self_attn.out_proj.bias"]
    assert "layers.2.linear1.weight" in keys and keys[-1] == "norm.bias"
    assert enc.layers[0].linear1.weight.shape == (2048, 8)
    assert enc.layers[0].self_attn.in_proj_weight is not enc.layers[1].self_attn.in_proj_weight
    enc.eval()
    assert enc(core.randn(5, 2, 8)).shape == (5, 2, 8)
    with pytest.raises(RuntimeError, match="activation should be relu/gelu"):
        nn.TransformerEncoderLayer(8, 2, activation="tanh")


def test_transformer_layer_gradcheck():
    layer = nn.TransformerEncoderLayer(4, 2, dim_feedforward=6, dropout=0.0, norm_first=True).double()
    assert gradcheck(lambda x: layer(x), (_x(3, 2, 4),))
