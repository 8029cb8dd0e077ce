"""Observers, fake quantization, fusion and the eager workflows (prepare/convert, QAT,
dynamic), the quantized MobileNetV3 and the hub."""
import hashlib
import warnings

import numpy as np
import pytest

import core
import core.nn as nn
import core.quantization as tq
from core.nn import intrinsic as nni
from core.nn import quantized as nnq

RNG = np.random.default_rng(2)


def test_minmax_observer_qparams():
    obs = tq.MinMaxObserver()
    obs(core.tensor([-1.0, 2.0]))
    obs(core.tensor([0.5, 3.0]))
    scale, zp = obs.calculate_qparams()
    assert scale.item() == pytest.approx(4.0 / 255) and zp.tolist() == [round(1 / (4.0 / 255))]
    sym = tq.MinMaxObserver(dtype=core.qint8, qscheme=core.per_tensor_symmetric)
    sym(core.tensor([-1.0, 3.0]))
    s, z = sym.calculate_qparams()
    assert s.item() == pytest.approx(3.0 / 127.5) and z.tolist() == [0]
    red = tq.MinMaxObserver(reduce_range=True)
    red(core.tensor([0.0, 1.27]))
    assert red.calculate_qparams()[0].item() == pytest.approx(0.01)
    ma = tq.MovingAverageMinMaxObserver(averaging_constant=0.5)
    ma(core.tensor([0.0, 2.0]))
    ma(core.tensor([-2.0, 4.0]))
    assert ma.min_val.item() == -1.0 and ma.max_val.item() == 3.0
    pc = tq.PerChannelMinMaxObserver(ch_axis=1, dtype=core.qint8, qscheme=core.per_channel_symmetric)
    pc(core.tensor([[1.0, -4.0], [-2.0, 0.5]]))
    s, z = pc.calculate_qparams()
    np.testing.assert_allclose(s.numpy(), [2.0 / 127.5, 4.0 / 127.5], rtol=1e-6)
    empty = tq.MinMaxObserver()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert empty.calculate_qparams()[0].tolist() == [1.0]
    hist = tq.HistogramObserver(bins=64)
    hist(core.tensor(RNG.normal(0, 1, 1000).astype(np.float32)))
    s, z = hist.calculate_qparams()
    assert 0 < s.item() < 8 / 255 and 0 <= z.item() <= 255


def test_fake_quantize_module_and_toggles():
    fq = tq.default_fake_quant()
    x = core.tensor([-1.0, 0.3, 1.0], requires_grad=True)
    y = fq(x)
    scale, zp = fq.scale.item(), int(fq.zero_point.item())
    assert scale == pytest.approx(2.0 / 127)
    np.testing.assert_allclose(y.detach().numpy(), (np.clip(np.rint(x.detach().numpy() / scale) + zp, 0, 255) - zp) * scale,
                               rtol=1e-6)
    y.sum().backward()
    assert x.grad.tolist() == [1.0, 1.0, 1.0]
    fq.apply(tq.disable_fake_quant)
    assert fq(core.tensor([0.123])).item() == pytest.approx(0.123)
    fq.apply(tq.disable_observer)
    frozen = fq.scale.item()
    fq(core.tensor([100.0]))
    assert fq.scale.item() == frozen
    assert sorted(fq.state_dict()) == ["activation_post_process.eps", "activation_post_process.max_val",
                                       "activation_post_process.min_val", "fake_quant_enabled", "observer_enabled",
                                       "scale", "zero_point"]


def test_qconfig_rejects_instances_and_defaults():
    with pytest.raises(ValueError, match="observer instance"):
        tq.QConfig(activation=tq.MinMaxObserver(), weight=tq.default_weight_observer)
    assert tq.get_default_qconfig("fbgemm").activation().reduce_range
    assert not tq.get_default_qconfig("qnnpack").activation().reduce_range
    assert tq.get_default_qconfig("other") is tq.default_qconfig
    assert tq.get_default_qat_qconfig("qnnpack").weight().qscheme is core.per_tensor_symmetric
    assert core.backends.quantized.engine in core.backends.quantized.supported_engines
    with pytest.raises(RuntimeError, match="not supported"):
        core.backends.quantized.engine = "nope"


class Small(nn.Module):
    def __init__(self):
        super().__init__()
        self.quant = tq.QuantStub()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.bn = nn.BatchNorm2d(8)
        self.relu = nn.ReLU()
        self.dw = nn.Conv2d(8, 8, 3, stride=2, padding=1, groups=8)
        self.hs = nn.Hardswish()
        self.skip = nnq.FloatFunctional()
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(8, 5)
        self.fc_relu = nn.ReLU()
        self.dequant = tq.DeQuantStub()

    def forward(self, x):
        x = self.relu(self.bn(self.conv(self.quant(x))))
        y = self.hs(self.dw(x))
        x = self.skip.add(y, y)
        x = self.pool(x).flatten(1)
        return self.dequant(self.fc_relu(self.fc(x)))


def _calibrated(model, qconfig, data):
    model.qconfig = qconfig
    tq.fuse_modules(model, [["conv", "bn", "relu"], ["fc", "fc_relu"]], inplace=True)
    tq.prepare(model, inplace=True)
    for x in data:
        model(x)
    return model


