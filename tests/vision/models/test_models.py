"""vision.models: architectures against torchvision 0.9's facts (parameter counts, state_dict
keys and shapes, stage layout, options, errors, init), pretrained loading through the hub,
the ImageNet class names and the classify demo."""
import json
import math
import os

import numpy as np
import pytest

import core
import hub
import vision.models as models
from core import nn
from vision.models import mobilenetv2, mobilenetv3, resnet

KEYS = json.load(open(os.path.join(os.path.dirname(__file__), "torchvision_state_dict_keys.json")))
PARAMS = {"mobilenet_v3_large": 5_483_032, "mobilenet_v3_small": 2_542_856, "mobilenet_v2": 3_504_872,
          "resnet18": 11_689_512, "resnet50": 25_557_032}
MODULES = {"mobilenet_v3_large": mobilenetv3, "mobilenet_v3_small": mobilenetv3, "mobilenet_v2": mobilenetv2,
           "resnet18": resnet, "resnet50": resnet}
NAMES = sorted(PARAMS)


def _build(name, **kwargs):
    core.manual_seed(0)
    return getattr(models, name)(**kwargs)


@pytest.fixture(scope="module")
def built():
    return {name: _build(name) for name in NAMES}


@pytest.mark.parametrize("name", NAMES)
def test_parameter_count(built, name):
    assert sum(p.numel() for p in built[name].parameters()) == PARAMS[name]


@pytest.mark.parametrize("name", NAMES)
def test_state_dict_keys_and_shapes_match_torchvision(built, name):
    ours = [[k, list(v.shape)] for k, v in built[name].state_dict().items()]
    assert ours == KEYS[name]


@pytest.mark.parametrize("name", NAMES)
def test_output_shape(built, name):
    model = built[name].eval()
    with core.no_grad():
        out = model(core.randn(2, 3, 64, 64))
    assert out.shape == (2, 1000) and out.dtype == core.float32
    assert np.isfinite(out.numpy()).all()


@pytest.mark.parametrize("name", NAMES)
def test_num_classes(name):
    model = _build(name, num_classes=10).eval()
    with core.no_grad():
        assert model(core.randn(1, 3, 48, 48)).shape == (1, 10)


def test_builders_exported():
    for name in NAMES + ["resnet34", "resnet101", "resnet152", "resnext50_32x4d", "resnext101_32x8d",
                         "wide_resnet50_2", "wide_resnet101_2", "MobileNetV2", "MobileNetV3", "ResNet"]:
        assert callable(getattr(models, name))
    from vision.models import mobilenet

    assert set(mobilenet.__all__) == {"MobileNetV2", "mobilenet_v2", "MobileNetV3", "mobilenet_v3_large",
                                      "mobilenet_v3_small", "MobileNet_V2_Weights", "MobileNet_V3_Large_Weights",
                                      "MobileNet_V3_Small_Weights"}
    assert mobilenet.mobilenet_v3_large is mobilenetv3.mobilenet_v3_large
    assert mobilenetv2._make_divisible(37.5, 8) == 40 and mobilenetv2.ConvBNReLU is mobilenetv2.ConvBNActivation


# ---------------------------------------------------------------- MobileNetV3 layout and options

def _stage_indices(features):
    return [0] + [i for i, b in enumerate(features) if getattr(b, "_is_cn", False)] + [len(features) - 1]


