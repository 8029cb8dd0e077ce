"""vision.models.quantization's ResNet-18/50, ResNeXt-101 and MobileNetV2 against torchvision's:
module layout, int8 state_dict keys/shapes after quantize_model, the int8 outputs of torchvision's
converted weights loaded here (the published files are such state dicts) and of ours loaded there."""
import io
import warnings

import numpy as np
import pytest

import core

torch = pytest.importorskip("torch")
from parity._torchvision import import_torchvision  # noqa: E402

tv = import_torchvision()
if tv is None:
    pytest.skip("torchvision is not installed", allow_module_level=True)
from torchvision.models import quantization as tvq  # noqa: E402
import torch.ao.quantization as tq  # noqa: E402

from vision.models import quantization as ours_q  # noqa: E402


# torchvision >= 0.12 renamed ConvBNActivation (0.9's name, ours) to Conv2dNormActivation;
# torch >= 1.12 converts Dropout to a quantized Dropout (1.8 keeps nn.Dropout)
RENAMED = {"Conv2dNormActivation": "ConvBNActivation", "QuantizedDropout": "Dropout"}


def _names(model, getter):
    return [RENAMED.get(getter(m), getter(m)) for m in model.modules()]


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


@pytest.fixture
def engine(request):
    before = torch.backends.quantized.engine, core.backends.quantized.engine
    yield
    torch.backends.quantized.engine, core.backends.quantized.engine = before


def _to_core(state):
    buf = io.BytesIO()
    torch.save(state, buf)
    buf.seek(0)
    return core.load(buf)


def _torchvision_int8(name, backend):
    """torchvision's int8 model: quantize_model's fuse + prepare + calibrate + convert, on random
    images at our input size (its 299x299 dummy batch is one random image too)."""
    torch.manual_seed(0)
    torch.backends.quantized.engine = backend
    model = getattr(tvq, name)(quantize=False)
    model.eval()
    model.fuse_model()
    model.qconfig = tq.QConfig(activation=tq.default_observer,
                               weight=tq.default_per_channel_weight_observer if backend == "fbgemm"
                               else tq.default_weight_observer)
    tq.prepare(model, inplace=True)
    with torch.no_grad():
        model(torch.rand(2, 3, 64, 64))
    tq.convert(model, inplace=True)
    return model


def _assert_outputs_agree(ours, theirs, seed, within_one_step, max_steps):
    """Both int8 classifiers on the same random images: the share of logits within one output
    quantization step of torch's, and the largest difference in steps."""
    x = np.random.default_rng(seed).random((2, 3, 64, 64), dtype=np.float32)
    with torch.no_grad():
        yt = theirs(torch.from_numpy(x)).numpy()
    yo = ours(core.tensor(x)).numpy()
    step = float(theirs.fc.scale if hasattr(theirs, "fc") else theirs.classifier[1].scale)
    steps = np.abs(yo - yt) / step
    close = (steps <= 1.0001).mean()
    assert close >= within_one_step and steps.max() <= max_steps + 1e-4, (steps.max(), close)


@pytest.mark.parametrize("name,backend", [("resnet18", "fbgemm"), ("mobilenet_v2", "qnnpack")])
def test_int8_model_loads_torchvision_weights_and_matches(name, backend, engine):
    theirs = _torchvision_int8(name, backend)
    core.backends.quantized.engine = backend
    ours = getattr(ours_q, name)(quantize=True)  # quantize_model: the int8 layout
    state = _to_core(theirs.state_dict())
    assert list(ours.state_dict()) == list(state)
    ours.load_state_dict(state)
    assert _names(ours, lambda m: m._get_name()) == _names(theirs, lambda m: m._get_name())
    _assert_outputs_agree(ours, theirs, seed=0, within_one_step=0.95, max_steps=4)


@pytest.mark.parametrize("name", ["resnet50", "resnext101_32x8d"])
def test_quantizable_layout_matches_torchvision(name):
    """The float quantizable model and its fused form: same modules and keys as torchvision's."""
    torch.manual_seed(0)
    theirs = getattr(tvq, name)(quantize=False)
    ours = getattr(ours_q, name)(quantize=False)
    assert list(ours.state_dict()) == list(theirs.state_dict())
    assert _names(ours, lambda m: type(m).__name__) == _names(theirs, lambda m: type(m).__name__)
    theirs.eval()
    ours.eval()
    theirs.fuse_model()
    ours.fuse_model()
    assert list(ours.state_dict()) == list(theirs.state_dict())
    assert _names(ours, lambda m: type(m).__name__) == _names(theirs, lambda m: type(m).__name__)


def _ours_int8(name, backend):
    """Our int8 model: fuse + prepare + calibrate + convert on our side."""
    core.backends.quantized.engine = backend
    model = getattr(ours_q, name)(quantize=False)
    model.eval()
    model.fuse_model()
    model.qconfig = core.quantization.get_default_qconfig(backend)
    core.quantization.prepare(model, inplace=True)
    with core.no_grad():
        model(core.tensor(np.random.default_rng(0).random((2, 3, 64, 64), dtype=np.float32)))
    core.quantization.convert(model, inplace=True)
    return model


@pytest.mark.parametrize("name,backend", [("resnet18", "fbgemm"), ("mobilenet_v2", "qnnpack")])
def test_our_int8_checkpoint_loads_in_torchvision_and_matches(name, backend, engine):
    """core.save of our converted model (packed conv/linear params, qtensors) loads into
    torchvision's int8 model, which then gives our outputs."""
    ours = _ours_int8(name, backend)
    buf = io.BytesIO()
    core.save(ours.state_dict(), buf)
    buf.seek(0)
    torch.backends.quantized.engine = backend
    theirs = getattr(tvq, name)(quantize=False)
    theirs.eval()
    theirs.fuse_model()
    theirs.qconfig = tq.get_default_qconfig(backend)
    tq.prepare(theirs, inplace=True)
    tq.convert(theirs, inplace=True)
    theirs.load_state_dict(torch.load(buf))
    _assert_outputs_agree(ours, theirs, seed=1, within_one_step=0.99, max_steps=2)
