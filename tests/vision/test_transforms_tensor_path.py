"""The tensor path of vision.transforms runs on core ops end to end: no numpy round trip,
gradients through the float transforms (float64 gradcheck), batches [..., C, H, W] equal to
the images one by one, channels-last images kept channels-last with unchanged values."""
import numpy as np
import pytest

import core
import vision.transforms as T
import vision.transforms.functional as F
from core.autograd import gradcheck

I = F.InterpolationMode
START, END = [[0, 0], [10, 0], [10, 8], [0, 8]], [[1, 0], [9, 1], [10, 7], [0, 8]]

# name -> op on an image [..., 3, 9, 11]; uint8 and float inputs alike
OPS = {
    "brightness": lambda t: F.adjust_brightness(t, 0.7),
    "contrast": lambda t: F.adjust_contrast(t, 0.6),
    "saturation": lambda t: F.adjust_saturation(t, 1.3),
    "hue": lambda t: F.adjust_hue(t, 0.2),
    "gamma": lambda t: F.adjust_gamma(t, 0.7, 1.1),
    "sharpness": lambda t: F.adjust_sharpness(t, 1.5),
    "autocontrast": F.autocontrast,
    "grayscale3": lambda t: F.rgb_to_grayscale(t, 3),
    "invert": F.invert,
    "solarize": lambda t: F.solarize(t, 100 if t.dtype == core.uint8 else 0.4),
    "resize": lambda t: F.resize(t, [5, 13]),
    "resize_bicubic": lambda t: F.resize(t, [12, 7], I.BICUBIC),
    "resize_nearest": lambda t: F.resize(t, [5, 13], I.NEAREST),
    "rotate_fill": lambda t: F.rotate(t, 20.0, I.BILINEAR, fill=[10.0, 20.0, 30.0]),
    "rotate_expand": lambda t: F.rotate(t, 33.0, expand=True),
    "affine": lambda t: F.affine(t, 10.0, [1, 0], 1.1, [5.0, 2.0]),
    "perspective": lambda t: F.perspective(t, START, END),
    "blur": lambda t: F.gaussian_blur(t, [3, 5], [0.8, 1.1]),
    "pad_reflect": lambda t: F.pad(t, [1, 2], padding_mode="reflect"),
    "pad_edge": lambda t: F.pad(t, [2, 1, 0, 3], padding_mode="edge"),
    "pad_symmetric": lambda t: F.pad(t, [1, 2, 3, 1], padding_mode="symmetric"),
    "pad_constant": lambda t: F.pad(t, [1, 2], fill=3),
    "crop_outside": lambda t: F.crop(t, -1, 2, 5, 12),
    "erase": lambda t: F.erase(t, 1, 1, 2, 2, 0),
    "hflip": F.hflip,
    "vflip": F.vflip,
    "to_float64": lambda t: F.convert_image_dtype(t, core.float64),
}
UINT8_OPS = {"equalize": F.equalize, "posterize": lambda t: F.posterize(t, 3)}
FLOAT_OPS = {"normalize": lambda t: F.normalize(t, [0.4, 0.5, 0.6], [0.2, 0.3, 0.25])}


def _make_images():
    u8 = core.tensor(np.random.default_rng(0).integers(0, 256, (2, 3, 9, 11), dtype=np.uint8))
    return {"uint8": u8, "float32": u8.to(core.float32) / 255}


IMAGES = _make_images()  # made before any test hides numpy


def _cases():
    for kind in ("uint8", "float32"):
        extra = UINT8_OPS if kind == "uint8" else FLOAT_OPS
        for name, op in {**OPS, **extra}.items():
            yield pytest.param(kind, op, id=f"{name}-{kind}")


def _channels_last(t):
    """Channels vary fastest in memory (a channel-expanded image counts too)."""
    return t.stride(-3) < t.stride(-1)


@pytest.fixture
def no_numpy(monkeypatch):
    """Image data taking a detour through numpy fails the test (a few parameters read back as
    Python numbers, through tolist(), are fine)."""
    to_numpy = core.Tensor.numpy

    def numpy_of_parameters_only(self, *args, **kwargs):
        if self.numel() > 8:
            raise AssertionError(f"a tensor of shape {list(self.shape)} went through numpy")
        return to_numpy(self, *args, **kwargs)

    def refuse(*args, **kwargs):
        raise AssertionError("the tensor path made a tensor from numpy")

    monkeypatch.setattr(core.Tensor, "numpy", numpy_of_parameters_only)
    monkeypatch.setattr(core, "from_numpy", refuse)