def test_mobilenet_v3_layout(built):
    large, small = built["mobilenet_v3_large"], built["mobilenet_v3_small"]
    assert len(large.features) == 17 and _stage_indices(large.features) == [0, 2, 4, 7, 13, 16]
    assert len(small.features) == 13 and _stage_indices(small.features) == [0, 1, 2, 4, 9, 12]
    bn = large.features[0][1]
    assert isinstance(bn, nn.BatchNorm2d) and bn.eps == 0.001 and bn.momentum == 0.01
    assert isinstance(large.features[0][2], nn.Hardswish) and isinstance(large.features[1].block[0][2], nn.ReLU)
    assert isinstance(large.features[4].block[2], mobilenetv3.SqueezeExcitation)
    assert isinstance(large.features[4].block[3][2], nn.Identity)
    assert [type(m) for m in large.classifier] == [nn.Linear, nn.Hardswish, nn.Dropout, nn.Linear]
    assert large.classifier[2].p == 0.2 and large.classifier[2].inplace
    assert large.features[16].out_channels == 960 and large.classifier[0].out_features == 1280
    assert small.features[12].out_channels == 576 and small.classifier[0].out_features == 1024
    assert large.features[1].use_res_connect and not large.features[2].use_res_connect


def test_mobilenet_v3_private_options():
    model = _build("mobilenet_v3_large", _dilated=True, _reduced_tail=True).eval()
    for i in (13, 14, 15):
        depthwise = model.features[i].block[1][0]
        assert depthwise.dilation == (2, 2) and depthwise.stride == (1, 1) and depthwise.padding == (4, 4)
    assert model.features[13]._is_cn  # still marks the stage under dilation
    assert model.features[16].out_channels == 480 and model.classifier[0].out_features == 640
    with core.no_grad():
        assert model.features(core.randn(1, 3, 64, 64)).shape == (1, 480, 4, 4)  # output stride 16
    thin = _build("mobilenet_v3_small", _width_mult=0.5)
    assert thin.features[0].out_channels == 8 and thin.features[12].out_channels == 288


def test_mobilenet_v3_errors():
    with pytest.raises(ValueError, match="should not be empty"):
        mobilenetv3.MobileNetV3([], 1280)
    with pytest.raises(TypeError, match=r"List\[InvertedResidualConfig\]"):
        mobilenetv3.MobileNetV3([1, 2], 1280)
    with pytest.raises(ValueError, match="Unsupported model type mobilenet_v3_medium"):
        mobilenetv3._mobilenet_v3_conf("mobilenet_v3_medium", {})
    cnf = mobilenetv3.InvertedResidualConfig(16, 3, 16, 16, False, "RE", 3, 1, 1.0)
    with pytest.raises(ValueError, match="illegal stride value"):
        mobilenetv3.InvertedResidual(cnf, nn.BatchNorm2d)


def test_mobilenet_v3_conf_pops_private_keys():
    params = {"_reduced_tail": True, "_dilated": False, "_width_mult": 1.0, "num_classes": 7}
    setting, last_channel = mobilenetv3._mobilenet_v3_conf("mobilenet_v3_small", params)
    assert params == {"num_classes": 7} and last_channel == 512 and setting[-1].out_channels == 48
    assert all(isinstance(c, mobilenetv3.InvertedResidualConfig) for c in setting)


def test_squeeze_excitation():
    se = mobilenetv3.SqueezeExcitation(72)
    assert se.fc1.out_channels == 24 and se.fc2.out_channels == 72 and se.fc1.bias is not None
    x = core.randn(2, 72, 5, 5)
    with core.no_grad():
        pooled = x.numpy().mean(axis=(2, 3), keepdims=True)
        w1, b1 = se.fc1.weight.detach().numpy()[:, :, 0, 0], se.fc1.bias.detach().numpy()
        w2, b2 = se.fc2.weight.detach().numpy()[:, :, 0, 0], se.fc2.bias.detach().numpy()
        hidden = np.maximum(np.einsum("oc,nchw->nohw", w1, pooled) + b1[:, None, None], 0)
        scale = np.einsum("oc,nchw->nohw", w2, hidden) + b2[:, None, None]
        expected = np.clip(scale / 6 + 0.5, 0, 1) * x.numpy()
        np.testing.assert_allclose(se(x).numpy(), expected, rtol=1e-5, atol=1e-6)


# ---------------------------------------------------------------- MobileNetV2

