"""vision.models.segmentation against torchvision on identical random weights: torchvision's model
(random init, random BN statistics) is torch.save'd into a local hub mirror and loaded into ours
through hub.load(..., pretrained=True); eval outputs ("out" and "aux") are compared at odd sizes,
the no-aux variants load the same checkpoint minus the auxiliary head, masks drawn from the
predictions with draw_segmentation_masks match torchvision's pixel for pixel, and bad input raises
torchvision's errors."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import core  # noqa: E402
import hub  # noqa: E402
from parity._hub_mirror import publish  # noqa: E402
from parity._torchvision import import_torchvision  # noqa: E402
from vision.models import segmentation  # noqa: E402
from vision.models.segmentation import segmentation as builders  # noqa: E402
from vision.utils import draw_segmentation_masks  # noqa: E402

# model -> an odd input size: full size for the light MobileNetV3 models, small for the ResNets
SIZES = {"lraspp_mobilenet_v3_large": (321, 479), "deeplabv3_mobilenet_v3_large": (321, 479),
         "fcn_resnet50": (97, 131), "deeplabv3_resnet50": (97, 131),
         "fcn_resnet101": (65, 81), "deeplabv3_resnet101": (65, 81)}
NUM_CLASSES = 21


@pytest.fixture(scope="module")
def tv():
    module = import_torchvision()
    if module is None:
        pytest.skip("torchvision is not installed")
    import torchvision.models.segmentation  # noqa: F401
    return module


def _torchvision_model(tv, name, aux):
    torch.manual_seed(0)
    kwargs = {} if name.startswith("lraspp") else {"aux_loss": aux}
    model = getattr(tv.models.segmentation, name)(weights=None, weights_backbone=None, num_classes=NUM_CLASSES,
                                                  **kwargs)
    generator = torch.Generator().manual_seed(1)
    with torch.no_grad():
        for module in model.modules():
            if isinstance(module, torch.nn.BatchNorm2d):  # non-trivial statistics and affine parameters
                c = module.num_features
                module.running_mean.copy_(torch.randn(c, generator=generator) * 0.1)
                module.running_var.copy_(torch.rand(c, generator=generator) * 0.5 + 0.75)
                module.weight.copy_(torch.rand(c, generator=generator) * 0.5 + 0.75)
                module.bias.copy_(torch.randn(c, generator=generator) * 0.1)
    return model.eval()


def _publish(directory, monkeypatch, name, model):
    publish(directory, monkeypatch, builders.model_urls, name + "_coco", name, model)


def _image(size, seed=0):
    """A normalised-looking image of smooth colour blocks, so that features vary across it."""
    rng = np.random.default_rng(seed)
    h, w = size
    base = rng.standard_normal((1, 3, h // 16 + 1, w // 16 + 1)).astype(np.float32)
    return np.ascontiguousarray(base.repeat(16, 2).repeat(16, 3)[:, :, :h, :w])


def _outputs(lib, model, image):
    with lib.no_grad():
        return {k: v.numpy() for k, v in model(lib.tensor(image)).items()}


def _assert_close(ours, theirs):
    assert list(ours) == list(theirs)
    for key in theirs:
        scale = np.abs(theirs[key]).max()
        np.testing.assert_allclose(ours[key], theirs[key], rtol=1e-4, atol=1e-4 * scale, err_msg=key)


def _load_into_ours(name, theirs, aux):
    """Ours with theirs's weights, handed over in memory (the hub's round trip of a ResNet
    checkpoint costs seconds; the MobileNetV3 tests take that path)."""
    ours = getattr(segmentation, name)(pretrained_backbone=False, aux_loss=aux)
    ours.load_state_dict({k: core.tensor(v.numpy()) for k, v in theirs.state_dict().items()})
    return ours.eval()


@pytest.mark.parametrize("name", sorted(SIZES))
def test_eval_outputs_match_torchvision(tv, mirror, monkeypatch, name):
    theirs = _torchvision_model(tv, name, aux=True)
    if "mobilenet" in name:
        _publish(mirror, monkeypatch, name, theirs)
        ours = hub.load(name, pretrained=True).eval()  # pretrained: aux_loss=True, no backbone download
    else:
        ours = _load_into_ours(name, theirs, aux=True)
    image = _image(SIZES[name])
    expected = _outputs(torch, theirs, image)
    got = _outputs(core, ours, image)
    _assert_close(got, expected)
    assert got["out"].shape == (1, NUM_CLASSES, *SIZES[name])


@pytest.mark.parametrize("name", ["deeplabv3_mobilenet_v3_large", "fcn_resnet50"])
def test_without_aux_match_torchvision(tv, name):
    theirs = _torchvision_model(tv, name, aux=False)
    ours = _load_into_ours(name, theirs, aux=False)
    image = _image((45, 61), seed=1)
    _assert_close(_outputs(core, ours, image), _outputs(torch, theirs, image))


def test_drawn_masks_match_torchvision(tv, mirror, monkeypatch):
    """The predicted classes as boolean masks drawn over an image: the same pixels."""
    name = "lraspp_mobilenet_v3_large"
    theirs = _torchvision_model(tv, name, aux=False)
    _publish(mirror, monkeypatch, name, theirs)
    ours = hub.load(name, pretrained=True).eval()
    image = _image((96, 128), seed=2)
    picture = (np.random.default_rng(3).random((3, 96, 128)) * 255).astype(np.uint8)
    drawn = {}
    for lib, model in (("ours", ours), ("theirs", theirs)):
        m = core if lib == "ours" else torch
        with m.no_grad():
            out = model(m.tensor(image))["out"]
        normalized = out.softmax(dim=1)
        masks = normalized[0].argmax(0) == m.arange(NUM_CLASSES)[:, None, None]  # (classes, H, W) bool
        draw = draw_segmentation_masks if lib == "ours" else tv.utils.draw_segmentation_masks
        drawn[lib] = draw(m.tensor(picture), masks, alpha=0.6).numpy()
    classes = (drawn["theirs"] != picture).any(0).mean()
    assert classes > 0.5  # the masks cover most of the picture
    mismatch = (drawn["ours"] != drawn["theirs"]).any(0)
    # float32 rounding may flip the argmax where two classes tie to ~1e-6
    assert mismatch.mean() < 1e-3, mismatch.mean()


def _error(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001
        return type(e).__name__, str(e)
    return None


@pytest.mark.parametrize("case", ["train_batch_of_one", "channels", "unbatched_2d"])
def test_bad_input_raises_torchvision_errors(tv, case):
    theirs = _torchvision_model(tv, "deeplabv3_mobilenet_v3_large", aux=True)
    core.manual_seed(0)
    ours = segmentation.deeplabv3_mobilenet_v3_large(pretrained_backbone=False, aux_loss=True)
    shapes = {"train_batch_of_one": (1, 3, 64, 64), "channels": (1, 4, 64, 64), "unbatched_2d": (64, 64)}
    image = np.random.default_rng(0).random(shapes[case]).astype(np.float32)
    for model in (theirs, ours):
        model.train(case == "train_batch_of_one")
    expected = _error(lambda: theirs(torch.tensor(image)))
    got = _error(lambda: ours(core.tensor(image)))
    assert expected is not None and got is not None
    assert got[0] == expected[0], (got, expected)
    if case != "unbatched_2d":  # our conv messages start with the op's name
        assert got[1].endswith(expected[1].replace("torch.Size", "core.Size"))
    with pytest.raises(NotImplementedError, match="This model does not use auxiliary loss"):
        tv.models.segmentation.lraspp_mobilenet_v3_large(weights=None, weights_backbone=None, aux_loss=True)
