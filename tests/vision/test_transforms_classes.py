"""vision.transforms classes on PIL images and core tensors: outputs, the random draws
(re-derived here from core's generator in torchvision 0.9's order), PIL/tensor agreement
for the same seed, reprs and argument errors."""
import math
import random

import numpy as np
import pytest
from PIL import Image

import core
import vision.transforms as T
import vision.transforms.functional as F
from core.nn import Module


@pytest.fixture(scope="module")
def arr():
    rng = np.random.default_rng(3)
    return rng.integers(0, 256, (41, 57, 3), dtype=np.uint8)


def chw(a):
    return core.from_numpy(np.ascontiguousarray(a.transpose(2, 0, 1)))


def as_hwc(img):
    if isinstance(img, Image.Image):
        return np.asarray(img)
    return np.asarray(img.numpy()).transpose(1, 2, 0)


def draws(seed, fn):
    core.manual_seed(seed)
    return fn()


# ---------------------------------------------------------------- geometry draws

@pytest.mark.parametrize("seed", range(12))
def test_random_resized_crop_params_follow_09(arr, seed):
    """get_params draws: per attempt uniform(scale), uniform(log ratio), then two randints."""
    img = Image.fromarray(arr)
    got = draws(seed, lambda: T.RandomResizedCrop.get_params(img, (0.08, 1.0), (3 / 4, 4 / 3)))
    core.manual_seed(seed)
    width, height = 57, 41
    lo, hi = float(np.float32(math.log(np.float32(3 / 4)))), float(np.float32(math.log(np.float32(4 / 3))))
    expected = None
    for _ in range(10):
        area = width * height * core.empty(1).uniform_(0.08, 1.0).item()
        ratio = float(np.float32(math.exp(core.empty(1).uniform_(lo, hi).item())))
        w, h = int(round(math.sqrt(area * ratio))), int(round(math.sqrt(area / ratio)))
        if 0 < w <= width and 0 < h <= height:
            i = core.randint(0, height - h + 1, (1,)).item()
            j = core.randint(0, width - w + 1, (1,)).item()
            expected = (i, j, h, w)
            break
    assert got == expected


def test_random_resized_crop_fallback():
    img = core.zeros(3, 10, 100, dtype=core.uint8)  # ratio 10 > 4/3 with scale forcing failure
    core.manual_seed(0)
    i, j, h, w = T.RandomResizedCrop.get_params(img, (1.0, 1.0), (0.9, 1.1))
    assert (h, w) == (10, 11) and i == 0 and j == (100 - 11) // 2


@pytest.mark.parametrize("make", [
    lambda: T.RandomCrop(30, padding=3, padding_mode="edge"),
    lambda: T.RandomCrop((50, 70), pad_if_needed=True, fill=9),
    lambda: T.RandomHorizontalFlip(),
    lambda: T.RandomVerticalFlip(),
    lambda: T.RandomRotation(90, expand=True),
    lambda: T.RandomRotation((-30, 30), fill=(3, 4, 5)),
    lambda: T.RandomAffine(30, translate=(0.1, 0.2), scale=(0.8, 1.2), shear=(-5, 5, -3, 3)),
    lambda: T.RandomPerspective(p=1.0, interpolation=T.InterpolationMode.NEAREST),
    lambda: T.RandomGrayscale(0.5),
    lambda: T.CenterCrop(33),
    lambda: T.Pad((1, 2, 3, 4), padding_mode="symmetric"),
    lambda: T.RandomApply([T.RandomHorizontalFlip(1.0), T.RandomVerticalFlip(1.0)]),
    lambda: T.RandomInvert(), lambda: T.RandomPosterize(2), lambda: T.RandomSolarize(77),
    lambda: T.RandomEqualize(),
])
@pytest.mark.parametrize("seed", [0, 1, 5])
def test_same_seed_same_result_on_pil_and_tensor(arr, make, seed):
    """The draws do not depend on the image type; geometric results agree up to the few
    pixels where PIL's and the grid sampler's nearest neighbours differ. (Resizing
    transforms are left out: PIL's resampling filters differ from the tensor kernels.)"""
    core.manual_seed(seed)
    a = as_hwc(make()(Image.fromarray(arr))).astype(np.int64)
    core.manual_seed(seed)
    b = as_hwc(make()(chw(arr))).astype(np.int64)
    assert a.shape == b.shape
    mismatch = (np.abs(a - b) > 1).mean()
    assert mismatch <= 0.05, mismatch


