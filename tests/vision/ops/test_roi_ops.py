"""vision.ops RoI kernels against scalar numpy references written from torchvision's rules,
float64 gradcheck (and gradgradcheck where the backward is linear), and bad input."""
import math

import numpy as np
import pytest

import core
from core.autograd import gradcheck, gradgradcheck
from vision import ops


def _bilinear(plane, y, x):
    """RoIAlign's sample: 0 outside [-1, size]; clamped to the border pixels inside."""
    H, W = plane.shape
    if not (-1 <= y <= H and -1 <= x <= W):
        return 0.0
    y, x = max(y, 0.0), max(x, 0.0)
    y0, x0 = int(y), int(x)
    if y0 >= H - 1:
        y0 = y1 = H - 1
        y = float(y0)
    else:
        y1 = y0 + 1
    if x0 >= W - 1:
        x0 = x1 = W - 1
        x = float(x0)
    else:
        x1 = x0 + 1
    ly, lx = y - y0, x - x0
    return ((1 - ly) * (1 - lx) * plane[y0, x0] + (1 - ly) * lx * plane[y0, x1] + ly * (1 - lx) * plane[y1, x0]
            + ly * lx * plane[y1, x1])


def roi_align_ref(x, rois, out_hw, scale, sampling, aligned):
    ph_n, pw_n = out_hw
    out = np.zeros((len(rois), x.shape[1], ph_n, pw_n))
    for k, (b, x1, y1, x2, y2) in enumerate(rois):
        off = 0.5 if aligned else 0.0
        sw, sh, ew, eh = x1 * scale - off, y1 * scale - off, x2 * scale - off, y2 * scale - off
        rw, rh = ew - sw, eh - sh
        if not aligned:
            rw, rh = max(rw, 1.0), max(rh, 1.0)
        bh, bw = rh / ph_n, rw / pw_n
        gh = sampling if sampling > 0 else math.ceil(rh / ph_n)
        gw = sampling if sampling > 0 else math.ceil(rw / pw_n)
        count = max(gh * gw, 1)
        for c in range(x.shape[1]):
            for ph in range(ph_n):
                for pw in range(pw_n):
                    total = 0.0
                    for iy in range(gh):
                        for ix in range(gw):
                            yy = sh + ph * bh + (iy + 0.5) * bh / gh
                            xx = sw + pw * bw + (ix + 0.5) * bw / gw
                            total += _bilinear(x[int(b), c], yy, xx)
                    out[k, c, ph, pw] = total / count
    return out


def _round(v):
    """C's round(): halves away from zero (numpy rounds them to even)."""
    return int(math.copysign(math.floor(abs(v) + 0.5), v))


def roi_pool_ref(x, rois, out_hw, scale):
    ph_n, pw_n = out_hw
    H, W = x.shape[2:]
    out = np.zeros((len(rois), x.shape[1], ph_n, pw_n))
    for k, (b, x1, y1, x2, y2) in enumerate(rois):
        sw, sh = _round(x1 * scale), _round(y1 * scale)
        ew, eh = _round(x2 * scale), _round(y2 * scale)
        bh, bw = max(eh - sh + 1, 1) / ph_n, max(ew - sw + 1, 1) / pw_n
        for ph in range(ph_n):
            for pw in range(pw_n):
                h0 = min(max(math.floor(ph * bh) + sh, 0), H)
                h1 = min(max(math.ceil((ph + 1) * bh) + sh, 0), H)
                w0 = min(max(math.floor(pw * bw) + sw, 0), W)
                w1 = min(max(math.ceil((pw + 1) * bw) + sw, 0), W)
                if h1 > h0 and w1 > w0:
                    out[k, :, ph, pw] = x[int(b), :, h0:h1, w0:w1].max(axis=(1, 2))
    return out


def ps_roi_align_ref(x, rois, out_hw, scale, sampling):
    ph_n, pw_n = out_hw
    c_out = x.shape[1] // (ph_n * pw_n)
    out = np.zeros((len(rois), c_out, ph_n, pw_n))
    for k, (b, x1, y1, x2, y2) in enumerate(rois):
        sw, sh = x1 * scale - 0.5, y1 * scale - 0.5
        rw, rh = (x2 * scale - 0.5) - sw, (y2 * scale - 0.5) - sh
        bh, bw = rh / ph_n, rw / pw_n
        gh = sampling if sampling > 0 else math.ceil(rh / ph_n)
        gw = sampling if sampling > 0 else math.ceil(rw / pw_n)
        for c in range(c_out):
            for ph in range(ph_n):
                for pw in range(pw_n):
                    plane = x[int(b), (c * ph_n + ph) * pw_n + pw]
                    total = sum(_bilinear(plane, sh + ph * bh + (iy + 0.5) * bh / gh,
                                          sw + pw * bw + (ix + 0.5) * bw / gw)
                                for iy in range(gh) for ix in range(gw))
                    out[k, c, ph, pw] = total / (gh * gw)
    return out


