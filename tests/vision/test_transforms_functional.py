"""vision.transforms.functional on core tensors and PIL images: numpy references, PIL vs
tensor agreement (with the tolerance each op needs), batches, non-contiguous input, errors.
Exact torchvision parity is in tests/parity/test_vision_transforms_parity.py."""
import numpy as np
import pytest
from PIL import Image

import core
import vision.transforms.functional as F
from vision.transforms.functional import InterpolationMode


@pytest.fixture(scope="module")
def arr():
    """A smooth-ish random RGB image (H=23, W=31), HWC uint8."""
    rng = np.random.default_rng(0)
    base = rng.integers(0, 256, (23, 31, 3)).astype(np.float64)
    return np.clip(base * 0.7 + 40, 0, 255).astype(np.uint8)


def chw(a):
    return core.from_numpy(np.ascontiguousarray(a.transpose(2, 0, 1)))


def hwc(t):
    return np.asarray(t.numpy()).transpose(1, 2, 0)


def pil(a):
    return Image.fromarray(a)


def test_to_tensor_pil_and_ndarray(arr):
    t = F.to_tensor(pil(arr))
    assert t.dtype == core.float32 and tuple(t.shape) == (3, 23, 31)
    np.testing.assert_array_equal(t.numpy(), arr.transpose(2, 0, 1).astype(np.float32) / np.float32(255))
    t2 = F.to_tensor(arr)
    np.testing.assert_array_equal(t2.numpy(), t.numpy())
    gray = F.to_tensor(arr[:, :, 0])
    assert tuple(gray.shape) == (1, 23, 31)
    f = F.to_tensor(np.ones((2, 3, 1), dtype=np.float64))  # non-uint8 arrays keep their dtype
    assert f.dtype == core.float64
    one = F.to_tensor(pil(arr).convert("1"))
    assert set(np.unique(one.numpy())) <= {0.0, 1.0}


def test_pil_to_tensor_and_back(arr):
    t = F.pil_to_tensor(pil(arr))
    assert t.dtype == core.uint8
    np.testing.assert_array_equal(hwc(t), arr)
    np.testing.assert_array_equal(np.asarray(F.to_pil_image(t)), arr)
    np.testing.assert_array_equal(np.asarray(F.to_pil_image(F.to_tensor(pil(arr)))), arr)
    la = F.to_pil_image(t[:2])
    assert la.mode == "LA"
    assert F.to_pil_image(core.cat([t, t[:1]], 0)).mode == "RGBA"
    assert F.to_pil_image(t[0]).mode == "L"
    assert F.to_pil_image(F.to_tensor(pil(arr))[:1], mode="F").mode == "F"
    i16 = F.pil_to_tensor(Image.fromarray(np.arange(12, dtype=np.uint16).reshape(3, 4) * 5000))
    assert i16.dtype == core.int32 and int(i16.numpy().max()) == 55000