def test_random_crop_params_and_errors(arr):
    core.manual_seed(4)
    i, j, h, w = T.RandomCrop.get_params(chw(arr), (20, 30))
    core.manual_seed(4)
    assert (i, j) == (core.randint(0, 41 - 20 + 1, (1,)).item(), core.randint(0, 57 - 30 + 1, (1,)).item())
    assert (h, w) == (20, 30)
    assert T.RandomCrop.get_params(chw(arr), (41, 57)) == (0, 0, 41, 57)
    with pytest.raises(ValueError, match="larger then input image size"):
        T.RandomCrop.get_params(chw(arr), (50, 57))


def test_flip_probability_uses_float32_compare():
    """torch.rand(1) < p compares in float32: p = 0.5 and the draws decide identically."""
    flips = []
    core.manual_seed(0)
    for _ in range(50):
        flips.append(F.hflip is not None and T.RandomHorizontalFlip(0.5)(core.arange(4).reshape(1, 1, 4))
                     .numpy()[0, 0, 0] == 3)
    core.manual_seed(0)
    expected = [core.rand(1).item() < 0.5 for _ in range(50)]
    assert flips == expected


def test_rotation_affine_perspective_params():
    core.manual_seed(2)
    angle = T.RandomRotation.get_params([-10.0, 20.0])
    core.manual_seed(2)
    assert angle == core.empty(1).uniform_(-10.0, 20.0).item()
    core.manual_seed(3)
    got = T.RandomAffine.get_params([-10.0, 10.0], (0.1, 0.2), (0.5, 1.5), [-4.0, 4.0, -2.0, 2.0], [50, 40])
    core.manual_seed(3)
    u = lambda a, b: core.empty(1).uniform_(a, b).item()  # noqa: E731
    angle = u(-10.0, 10.0)
    tx, ty = int(round(u(-5.0, 5.0))), int(round(u(-8.0, 8.0)))
    exp = (angle, (tx, ty), u(0.5, 1.5), (u(-4.0, 4.0), u(-2.0, 2.0)))
    assert got == exp
    core.manual_seed(5)
    start, end = T.RandomPerspective.get_params(40, 30, 0.5)
    core.manual_seed(5)
    r = lambda a, b: core.randint(a, b, (1,)).item()  # noqa: E731
    assert start == [[0, 0], [39, 0], [39, 29], [0, 29]]
    assert end == [[r(0, 11), r(0, 8)], [r(29, 40), r(0, 8)], [r(29, 40), r(22, 30)], [r(0, 11), r(22, 30)]]


def test_five_and_ten_crop(arr):
    crops = T.FiveCrop(10)(chw(arr))
    assert len(crops) == 5
    np.testing.assert_array_equal(as_hwc(crops[3]), arr[-10:, -10:])
    ten = T.TenCrop((10, 12), vertical_flip=True)(Image.fromarray(arr))
    assert len(ten) == 10
    np.testing.assert_array_equal(np.asarray(ten[5]), arr[::-1][:10, :12])


# ---------------------------------------------------------------- colour draws

@pytest.mark.parametrize("seed", range(5))
def test_color_jitter_draws_in_permutation_order(arr, seed):
    """0.9's forward: randperm(4), then for each adjustment in that order one uniform draw."""
    cj = T.ColorJitter(brightness=0.4, contrast=0.3, saturation=0.2, hue=0.1)
    core.manual_seed(seed)
    out = cj(chw(arr))
    core.manual_seed(seed)
    order = core.randperm(4).tolist()
    img = chw(arr)
    bounds = {0: (0.6, 1.4), 1: (0.7, 1.3), 2: (0.8, 1.2), 3: (-0.1, 0.1)}
    fns = {0: F.adjust_brightness, 1: F.adjust_contrast, 2: F.adjust_saturation, 3: F.adjust_hue}
    for k in order:
        factor = core.tensor(1.0).uniform_(*bounds[k]).item()
        img = fns[k](img, factor)
    np.testing.assert_array_equal(out.numpy(), img.numpy())


def test_color_jitter_checks_and_legacy_get_params(arr):
    cj = T.ColorJitter(brightness=(0.5, 1.5), hue=0)
    assert cj.brightness == (0.5, 1.5) and cj.contrast is None and cj.hue is None
    with pytest.raises(ValueError, match="non negative"):
        T.ColorJitter(brightness=-1)
    with pytest.raises(ValueError, match="hue values should be between"):
        T.ColorJitter(hue=(0.0, 0.6))
    with pytest.raises(TypeError, match="lenght 2"):
        T.ColorJitter(contrast=[1, 2, 3])
    random.seed(0)
    tr = T.ColorJitter.get_params([0.5, 1.5], None, None, [-0.1, 0.1])
    assert isinstance(tr, T.Compose) and len(tr.transforms) == 2
    assert tr(Image.fromarray(arr)).size == (57, 41)