def ps_roi_pool_ref(x, rois, out_hw, scale):
    ph_n, pw_n = out_hw
    H, W = x.shape[2:]
    c_out = x.shape[1] // (ph_n * pw_n)
    out = np.zeros((len(rois), c_out, ph_n, pw_n))
    for k, (b, x1, y1, x2, y2) in enumerate(rois):
        sw, sh = _round(x1 * scale), _round(y1 * scale)
        ew, eh = _round(x2 * scale), _round(y2 * scale)
        bh, bw = max(eh - sh, 1) / ph_n, max(ew - sw, 1) / pw_n
        for c in range(c_out):
            for ph in range(ph_n):
                for pw in range(pw_n):
                    h0 = min(max(math.floor(ph * bh) + sh, 0), H - 1)
                    h1 = min(max(math.ceil((ph + 1) * bh) + sh, 0), H - 1)
                    w0 = min(max(math.floor(pw * bw) + sw, 0), W - 1)
                    w1 = min(max(math.ceil((pw + 1) * bw) + sw, 0), W - 1)
                    if h1 > h0 and w1 > w0:
                        out[k, c, ph, pw] = x[int(b), (c * ph_n + ph) * pw_n + pw, h0:h1, w0:w1].mean()
    return out


def _rois(rng, n, batch, size, degenerate=True):
    xy = rng.uniform(-2, size + 2, (n, 2))
    wh = rng.uniform(0.5, size / 1.5, (n, 2))
    boxes = np.concatenate([xy, xy + wh], axis=1)
    if degenerate:  # zero-size, reversed and out-of-image boxes
        boxes[0] = [3, 3, 3, 3]
        boxes[1] = [6, 5, 2, 1]
        boxes[2] = [size + 5, size + 5, size + 9, size + 9]
    return np.concatenate([rng.integers(0, batch, (n, 1)), boxes], axis=1)


@pytest.fixture
def feature(rng):
    return rng.standard_normal((2, 8, 9, 11))


@pytest.mark.parametrize("aligned", [False, True])
@pytest.mark.parametrize("sampling,scale,out", [(2, 1.0, (3, 3)), (-1, 0.5, (2, 4)), (0, 1.0, 2)])
def test_roi_align_matches_reference(rng, feature, aligned, sampling, scale, out):
    rois = _rois(rng, 7, 2, 10)
    for dtype in (np.float32, np.float64):
        got = ops.roi_align(core.tensor(feature.astype(dtype)), core.tensor(rois.astype(dtype)), out, scale, sampling,
                            aligned)
        hw = (out, out) if isinstance(out, int) else out
        np.testing.assert_allclose(got.numpy(), roi_align_ref(feature.astype(dtype), rois.astype(dtype), hw, scale,
                                                             sampling, aligned), rtol=1e-5, atol=1e-5)


def test_roi_align_box_list_and_module(rng, feature):
    boxes = [core.tensor(_rois(rng, 3, 1, 8)[:, 1:]), core.tensor(_rois(rng, 2, 1, 8, degenerate=False)[:, 1:])]
    rois = core.cat([core.cat([core.full((len(b), 1), float(i), dtype=core.float64), b], 1)
                     for i, b in enumerate(boxes)])
    x = core.tensor(feature)
    np.testing.assert_array_equal(ops.roi_align(x, boxes, 2).numpy(), ops.roi_align(x, rois, 2).numpy())
    module = ops.RoIAlign((2, 2), 1.0, 2, aligned=True)
    assert repr(module) == "RoIAlign(output_size=(2, 2), spatial_scale=1.0, sampling_ratio=2, aligned=True)"
    np.testing.assert_array_equal(module(x, rois).numpy(), ops.roi_align(x, rois, 2, 1.0, 2, True).numpy())


def test_roi_pool_matches_reference(rng, feature):
    rois = _rois(rng, 8, 2, 10)
    got = ops.roi_pool(core.tensor(feature), core.tensor(rois), (3, 2), 0.75)
    np.testing.assert_allclose(got.numpy(), roi_pool_ref(feature, rois, (3, 2), 0.75), rtol=0, atol=0)
    assert repr(ops.RoIPool(3, 0.5)) == "RoIPool(output_size=3, spatial_scale=0.5)"


