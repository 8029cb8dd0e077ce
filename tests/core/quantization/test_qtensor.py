"""Quantized tensors: making and reading them, views, cat, printing, save/load, bad input."""
import copy
import pickle

import numpy as np
import pytest

import core
from tests.core.quantization import qref

RNG = np.random.default_rng(0)
RANGES = {core.quint8: (0, 255, np.uint8), core.qint8: (-128, 127, np.int8), core.qint32: (-2**31, 2**31 - 1, np.int32)}


@pytest.mark.parametrize("dtype", [core.quint8, core.qint8, core.qint32])
def test_quantize_per_tensor_matches_reference(dtype):
    qmin, qmax, np_type = RANGES[dtype]
    x = RNG.normal(0, 3, (7, 33)).astype(np.float32)
    x[0, :4] = [0.05, -0.05, 0.15, 1e9]  # ties and a clamped value
    q = core.quantize_per_tensor(core.tensor(x), 0.1, 3, dtype)
    assert q.dtype == dtype and q.is_quantized and q.qscheme() is core.per_tensor_affine
    assert q.q_scale() == 0.1 and q.q_zero_point() == 3
    expected = qref.quantize(x, 0.1, 3, qmin, qmax, np_type, zp_first=dtype != core.qint32)
    np.testing.assert_array_equal(q.int_repr().numpy(), expected)
    np.testing.assert_array_equal(q.dequantize().numpy(), qref.dequantize(expected, 0.1, 3))


def test_quantize_per_channel_and_float_qparams():
    x = RNG.normal(0, 1, (4, 3, 5)).astype(np.float32)
    scales, zps = core.tensor([0.1, 0.02, 0.3]), core.tensor([0, 5, -3])
    q = core.quantize_per_channel(core.tensor(x), scales, zps, 1, core.qint8)
    assert q.qscheme() is core.per_channel_affine and q.q_per_channel_axis() == 1
    assert q.q_per_channel_scales().dtype == core.float64 and q.q_per_channel_zero_points().dtype == core.int64
    for c, (s, z) in enumerate([(0.1, 0), (0.02, 5), (0.3, -3)]):
        np.testing.assert_array_equal(q.int_repr().numpy()[:, c], qref.quantize(x[:, c], s, z, -128, 127, np.int8))
    f = core.quantize_per_channel(core.tensor([[1.2, 1.0, -3.0, 0.1]]), core.tensor([0.5]), core.tensor([0.3]), 0,
                                  core.quint8)
    assert f.qscheme() is core.per_channel_affine_float_qparams
    assert f.int_repr().tolist() == [[3, 2, 0, 0]]  # round(x / s + zp), as PyTorch
    np.testing.assert_allclose(f.dequantize().numpy(), [[1.35, 0.85, -0.15, -0.15]], rtol=1e-6)


def test_make_quantized_tensors_and_int_repr_copies():
    ints = core.tensor([[1, 2], [3, 250]], dtype=core.uint8)
    q = core._make_per_tensor_quantized_tensor(ints, 0.5, 10)
    assert q.dtype == core.quint8 and q.int_repr().tolist() == [[1, 2], [3, 250]]
    r = q.int_repr()
    r[0, 0] = 7
    assert q.int_repr()[0, 0].item() == 1
    pc = core._make_per_channel_quantized_tensor(ints.to(core.int8), core.tensor([1.0, 2.0]), core.tensor([0, 1]), 0)
    assert pc.dtype == core.qint8 and pc.dequantize().tolist() == [[1.0, 2.0], [4.0, -14.0]]


def test_views_clone_cat_and_memory_format():
    q = core.quantize_per_tensor(core.randn(2, 3, 4, 5), 0.05, 128, core.quint8)
    for view in (q[1], q[:, 1:], q.transpose(0, 1), q.reshape(6, 20), q.unsqueeze(0), q.flatten(1)):
        assert view.q_scale() == 0.05 and view.q_zero_point() == 128
        np.testing.assert_array_equal(view.dequantize().numpy(), view.contiguous().dequantize().numpy())
    cl = q.contiguous(memory_format=core.channels_last)
    assert cl.is_contiguous(memory_format=core.channels_last) and cl.q_scale() == 0.05
    np.testing.assert_array_equal(cl.int_repr().numpy(), q.int_repr().numpy())
    c = core.cat([q, q[:1]], 0)
    assert c.shape == (3, 3, 4, 5) and c.q_scale() == 0.05
    np.testing.assert_array_equal(c.int_repr().numpy()[2], q.int_repr().numpy()[0])
    other = core.quantize_per_tensor(core.randn(1, 3, 4, 5), 0.1, 128, core.quint8)
    with pytest.raises(RuntimeError, match="same quantization parameters"):
        core.cat([q, other])
    pc = core.quantize_per_channel(core.randn(4, 3), core.ones(4) * 0.1, core.zeros(4, dtype=core.int64), 0,
                                   core.qint8)
    assert pc[:, 1].q_per_channel_axis() == 0 and pc.unsqueeze(0).q_per_channel_axis() == 1
    with pytest.raises(NotImplementedError, match="channel dim"):
        pc[1:]
    d = copy.deepcopy(pc)
    assert d.qscheme() is core.per_channel_affine and d.int_repr().tolist() == pc.int_repr().tolist()
    p = pickle.loads(pickle.dumps(q))
    assert p.q_scale() == 0.05 and p.int_repr().tolist() == q.int_repr().tolist()


