"""core.onnx.export of the Faster R-CNN detection models: the exported graph resizes, proposes,
pools and suppresses in onnxruntime as the model does in eager mode, for other image sizes
than the example's too (dynamic_axes on H and W)."""
import io

import numpy as np
import pytest

import core
from core import nn

pytest.importorskip("onnx.helper")  # a bare "onnx" would import this test directory as a namespace package
import onnx  # noqa: E402
ort = pytest.importorskip("onnxruntime")
import core.onnx  # noqa: E402

OUTPUTS = ("boxes", "labels", "scores")


def _lively(model):
    """Seeded weights whose activations and scores spread (the default initialisation gives
    near-equal scores: ties would make the order of the detections arbitrary)."""
    from vision.ops.misc import FrozenBatchNorm2d

    core.manual_seed(0)
    for m in model.modules():
        if isinstance(m, (nn.Conv2d, nn.Linear)):
            m.weight.data.normal_(0.0, (1.0 / m.weight[0].numel()) ** 0.5)
            if m.bias is not None:
                m.bias.data.uniform_(-0.1, 0.1)
        elif isinstance(m, FrozenBatchNorm2d):
            m.weight.uniform_(0.5, 1.5)
            m.bias.uniform_(-0.2, 0.2)
            m.running_mean.uniform_(-0.2, 0.2)
            m.running_var.uniform_(0.5, 2.0)
    model.rpn.head.cls_logits.weight.data.normal_(0.0, 0.3)  # objectness logits of a few units
    model.roi_heads.box_predictor.cls_score.weight.data.normal_(0.0, 2.0)
    return model.eval()


def _export(model, image, opset):
    buffer = io.BytesIO()
    axes = {"image": {1: "height", 2: "width"}, **{name: {0: "detections"} for name in OUTPUTS}}
    core.onnx.export(model, ([image],), buffer, input_names=["image"], output_names=list(OUTPUTS),
                     dynamic_axes=axes, opset_version=opset)
    return buffer.getvalue()


def _session(data):
    options = ort.SessionOptions()
    options.log_severity_level = 3
    options.intra_op_num_threads = 1
    return ort.InferenceSession(data, options, providers=["CPUExecutionProvider"])


def _assert_same_detections(got, want):
    assert want["boxes"].shape[0] > 0  # empty outputs would agree trivially
    assert got[0].shape == tuple(want["boxes"].shape)
    np.testing.assert_array_equal(got[1], want["labels"].numpy())
    np.testing.assert_allclose(got[0], want["boxes"].numpy(), rtol=1e-3, atol=1e-3)  # atol: boxes clipped to 0
    np.testing.assert_allclose(got[2], want["scores"].numpy(), rtol=1e-3)


@pytest.mark.parametrize("name,settings,opset", [
    ("fasterrcnn_mobilenet_v3_large_320_fpn", {}, 11),
    # the RPN's top 1000 per level: all anchors of the coarsest level, fewer on the finer (k = min in the graph)
    ("fasterrcnn_mobilenet_v3_large_fpn", {"min_size": 288, "max_size": 416}, 16),
])
def test_faster_rcnn_in_onnxruntime_follows_the_image_size(name, settings, opset):
    import vision

    model = _lively(getattr(vision.models.detection, name)(pretrained_backbone=False, num_classes=5, **settings))
    core.manual_seed(1)
    example, other = core.rand(3, 320, 320), core.rand(3, 240, 368)
    data = _export(model, example, opset)
    session = _session(data)
    for image in (example, other):
        with core.no_grad():
            want = model([image])[0]
        _assert_same_detections(session.run(None, {"image": image.numpy()}), want)
    graph = onnx.load_from_string(data).graph
    assert {"NonMaxSuppression", "RoiAlign", "TopK", "Resize", "Pad"} <= {n.op_type for n in graph.node}
    assert [d.dim_param for d in graph.input[0].type.tensor_type.shape.dim] == ["", "height", "width"]


def test_detection_export_errors():
    import vision

    model = vision.models.detection.fasterrcnn_mobilenet_v3_large_320_fpn(pretrained_backbone=False, num_classes=3)
    image = core.rand(3, 64, 64)
    with pytest.raises(core.onnx.ExportError, match="training mode"):
        _export_with(model, image, training=core.onnx.TrainingMode.TRAINING)
    with pytest.raises(core.onnx.ExportError, match="opset_version >= 11"):
        _export_with(model.eval(), image, opset_version=10)
    with pytest.raises(core.onnx.ExportError, match="aligned=True needs opset_version >= 16"):
        _export_with(lambda x, r: vision.ops.roi_align(x, r, 2, aligned=True), core.rand(1, 2, 8, 8),
                     core.tensor([[0.0, 1.0, 1.0, 5.0, 5.0]]), opset_version=11)
    with pytest.raises(core.onnx.ExportError, match="no ONNX conversion for op:ps_roi_align"):
        _export_with(lambda x, r: vision.ops.ps_roi_align(x, r, 2), core.rand(1, 4, 8, 8),
                     core.tensor([[0.0, 1.0, 1.0, 5.0, 5.0]]), opset_version=11)


def _export_with(model, *args, **kwargs):
    core.onnx.export(model, args if not isinstance(model, nn.Module) else ([args[0]],), io.BytesIO(), **kwargs)