def test_mobilenet_v2_layout_and_errors(built):
    model = built["mobilenet_v2"]
    assert len(model.features) == 19 and model.last_channel == 1280
    assert isinstance(model.features[0][2], nn.ReLU6) and model.features[0].out_channels == 32
    assert [type(m) for m in model.classifier] == [nn.Dropout, nn.Linear]
    assert model.features[1].conv[0][0].groups == 32  # expand ratio 1: no expansion conv
    assert _build("mobilenet_v2", width_mult=0.5).features[0].out_channels == 16
    with pytest.raises(ValueError, match="non-empty"):
        mobilenetv2.MobileNetV2(inverted_residual_setting=[])
    with pytest.raises(ValueError, match="4-element list"):
        mobilenetv2.MobileNetV2(inverted_residual_setting=[[1, 16, 1]])
    with pytest.raises(ValueError, match="stride"):
        mobilenetv2.InvertedResidual(16, 16, 3, 6)


def test_make_divisible():
    from vision.models._utils import _make_divisible

    assert _make_divisible(16 * 0.75, 8) == 16  # 12 rounds half up
    assert _make_divisible(3, 8) == 8  # min_value defaults to the divisor
    assert _make_divisible(1280 * 1.4, 8) == 1792
    assert _make_divisible(10, 8) == 16  # 8 would lose more than 10%
    assert _make_divisible(100, 8, min_value=128) == 128


# ---------------------------------------------------------------- ResNet

def test_resnet_layout(built):
    r18, r50 = built["resnet18"], built["resnet50"]
    assert isinstance(r18.layer1[0], resnet.BasicBlock) and isinstance(r50.layer1[0], resnet.Bottleneck)
    assert r50.layer2[0].conv2.stride == (2, 2) and r50.layer2[0].conv1.stride == (1, 1)  # ResNet V1.5
    assert r18.layer1[0].downsample is None and r50.layer1[0].downsample is not None
    assert r18.maxpool.kernel_size == 3 and r18.fc.in_features == 512 and r50.fc.in_features == 2048


def test_resnet_dilation_and_groups():
    model = _build("resnet50", replace_stride_with_dilation=[False, True, True]).eval()
    assert model.layer4[1].conv2.dilation == (4, 4) and model.layer4[0].conv2.dilation == (2, 2)
    x = core.randn(1, 3, 64, 64)
    with core.no_grad():
        body = model.layer4(model.layer3(model.layer2(model.layer1(model.maxpool(model.relu(model.bn1(model.conv1(x))))))))
    assert body.shape == (1, 2048, 8, 8)  # output stride 8
    wide = resnet.Bottleneck(256, 64, base_width=128)
    assert wide.conv2.in_channels == 128
    grouped = resnet.Bottleneck(256, 64, groups=32, base_width=4)
    assert grouped.conv2.groups == 32 and grouped.conv2.in_channels == 128


def test_resnet_errors():
    with pytest.raises(ValueError, match="3-element tuple"):
        resnet.resnet50(replace_stride_with_dilation=[True])
    with pytest.raises(NotImplementedError, match="Dilation > 1 not supported in BasicBlock"):
        resnet.resnet18(replace_stride_with_dilation=[False, False, True])
    with pytest.raises(ValueError, match="BasicBlock only supports groups=1"):
        resnet.BasicBlock(64, 64, groups=2)


def test_zero_init_residual():
    r18 = _build("resnet18", zero_init_residual=True)
    assert all(float(b.bn2.weight.detach().abs().sum()) == 0 for layer in (r18.layer1, r18.layer4) for b in layer)
    assert float(r18.layer1[0].bn1.weight.detach().sum()) == 64
    r50 = _build("resnet50", zero_init_residual=True)
    assert all(float(b.bn3.weight.detach().abs().sum()) == 0 for b in r50.layer3)


# ---------------------------------------------------------------- initialisation

def _std(t):
    return float(np.asarray(t.detach().numpy(), dtype=np.float64).std())