def test_copy_between_quantized_and_float():
    q = core.quantize_per_tensor(core.tensor([0.0, 1.0]), 0.5, 0, core.quint8)
    dst = core.quantize_per_tensor(core.tensor([0.0, 0.0]), 0.25, 4, core.quint8)
    dst.copy_(core.tensor([1.0, 2.0]))  # float values quantized with dst's qparams
    assert dst.int_repr().tolist() == [8, 12]
    dst.copy_(q)  # integers and quantizer of the source
    assert dst.q_scale() == 0.5 and dst.int_repr().tolist() == [0, 2]
    with pytest.raises(RuntimeError, match="dequantize"):
        core.zeros(2).copy_(q)


def test_repr_shows_values_and_qparams():
    q = core.quantize_per_tensor(core.tensor([0.2, 0.1, 1.6]), 0.1, 2, core.quint8)
    text = repr(q)
    assert text.startswith("tensor([0.2000, 0.1000, 1.6000], size=(3,), dtype=core.quint8,")
    assert "quantization_scheme=core.per_tensor_affine, scale=0.1, zero_point=2)" in text
    pc = core.quantize_per_channel(core.tensor([[1.0], [2.0]]), core.tensor([0.1, 0.2]), core.tensor([0, 1]), 0,
                                   core.qint8)
    assert "quantization_scheme=core.per_channel_affine" in repr(pc) and "axis=0" in repr(pc)


@pytest.mark.parametrize("pc", [False, True])
def test_save_load_round_trip(pc, tmp_path):
    x = core.randn(3, 4)
    q = (core.quantize_per_channel(x, core.tensor([0.1, 0.2, 0.3]), core.tensor([1, 0, -1]), 0, core.qint8) if pc
         else core.quantize_per_tensor(x, 0.02, 100, core.quint8))
    path = tmp_path / "q.pt"
    core.save({"q": q, "view": q[:, 1:] if not pc else q}, str(path))
    loaded = core.load(str(path))
    for key in ("q", "view"):
        want = {"q": q, "view": q[:, 1:] if not pc else q}[key]
        got = loaded[key]
        assert got.qscheme() is want.qscheme() and got.dtype == want.dtype
        np.testing.assert_array_equal(got.int_repr().numpy(), want.int_repr().numpy())
        np.testing.assert_array_equal(got.dequantize().numpy(), want.dequantize().numpy())


def test_bad_input_raises_clearly():
    with pytest.raises(TypeError, match="quantize_per_tensor.*float32.*float64"):
        core.quantize_per_tensor(core.zeros(2, dtype=core.float64), 0.1, 0, core.quint8)
    with pytest.raises(ValueError, match="quantize_per_tensor.*NaN"):
        core.quantize_per_tensor(core.tensor([1.0, float("nan")]), 0.1, 0, core.quint8)
    for scale in (0.0, -0.1, float("inf")):
        with pytest.raises(RuntimeError, match="scale must be positive"):
            core.quantize_per_tensor(core.zeros(2), scale, 0, core.quint8)
    with pytest.raises(RuntimeError, match="zero_point 300 is outside"):
        core.quantize_per_tensor(core.zeros(2), 0.1, 300, core.quint8)
    with pytest.raises(RuntimeError, match="zero_point -129 of channel 1"):
        core.quantize_per_channel(core.zeros(2, 2), core.ones(2), core.tensor([0, -129]), 0, core.qint8)
    with pytest.raises(TypeError, match="dtype must be quint8"):
        core.quantize_per_tensor(core.zeros(2), 0.1, 0, core.uint8)
    q = core.quantize_per_tensor(core.zeros(2), 0.1, 0, core.quint8)
    with pytest.raises((TypeError, NotImplementedError), match="add.*quint8"):
        q + q
    with pytest.raises((TypeError, RuntimeError), match="quint8"):
        core.nn.functional.linear(q, core.zeros(2, 2))
    with pytest.raises(RuntimeError, match="q_per_channel_scales.*per tensor"):
        q.q_per_channel_scales()
    with pytest.raises(TypeError, match="q_scale.*expected a quantized tensor"):
        core.zeros(2).q_scale()


def test_fake_quantize_forward_and_straight_through_gradient():
    x = core.tensor(RNG.normal(0, 2, 50).astype(np.float32), requires_grad=True)
    y = core.fake_quantize_per_tensor_affine(x, 0.1, 10, 0, 255)
    xn = x.detach().numpy()
    ref = qref.dequantize(qref.quantize(xn, 0.1, 10, 0, 255, np.uint8), 0.1, 10)
    np.testing.assert_array_equal(y.detach().numpy(), ref)
    y.sum().backward()
    inside = (np.rint(xn * np.float32(10.0)) + 10 >= 0) & (np.rint(xn * np.float32(10.0)) + 10 <= 255)
    np.testing.assert_array_equal(x.grad.numpy(), inside.astype(np.float32))
    w = core.tensor(RNG.normal(0, 1, (3, 4)).astype(np.float32), requires_grad=True)
    scales, zps = core.tensor([0.01, 0.1, 1.0]), core.tensor([0, 1, -2])
    yw = core.fake_quantize_per_channel_affine(w, scales, zps, 0, -128, 127)
    for c, (s, z) in enumerate([(0.01, 0), (0.1, 1), (1.0, -2)]):
        ref = qref.dequantize(qref.quantize(w.detach().numpy()[c], s, z, -128, 127, np.int8), s, z)
        np.testing.assert_array_equal(yw.detach().numpy()[c], ref)
    (yw * 2).sum().backward()
    wn = w.detach().numpy()
    mask = np.abs(np.rint(wn * np.float32(100.0))) <= 127
    np.testing.assert_array_equal(w.grad.numpy()[0], 2 * mask[0].astype(np.float32))
