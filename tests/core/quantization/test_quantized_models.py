"""The quantizable MobileNetV2 and ResNets: int8 models through quantize=True, the official
quantized checkpoints' names, and loading through the hub (a local mirror stands in for
download.pytorch.org) under their hub names and the float builders' quantize=True."""
import hashlib
import warnings

import numpy as np
import pytest

import core
from vision.models.quantization import mobilenetv2 as qmnv2
from vision.models.quantization import resnet as qresnet

CASES = [  # module, arch, hub name, quant_model_urls key, official file name
    (qmnv2, "mobilenet_v2", "quantized_mobilenet_v2", "mobilenet_v2_qnnpack", "mobilenet_v2_qnnpack_37f702c5.pth"),
    (qresnet, "resnet18", "quantized_resnet18", "resnet18_fbgemm", "resnet18_fbgemm_16fa66dd.pth"),
]


def test_official_quantized_urls():
    base = "https://download.pytorch.org/models/quantized/"
    assert qresnet.quant_model_urls == {
        "resnet18_fbgemm": base + "resnet18_fbgemm_16fa66dd.pth",
        "resnet50_fbgemm": base + "resnet50_fbgemm_bf931d71.pth",
        "resnext101_32x8d_fbgemm": base + "resnext101_32x8_fbgemm_09835ccf.pth",
    }
    assert qmnv2.quant_model_urls == {"mobilenet_v2_qnnpack": base + "mobilenet_v2_qnnpack_37f702c5.pth"}