@pytest.mark.parametrize("sampling", [2, -1])
def test_ps_roi_align_matches_reference(rng, sampling):
    x = rng.standard_normal((2, 2 * 2 * 3, 9, 10))
    rois = _rois(rng, 6, 2, 9, degenerate=False)
    got = ops.ps_roi_align(core.tensor(x), core.tensor(rois), (2, 3), 0.8, sampling)
    np.testing.assert_allclose(got.numpy(), ps_roi_align_ref(x, rois, (2, 3), 0.8, sampling), rtol=1e-6, atol=1e-9)


def test_ps_roi_pool_matches_reference(rng):
    x = rng.standard_normal((2, 2 * 3 * 3, 9, 10))
    rois = _rois(rng, 6, 2, 9)
    got = ops.ps_roi_pool(core.tensor(x), core.tensor(rois), 3, 1.0)
    np.testing.assert_allclose(got.numpy(), ps_roi_pool_ref(x, rois, (3, 3), 1.0), rtol=1e-6, atol=1e-9)
    assert got.shape == (6, 2, 3, 3)


def _leaf(a):
    return core.tensor(a).requires_grad_()


@pytest.mark.parametrize("aligned", [False, True])
def test_roi_align_gradcheck(rng, aligned):
    x = _leaf(rng.standard_normal((2, 2, 6, 7)))
    rois = core.tensor(_rois(rng, 4, 2, 6))
    fn = lambda t: ops.roi_align(t, rois, (2, 3), 0.9, -1, aligned)  # noqa: E731
    assert gradcheck(fn, (x,))
    assert gradgradcheck(fn, (x,))


def test_ps_ops_gradcheck(rng):
    x = _leaf(rng.standard_normal((2, 8, 6, 7)))
    rois = core.tensor(_rois(rng, 4, 2, 6))
    for fn in (lambda t: ops.ps_roi_align(t, rois, 2, 1.0, 2), lambda t: ops.ps_roi_pool(t, rois, 2, 1.0)):
        assert gradcheck(fn, (x,))
        assert gradgradcheck(fn, (x,))


def test_roi_pool_gradcheck(rng):
    x = _leaf(rng.permutation(2 * 3 * 6 * 7).reshape(2, 3, 6, 7) / 10.0)  # distinct values: unique maxima
    rois = core.tensor(_rois(rng, 4, 2, 6))
    assert gradcheck(lambda t: ops.roi_pool(t, rois, 2, 1.0), (x,))


def test_backward_sums_overlapping_boxes():
    x = core.ones(1, 1, 4, 4, dtype=core.float64).requires_grad_()
    rois = core.tensor([[0, 0, 0, 3, 3], [0, 0, 0, 3, 3]], dtype=core.float64)
    ops.roi_align(x, rois, 1, 1.0, 1, True).sum().backward()
    assert float(x.grad.sum()) == pytest.approx(2.0)


@pytest.mark.parametrize("op", ["roi_align", "roi_pool", "ps_roi_align", "ps_roi_pool"])
def test_bad_input(op):
    fn = getattr(ops, op)
    x = core.zeros(1, 4, 5, 5)
    with pytest.raises(IndexError, match=f"{op}.*batch index"):
        fn(x, core.tensor([[1, 0, 0, 2, 2.]]), 2)
    with pytest.raises(IndexError, match="batch index"):
        fn(x, core.tensor([[-1, 0, 0, 2, 2.]]), 2)
    with pytest.raises(RuntimeError, match="same dtype"):
        fn(x, core.tensor([[0, 0, 0, 2, 2.]], dtype=core.float64), 2)
    with pytest.raises(RuntimeError, match=r"\[N, C, H, W\]"):
        fn(core.zeros(4, 5, 5), core.tensor([[0, 0, 0, 2, 2.]]), 2)
    with pytest.raises(AssertionError):
        fn(x, core.zeros(3, 4), 2)
    with pytest.raises(RuntimeError, match="float32 or float64"):
        fn(core.zeros(1, 4, 5, 5, dtype=core.int64), core.zeros(0, 5, dtype=core.int64), 2)
    if op.startswith("ps_"):
        with pytest.raises(RuntimeError, match="multiple of pooling height"):
            fn(core.zeros(1, 3, 5, 5), core.tensor([[0, 0, 0, 2, 2.]]), 2)


def test_empty_inputs():
    x = core.randn(1, 4, 5, 5)
    assert ops.roi_align(x, core.zeros(0, 5), 2).shape == (0, 4, 2, 2)
    assert ops.ps_roi_pool(x, core.zeros(0, 5), 2).shape == (0, 1, 2, 2)