def test_pixel_op_probability_is_a_float64_item_compare(arr):
    core.manual_seed(9)
    outs = [T.RandomInvert(0.3)(chw(arr)).numpy()[0, 0, 0] != arr[0, 0, 0] for _ in range(20)]
    core.manual_seed(9)
    assert outs == [core.rand(1).item() < 0.3 for _ in range(20)]


def test_gaussian_blur_sigma_draw(arr):
    core.manual_seed(1)
    out = T.GaussianBlur(5, (0.5, 2.0))(chw(arr))
    core.manual_seed(1)
    sigma = core.empty(1).uniform_(0.5, 2.0).item()
    np.testing.assert_array_equal(out.numpy(), F.gaussian_blur(chw(arr), [5, 5], [sigma, sigma]).numpy())
    with pytest.raises(ValueError, match="odd and positive"):
        T.GaussianBlur(4)
    with pytest.raises(ValueError, match="form \\(min, max\\)"):
        T.GaussianBlur(3, (2.0, 1.0))


# ---------------------------------------------------------------- tensor-only transforms

def test_random_erasing_draws_and_values():
    img = core.zeros(3, 20, 30)
    for seed in range(5):
        core.manual_seed(seed)
        out = T.RandomErasing(p=1.0, value=(1.0, 2.0, 3.0))(img)
        core.manual_seed(seed)
        core.rand(1)  # the p draw
        expect = None
        for _ in range(10):
            area = 600 * core.empty(1).uniform_(0.02, 0.33).item()
            ratio = core.empty(1).uniform_(0.3, 3.3).item()  # uniform, not log-uniform, in 0.9
            h, w = int(round(math.sqrt(area * ratio))), int(round(math.sqrt(area / ratio)))
            if h < 20 and w < 30:
                i, j = core.randint(0, 20 - h + 1, (1,)).item(), core.randint(0, 30 - w + 1, (1,)).item()
                expect = (i, j, h, w)
                break
        i, j, h, w = expect
        o = out.numpy()
        assert (o[:, i:i + h, j:j + w] == np.array([1, 2, 3.0])[:, None, None]).all()
        assert o.sum() == pytest.approx(6.0 * h * w)
    assert float(img.numpy().max()) == 0.0  # not in place by default
    rnd = T.RandomErasing(p=1.0, value="random")(core.zeros(3, 20, 30))
    assert float(np.abs(rnd.numpy()).sum()) > 0
    same = core.zeros(3, 20, 30)
    assert T.RandomErasing(p=1.0, inplace=True, value=5)(same) is same
    with pytest.raises(ValueError, match="should be 'random'"):
        T.RandomErasing(value="x")
    with pytest.raises(ValueError, match="between 0 and 1"):
        T.RandomErasing(scale=(0.5, 2.0))
    with pytest.raises(ValueError, match="number of input channels"):
        T.RandomErasing(p=1.0, value=(1, 2))(core.zeros(3, 10, 10))
    with pytest.raises(TypeError, match="after ToTensor"):
        T.RandomErasing()(Image.new("RGB", (4, 4)))


def test_normalize_totensor_lineartransformation(arr):
    x = T.ToTensor()(Image.fromarray(arr))
    y = T.Normalize((0.5, 0.5, 0.5), (0.5, 0.5, 0.5))(x)
    np.testing.assert_allclose(y.numpy(), (x.numpy() - 0.5) / 0.5, atol=1e-6)
    n = 3 * 4 * 5
    m = core.eye(n) * 2.0
    mean = core.ones(n) * 0.5
    z = T.LinearTransformation(m, mean)(core.ones(3, 4, 5))
    np.testing.assert_allclose(z.numpy(), np.ones((3, 4, 5)))
    with pytest.raises(ValueError, match="square"):
        T.LinearTransformation(core.zeros(2, 3), core.zeros(2))
    with pytest.raises(ValueError, match="incompatible shape"):
        T.LinearTransformation(m, mean)(core.ones(3, 4, 4))
    assert T.ConvertImageDtype(core.float32)(chw(arr)).dtype == core.float32
    assert T.PILToTensor()(Image.fromarray(arr)).dtype == core.uint8
    assert T.ToPILImage()(chw(arr)).size == (57, 41)


# ---------------------------------------------------------------- containers, reprs, modules