@pytest.mark.parametrize("kind, op", _cases())
def test_tensor_ops_never_leave_core(kind, op, no_numpy):
    img = IMAGES[kind]
    for image in (img, img[0]):
        assert isinstance(op(image), core.Tensor)


@pytest.mark.parametrize("policy", list(T.AutoAugmentPolicy))
def test_autoaugment_never_leaves_core(policy, request):
    img = IMAGES["uint8"]
    augment = T.AutoAugment(policy, fill=[1, 2, 3])  # its magnitude tables are read back as numbers
    request.getfixturevalue("no_numpy")
    for seed in range(25):
        core.manual_seed(seed)
        assert augment(img).shape == img.shape


@pytest.mark.parametrize("kind, op", _cases())
def test_batches_and_channels_last_give_the_images_values(kind, op):
    img = IMAGES[kind]
    one = op(img[1]).numpy()
    deep = op(img.unsqueeze(0).expand(2, 2, 3, 9, 11).contiguous())  # two leading dims
    assert deep.shape[:2] == (2, 2)
    np.testing.assert_array_equal(deep[1, 1].numpy(), one)
    np.testing.assert_array_equal(op(img)[1].numpy(), one)
    for interleaved in (img.contiguous(memory_format=core.channels_last),  # a 4-D channels-last batch
                        img[1].permute(1, 2, 0).contiguous().permute(2, 0, 1)):  # a 3-D HWC image
        out = op(interleaved)
        assert _channels_last(out), f"channels-last input came back with strides {out.stride()}"
        np.testing.assert_array_equal(out.numpy()[-1] if out.ndim == 4 else out.numpy(), one)


# The float transforms torchvision differentiates through, on a float64 image in (0.1, 0.9).
GRAD_OPS = {
    "brightness": lambda t: F.adjust_brightness(t, 0.7),
    "contrast": lambda t: F.adjust_contrast(t, 0.6),
    "saturation": lambda t: F.adjust_saturation(t, 1.3),
    "hue": lambda t: F.adjust_hue(t, 0.2),
    "gamma": lambda t: F.adjust_gamma(t, 0.7),
    "sharpness": lambda t: F.adjust_sharpness(t, 1.5),
    "autocontrast": F.autocontrast,
    "normalize": lambda t: F.normalize(t, [0.4, 0.5, 0.6], [0.2, 0.3, 0.25]),
    "grayscale": F.rgb_to_grayscale,
    "invert": F.invert,
    "solarize": lambda t: F.solarize(t, 0.5),
    "resize_bilinear": lambda t: F.resize(t, [9, 5]),
    "resize_bicubic": lambda t: F.resize(t, [9, 5], I.BICUBIC),
    "rotate_bilinear_fill": lambda t: F.rotate(t, 20.0, I.BILINEAR, fill=[0.1, 0.2, 0.3]),
    "affine_nearest": lambda t: F.affine(t, 10.0, [1, 0], 1.1, [5.0, 2.0]),
    "perspective": lambda t: F.perspective(t, [[0, 0], [6, 0], [6, 5], [0, 5]], [[1, 0], [5, 1], [6, 4], [0, 5]]),
    "gaussian_blur": lambda t: F.gaussian_blur(t, [3, 5], [0.8, 1.1]),
    "pad_reflect": lambda t: F.pad(t, [1, 2], padding_mode="reflect"),
    "pad_symmetric": lambda t: F.pad(t, [1, 2, 3, 1], padding_mode="symmetric"),
    "crop_outside": lambda t: F.crop(t, -1, 2, 5, 7),
    "erase": lambda t: F.erase(t, 1, 1, 2, 2, 0.0),
}


@pytest.mark.parametrize("op", GRAD_OPS.values(), ids=GRAD_OPS.keys())
def test_gradients_flow_through_float_transforms(op):
    rng = np.random.default_rng(1)
    x = core.tensor(rng.uniform(0.1, 0.9, (3, 6, 7)), dtype=core.float64, requires_grad=True)
    assert gradcheck(op, (x,))
