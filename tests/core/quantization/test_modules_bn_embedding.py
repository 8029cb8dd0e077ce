"""Quantized BatchNorm2d / BNReLU2d (against a float reference of the same integer formula) and the
8-bit Embedding / EmbeddingBag (against the dequantized table), their conversion and bad input."""
import numpy as np
import pytest

import core
import core.nn as nn
import core.quantization as tq
from core.nn import intrinsic as nni
from core.nn import quantized as nnq
from core.nn.intrinsic import quantized as nniq

RNG = np.random.default_rng(3)


def _bn_reference(x_ints, x_scale, x_zp, bn, scale, zp, relu):
    inv_sigma = (1 / np.sqrt(bn.running_var.numpy() + bn.eps)).astype(np.float32)
    w, b, mean = bn.weight.detach().numpy(), bn.bias.detach().numpy(), bn.running_mean.numpy()
    alpha = (w * inv_sigma * np.float32(x_scale / scale))[None, :, None, None]
    beta = ((b - mean * w * inv_sigma) / np.float32(scale) + zp)[None, :, None, None]
    return np.clip(np.rint((x_ints.astype(np.float32) - x_zp) * alpha + beta), zp if relu else 0, 255)


@pytest.mark.parametrize("relu", [False, True])
def test_quantized_batch_norm_converts_and_matches_reference(relu):
    bn = nn.BatchNorm2d(5)
    bn.running_mean.copy_(core.tensor(RNG.normal(0, 1, 5).astype(np.float32)))
    bn.running_var.copy_(core.tensor(RNG.uniform(0.5, 2, 5).astype(np.float32)))
    with core.no_grad():
        bn.weight.copy_(core.tensor(RNG.uniform(0.5, 1.5, 5).astype(np.float32)))
        bn.bias.copy_(core.tensor(RNG.normal(0, 0.5, 5).astype(np.float32)))
    model = nn.Sequential(tq.QuantStub(), nni.BNReLU2d(bn, nn.ReLU()) if relu else bn, tq.DeQuantStub()).eval()
    model.qconfig = tq.default_qconfig
    tq.prepare(model, inplace=True)
    x = RNG.normal(0, 2, (2, 5, 4, 3)).astype(np.float32)
    model(core.tensor(x))
    tq.convert(model, inplace=True)
    qbn = model[1]
    assert type(qbn) is (nniq.BNReLU2d if relu else nnq.BatchNorm2d)
    assert repr(qbn).startswith("QuantizedBNReLU2d(5" if relu else "QuantizedBatchNorm2d(5")
    assert list(qbn.state_dict()) == ["weight", "bias", "running_mean", "running_var", "num_batches_tracked"]
    qx = model[0](core.tensor(x))
    y = qbn(qx)
    ref = _bn_reference(qx.int_repr().numpy(), qx.q_scale(), qx.q_zero_point(), bn, qbn.scale, qbn.zero_point, relu)
    np.testing.assert_array_equal(y.int_repr().numpy(), ref)
    float_out = (bn(core.tensor(x)).relu() if relu else bn(core.tensor(x))).detach().numpy()
    np.testing.assert_allclose(y.dequantize().numpy(), float_out, atol=2 * qbn.scale + 2 * qx.q_scale())
    with pytest.raises(TypeError, match="quint8"):
        qbn(core.tensor(x))


def _embedding_table(rows, dim):
    w = RNG.normal(0, 1, (rows, dim)).astype(np.float32)
    obs = tq.default_float_qparams_observer()
    obs(core.tensor(w))
    scales, zps = obs.calculate_qparams()
    qw = core.quantize_per_channel(core.tensor(w), scales.float(), zps.float(), 0, core.quint8)
    return w, qw