def test_containers(arr):
    img = chw(arr)
    assert T.Compose([T.CenterCrop(10), T.Resize(20)])(img).shape[1:] == (20, 20)
    assert T.Lambda(lambda x: x.flip(-1))(img).shape == img.shape
    random.seed(1)
    assert T.RandomChoice([T.CenterCrop(5), T.CenterCrop(6)])(img).shape[-1] in (5, 6)
    random.seed(1)
    assert T.RandomOrder([T.CenterCrop(20), T.Resize(10)])(img).shape[-1] in (10, 20)
    with pytest.raises(TypeError, match="callable"):
        T.Lambda(3)
    with pytest.raises(TypeError, match="sequence"):
        T.RandomChoice(T.CenterCrop(3))
    core.manual_seed(0)
    ra = T.RandomApply([T.Lambda(F.hflip)], p=0.5)
    outs = [ra(img).numpy()[0, 0, 0] == arr[0, -1, 0] for _ in range(10)]
    core.manual_seed(0)
    assert outs == [not (0.5 < core.rand(1).item()) for _ in range(10)]


def test_modules_and_reprs():
    assert isinstance(T.RandomResizedCrop(3), Module) and isinstance(T.AutoAugment(), Module)
    assert not isinstance(T.Compose([]), Module) and not isinstance(T.ToTensor(), Module)
    assert repr(T.RandomResizedCrop(224)) == ("RandomResizedCrop(size=(224, 224), scale=(0.08, 1.0), "
                                              "ratio=(0.75, 1.3333), interpolation=bilinear)")
    assert repr(T.Resize(256)) == "Resize(size=256, interpolation=bilinear)"
    assert repr(T.RandomRotation(10)) == "RandomRotation(degrees=[-10.0, 10.0], interpolation=nearest, expand=False, fill=0)"
    assert repr(T.RandomAffine(5, scale=(0.9, 1.1))) == "RandomAffine(degrees=[-5.0, 5.0], scale=(0.9, 1.1))"
    assert repr(T.ColorJitter(0.1)) == "ColorJitter(brightness=[0.9, 1.1], contrast=None, saturation=None, hue=None)"
    assert repr(T.Compose([T.ToTensor(), T.RandomHorizontalFlip()])) == \
        "Compose(\n    ToTensor()\n    RandomHorizontalFlip(p=0.5)\n)"
    assert repr(T.RandomApply([T.CenterCrop(2)], p=0.3)) == "RandomApply(\n    p=0.3\n    CenterCrop(size=(2, 2))\n)"
    assert repr(T.RandomPosterize(4)) == "RandomPosterize(bits=4,p=0.5)"
    assert repr(T.ToPILImage("RGB")) == "ToPILImage(mode=RGB)"
    m = T.RandomCrop(3).eval()
    assert m.training is False


def test_constructor_errors_and_deprecations():
    with pytest.raises(TypeError, match="Size should be int or sequence"):
        T.Resize(2.5)
    with pytest.raises(ValueError, match="1 or 2 values"):
        T.Resize([1, 2, 3])
    with pytest.raises(ValueError, match="two dimensions"):
        T.CenterCrop([1, 2, 3])
    with pytest.raises(TypeError, match="padding"):
        T.Pad("x")
    with pytest.raises(ValueError, match="Padding mode"):
        T.Pad(1, padding_mode="wrap")
    with pytest.raises(ValueError, match="must be positive"):
        T.RandomRotation(-3)
    with pytest.raises(ValueError, match="translation values"):
        T.RandomAffine(0, translate=(0.5, 2.0))
    with pytest.raises(ValueError, match="scale values should be positive"):
        T.RandomAffine(0, scale=(0.0, 1.0))
    with pytest.raises(ValueError, match="shear should be sequence of length 2 or 4"):
        T.RandomAffine(0, shear=(1, 2, 3))
    with pytest.raises(TypeError, match="Fill should be either"):
        T.RandomRotation(3, fill=object())
    with pytest.warns(UserWarning, match="Scale and ratio"):
        T.RandomResizedCrop(3, scale=(1.0, 0.5))
    with pytest.warns(UserWarning, match="deprecated"):
        T.Scale(3)
    with pytest.warns(UserWarning, match="deprecated"):
        T.RandomSizedCrop(3)
    with pytest.warns(UserWarning, match="resample is deprecated"):
        r = T.RandomRotation(3, resample=2)
    assert r.interpolation == T.InterpolationMode.BILINEAR
    with pytest.warns(UserWarning, match="fillcolor is deprecated"):
        a = T.RandomAffine(3, fillcolor=7)
    assert a.fill == 7
    with pytest.warns(UserWarning, match="InterpolationMode"):
        assert T.Resize(3, interpolation=0).interpolation == T.InterpolationMode.NEAREST
