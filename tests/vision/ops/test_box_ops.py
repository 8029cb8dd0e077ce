"""vision.ops box utilities, NMS, deform_conv2d, the FPN pieces, FrozenBatchNorm2d and the
focal loss against numpy references; gradcheck of deform_conv2d; bad input."""
from collections import OrderedDict

import numpy as np
import pytest

import core
from core.autograd import gradcheck
from core.nn import functional as F
from vision import ops
from vision.ops import feature_pyramid_network as fpn_module
from vision.ops.poolers import LevelMapper


def _boxes(rng, n, size=50.0):
    xy = rng.uniform(0, size, (n, 2))
    return np.concatenate([xy, xy + rng.uniform(1, size / 2, (n, 2))], axis=1)


def iou_ref(a, b):
    out = np.zeros((len(a), len(b)))
    for i, p in enumerate(a):
        for j, q in enumerate(b):
            w = max(0.0, min(p[2], q[2]) - max(p[0], q[0]))
            h = max(0.0, min(p[3], q[3]) - max(p[1], q[1]))
            union = (p[2] - p[0]) * (p[3] - p[1]) + (q[2] - q[0]) * (q[3] - q[1]) - w * h
            out[i, j] = w * h / union
    return out


def nms_ref(boxes, scores, threshold):
    order = sorted(range(len(scores)), key=lambda i: -scores[i])  # stable: ties keep index order
    keep = []
    for i in order:
        if all(iou_ref(boxes[i:i + 1], boxes[j:j + 1])[0, 0] <= threshold for j in keep):
            keep.append(i)
    return keep


@pytest.mark.parametrize("threshold", [0.0, 0.3, 0.5, 0.9])
def test_nms_matches_reference(rng, threshold):
    boxes = _boxes(rng, 60)
    boxes[10] = boxes[3]  # duplicates
    boxes[11] = boxes[3]
    boxes[20] = [5, 5, 5, 9]  # zero area
    scores = rng.random(60)
    scores[30] = scores[31]  # a tie
    for dtype in (np.float32, np.float64):
        got = ops.nms(core.tensor(boxes.astype(dtype)), core.tensor(scores.astype(dtype)), threshold)
        assert got.dtype == core.int64
        assert got.tolist() == nms_ref(boxes.astype(dtype), scores.astype(dtype), threshold)


def test_batched_nms_keeps_categories_apart(rng):
    boxes = np.array([[0, 0, 10, 10], [1, 1, 10, 10], [0, 0, 10, 10]], np.float32)
    scores = np.array([0.9, 0.8, 0.7], np.float32)
    got = ops.batched_nms(core.tensor(boxes), core.tensor(scores), core.tensor([0, 0, 1]), 0.5)
    assert got.tolist() == [0, 2]
    empty = ops.batched_nms(core.zeros(0, 4), core.zeros(0), core.zeros(0, dtype=core.int64), 0.5)
    assert empty.shape == (0,) and empty.dtype == core.int64


def test_nms_bad_input():
    with pytest.raises(RuntimeError, match=r"nms\(\): boxes should be a 2d tensor"):
        ops.nms(core.zeros(3, 5), core.zeros(3), 0.5)
    with pytest.raises(RuntimeError, match="same number of elements"):
        ops.nms(core.zeros(3, 4), core.zeros(2), 0.5)
    with pytest.raises(RuntimeError, match="same dtype"):
        ops.nms(core.zeros(3, 4), core.zeros(3, dtype=core.float64), 0.5)


def test_box_iou_area_giou(rng):
    a, b = _boxes(rng, 7), _boxes(rng, 5)
    np.testing.assert_allclose(ops.box_iou(core.tensor(a), core.tensor(b)).numpy(), iou_ref(a, b), rtol=1e-12)
    np.testing.assert_allclose(ops.box_area(core.tensor(a)).numpy(), (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1]))
    assert ops.box_area(core.tensor([[0, 0, 3, 4]], dtype=core.uint8)).dtype == core.int32
    lt, rb = np.minimum(a[:, None, :2], b[:, :2]), np.maximum(a[:, None, 2:], b[:, 2:])
    hull = np.prod(rb - lt, axis=2)
    inter_wh = np.clip(np.minimum(a[:, None, 2:], b[:, 2:]) - np.maximum(a[:, None, :2], b[:, :2]), 0, None)
    union = np.prod(a[:, 2:] - a[:, :2], 1)[:, None] + np.prod(b[:, 2:] - b[:, :2], 1) - np.prod(inter_wh, axis=2)
    np.testing.assert_allclose(ops.generalized_box_iou(core.tensor(a), core.tensor(b)).numpy(),
                               iou_ref(a, b) - (hull - union) / hull, rtol=1e-10)
    with pytest.raises(AssertionError):
        ops.generalized_box_iou(core.tensor([[5, 5, 1, 1.]]), core.tensor(b))