@pytest.mark.parametrize("module,arch,hub_name,key,official", CASES)
def test_int8_model_through_the_hub(module, arch, hub_name, key, official, tmp_path, monkeypatch):
    import hub
    import hub._dirs

    core.manual_seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = getattr(module, arch)(quantize=True)
    assert model.quant._get_name() == "Quantize" and model.dequant._get_name() == "DeQuantize"
    names = {m._get_name() for m in model.modules()}
    assert "QuantizedConvReLU2d" in names and "QuantizedConv2d" in names and "QuantizedLinear" in names
    x = core.rand(1, 3, 48, 48)
    y = model(x)
    assert y.shape == (1, 1000) and y.dtype == core.float32
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    staging = mirror / "staging.pth"
    core.save(model.state_dict(), str(staging))
    name = official.rsplit("_", 1)[0] + "_" + hashlib.sha256(staging.read_bytes()).hexdigest()[:8] + ".pth"
    staging.rename(mirror / name)
    monkeypatch.setenv("TENSORZOO_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("TENSORZOO_HUB_MIRROR", mirror.as_uri())
    monkeypatch.setattr(hub._dirs, "_hub_dir", None)
    monkeypatch.setitem(module.quant_model_urls, key, hub.OFFICIAL_BASE + name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        loaded = hub.load(hub_name, pretrained=True, progress=False)
        same = hub.load(arch, pretrained=True, quantize=True, progress=False)
    np.testing.assert_array_equal(loaded(x).numpy(), y.numpy())
    np.testing.assert_array_equal(same(x).numpy(), y.numpy())


def test_quantize_false_is_the_float_quantizable_model():
    model = qresnet.resnet18()
    assert type(model).__name__ == "QuantizableResNet" and model.layer1[0].add_relu._get_name() == "FloatFunctional"
    model.eval()
    fused = qresnet.resnet18()
    fused.load_state_dict(model.state_dict())
    fused.eval()
    fused.fuse_model()
    x = core.rand(1, 3, 32, 32)
    np.testing.assert_allclose(fused(x).detach().numpy(), model(x).detach().numpy(), rtol=1e-4, atol=1e-4)
    with pytest.raises(ValueError, match="no quantized version"):
        import vision.models as models
        models.resnet34(quantize=True)


def _converted_squeeze_excitation():
    from vision.models.quantization.mobilenetv3 import QuantizableSqueezeExcitation

    core.manual_seed(0)
    se = QuantizableSqueezeExcitation(32)
    se.eval()
    se.fuse_model()
    wrapped = core.quantization.QuantWrapper(se)
    wrapped.qconfig = core.quantization.get_default_qconfig("qnnpack")
    core.quantization.prepare(wrapped, inplace=True)
    with core.no_grad():
        wrapped(core.rand(2, 32, 9, 9) * 4 - 1)
    core.quantization.convert(wrapped, inplace=True)
    return wrapped.module


def test_converted_squeeze_excitation_calls_its_int8_ops_itself(monkeypatch):
    """The converted SE block skips its modules' calls, with the bytes those calls give; a hook
    on any of them (or a changed module) sends it back through the modules."""
    from core.nn.intrinsic.quantized import ConvReLU2d

    se = _converted_squeeze_excitation()
    x = core.quantize_per_tensor(core.rand(2, 32, 9, 9) * 4 - 1, 0.02, 60, core.quint8)
    calls = []
    forward = ConvReLU2d.forward
    monkeypatch.setattr(ConvReLU2d, "forward", lambda self, input: calls.append(1) or forward(self, input))
    direct = se(x).int_repr().numpy()
    assert calls == []
    handle = se.fc2.register_forward_hook(lambda m, i, o: calls.append(2))
    through_modules = se(x).int_repr().numpy()
    assert calls == [1, 2]
    np.testing.assert_array_equal(direct, through_modules)
    handle.remove()
    se(x)
    assert calls == [1, 2]
    se.relu = core.nn.ReLU()  # a module the direct path does not know: through the modules again
    np.testing.assert_array_equal(se(x).int_repr().numpy(), direct)
    assert calls == [1, 2, 1]
    se.relu, relu = core.nn.Identity(), core.nn.ReLU()
    se(x)
    assert calls == [1, 2, 1]
    se._modules["relu"] = relu  # past __setattr__, as convert() swaps modules
    se(x)
    assert calls == [1, 2, 1, 1]
    se.relu = core.nn.Identity()
    handle = se.skip_mul.activation_post_process.register_forward_hook(lambda m, i, o: calls.append(3))
    np.testing.assert_array_equal(se(x).int_repr().numpy(), direct)  # the multiply's own hook: modules again
    assert calls == [1, 2, 1, 1, 1, 3]
    handle.remove()
    with pytest.raises(Exception, match="quantized|quint8|Quantized"):
        se(core.rand(2, 32, 9, 9))  # a float input: the modules' own error


def test_converted_mobilenet_v3_runs_fused_residual_adds_with_the_modules_bytes(monkeypatch):
    """Residual blocks of the converted MobileNetV3 run their projection conv and the add as one
    op (quantized::conv2d_add) and the SE blocks their ops directly: the bytes equal those of
    every module called in turn (a global hook sends every call through the modules)."""
    from vision.models.quantization import mobilenet_v3_large

    core.manual_seed(0)
    model = mobilenet_v3_large(quantize=False).eval()
    model.fuse_model()
    model.qconfig = core.quantization.get_default_qconfig("qnnpack")
    core.quantization.prepare(model, inplace=True)
    x = core.rand(1, 3, 64, 64)
    with core.no_grad():
        model(x)
    core.quantization.convert(model, inplace=True)
    fused_calls = []
    conv2d_add = core._C._quantized.conv2d_add
    monkeypatch.setattr(core._C._quantized, "conv2d_add", lambda *a: fused_calls.append(1) or conv2d_add(*a))
    with core.no_grad():
        fast = model(x).numpy()
        assert len(fused_calls) == 10  # the blocks with a residual connection
        handle = core.nn.modules.module.register_module_forward_hook(lambda m, i, o: None)
        through_modules = model(x).numpy()
        handle.remove()
        assert len(fused_calls) == 10
        added = []
        block = model.features[1]  # a residual block: its add's own hook takes it through the modules
        handle = block.skip_add.activation_post_process.register_forward_hook(lambda m, i, o: added.append(1))
        np.testing.assert_array_equal(model(x).numpy(), fast)
        handle.remove()
    assert len(fused_calls) == 19 and added == [1]
    np.testing.assert_array_equal(fast, through_modules)