@pytest.mark.parametrize("bad, exc, msg", [
    (lambda: F.to_tensor("x"), TypeError, "pic should be PIL Image or ndarray"),
    (lambda: F.to_tensor(np.zeros((1, 2, 3, 4), np.uint8)), ValueError, "2/3 dimensional"),
    (lambda: F.to_pil_image(core.zeros(5, 4, 4, dtype=core.uint8)), ValueError, "> 4 channels"),
    (lambda: F.to_pil_image(core.zeros(3, 4, 4, dtype=core.uint8), mode="L"), ValueError, "Only modes"),
    (lambda: F.to_pil_image(core.zeros(1, 4, 4, dtype=core.uint8), mode="F"), ValueError, "Incorrect mode"),
    (lambda: F.pil_to_tensor(np.zeros((2, 2))), TypeError, "pic should be PIL Image"),
    (lambda: F.normalize(core.zeros(3, 4, 4, dtype=core.uint8), [0.5], [0.5]), TypeError, "float tensor"),
    (lambda: F.normalize(core.zeros(4, 4), [0.5], [0.5]), ValueError, "(..., C, H, W)"),
    (lambda: F.normalize(core.zeros(3, 4, 4), [0.5] * 3, [0.5, 0.0, 0.5]), ValueError, "division by zero"),
    (lambda: F.convert_image_dtype(core.zeros(3, 2, 2), core.int64), RuntimeError, "cannot be performed safely"),
    (lambda: F.posterize(core.zeros(3, 2, 2), 4), TypeError, "uint8"),
    (lambda: F.posterize(core.zeros(3, 2, 2, dtype=core.uint8), 9), ValueError, "between 0 and 8"),
    (lambda: F.equalize(core.zeros(3, 2, 2)), TypeError, "uint8"),
    (lambda: F.adjust_hue(core.zeros(3, 2, 2), 0.7), ValueError, "not in [-0.5, 0.5]"),
    (lambda: F.adjust_brightness(core.zeros(3, 2, 2), -1), ValueError, "non-negative"),
    (lambda: F.adjust_brightness(core.zeros(2, 2, 2), 1.0), TypeError, "permitted channel values"),
    (lambda: F.resize(core.zeros(3, 4, 4), 2, InterpolationMode.LANCZOS), ValueError, "unsupported with Tensor"),
    (lambda: F.resize(core.zeros(3, 4, 4), [1, 2, 3]), ValueError, "1 or 2 element"),
    (lambda: F.resize(core.zeros(3, 4, 4), 2, "bilinear"), TypeError, "InterpolationMode"),
    (lambda: F.pad(core.zeros(3, 4, 4), [1, 2, 3]), ValueError, "1, 2, or 4 element"),
    (lambda: F.pad(core.zeros(3, 4, 4), 1, padding_mode="wrap"), ValueError, "Padding mode"),
    (lambda: F.pad(core.zeros(3, 4, 4), 5, padding_mode="reflect"), ValueError, "less than the corresponding"),
    (lambda: F.pad(core.zeros(3, 4, 4), 1, fill=(1, 2)), TypeError, "fill"),
    (lambda: F.rotate(core.zeros(3, 4, 4), "x"), TypeError, "angle should be int or float"),
    (lambda: F.rotate(core.zeros(3, 4, 4), 3.0, InterpolationMode.BICUBIC), ValueError, "unsupported with Tensor"),
    (lambda: F.rotate(core.zeros(3, 4, 4), 3.0, fill=[1.0, 2.0]), ValueError, "cannot broadcast"),
    (lambda: F.affine(core.zeros(3, 4, 4), 0.0, [0], 1.0, 0.0), ValueError, "length 2"),
    (lambda: F.affine(core.zeros(3, 4, 4), 0.0, [0, 0], 0.0, 0.0), ValueError, "scale should be positive"),
    (lambda: F.gaussian_blur(core.zeros(3, 4, 4), 4), ValueError, "odd and positive"),
    (lambda: F.gaussian_blur(core.zeros(3, 4, 4), 3, -1.0), ValueError, "positive values"),
    (lambda: F.erase(Image.new("RGB", (2, 2)), 0, 0, 1, 1, core.zeros(1)), TypeError, "Tensor Image"),
    (lambda: F.five_crop(core.zeros(3, 4, 4), 5), ValueError, "bigger than input size"),
    (lambda: F.hflip(core.zeros(4)), TypeError, "not a torch image"),
    (lambda: F.to_grayscale(core.zeros(3, 4, 4)), TypeError, "PIL Image"),
])
def test_errors(bad, exc, msg):
    with pytest.raises(exc, match=None) as info:
        bad()
    assert msg in str(info.value)


