"""core.onnx.export: exported files run in onnxruntime and agree with our outputs."""
import io

import pytest

import core
import core.nn.functional as F
from core import nn

# "onnx.helper": a bare "onnx" would import this test directory (on pytest's pythonpath) as a namespace package
pytest.importorskip("onnx.helper")
import onnx  # noqa: E402
ort = pytest.importorskip("onnxruntime")
import core.onnx  # noqa: E402
from graph_helpers import assert_close_relative, randomised  # noqa: E402


def assert_close(got, want):
    assert_close_relative(got, want, rtol=1e-4)


def _export(model, args, **kwargs):
    buffer = io.BytesIO()
    core.onnx.export(model, args, buffer, **kwargs)
    return buffer.getvalue()


def _session(data):
    options = ort.SessionOptions()
    options.log_severity_level = 3
    return ort.InferenceSession(data, options, providers=["CPUExecutionProvider"])


@pytest.mark.parametrize("name,opset", [("mobilenet_v3_small", 9), ("mobilenet_v3_large", 14), ("resnet18", 11),
                                        ("mobilenet_v2", 13)])
def test_vision_models_in_onnxruntime(name, opset):
    import vision

    model = randomised(getattr(vision.models, name)(num_classes=10))
    data = _export(model, core.randn(1, 3, 64, 64), opset_version=opset, input_names=["image"],
                   output_names=["logits"], dynamic_axes={"image": {0: "batch"}, "logits": {0: "batch"}})
    x = core.randn(3, 3, 64, 64)  # another batch size than the example
    got = _session(data).run(None, {"image": x.numpy()})[0]
    with core.no_grad():
        want = model(x).numpy()
    assert_close(got, want)
    proto = onnx.load_from_string(data)
    kinds = {n.op_type for n in proto.graph.node}
    assert {"Conv", "BatchNormalization", "Gemm"} <= kinds
    if name.startswith("mobilenet_v3"):
        assert ("HardSwish" in kinds) == (opset >= 14) and "HardSigmoid" in kinds and "GlobalAveragePool" in kinds
    assert proto.graph.input[0].type.tensor_type.shape.dim[0].dim_param == "batch"
    assert proto.opset_import[0].version == opset


@pytest.mark.parametrize("name,opset", [("lraspp_mobilenet_v3_large", 11), ("deeplabv3_mobilenet_v3_large", 13)])
def test_segmentation_models_follow_the_input_size(name, opset):
    """The upsampling reads its size from the input's shape: other batch sizes and image sizes
    than the example's run too."""
    import vision

    model = randomised(getattr(vision.models.segmentation, name)(pretrained_backbone=False, num_classes=5))
    axes = {0: "batch", 2: "height", 3: "width"}
    data = _export(model, core.randn(1, 3, 48, 48), opset_version=opset, input_names=["image"],
                   output_names=["out"], dynamic_axes={"image": axes, "out": axes})
    x = core.randn(2, 3, 40, 56)
    got = _session(data).run(None, {"image": x.numpy()})[0]
    with core.no_grad():
        want = model(x)["out"].numpy()
    assert_close(got, want)
    assert "Resize" in {n.op_type for n in onnx.load_from_string(data).graph.node}


class _Upsampling(nn.Module):
    def forward(self, x):
        return (F.interpolate(x, scale_factor=2, mode="nearest"),
                F.interpolate(x, size=(5, 7), mode="bilinear", align_corners=True),
                F.interpolate(x, scale_factor=(1.5, 3), mode="bilinear", align_corners=False,
                              recompute_scale_factor=False))


def test_interpolate_modes():
    x = core.randn(2, 3, 6, 4)
    data = _export(_Upsampling(), x, opset_version=11)
    got = _session(data).run(None, {"input_0": x.numpy()})
    want = _Upsampling()(x)
    for g, w in zip(got, want):
        assert_close(g, w.numpy())
    with pytest.raises(core.onnx.ExportError, match="opset_version >= 11"):
        _export(_Upsampling(), x, opset_version=10)


class _Mixed(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 6, 3, padding="same", bias=False)
        self.pool = nn.MaxPool2d(2)
        self.lin = nn.Linear(6 * 2 * 2, 5)

    def forward(self, x):
        y = F.relu6(self.conv(x) * 2.0 - 0.5)
        y = F.adaptive_avg_pool2d(self.pool(y), 2) / 3
        y = y.view(y.size(0), -1)
        z = F.hardtanh(self.lin(y), -0.5, 0.5)
        return F.softmax(z, dim=-1), y.mean(dim=1, keepdim=True), core.cat([z, z], 1)


@pytest.mark.parametrize("opset", [9, 13, 17])
def test_small_model_ops(opset):
    model = _Mixed().eval()
    data = _export(model, core.randn(2, 3, 8, 8), opset_version=opset, dynamic_axes={"input_0": [0]})
    x = core.randn(4, 3, 8, 8)
    got = _session(data).run(None, {"input_0": x.numpy()})
    with core.no_grad():
        want = model(x)
    for g, w in zip(got, want):
        assert_close(g, w.numpy())
    assert [o.name for o in onnx.load_from_string(data).graph.output] == ["output_0", "output_1", "output_2"]


def test_weights_as_inputs_and_file_output(tmp_path):
    model = nn.Sequential(nn.Linear(3, 2), nn.ReLU()).eval()
    data = _export(model, core.randn(1, 3), export_params=False)
    proto = onnx.load_from_string(data)
    assert not proto.graph.initializer
    assert {i.name for i in proto.graph.input} >= {"input_0", "0.weight", "0.bias"}
    path = tmp_path / "m.onnx"
    core.onnx.export(model, (core.randn(1, 3),), str(path), keep_initializers_as_inputs=True)
    x = core.randn(1, 3)  # no dynamic axes: the example's shape
    with core.no_grad():
        assert_close(_session(path.read_bytes()).run(None, {"input_0": x.numpy()})[0], model(x).numpy())


def test_is_in_onnx_export_while_exporting():
    seen = []

    def model(x):
        seen.append(core.onnx.is_in_onnx_export())
        return x * 2

    _export(model, core.randn(2))
    assert seen and all(seen) and core.onnx.is_in_onnx_export() is False


def test_training_mode_and_unsupported_ops_raise():
    model = nn.Sequential(nn.Linear(3, 3), nn.Dropout(0.5)).train()
    _export(model, core.randn(1, 3))  # TrainingMode.EVAL: exported in eval mode
    assert model.training
    with pytest.raises(core.onnx.ExportError, match="dropout in training mode"):
        _export(model, core.randn(1, 3), training=core.onnx.TrainingMode.PRESERVE)
    with pytest.raises(core.onnx.ExportError, match="no ONNX conversion for op:cumsum"):
        _export(lambda x: core.cumsum(x, 0), core.randn(3))
    with pytest.raises(ValueError, match="opset_version"):
        _export(model.eval(), core.randn(1, 3), opset_version=7)
