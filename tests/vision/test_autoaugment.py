"""AutoAugment (torchvision 0.9 semantics, SPEC 2.5 and 9.7), RandAugment, TrivialAugmentWide."""
import math

import numpy as np
import pytest
from PIL import Image

import core
import vision.transforms as T
import vision.transforms.functional as F
from vision.transforms.autoaugment import _apply_op, _get_magnitudes, _get_transforms

# SPEC 2.5, typed independently of the implementation
IMAGENET_SPEC = [
    (("Posterize", .4, 8), ("Rotate", .6, 9)), (("Solarize", .6, 5), ("AutoContrast", .6, None)),
    (("Equalize", .8, None), ("Equalize", .6, None)), (("Posterize", .6, 7), ("Posterize", .6, 6)),
    (("Equalize", .4, None), ("Solarize", .2, 4)), (("Equalize", .4, None), ("Rotate", .8, 8)),
    (("Solarize", .6, 3), ("Equalize", .6, None)), (("Posterize", .8, 5), ("Equalize", 1., None)),
    (("Rotate", .2, 3), ("Solarize", .6, 8)), (("Equalize", .6, None), ("Posterize", .4, 6)),
    (("Rotate", .8, 8), ("Color", .4, 0)), (("Rotate", .4, 9), ("Equalize", .6, None)),
    (("Equalize", .0, None), ("Equalize", .8, None)), (("Invert", .6, None), ("Equalize", 1., None)),
    (("Color", .6, 4), ("Contrast", 1., 8)), (("Rotate", .8, 8), ("Color", 1., 2)),
    (("Color", .8, 8), ("Solarize", .8, 7)), (("Sharpness", .4, 7), ("Invert", .6, None)),
    (("ShearX", .6, 5), ("Equalize", 1., None)), (("Color", .4, 0), ("Equalize", .6, None)),
    (("Equalize", .4, None), ("Solarize", .2, 4)), (("Solarize", .6, 5), ("AutoContrast", .6, None)),
    (("Invert", .6, None), ("Equalize", 1., None)), (("Color", .6, 4), ("Contrast", 1., 8)),
    (("Equalize", .8, None), ("Equalize", .6, None)),
]


@pytest.fixture(scope="module")
def arr():
    rng = np.random.default_rng(11)
    return rng.integers(0, 256, (29, 37, 3), dtype=np.uint8)


def test_policy_tables():
    assert _get_transforms(T.AutoAugmentPolicy.IMAGENET) == IMAGENET_SPEC
    for policy in T.AutoAugmentPolicy:
        table = _get_transforms(policy)
        assert len(table) == 25 and all(len(sub) == 2 for sub in table)
        for sub in table:
            for name, p, bin_ in sub:
                assert name in _get_magnitudes() and 0.0 <= p <= 1.0
                assert (bin_ is None) == (name in ("AutoContrast", "Equalize", "Invert"))
    assert T.AutoAugmentPolicy("imagenet") is T.AutoAugmentPolicy.IMAGENET
    assert _get_transforms(T.AutoAugmentPolicy.CIFAR10)[1] == (("Rotate", 0.7, 2), ("TranslateX", 0.3, 9))
    assert _get_transforms(T.AutoAugmentPolicy.SVHN)[-1] == (("ShearX", 0.7, 2), ("Invert", 0.1, None))
    with pytest.raises(ValueError, match="not recognized"):
        T.AutoAugment(policy="imagenet")


def test_magnitude_bins():
    meta = _get_magnitudes()
    f32 = lambda a, b: np.linspace(a, b, 10).astype(np.float32)  # noqa: E731
    np.testing.assert_allclose(meta["ShearX"][0], f32(0, 0.3), rtol=1e-6)
    np.testing.assert_allclose(meta["TranslateY"][0], f32(0, 150 / 331), rtol=1e-6)
    np.testing.assert_allclose(meta["Rotate"][0], f32(0, 30), rtol=1e-6)
    np.testing.assert_allclose(meta["Color"][0], f32(0, 0.9), rtol=1e-6)
    assert meta["Posterize"] == ([8, 8, 7, 7, 6, 6, 5, 5, 4, 4], False)
    assert meta["Solarize"][0][0] == 256.0 and meta["Solarize"][0][-1] == 0.0 and meta["Solarize"][1] is False
    signed = {k for k, (_, s) in meta.items() if s}
    assert signed == {"ShearX", "ShearY", "TranslateX", "TranslateY", "Rotate", "Brightness", "Color", "Contrast",
                      "Sharpness"}
    assert meta["Invert"] == (None, None)


def test_get_params_draw_order():
    core.manual_seed(7)
    pid, probs, signs = T.AutoAugment.get_params(25)
    core.manual_seed(7)
    assert pid == core.randint(25, (1,)).item()
    assert probs.tolist() == core.rand((2,)).tolist()
    assert signs.tolist() == core.randint(2, (2,)).tolist()