def test_flips_crop_pad_match_numpy(arr):
    t = chw(arr)
    np.testing.assert_array_equal(hwc(F.hflip(t)), arr[:, ::-1])
    np.testing.assert_array_equal(hwc(F.vflip(t)), arr[::-1])
    np.testing.assert_array_equal(np.asarray(F.hflip(pil(arr))), arr[:, ::-1])
    np.testing.assert_array_equal(hwc(F.crop(t, 2, 3, 10, 12)), arr[2:12, 3:15])
    np.testing.assert_array_equal(np.asarray(F.crop(pil(arr), 2, 3, 10, 12)), arr[2:12, 3:15])
    # a window reaching outside reads zeros, as PIL's crop does
    np.testing.assert_array_equal(hwc(F.crop(t, -2, 25, 10, 12)), np.asarray(F.crop(pil(arr), -2, 25, 10, 12)))
    for mode in ("constant", "edge", "reflect", "symmetric"):
        ref = np.pad(arr, ((3, 1), (2, 4), (0, 0)), mode=mode)
        np.testing.assert_array_equal(hwc(F.pad(t, [2, 3, 4, 1], padding_mode=mode)), ref)
        np.testing.assert_array_equal(np.asarray(F.pad(pil(arr), [2, 3, 4, 1], padding_mode=mode)), ref)
    np.testing.assert_array_equal(hwc(F.pad(t, [-2, 1], fill=7)), np.pad(arr[:, 2:-2], ((1, 1), (0, 0), (0, 0)),
                                                                           constant_values=7))


def test_center_crop_rounds_half_up_and_pads(arr):
    t = chw(arr)
    # 23 - 10 = 13 is odd: torchvision 0.9 puts the extra row at the top
    np.testing.assert_array_equal(hwc(F.center_crop(t, [10, 10])), arr[7:17, 11:21])
    np.testing.assert_array_equal(np.asarray(F.center_crop(pil(arr), 10)), arr[7:17, 11:21])
    big = F.center_crop(t, [27, 35])
    assert tuple(big.shape) == (3, 27, 35)
    np.testing.assert_array_equal(hwc(big)[2:25, 2:33], arr)
    np.testing.assert_array_equal(np.asarray(F.center_crop(pil(arr), [27, 35])), hwc(big))


def test_crop_is_a_view():
    t = core.zeros(3, 8, 8, dtype=core.uint8)
    c = F.crop(t, 1, 1, 4, 4)
    c.fill_(5)
    assert int(t.numpy()[:, 1:5, 1:5].min()) == 5


def test_color_ops_reference(arr):
    t = chw(arr)
    x = arr.transpose(2, 0, 1).astype(np.float32)
    np.testing.assert_array_equal(F.adjust_brightness(t, 1.3).numpy(),
                                  np.clip(np.float32(1.3) * x, 0, 255).astype(np.uint8))
    gray = (np.float32(0.2989) * x[0] + np.float32(0.587) * x[1] + np.float32(0.114) * x[2]).astype(np.uint8)
    np.testing.assert_array_equal(F.rgb_to_grayscale(t).numpy()[0], gray)
    assert tuple(F.rgb_to_grayscale(t, 3).shape) == (3, 23, 31)
    mean = np.float32(gray.astype(np.float64).mean())
    ref = np.clip(np.float32(0.6) * x + np.float32(1 - 0.6) * mean, 0, 255).astype(np.uint8)
    np.testing.assert_array_equal(F.adjust_contrast(t, 0.6).numpy(), ref)
    np.testing.assert_array_equal(F.invert(t).numpy(), 255 - arr.transpose(2, 0, 1))
    np.testing.assert_array_equal(F.posterize(t, 3).numpy(), arr.transpose(2, 0, 1) & 0b11100000)
    sol = arr.transpose(2, 0, 1)
    np.testing.assert_array_equal(F.solarize(t, 128).numpy(), np.where(sol >= 128, 255 - sol, sol))
    # float images
    f = F.convert_image_dtype(t, core.float32)
    np.testing.assert_allclose(F.invert(f).numpy(), 1 - f.numpy(), atol=1e-7)
    np.testing.assert_array_equal(F.convert_image_dtype(f, core.uint8).numpy(), arr.transpose(2, 0, 1))