def test_box_convert_clip_remove(rng):
    a = core.tensor(_boxes(rng, 6))
    xywh = ops.box_convert(a, "xyxy", "xywh")
    np.testing.assert_allclose(xywh.numpy()[:, 2:], (a[:, 2:] - a[:, :2]).numpy())
    cxcywh = ops.box_convert(xywh, "xywh", "cxcywh")
    np.testing.assert_allclose(cxcywh.numpy()[:, :2], ((a[:, :2] + a[:, 2:]) / 2).numpy())
    np.testing.assert_allclose(ops.box_convert(cxcywh, "cxcywh", "xyxy").numpy(), a.numpy(), atol=1e-12)
    same = ops.box_convert(a, "xyxy", "xyxy")
    assert same is not a and np.array_equal(same.numpy(), a.numpy())
    with pytest.raises(ValueError, match="Unsupported Bounding Box Conversions"):
        ops.box_convert(a, "xyxy", "yxyx")
    clipped = ops.clip_boxes_to_image(core.tensor([[[-3, 2, 40, 90.]]]), (30, 20))
    assert clipped.tolist() == [[[0.0, 2.0, 20.0, 30.0]]]
    small = core.tensor([[0, 0, 1, 1.], [0, 0, 0.5, 3], [0, 0, 3, 0.99]])
    assert ops.remove_small_boxes(small, 1.0).tolist() == [0]


def deform_ref(x, offset, weight, bias, mask, stride, pad, dil):  # pad: (rows, cols)
    """Direct loops: each tap sampled bilinearly (zero outside) at its offset position."""
    B, C, H, W = x.shape
    out_c, Cg, kh, kw = weight.shape
    groups, og = C // Cg, offset.shape[1] // (2 * kh * kw)
    oH = (H + 2 * pad[0] - dil * (kh - 1) - 1) // stride + 1
    oW = (W + 2 * pad[1] - dil * (kw - 1) - 1) // stride + 1

    def sample(plane, y, xx):
        if y <= -1 or y >= H or xx <= -1 or xx >= W:
            return 0.0
        y0, x0 = int(np.floor(y)), int(np.floor(xx))
        v = 0.0
        for yy, wy in ((y0, 1 - (y - y0)), (y0 + 1, y - y0)):
            for xq, wx in ((x0, 1 - (xx - x0)), (x0 + 1, xx - x0)):
                if 0 <= yy < H and 0 <= xq < W:
                    v += wy * wx * plane[yy, xq]
        return v

    out = np.zeros((B, out_c, oH, oW))
    for b in range(B):
        for o in range(out_c):
            g = o // (out_c // groups)
            for oy in range(oH):
                for ox in range(oW):
                    acc = bias[o] if bias is not None else 0.0
                    for ci in range(Cg):
                        c = g * Cg + ci
                        grp = c // (C // og)
                        for i in range(kh):
                            for j in range(kw):
                                t = i * kw + j
                                dy = offset[b, grp * 2 * kh * kw + 2 * t, oy, ox]
                                dx = offset[b, grp * 2 * kh * kw + 2 * t + 1, oy, ox]
                                m = mask[b, grp * kh * kw + t, oy, ox] if mask is not None else 1.0
                                y = oy * stride - pad[0] + i * dil + dy
                                xx = ox * stride - pad[1] + j * dil + dx
                                acc += weight[o, ci, i, j] * m * sample(x[b, c], y, xx)
                    out[b, o, oy, ox] = acc
    return out