def test_init_schemes(built):
    mnv3, r50 = built["mobilenet_v3_large"], built["resnet50"]
    conv = mnv3.features[16][0]  # 1x1, 160 -> 960: kaiming normal, fan_out = 960
    assert abs(_std(conv.weight) / math.sqrt(2 / 960) - 1) < 0.05
    assert abs(_std(mnv3.classifier[0].weight) / 0.01 - 1) < 0.05
    assert float(mnv3.classifier[0].bias.abs().sum()) == 0
    se = mnv3.features[4].block[2]
    assert float(se.fc1.bias.abs().sum()) == 0
    bn = mnv3.features[3].block[0][1]
    assert float(bn.weight.min()) == 1 == float(bn.weight.max()) and float(bn.bias.abs().sum()) == 0
    conv = r50.layer4[0].conv2  # 3x3, fan_out = 512 * 9
    assert abs(_std(conv.weight) / math.sqrt(2 / (512 * 9)) - 1) < 0.05
    fc = r50.fc.weight.detach().numpy()  # the Linear keeps its default init: U(-1/sqrt(2048), 1/sqrt(2048))
    assert np.abs(fc).max() <= 1 / math.sqrt(2048) and np.abs(fc).max() > 0.9 / math.sqrt(2048)


# ---------------------------------------------------------------- pretrained through the hub

@pytest.mark.parametrize("name", NAMES)
def test_pretrained_through_hub(mirror, name):
    _, publish = mirror
    source = _build(name)
    for buffer_name, buffer in source.named_buffers():  # non-default running stats must come through
        if buffer.dtype == core.float32:
            buffer.add_(0.25)
    publish(MODULES[name], name, source)
    core.manual_seed(123)
    loaded = hub.load(name, pretrained=True, progress=False)
    expected = source.state_dict()
    got = loaded.state_dict()
    assert list(got) == list(expected)
    for key in expected:
        np.testing.assert_array_equal(got[key].detach().numpy(), expected[key].detach().numpy(), err_msg=key)


def test_pretrained_builder_and_missing_url(mirror):
    _, publish = mirror
    publish(mobilenetv3, "mobilenet_v3_small", _build("mobilenet_v3_small"))
    model = models.mobilenet_v3_small(pretrained=True, progress=False)
    assert isinstance(model, models.MobileNetV3)
    from vision.models._utils import load_pretrained

    with pytest.raises(ValueError, match="No checkpoint is available for model type mobilenet_v3_tiny"):
        load_pretrained(model, "mobilenet_v3_tiny", mobilenetv3.model_urls, False)


def test_pretrained_wrong_architecture_fails_strictly(mirror):
    _, publish = mirror
    publish(resnet, "resnet18", _build("resnet18", num_classes=10))
    with pytest.raises(RuntimeError, match="size mismatch"):
        hub.load("resnet18", pretrained=True, progress=False)


# ---------------------------------------------------------------- class names and the demo

def test_imagenet_categories():
    names = models.imagenet_categories()
    assert len(names) == 1000 and len(set(names)) == 1000
    assert names[0] == "tench" and names[281] == "tabby" and names[999] == "toilet tissue"


def test_classify_demo(mirror, tmp_path, capsys):
    from PIL import Image

    from vision.models import classify

    _, publish = mirror
    publish(mobilenetv3, "mobilenet_v3_small", _build("mobilenet_v3_small"))
    image = tmp_path / "image.png"
    Image.fromarray(np.random.default_rng(0).integers(0, 256, (300, 260, 3), dtype=np.uint8)).save(image)
    assert classify.main([str(image), "--model", "mobilenet_v3_small", "--no-progress"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 5 and lines[0].startswith("1. ")
    names = set(models.imagenet_categories())
    assert all(line.split(None, 1)[1].rsplit(None, 1)[0].strip() in names for line in lines)
    assert classify.main([str(tmp_path / "missing.png"), "--model", "mobilenet_v3_small", "--no-progress"]) == 1
    assert classify.main([str(image), "--model", "nope"]) == 1
    assert "unknown model 'nope'" in capsys.readouterr().err
