"""vision.models.detection without an oracle: torchvision 0.9's layout (state_dict keys and
shapes, parameter count), defaults, backbone freezing, IntermediateLayerGetter, pretrained
loading through the hub (our own checkpoints and torchvision >= 0.13's key layout), outputs in
both modes and torchvision's errors on bad input."""
import json
import os
from collections import OrderedDict

import numpy as np
import pytest

import core
import hub
from core import nn
from vision.models import detection, resnet
from vision.models._utils import IntermediateLayerGetter
from vision.models.detection import backbone_utils, faster_rcnn
from vision.ops.misc import FrozenBatchNorm2d

KEYS = json.load(open(os.path.join(os.path.dirname(__file__), "torchvision_detection_state_dict_keys.json")))
SMALL = dict(pretrained_backbone=False, min_size=96, max_size=128)


@pytest.fixture(scope="module")
def model_320():
    core.manual_seed(0)
    return detection.fasterrcnn_mobilenet_v3_large_320_fpn(**SMALL)


def test_state_dict_keys_shapes_and_parameter_count(model_320):
    ours = [[k, list(v.shape)] for k, v in model_320.state_dict().items()]
    assert ours == KEYS["fasterrcnn_mobilenet_v3_large_fpn"]
    assert sum(p.numel() for p in model_320.parameters()) == 19_386_354


def test_defaults(model_320):
    rpn, heads, transform = model_320.rpn, model_320.roi_heads, model_320.transform
    assert rpn.anchor_generator.num_anchors_per_location() == [15, 15, 15]
    assert rpn.score_thresh == 0.05 and rpn.nms_thresh == 0.7
    assert rpn._pre_nms_top_n == {"training": 2000, "testing": 150}
    assert rpn._post_nms_top_n == {"training": 2000, "testing": 150}
    assert (heads.score_thresh, heads.nms_thresh, heads.detections_per_img) == (0.05, 0.5, 100)
    assert heads.box_coder.weights == (10.0, 10.0, 5.0, 5.0)
    assert heads.box_roi_pool.featmap_names == ["0", "1", "2", "3"] and heads.box_roi_pool.output_size == (7, 7)
    assert (transform.min_size, transform.max_size) == ((96,), 128)
    frozen = [m for m in model_320.backbone.modules() if isinstance(m, FrozenBatchNorm2d)]
    assert frozen and all(m.eps == 1e-5 for m in frozen)
    assert not any(isinstance(m, nn.BatchNorm2d) for m in model_320.modules())
    core.manual_seed(0)
    large = detection.fasterrcnn_mobilenet_v3_large_fpn(pretrained_backbone=False)
    assert (large.transform.min_size, large.transform.max_size) == ((800,), 1333)
    assert large.rpn._pre_nms_top_n["testing"] == 1000 and large.rpn.score_thresh == 0.05
    assert "TwoMLPHead" in repr(large.roi_heads.box_head.__class__)


def test_norm_layer_trains_the_backbone_statistics(model_320):
    """norm_layer=nn.BatchNorm2d (for from-scratch training) swaps only the backbone's norms: the
    same keys plus each BatchNorm2d's num_batches_tracked, and the statistics move in training."""
    core.manual_seed(0)
    model = detection.fasterrcnn_mobilenet_v3_large_320_fpn(norm_layer=nn.BatchNorm2d, **SMALL)
    assert not any(isinstance(m, FrozenBatchNorm2d) for m in model.modules())
    norms = [m for m in model.backbone.modules() if isinstance(m, nn.BatchNorm2d)]
    assert len(norms) == len([m for m in model_320.backbone.modules() if isinstance(m, FrozenBatchNorm2d)])
    keys = [k for k in model.state_dict() if not k.endswith("num_batches_tracked")]
    assert keys == list(model_320.state_dict())
    images = [core.rand(3, 64, 64)]
    targets = [{"boxes": core.tensor([[8.0, 8.0, 40.0, 40.0]]), "labels": core.tensor([1])}]
    before = norms[0].running_mean.clone()
    model.train()
    sum(model(images, targets).values()).backward()
    assert not core.equal(norms[0].running_mean, before)
    assert norms[0].weight.grad is not None


def test_constructor_errors():
    backbone = nn.Sequential(nn.Conv2d(3, 8, 3))
    with pytest.raises(ValueError, match="out_channels"):
        faster_rcnn.FasterRCNN(backbone, num_classes=3)
    backbone.out_channels = 8
    with pytest.raises(ValueError, match="num_classes should be None when box_predictor is specified"):
        faster_rcnn.FasterRCNN(backbone, num_classes=3, box_predictor=faster_rcnn.FastRCNNPredictor(1024, 3))
    with pytest.raises(ValueError, match="num_classes should not be None"):
        faster_rcnn.FasterRCNN(backbone)


def test_trainable_layers_and_freezing():
    with pytest.warns(UserWarning, match="falling back to trainable_backbone_layers=6"):
        assert backbone_utils._validate_trainable_layers(False, 2, 6, 3) == 6
    assert backbone_utils._validate_trainable_layers(True, None, 6, 3) == 3
    core.manual_seed(0)
    backbone = backbone_utils.mobilenet_backbone("mobilenet_v3_large", False, True, trainable_layers=2)
    features = backbone.body
    trainable = [i for i, m in enumerate(features.values()) if any(p.requires_grad for p in m.parameters())]
    assert trainable == list(range(13, 17))  # stages from index 13 on: the last two
    assert backbone.body.return_layers == {"13": "0", "16": "1"}
    assert [b.in_channels for b in backbone.fpn.inner_blocks] == [160, 960]
    plain = backbone_utils.mobilenet_backbone("mobilenet_v3_large", False, False, trainable_layers=0)
    assert plain.out_channels == 256 and not any(p.requires_grad for p in plain[0].parameters())