def _deform_args(rng, groups=2, offset_groups=2):
    """Input [2, 4, 5, 6], a 3x2 kernel; offsets and mask for padding (1, 0): output 5x5."""
    x = rng.standard_normal((2, 4, 5, 6))
    weight = rng.standard_normal((6, 4 // groups, 3, 2))
    offset = rng.uniform(-2, 2, (2, 2 * offset_groups * 6, 5, 5))
    mask = rng.random((2, offset_groups * 6, 5, 5))
    return x, offset, weight, rng.standard_normal(6), mask


@pytest.mark.parametrize("masked", [True, False])
def test_deform_conv2d_reference_and_conv2d(rng, masked):
    x, offset, weight, bias, mask = _deform_args(rng)
    mask = mask if masked else None
    got = ops.deform_conv2d(core.tensor(x), core.tensor(offset), core.tensor(weight), core.tensor(bias), stride=(1, 1),
                            padding=(1, 0), mask=None if mask is None else core.tensor(mask))
    np.testing.assert_allclose(got.numpy(), deform_ref(x, offset, weight, bias, mask, 1, (1, 0), 1), rtol=1e-10,
                               atol=1e-10)
    # zero offsets and a unit mask: an ordinary (grouped, strided, dilated) convolution
    w = rng.standard_normal((6, 2, 3, 3))
    zero = core.zeros(2, 18, 2, 2, dtype=core.float64)  # 5x6 input, k3 d2 p1 s2: 2x2 output
    ours = ops.deform_conv2d(core.tensor(x), zero, core.tensor(w), None, stride=2, padding=1, dilation=2)
    np.testing.assert_allclose(ours.numpy(), F.conv2d(core.tensor(x), core.tensor(w), None, 2, 1, 2, 2).numpy(),
                               rtol=1e-10, atol=1e-12)


def test_deform_conv2d_gradcheck(rng):
    x, offset, weight, bias, mask = _deform_args(rng)
    offset = np.round(offset) + rng.uniform(0.2, 0.8, offset.shape)  # away from the kinks at integers
    leaves = [core.tensor(a).requires_grad_() for a in (x, offset, weight, bias, mask)]
    fn = lambda x, o, w, b, m: ops.deform_conv2d(x, o, w, b, padding=(1, 0), mask=m)  # noqa: E731
    assert gradcheck(fn, leaves)


def test_deform_conv2d_module_and_errors(rng):
    core.manual_seed(0)
    layer = ops.DeformConv2d(4, 6, 3, padding=1, groups=2, bias=False)
    assert repr(layer) == "DeformConv2d(4, 6, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1), groups=2, bias=False)"
    assert layer(core.randn(1, 4, 5, 5), core.zeros(1, 18, 5, 5)).shape == (1, 6, 5, 5)
    with pytest.raises(ValueError, match="divisible by groups"):
        ops.DeformConv2d(5, 6, 3, groups=2)
    with pytest.raises(RuntimeError, match="offset tensor at dimension 1 is not valid"):
        layer(core.randn(1, 4, 5, 5), core.zeros(1, 4, 5, 5))
    with pytest.raises(RuntimeError, match="expected offset of shape"):
        layer(core.randn(1, 4, 5, 5), core.zeros(1, 18, 4, 5))
    with pytest.raises(RuntimeError, match="expected mask of shape"):
        layer(core.randn(1, 4, 5, 5), core.zeros(1, 18, 5, 5), core.zeros(1, 8, 5, 5))
    with pytest.raises(RuntimeError, match="divisible by the offset groups"):
        ops.deform_conv2d(core.randn(1, 3, 5, 5), core.zeros(1, 36, 3, 3), core.randn(2, 3, 3, 3))


def test_frozen_batch_norm(rng):
    bn = ops.misc.FrozenBatchNorm2d(3)
    state = {"weight": rng.random(3), "bias": rng.random(3), "running_mean": rng.random(3),
             "running_var": rng.random(3) + 0.5}
    bn.load_state_dict({**{k: core.tensor(v.astype(np.float32)) for k, v in state.items()},
                        "num_batches_tracked": core.tensor(7)})
    x = rng.standard_normal((2, 3, 4, 4)).astype(np.float32)
    scale = state["weight"] / np.sqrt(state["running_var"] + 1e-5)
    ref = x * scale[:, None, None] + (state["bias"] - state["running_mean"] * scale)[:, None, None]
    np.testing.assert_allclose(bn(core.tensor(x)).numpy(), ref, rtol=1e-5, atol=1e-6)
    assert list(bn.state_dict()) == ["weight", "bias", "running_mean", "running_var"]
    assert not list(bn.parameters())
    assert repr(bn) == "FrozenBatchNorm2d(3, eps=1e-05)"


def test_sigmoid_focal_loss(rng):
    x, t = rng.standard_normal(20), (rng.random(20) > 0.5).astype(np.float64)
    p = 1 / (1 + np.exp(-x))
    ce = -(t * np.log(p) + (1 - t) * np.log(1 - p))
    p_t = p * t + (1 - p) * (1 - t)
    ref = (0.25 * t + 0.75 * (1 - t)) * ce * (1 - p_t) ** 2
    got = ops.sigmoid_focal_loss(core.tensor(x), core.tensor(t))
    np.testing.assert_allclose(got.numpy(), ref, rtol=1e-10)
    np.testing.assert_allclose(float(ops.sigmoid_focal_loss(core.tensor(x), core.tensor(t), reduction="sum")),
                               ref.sum(), rtol=1e-10)
    no_alpha = ops.sigmoid_focal_loss(core.tensor(x), core.tensor(t), alpha=-1, gamma=0, reduction="mean")
    np.testing.assert_allclose(float(no_alpha), ce.mean(), rtol=1e-10)


def test_feature_pyramid_network(rng):
    core.manual_seed(0)
    fpn = ops.FeaturePyramidNetwork([4, 8, 16], 6, extra_blocks=fpn_module.LastLevelMaxPool())
    x = OrderedDict([("c3", core.randn(1, 4, 16, 16)), ("c4", core.randn(1, 8, 8, 8)), ("c5", core.randn(1, 16, 4, 4))])
    out = fpn(x)
    assert list(out) == ["c3", "c4", "c5", "pool"]
    assert [tuple(v.shape) for v in out.values()] == [(1, 6, 16, 16), (1, 6, 8, 8), (1, 6, 4, 4), (1, 6, 2, 2)]
    # the top-down path, written out
    inner5 = fpn.inner_blocks[2](x["c5"])
    inner4 = fpn.inner_blocks[1](x["c4"]) + F.interpolate(inner5, size=(8, 8), mode="nearest")
    np.testing.assert_allclose(out["c4"].detach().numpy(), fpn.layer_blocks[1](inner4).detach().numpy(), rtol=1e-5,
                               atol=1e-6)
    np.testing.assert_array_equal(out["pool"].detach().numpy(), out["c5"].detach().numpy()[:, :, ::2, ::2])
    with pytest.raises(ValueError, match="in_channels=0"):
        ops.FeaturePyramidNetwork([0, 4], 6)
    p6p7 = fpn_module.LastLevelP6P7(16, 6)
    results, names = p6p7([core.randn(1, 6, 4, 4)], [x["c5"]], ["p5"])
    assert names == ["p5", "p6", "p7"] and [tuple(r.shape) for r in results[1:]] == [(1, 6, 2, 2), (1, 6, 1, 1)]
    assert not p6p7.use_P5


def test_multiscale_roi_align_levels_and_cached_scales():
    pooler = ops.MultiScaleRoIAlign(["a", "b"], 2, 2)
    feats = OrderedDict([("a", core.randn(1, 3, 16, 16)), ("b", core.randn(1, 3, 8, 8)), ("x", core.randn(1, 3, 4, 4))])
    boxes = [core.tensor([[0, 0, 20, 20.], [0, 0, 60, 60.], [1, 1, 2, 2.]])]
    out = pooler(feats, boxes, [(64, 64)])
    assert pooler.scales == [0.25, 0.125]
    assert (pooler.map_levels.k_min, pooler.map_levels.k_max) == (2, 3)
    levels = LevelMapper(2, 3)(boxes)  # floor(4 + log2(sqrt(area) / 224)) clamped to [2, 3]
    assert levels.tolist() == [0, 0, 0]
    big = [core.tensor([[0, 0, 200, 200.]])]
    assert LevelMapper(2, 5)(big).tolist() == [1]
    expected = ops.roi_align(feats["a"], boxes, 2, 0.25, 2)
    np.testing.assert_array_equal(out.numpy(), expected.numpy())
    pooler(feats, boxes, [(1000, 1000)])  # cached: the scales are not re-inferred
    assert pooler.scales == [0.25, 0.125]