def test_quantized_embedding_rows_and_conversion():
    float_emb = nn.Embedding(10, 6)
    float_emb.qconfig = tq.float_qparams_weight_only_qconfig
    qemb = nnq.Embedding.from_float(float_emb)
    idx = core.tensor([[1, 9, 1], [0, 4, 2]])
    table = qemb.weight().dequantize().numpy()
    np.testing.assert_allclose(qemb(idx).numpy(), table[idx.numpy()], rtol=1e-6, atol=1e-6)
    step = qemb.weight().q_per_channel_scales().max().item()
    np.testing.assert_allclose(table, float_emb.weight.detach().numpy(), atol=step)
    assert repr(qemb) == ("QuantizedEmbedding(num_embeddings=10, embedding_dim=6, dtype=core.quint8, "
                          "qscheme=core.per_channel_affine_float_qparams)")
    assert list(qemb.state_dict()) == ["_packed_params.dtype", "_packed_params._packed_weight"]
    clone = nnq.Embedding(10, 6)
    clone.load_state_dict(qemb.state_dict())
    np.testing.assert_array_equal(clone(idx).numpy(), qemb(idx).numpy())
    with pytest.raises(IndexError, match="out of range"):
        qemb(core.tensor([10]))
    with pytest.raises(TypeError, match="int64"):
        qemb(core.tensor([1.0]))
    with pytest.raises(AssertionError, match="float_qparams"):
        bad = nn.Embedding(3, 2)
        bad.qconfig = tq.default_qconfig
        nnq.Embedding.from_float(bad)


@pytest.mark.parametrize("include_last_offset", [False, True])
def test_quantized_embedding_bag_sums_and_quantize_dynamic(include_last_offset):
    w, qw = _embedding_table(12, 4)
    bag = nnq.EmbeddingBag(12, 4, include_last_offset=include_last_offset, _weight=qw)
    idx = core.tensor([3, 1, 1, 7, 0, 11])
    offsets = core.tensor([0, 2, 2, 5] + ([6] if include_last_offset else []))
    psw = core.tensor(RNG.uniform(0.5, 2, 6).astype(np.float32))
    table = qw.dequantize().numpy()
    bounds = [0, 2, 2, 5, 6]
    ref = np.stack([(table[idx.numpy()[a:b]] * psw.numpy()[a:b, None]).sum(0) for a, b in zip(bounds, bounds[1:])])
    np.testing.assert_allclose(bag(idx, offsets, per_sample_weights=psw).numpy(), ref, rtol=1e-5, atol=1e-5)
    if not include_last_offset:  # 2-d input: one bag per row
        two_d = bag(core.tensor([[3, 1], [7, 0]]))
        np.testing.assert_allclose(two_d.numpy(), table[[3, 7]] + table[[1, 0]], rtol=1e-6, atol=1e-6)
    model = nn.Sequential(nn.EmbeddingBag(12, 4, mode="sum"))
    qmodel = tq.quantize_dynamic(model, dtype=core.quint8)
    assert type(qmodel[0]) is nnq.EmbeddingBag and qmodel[0]._get_name() == "QuantizedEmbeddingBag"
    with pytest.raises(NotImplementedError, match="sum"):
        nnq.EmbeddingBag(3, 2, mode="mean")


def test_sequential_runs_conv_and_hardswish_as_one_op():
    """In inference a quantized Conv2d, the Identity modules fuse_modules leaves and a Hardswish
    run as conv2d_hardswish; the bytes equal the modules run one by one, and a hook on any of
    them (which must see the intermediate tensor) keeps them apart."""
    conv = nnq.Conv2d(8, 16, 3, padding=1)
    w = core.quantize_per_tensor(core.randn(16, 8, 3, 3) * 0.2, 0.01, 0, core.qint8)
    conv.set_weight_bias(w, core.randn(16))
    conv.scale, conv.zero_point = 0.1, 60
    seq = nn.Sequential(conv, nn.Identity(), nnq.Hardswish(0.03, 12)).eval()
    x = core.quantize_per_tensor(core.randn(2, 8, 10, 10), 0.05, 100, core.quint8)
    with core.no_grad():
        apart = seq[2](seq[1](seq[0](x)))
        fused = seq(x)
        seen = []
        handle = seq[1].register_forward_hook(lambda m, i, o: seen.append(o))
        hooked = seq(x)
        handle.remove()
    assert (fused.q_scale(), fused.q_zero_point()) == (0.03, 12)
    np.testing.assert_array_equal(fused.int_repr().numpy(), apart.int_repr().numpy())
    np.testing.assert_array_equal(hooked.int_repr().numpy(), apart.int_repr().numpy())
    assert len(seen) == 1 and seen[0].q_zero_point() == 60  # the conv's own output reached the hook