def _reference_09(img, policy, seed, interpolation=T.InterpolationMode.NEAREST, fill=None):
    """torchvision 0.9's AutoAugment.forward written out from SPEC 2.5."""
    core.manual_seed(seed)
    table = _get_transforms(policy)
    pid = core.randint(len(table), (1,)).item()
    probs = core.rand((2,)).tolist()
    signs = core.randint(2, (2,)).tolist()
    meta = _get_magnitudes()
    if isinstance(img, core.Tensor) and isinstance(fill, (int, float)):
        fill = [float(fill)] * img.shape[-3]
    for i, (name, p, b) in enumerate(table[pid]):
        if not np.float32(probs[i]) <= np.float32(p):
            continue
        mags, signed = meta[name]
        m = float(mags[b]) if mags is not None and b is not None else 0.0
        if signed and signs[i] == 0:
            m = -m
        w, h = F._get_image_size(img)
        kw = dict(interpolation=interpolation, fill=fill)
        img = {
            "ShearX": lambda: F.affine(img, 0.0, [0, 0], 1.0, [math.degrees(m), 0.0], **kw),
            "ShearY": lambda: F.affine(img, 0.0, [0, 0], 1.0, [0.0, math.degrees(m)], **kw),
            "TranslateX": lambda: F.affine(img, 0.0, [int(w * m), 0], 1.0, [0.0, 0.0], **kw),
            "TranslateY": lambda: F.affine(img, 0.0, [0, int(h * m)], 1.0, [0.0, 0.0], **kw),
            "Rotate": lambda: F.rotate(img, m, **kw),
            "Brightness": lambda: F.adjust_brightness(img, 1 + m), "Color": lambda: F.adjust_saturation(img, 1 + m),
            "Contrast": lambda: F.adjust_contrast(img, 1 + m), "Sharpness": lambda: F.adjust_sharpness(img, 1 + m),
            "Posterize": lambda: F.posterize(img, int(m)), "Solarize": lambda: F.solarize(img, m),
            "AutoContrast": lambda: F.autocontrast(img), "Equalize": lambda: F.equalize(img),
            "Invert": lambda: F.invert(img),
        }[name]()
    return img


def _as_array(img):
    return np.asarray(img) if isinstance(img, Image.Image) else img.numpy()


@pytest.mark.parametrize("policy", list(T.AutoAugmentPolicy))
@pytest.mark.parametrize("kind", ["pil", "tensor"])
def test_forward_follows_09(arr, policy, kind):
    img = Image.fromarray(arr) if kind == "pil" else core.from_numpy(arr.transpose(2, 0, 1).copy())
    aa = T.AutoAugment(policy)
    for seed in range(25):
        core.manual_seed(seed)
        out = aa(img)
        np.testing.assert_array_equal(_as_array(out), _as_array(_reference_09(img, policy, seed)))


def test_fill_interpolation_and_inputs(arr):
    img = core.from_numpy(arr.transpose(2, 0, 1).copy())
    aa = T.AutoAugment(T.AutoAugmentPolicy.SVHN, interpolation=T.InterpolationMode.BILINEAR, fill=128)
    for seed in range(10):
        core.manual_seed(seed)
        out = aa(img)
        ref = _reference_09(img, T.AutoAugmentPolicy.SVHN, seed, T.InterpolationMode.BILINEAR, 128)
        np.testing.assert_array_equal(out.numpy(), ref.numpy())
    batch = core.stack([img, img])
    core.manual_seed(3)
    out = T.AutoAugment()(batch)
    assert tuple(out.shape) == (2, 3, 29, 37) and out.dtype == core.uint8
    gray = img[:1]
    assert tuple(T.AutoAugment(T.AutoAugmentPolicy.CIFAR10)(gray).shape) == (1, 29, 37)
    assert T.AutoAugment()(Image.fromarray(arr[:, :, 0])).mode == "L"
    with pytest.raises(TypeError, match="uint8"):
        T.AutoAugment()(img.float())
    with pytest.raises(TypeError, match="'L' or 'RGB'"):
        T.AutoAugment()(Image.fromarray(arr).convert("RGBA"))
    assert repr(T.AutoAugment()) == "AutoAugment(policy=AutoAugmentPolicy.IMAGENET, fill=None)"


def test_solarize_bin_zero_is_identity(arr):
    """Solarize's first bin is 256: no uint8 pixel reaches it (0.9 keeps 256, not 255)."""
    img = core.from_numpy(arr.transpose(2, 0, 1).copy())
    np.testing.assert_array_equal(F.solarize(img, 256.0).numpy(), img.numpy())


def test_rand_augment_draws(arr):
    img = core.from_numpy(arr.transpose(2, 0, 1).copy())
    ra = T.RandAugment(num_ops=3, magnitude=7)
    space = ra._augmentation_space(31, (29, 37))
    names = list(space)
    assert names[0] == "Identity" and len(names) == 14
    assert space["Posterize"][0][:4] == [8, 8, 8, 8] and space["Posterize"][0][-1] == 4
    for seed in range(10):
        core.manual_seed(seed)
        out = ra(img)
        core.manual_seed(seed)
        ref = img
        for _ in range(3):
            name = names[core.randint(len(names), (1,)).item()]
            mags, signed = space[name]
            m = float(mags[7]) if mags is not None else 0.0
            if signed and core.randint(2, (1,)).item():
                m = -m
            ref = _apply_op(ref, name, m, T.InterpolationMode.NEAREST, None, shear_as_atan=True)
        np.testing.assert_array_equal(out.numpy(), ref.numpy())


def test_trivial_augment_draws(arr):
    img = Image.fromarray(arr)
    ta = T.TrivialAugmentWide()
    space = ta._augmentation_space(31)
    assert space["Rotate"][0][-1] == 135.0 and space["Posterize"][0][-1] == 2
    names = list(space)
    for seed in range(10):
        core.manual_seed(seed)
        out = ta(img)
        core.manual_seed(seed)
        name = names[core.randint(len(names), (1,)).item()]
        mags, signed = space[name]
        m = float(mags[core.randint(len(mags), (1,)).item()]) if mags is not None else 0.0
        if signed and core.randint(2, (1,)).item():
            m = -m
        ref = _apply_op(img, name, m, T.InterpolationMode.NEAREST, None, shear_as_atan=True)
        np.testing.assert_array_equal(np.asarray(out), np.asarray(ref))
    assert "num_magnitude_bins=31" in repr(ta)