@pytest.mark.parametrize("op, tol, frac", [
    (lambda m, x: m.equalize(x), 0, 0.0),
    (lambda m, x: m.autocontrast(x), 1, 0.0),
    (lambda m, x: m.adjust_sharpness(x, 1.7), 1, 0.0),
    (lambda m, x: m.adjust_saturation(x, 0.4), 2, 0.0),
    (lambda m, x: m.adjust_hue(x, 0.25), 12, 0.0),  # PIL keeps hue in 8 bits
    (lambda m, x: m.posterize(x, 2), 0, 0.0),
    (lambda m, x: m.solarize(x, 90), 0, 0.0),
    (lambda m, x: m.invert(x), 0, 0.0),
    (lambda m, x: m.rotate(x, 90.0), 0, 0.0),
    (lambda m, x: m.rotate(x, 33.0), 255, 0.03),
    (lambda m, x: m.affine(x, 10.0, [2, -3], 1.1, [4.0, 2.0]), 255, 0.03),
    (lambda m, x: m.perspective(x, [[0, 0], [30, 0], [30, 22], [0, 22]], [[2, 1], [29, 3], [28, 20], [1, 21]],
                                InterpolationMode.NEAREST), 255, 0.03),
    (lambda m, x: m.gaussian_blur(x, 3, 1.0), 1, 0.0),
])
def test_tensor_matches_pil(arr, op, tol, frac):
    """The tensor ops re-implement PIL's: equal up to rounding (and, for geometric ops,
    to pixels on sampling boundaries, where PIL and the grid sampler may pick neighbours)."""
    ours = hwc(op(F, chw(arr))).astype(np.int64)
    ref = np.asarray(op(F, pil(arr))).astype(np.int64)
    diff = np.abs(ours - ref)
    assert (diff > tol).mean() <= frac, f"max diff {diff.max()}"
    if frac == 0.0:
        assert diff.max() <= tol


def test_resize_sizes_and_short_circuit(arr):
    t = chw(arr)
    assert tuple(F.resize(t, 10).shape) == (3, 10, 13)  # smaller edge -> 10, int(10 * 31 / 23)
    assert F.resize(pil(arr), 10).size == (13, 10)
    assert tuple(F.resize(t, [7, 9]).shape) == (3, 7, 9)
    assert F.resize(t, 23) is t and F.resize(pil(arr), [23]) is not None
    for mode in (InterpolationMode.NEAREST, InterpolationMode.BILINEAR, InterpolationMode.BICUBIC):
        out = F.resize(t, [40, 50], mode)
        assert out.dtype == core.uint8 and tuple(out.shape) == (3, 40, 50)
    # nearest upsampling by 2 repeats pixels
    up = F.resize(chw(arr[:4, :4]), [8, 8], InterpolationMode.NEAREST)
    np.testing.assert_array_equal(hwc(up), arr[:4, :4].repeat(2, 0).repeat(2, 1))
    # bilinear resize to the same size is the identity
    np.testing.assert_array_equal(F.resize(t, [23, 31]).numpy(), t.numpy())
    with pytest.warns(UserWarning, match="InterpolationMode"):
        F.resize(t, 10, 2)


def test_batched_and_noncontiguous(arr):
    t = chw(arr)
    batch = core.stack([t, F.hflip(t)]).unsqueeze(0)  # (1, 2, 3, H, W)
    for op in (lambda x: F.rotate(x, 20.0, fill=[1.0, 2.0, 3.0]), lambda x: F.adjust_hue(x, 0.1),
               lambda x: F.autocontrast(x), lambda x: F.equalize(x), lambda x: F.resize(x, [11, 13]),
               lambda x: F.gaussian_blur(x, 5), lambda x: F.adjust_sharpness(x, 2.0),
               lambda x: F.perspective(x, [[0, 0], [30, 0], [30, 22], [0, 22]], [[2, 1], [29, 3], [28, 20], [1, 21]])):
        out = op(batch).numpy()
        np.testing.assert_array_equal(out[0, 0], op(t).numpy())
        np.testing.assert_array_equal(out[0, 1], op(F.hflip(t)).numpy())
    # a transposed (non-contiguous) image gives the same result as its contiguous copy
    nc = chw(arr.transpose(1, 0, 2).copy()).transpose(1, 2)
    assert not nc.is_contiguous()
    np.testing.assert_array_equal(F.rotate(nc, 15.0).numpy(), F.rotate(nc.contiguous(), 15.0).numpy())
    np.testing.assert_array_equal(F.adjust_contrast(nc, 1.5).numpy(), F.adjust_contrast(nc.contiguous(), 1.5).numpy())


