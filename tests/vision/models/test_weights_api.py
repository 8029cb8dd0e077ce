"""Issue 28: torchvision 0.13's weights= API on every builder, and the VGG family."""
import numpy as np
import pytest

import core
import hub
from vision import models
from vision.models import detection, quantization, resnet, segmentation, vgg

CLASSIFIERS = ["resnet18", "resnet34", "resnet50", "resnet101", "resnet152", "resnext50_32x4d", "resnext101_32x8d",
               "wide_resnet50_2", "wide_resnet101_2", "mobilenet_v2", "mobilenet_v3_large", "mobilenet_v3_small",
               "vgg11", "vgg11_bn", "vgg13", "vgg13_bn", "vgg16", "vgg16_bn", "vgg19", "vgg19_bn"]
DETECTORS = ["fasterrcnn_resnet50_fpn", "fasterrcnn_mobilenet_v3_large_fpn", "fasterrcnn_mobilenet_v3_large_320_fpn"]
SEGMENTERS = ["fcn_resnet50", "fcn_resnet101", "deeplabv3_resnet50", "deeplabv3_resnet101",
              "deeplabv3_mobilenet_v3_large", "lraspp_mobilenet_v3_large"]


def _urls_of(name):
    for module in (resnet, vgg, models.mobilenetv2, models.mobilenetv3):
        if name in module.model_urls:
            return module.model_urls[name]
    if name in SEGMENTERS:
        return segmentation.segmentation.model_urls[name + "_coco"]
    return detection.faster_rcnn.model_urls[name + "_coco"]


@pytest.mark.parametrize("name", CLASSIFIERS + DETECTORS + SEGMENTERS)
def test_each_builder_has_an_enum_naming_the_pretrained_file(name):
    weights = models.get_model_weights(name)
    module = models if name in CLASSIFIERS else detection if name in DETECTORS else segmentation
    assert models.get_model_weights(getattr(module, name)) is weights
    member = weights.DEFAULT
    assert member.url == _urls_of(name)  # the file pretrained=True loads
    assert weights.verify("DEFAULT") is member and weights.verify(member.name) is member
    assert weights.verify(f"{weights.__name__}.{member.name}") is member and weights.verify(None) is None
    assert models.get_weight(f"{weights.__name__}.DEFAULT") is member
    assert repr(member) == f"{weights.__name__}.{member.name}"
    expected_categories = 1000 if name in CLASSIFIERS else 91 if name in DETECTORS else 21
    assert len(member.meta["categories"]) == expected_categories and member.meta["num_params"] > 0


def test_named_members():
    assert models.ResNet18_Weights.IMAGENET1K_V1 is models.ResNet18_Weights.DEFAULT
    assert detection.FasterRCNN_MobileNet_V3_Large_FPN_Weights.COCO_V1.meta["_metrics"] == {
        "COCO-val2017": {"box_map": 32.8}}
    q = quantization.MobileNet_V3_Large_QuantizedWeights.IMAGENET1K_QNNPACK_V1
    assert q.meta["backend"] == "qnnpack" and q.meta["unquantized"] is models.MobileNet_V3_Large_Weights.IMAGENET1K_V1
    assert models.VGG16_Weights.IMAGENET1K_V1.meta["_metrics"]["ImageNet-1K"] == {"acc@1": 71.592, "acc@5": 90.382}


def test_bad_weights():
    with pytest.raises(ValueError, match="Invalid weights name 'IMAGENET1K_V9'"):
        models.resnet18(weights="IMAGENET1K_V9")
    with pytest.raises(TypeError, match="expected ResNet18_Weights but received"):
        models.resnet18(weights=models.ResNet34_Weights.DEFAULT)
    with pytest.raises(ValueError, match="The parameter 'num_classes' expected value 1000 but got 10 instead."):
        models.resnet18(weights="DEFAULT", num_classes=10)
    with pytest.raises(ValueError, match="Unknown model"):
        models.get_model("resnet7")


@pytest.mark.parametrize("name", ["vgg11", "vgg11_bn", "vgg13", "vgg13_bn", "vgg16", "vgg16_bn", "vgg19", "vgg19_bn"])
def test_vgg_matches_torchvision_parameter_counts(name):
    model = getattr(models, name)(init_weights=False)
    weights = models.get_model_weights(name).DEFAULT
    assert sum(p.numel() for p in model.parameters()) == weights.meta["num_params"]
    keys = list(model.state_dict())
    assert keys[0] == "features.0.weight" and keys[-1] == "classifier.6.bias"
    assert any("running_mean" in k for k in keys) == name.endswith("_bn")


def test_vgg_forward_backward_and_init():
    core.manual_seed(0)
    model = models.vgg11_bn(num_classes=5, dropout=0.2)
    model.classifier[0].requires_grad_(False)  # its 100M-element gradient would only cost time here
    out = model(core.randn(2, 3, 32, 32))
    assert out.shape == (2, 5)
    out.sum().backward()
    assert model.features[0].weight.grad is not None and model.classifier[2].p == 0.2
    assert float(model.classifier[0].bias.abs().sum()) == 0
    assert abs(float(model.classifier[0].weight.std()) - 0.01) < 1e-3
    assert models.get_model("vgg11", num_classes=3).classifier[-1].out_features == 3


def test_transforms_preset():
    preset = models.ResNet18_Weights.DEFAULT.transforms()
    image = core.randint(0, 256, (3, 300, 400), dtype=core.uint8)
    x = preset(image)
    assert x.shape == (3, 224, 224) and x.dtype == core.float32
    expected = (image.float() / 255)[:, 38:262, 84:308]  # crop of the 256 x 341 resize, checked by mean
    assert abs(float(x.mean()) - float(((expected - 0.45) / 0.226).mean())) < 0.2
    det = detection.FasterRCNN_ResNet50_FPN_Weights.DEFAULT.transforms()
    assert det(image).dtype == core.float32 and float(det(image).max()) <= 1.0


@pytest.mark.parametrize("weights", ["DEFAULT", "IMAGENET1K_V1", models.MobileNet_V3_Small_Weights.IMAGENET1K_V1])
def test_weights_load_the_same_file_as_pretrained(mirror, weights):
    _, publish = mirror
    core.manual_seed(1)
    source = models.mobilenet_v3_small()
    publish(models.mobilenetv3, "mobilenet_v3_small", source)
    loaded = models.mobilenet_v3_small(weights=weights, progress=False)
    for key, value in source.state_dict().items():
        np.testing.assert_array_equal(loaded.state_dict()[key].numpy(), value.numpy(), err_msg=key)
    hub_loaded = hub.load("mobilenet_v3_small", weights=weights, progress=False)
    assert core.equal(hub_loaded.classifier[0].weight, source.classifier[0].weight)


def test_weights_backbone(mirror):
    _, publish = mirror
    core.manual_seed(2)
    backbone_source = models.mobilenet_v3_large()
    publish(models.mobilenetv3, "mobilenet_v3_large", backbone_source)
    model = detection.fasterrcnn_mobilenet_v3_large_fpn(weights=None, weights_backbone="DEFAULT", num_classes=3)
    first = model.backbone.body["0"][0].weight
    assert core.equal(first, backbone_source.features[0][0].weight)
    fresh = detection.fasterrcnn_mobilenet_v3_large_fpn(weights_backbone=None, num_classes=3)
    assert not core.equal(fresh.backbone.body["0"][0].weight, first)