def test_intermediate_layer_getter():
    core.manual_seed(0)
    net = resnet.resnet18()
    body = IntermediateLayerGetter(net, {"layer1": "feat1", "layer3": "feat2"})
    assert list(body) == ["conv1", "bn1", "relu", "maxpool", "layer1", "layer2", "layer3"]  # stops at layer3
    out = body(core.randn(1, 3, 64, 64))
    assert isinstance(out, OrderedDict) and list(out) == ["feat1", "feat2"]
    assert out["feat1"].shape == (1, 64, 16, 16) and out["feat2"].shape == (1, 256, 4, 4)
    x = core.randn(1, 3, 64, 64)
    net.eval()
    body.eval()
    expected = net.layer1(net.maxpool(net.relu(net.bn1(net.conv1(x)))))
    np.testing.assert_allclose(body(x)["feat1"].detach().numpy(), expected.detach().numpy(), rtol=1e-6)
    assert list(body.state_dict())[0] == "conv1.weight"  # the model's own names
    with pytest.raises(ValueError, match="return_layers are not present in model"):
        IntermediateLayerGetter(net, {"layer9": "x"})


def test_resnet_fpn_backbone():
    core.manual_seed(0)
    backbone = backbone_utils.resnet_fpn_backbone("resnet18", False, trainable_layers=2)
    out = backbone(core.randn(1, 3, 64, 64))
    assert list(out) == ["0", "1", "2", "3", "pool"] and all(v.shape[1] == 256 for v in out.values())
    trainable = {n.split(".")[0] for n, p in backbone.body.named_parameters() if p.requires_grad}
    assert trainable == {"layer3", "layer4"}


def test_eval_and_training_outputs(model_320):
    model_320.eval()
    images = [core.rand(3, 70, 90), core.rand(3, 100, 60)]
    with core.no_grad():
        out = model_320(images)
    assert len(out) == 2
    for det, image in zip(out, images):
        assert set(det) == {"boxes", "labels", "scores"}
        boxes = det["boxes"].numpy()
        h, w = image.shape[-2:]  # original coordinates
        assert (boxes[:, 0] >= 0).all() and (boxes[:, 2] <= w + 1e-3).all() and (boxes[:, 3] <= h + 1e-3).all()
        assert (det["scores"].numpy() > 0.05).all()
    model_320.train()
    targets = [{"boxes": core.tensor([[5, 6, 40, 50.]]), "labels": core.tensor([2])},
               {"boxes": core.zeros(0, 4), "labels": core.zeros(0, dtype=core.int64)}]  # a background image
    losses = model_320(images, targets)
    assert set(losses) == {"loss_classifier", "loss_box_reg", "loss_objectness", "loss_rpn_box_reg"}
    sum(losses.values()).backward()
    assert model_320.roi_heads.box_predictor.cls_score.weight.grad is not None
    assert targets[0]["boxes"].tolist() == [[5.0, 6.0, 40.0, 50.0]]  # the caller's targets are not resized
    model_320.eval()


def test_bad_input(model_320):
    model_320.train()
    image = [core.rand(3, 64, 64)]
    with pytest.raises(ValueError, match="In training mode, targets should be passed"):
        model_320(image)
    with pytest.raises(ValueError, match="All bounding boxes should have positive height and width"):
        model_320(image, [{"boxes": core.tensor([[10, 10, 10, 20.]]), "labels": core.tensor([1])}])
    with pytest.raises(ValueError, match=r"shape \[N, 4\], got core.Size\(\[4\]\)"):
        model_320(image, [{"boxes": core.tensor([1, 2, 3, 4.]), "labels": core.tensor([1])}])
    model_320.eval()
    with pytest.raises(IndexError, match="non-empty list of images"):
        model_320([])
    with pytest.raises(TypeError, match="floating type"):
        model_320([core.zeros(3, 8, 8, dtype=core.uint8)])


def test_pretrained_through_the_hub(mirror, monkeypatch):
    _, publish = mirror
    core.manual_seed(1)
    source = detection.fasterrcnn_mobilenet_v3_large_320_fpn(**SMALL)
    publish(faster_rcnn, "fasterrcnn_mobilenet_v3_large_320_fpn_coco", source)
    loaded = hub.load("fasterrcnn_mobilenet_v3_large_320_fpn", pretrained=True, min_size=96, max_size=128)
    for (k, a), b in zip(source.state_dict().items(), loaded.state_dict().values()):
        assert np.array_equal(a.numpy(), b.numpy()), k
    assert {"fasterrcnn_mobilenet_v3_large_fpn", "fasterrcnn_mobilenet_v3_large_320_fpn",
            "fasterrcnn_resnet50_fpn"} <= set(hub.list())


def test_loads_the_newer_torchvision_key_layout():
    core.manual_seed(2)
    source = detection.fasterrcnn_mobilenet_v3_large_320_fpn(**SMALL)
    renamed = OrderedDict()
    for k, v in source.state_dict().items():  # torchvision >= 0.13 names
        k = k.replace("rpn.head.conv.", "rpn.head.conv.0.0.")
        for block in ("inner_blocks", "layer_blocks"):
            for i in range(2):
                k = k.replace(f"fpn.{block}.{i}.", f"fpn.{block}.{i}.0.")
        renamed[k] = v
    core.manual_seed(3)
    target = detection.fasterrcnn_mobilenet_v3_large_320_fpn(**SMALL)
    target.load_state_dict(renamed)
    assert np.array_equal(target.rpn.head.conv.weight.detach().numpy(), source.rpn.head.conv.weight.detach().numpy())