def test_rotate_expand_and_fill(arr):
    t = chw(arr)
    out = F.rotate(t, 90.0, expand=True)
    assert tuple(out.shape) == (3, 31, 23)
    np.testing.assert_array_equal(hwc(out), np.rot90(arr))
    assert F.rotate(pil(arr), 45.0, expand=True).size == tuple(reversed(F.rotate(t, 45.0, expand=True).shape[1:]))
    filled = F.rotate(t, 45.0, fill=[10.0, 20.0, 30.0]).numpy()
    assert tuple(filled[:, 0, 0]) == (10, 20, 30)
    assert np.asarray(F.rotate(pil(arr), 45.0, fill=(10, 20, 30)))[0, 0].tolist() == [10, 20, 30]


def test_normalize_inplace_and_copy():
    x = core.ones(3, 2, 2)
    y = F.normalize(x, [0.5, 0.5, 0.5], [0.25, 0.5, 1.0])
    np.testing.assert_allclose(y.numpy()[:, 0, 0], [2.0, 1.0, 0.5])
    assert float(x.numpy().min()) == 1.0
    z = F.normalize(x, [1.0] * 3, [1.0] * 3, inplace=True)
    assert z is x and float(x.numpy().max()) == 0.0


def test_erase():
    x = core.zeros(3, 5, 5)
    y = F.erase(x, 1, 2, 2, 3, core.tensor([1.0, 2.0, 3.0])[:, None, None])
    assert float(x.numpy().max()) == 0.0
    np.testing.assert_array_equal(y.numpy()[:, 1:3, 2:5], np.broadcast_to(np.array([1, 2, 3.0])[:, None, None],
                                                                           (3, 2, 3)))
    F.erase(x, 0, 0, 1, 1, core.tensor(7.0), inplace=True)
    assert float(x.numpy()[0, 0, 0]) == 7.0


def test_convert_image_dtype_matrix():
    u8 = core.from_numpy(np.array([[[0, 1, 128, 255]]], dtype=np.uint8))
    i16 = F.convert_image_dtype(u8, core.int16).numpy()
    np.testing.assert_array_equal(i16, np.array([[[0, 1, 128, 255]]]) * 128)
    np.testing.assert_array_equal(F.convert_image_dtype(core.from_numpy(i16), core.uint8).numpy(), u8.numpy())
    f64 = F.convert_image_dtype(u8, core.float64)
    assert f64.dtype == core.float64
    np.testing.assert_allclose(f64.numpy(), u8.numpy() / 255.0)
    assert F.convert_image_dtype(u8, core.uint8) is u8


def test_adjust_gamma_and_pil_modes(arr):
    t = chw(arr)
    g = F.adjust_gamma(t, 0.5).numpy().astype(np.int64)
    ref = np.asarray(F.adjust_gamma(pil(arr), 0.5)).transpose(2, 0, 1).astype(np.int64)
    assert np.abs(g - ref).max() <= 1
    # grayscale PIL images pass through colour ops
    gray = pil(arr).convert("L")
    assert F.adjust_hue(gray, 0.2) is gray or F.adjust_hue(gray, 0.2).mode == "L"
    assert F.adjust_saturation(chw(arr[:, :, :1]), 2.0).shape[0] == 1
    assert F.rgb_to_grayscale(pil(arr), 3).mode == "RGB"
    p = pil(arr).convert("P")
    padded = F.pad(p, 2, padding_mode="reflect")
    assert padded.mode == "P" and padded.getpalette() == p.getpalette()