def test_fuse_prepare_convert_static():
    core.manual_seed(0)
    model = Small().eval()
    data = [core.randn(2, 3, 12, 12) for _ in range(3)]
    reference = model(data[0])
    fused = tq.fuse_modules(model, [["conv", "bn", "relu"]])
    assert type(fused.conv) is nni.ConvReLU2d and type(fused.bn) is nn.Identity
    np.testing.assert_allclose(fused(data[0]).detach().numpy(), reference.detach().numpy(), rtol=1e-4, atol=1e-5)
    prepared = _calibrated(model, tq.get_default_qconfig("fbgemm"), data)
    assert hasattr(prepared.conv, "activation_post_process") and hasattr(prepared.skip, "activation_post_process")
    quantized = tq.convert(prepared)
    assert type(quantized.conv).__name__ == "ConvReLU2d" and quantized.conv._get_name() == "QuantizedConvReLU2d"
    assert type(quantized.fc) is nn.intrinsic.quantized.LinearReLU and type(quantized.skip) is nnq.QFunctional
    assert type(quantized.hs) is nnq.Hardswish and type(quantized.quant) is nnq.Quantize
    out = quantized(data[0])
    assert out.dtype == core.float32 and out.shape == (2, 5)
    float_out = prepared(data[0]).detach().numpy()
    assert np.abs(out.numpy() - float_out).max() < 0.1 * max(1.0, np.abs(float_out).max())
    keys = list(quantized.state_dict())
    assert {"conv.weight", "conv.bias", "conv.scale", "conv.zero_point", "fc._packed_params.dtype",
            "fc._packed_params._packed_params", "skip.scale", "quant.scale"} <= set(keys)
    reloaded = tq.convert(_calibrated(Small().eval(), tq.get_default_qconfig("fbgemm"), data[:1]))
    reloaded.load_state_dict(quantized.state_dict())
    np.testing.assert_array_equal(reloaded(data[0]).numpy(), out.numpy())


def test_convert_of_an_unprepared_model_raises():
    model = Small().eval()
    model.qconfig = tq.default_qconfig
    tq.propagate_qconfig_(model)
    with pytest.raises(RuntimeError, match="prepare"):
        tq.convert(model)
    with pytest.warns(UserWarning, match="None of the submodule got qconfig"):
        tq.prepare(nn.Sequential(nn.Linear(2, 2)))


def test_qat_flow_freezes_bn_and_converts():
    core.manual_seed(1)
    model = Small().train()
    model.qconfig = tq.get_default_qat_qconfig("fbgemm")
    tq.fuse_modules(model, [["conv", "bn", "relu"]], inplace=True)
    tq.prepare_qat(model, inplace=True)
    assert type(model.conv) is nn.intrinsic.qat.ConvBnReLU2d
    keys = set(model.state_dict())
    assert {"conv.weight", "conv.bn.running_mean", "conv.weight_fake_quant.scale",
            "conv.activation_post_process.activation_post_process.min_val", "fc.weight_fake_quant.zero_point"} <= keys
    opt = core.optim.SGD(model.parameters(), lr=0.01)
    for step in range(3):
        loss = model(core.randn(4, 3, 12, 12)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step == 1:
            model.apply(nn.intrinsic.qat.freeze_bn_stats)
            model.apply(tq.disable_observer)
    assert not model.conv.bn.training
    quantized = tq.convert(model.eval())
    assert quantized(core.randn(1, 3, 12, 12)).shape == (1, 5)


def test_quantize_dynamic_linear():
    core.manual_seed(3)
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
    x = core.randn(5, 16)
    q = tq.quantize_dynamic(model)
    assert type(q[0]).__name__ == "Linear" and q[0]._get_name() == "DynamicQuantizedLinear"
    np.testing.assert_allclose(q(x).numpy(), model(x).detach().numpy(), atol=0.05)
    q2 = tq.quantize_dynamic(model, {nn.Linear}, dtype=core.qint8)
    np.testing.assert_array_equal(q2(x).numpy(), q(x).numpy())


def test_quantized_mobilenet_v3_builds_loads_and_runs(tmp_path, monkeypatch):
    import hub
    import hub._dirs
    from vision.models.quantization import mobilenetv3 as qmnv3

    core.manual_seed(0)
    qat = qmnv3.mobilenet_v3_large(quantize=False)
    qat.fuse_model()
    qat.qconfig = tq.get_default_qat_qconfig("qnnpack")
    tq.prepare_qat(qat, inplace=True)
    qat.eval()
    qat(core.randn(1, 3, 64, 64))  # the fake quantizers' observers see data
    state = qat.state_dict()
    assert "features.0.0.weight_fake_quant.scale" in state and "features.1.block.0.0.bn.running_var" in state
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    staging = mirror / "staging.pth"
    core.save(state, str(staging))
    name = f"mobilenet_v3_large_qnnpack-{hashlib.sha256(staging.read_bytes()).hexdigest()[:8]}.pth"
    staging.rename(mirror / name)
    monkeypatch.setenv("TENSORZOO_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("TENSORZOO_HUB_MIRROR", mirror.as_uri())
    monkeypatch.setattr(hub._dirs, "_hub_dir", None)
    monkeypatch.setitem(qmnv3.quant_model_urls, "mobilenet_v3_large_qnnpack", hub.OFFICIAL_BASE + name)
    model = hub.load("quantized_mobilenet_v3_large", pretrained=True, progress=False)
    same = hub.load("mobilenet_v3_large", pretrained=True, quantize=True, progress=False)
    assert type(model.features[0][0]).__name__ == "ConvReLU2d" or model.features[0][0]._get_name() == "QuantizedConv2d"
    x = core.rand(1, 3, 64, 64)
    y = model(x)
    assert y.shape == (1, 1000) and y.dtype == core.float32
    np.testing.assert_array_equal(y.numpy(), same(x).numpy())
    converted = tq.convert(qat)
    np.testing.assert_array_equal(converted(x).numpy(), y.numpy())
