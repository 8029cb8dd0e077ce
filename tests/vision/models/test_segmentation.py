"""vision.models.segmentation without an oracle: torchvision 0.9's layout (state_dict keys and
shapes, parameter counts), the dilated backbones, outputs with and without the auxiliary head at
odd and low resolutions, pretrained loading through the hub (aux_loss forced, no backbone
download) and torchvision's errors."""
import json
import os
from collections import OrderedDict

import numpy as np
import pytest

import core
import hub
from core import nn
from vision.models import segmentation
from vision.models.segmentation import deeplabv3, lraspp
from vision.models.segmentation import segmentation as builders

KEYS = json.load(open(os.path.join(os.path.dirname(__file__), "torchvision_segmentation_state_dict_keys.json")))
PARAMETERS = {"fcn_resnet50": 35_322_218, "fcn_resnet101": 54_314_346, "deeplabv3_resnet50": 42_004_074,
              "deeplabv3_resnet101": 60_996_202, "deeplabv3_mobilenet_v3_large": 11_029_328,
              "lraspp_mobilenet_v3_large": 3_221_538}
MOBILE = ["deeplabv3_mobilenet_v3_large", "lraspp_mobilenet_v3_large"]


def _build(name, **kwargs):
    core.manual_seed(0)
    if not name.startswith("lraspp"):
        kwargs.setdefault("aux_loss", True)
    return getattr(segmentation, name)(pretrained_backbone=False, **kwargs)


@pytest.mark.parametrize("name", sorted(PARAMETERS))
def test_state_dict_keys_shapes_and_parameter_count(name):
    model = _build(name)
    assert [[k, list(v.shape)] for k, v in model.state_dict().items()] == KEYS[name]
    assert sum(p.numel() for p in model.parameters()) == PARAMETERS[name]


def test_dilated_backbones():
    mobile = _build("deeplabv3_mobilenet_v3_large")
    assert mobile.backbone.return_layers == {"16": "out", "4": "aux"}
    assert len(mobile.backbone) == 17  # nothing after the last returned layer is kept
    depthwise = [m for m in mobile.backbone.modules() if isinstance(m, nn.Conv2d) and m.groups > 1]
    assert [(m.stride, m.dilation) for m in depthwise[-3:]] == [((1, 1), (2, 2))] * 3
    batch_norms = [m for m in mobile.modules() if isinstance(m, nn.BatchNorm2d)]
    assert {m.eps for m in mobile.backbone.modules() if isinstance(m, nn.BatchNorm2d)} == {0.001}
    assert any(m.eps == 1e-5 for m in batch_norms)  # the heads keep BatchNorm2d's default
    aspp = mobile.classifier[0]
    assert [branch[0].dilation for branch in list(aspp.convs)[1:4]] == [(12, 12), (24, 24), (36, 36)]
    assert isinstance(aspp.convs[4], deeplabv3.ASPPPooling) and aspp.project[3].p == 0.5

    lite = _build("lraspp_mobilenet_v3_large")
    assert lite.backbone.return_layers == {"4": "low", "16": "high"}
    assert isinstance(lite.classifier, lraspp.LRASPPHead)

    fcn = _build("fcn_resnet50")
    assert list(fcn.backbone) == ["conv1", "bn1", "relu", "maxpool", "layer1", "layer2", "layer3", "layer4"]
    assert fcn.backbone.layer3[1].conv2.dilation == (2, 2) and fcn.backbone.layer4[0].conv2.dilation == (2, 2)
    assert fcn.backbone.layer4[1].conv2.dilation == (4, 4) and fcn.backbone.layer4[0].conv2.stride == (1, 1)
    assert fcn.classifier[3].p == 0.1


@pytest.mark.parametrize("name, aux", [("deeplabv3_mobilenet_v3_large", True),
                                       ("deeplabv3_mobilenet_v3_large", False), ("lraspp_mobilenet_v3_large", False)])
def test_outputs_at_odd_and_low_resolutions(name, aux):
    model = _build(name, **({} if name.startswith("lraspp") else {"aux_loss": aux})).eval()
    keys = ["out", "aux"] if aux else ["out"]
    for size in [(321, 479), (33, 47), (8, 8), (1, 1)]:  # 1x1 and 8x8: a 1x1 map from the output stride 8 on
        with core.no_grad():
            out = model(core.rand(1, 3, *size))
        assert isinstance(out, OrderedDict) and list(out) == keys
        assert all(v.shape == (1, 21, *size) and bool(core.isfinite(v).all()) for v in out.values())


@pytest.mark.parametrize("name", ["fcn_resnet50", "deeplabv3_resnet50"])
def test_resnet_models_batch_and_aux(name):
    model = _build(name, num_classes=5).eval()
    x = core.rand(2, 3, 37, 53)
    plain = _build(name, num_classes=5, aux_loss=False).eval()
    plain.load_state_dict({k: v for k, v in model.state_dict().items() if not k.startswith("aux_classifier.")})
    with core.no_grad():
        out, plain_out = model(x), plain(x)
    assert list(out) == ["out", "aux"] and out["out"].shape == out["aux"].shape == (2, 5, 37, 53)
    assert list(plain_out) == ["out"]
    np.testing.assert_allclose(out["out"].numpy(), plain_out["out"].numpy(), atol=1e-5)


def test_training_step():
    model = _build("lraspp_mobilenet_v3_large", num_classes=3).train()
    x = core.rand(2, 3, 48, 40)
    target = core.randint(0, 3, (2, 48, 40))
    loss = nn.functional.cross_entropy(model(x)["out"], target)
    loss.backward()
    assert model.backbone["0"][0].weight.grad is not None and model.classifier.low_classifier.bias.grad is not None
    deeplab = _build("deeplabv3_mobilenet_v3_large", num_classes=3).train()
    out = deeplab(x)
    loss = nn.functional.cross_entropy(out["out"], target) + 0.5 * nn.functional.cross_entropy(out["aux"], target)
    loss.backward()
    assert deeplab.classifier[0].convs[3][0].weight.grad is not None  # the rate-36 branch


def test_errors_as_torchvision_raises_them():
    with pytest.raises(NotImplementedError, match="This model does not use auxiliary loss"):
        segmentation.lraspp_mobilenet_v3_large(pretrained_backbone=False, aux_loss=True)
    with pytest.raises(NotImplementedError, match="backbone mobilenet_v2 is not supported as of now"):
        builders._segm_model("fcn", "mobilenet_v2", 21, False, pretrained_backbone=False)
    with pytest.raises(NotImplementedError, match="pretrained fcn_mobilenet_v3_large_coco is not supported"):
        builders._load_weights(None, "fcn", "mobilenet_v3_large", False)
    model = _build("deeplabv3_mobilenet_v3_large").train()
    # the pooling branch sees one value per channel: BatchNorm2d refuses to train on it
    with pytest.raises(ValueError, match="Expected more than 1 value per channel when training"):
        model(core.rand(1, 3, 64, 64))
    with pytest.raises(RuntimeError, match="expected input.* to have 3 channels, but got 4 channels"):
        model.eval()(core.rand(1, 4, 64, 64))


@pytest.mark.parametrize("name", MOBILE)
def test_pretrained_through_the_hub(mirror, name):
    _, publish = mirror
    source = _build(name, num_classes=21)
    # only the segmentation checkpoint is in the mirror: asking for the ImageNet backbone would fail
    publish(builders, name + "_coco", source)
    kwargs = {} if name.startswith("lraspp") else {"aux_loss": False}  # pretrained forces aux_loss
    loaded = hub.load(name, pretrained=True, **kwargs)
    assert list(loaded.state_dict()) == list(source.state_dict())
    for (k, a), b in zip(source.state_dict().items(), loaded.state_dict().values()):
        assert np.array_equal(a.numpy(), b.numpy()), k
    assert set(PARAMETERS) <= set(hub.list())
    assert builders.model_urls["fcn_resnet101_coco"].endswith("/fcn_resnet101_coco-7ecb50ca.pth")
