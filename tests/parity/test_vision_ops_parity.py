"""vision.ops against torchvision's compiled ops: forward and backward of the RoI ops and
deform_conv2d, nms keep order on random boxes with duplicates and degenerate ones, box utilities."""
import numpy as np
import pytest

torch = pytest.importorskip("torch")

from parity._torchvision_ops import torchvision_with_ops  # noqa: E402

import core  # noqa: E402
from vision import ops  # noqa: E402


@pytest.fixture(scope="module")
def tv():
    return torchvision_with_ops()


def _rois(rng, n, batch, size):
    xy = rng.uniform(-3, size + 1, (n, 2))
    boxes = np.concatenate([xy, xy + rng.uniform(0.2, size / 1.5, (n, 2))], axis=1)
    boxes[0] = [4, 4, 4, 4]  # empty
    boxes[1] = [7, 6, 2, 1]  # reversed
    return np.concatenate([rng.integers(0, batch, (n, 1)), boxes], axis=1).astype(np.float32)


def _both(a, grad=False):
    t, c = torch.tensor(a), core.tensor(a)
    return (t.requires_grad_(), c.requires_grad_()) if grad else (t, c)


CASES = {
    "roi_align": [dict(output_size=(3, 3), spatial_scale=0.5, sampling_ratio=2, aligned=False),
                  dict(output_size=(2, 4), spatial_scale=1.0, sampling_ratio=-1, aligned=True),
                  dict(output_size=5, spatial_scale=0.25, sampling_ratio=0, aligned=False)],
    "roi_pool": [dict(output_size=(3, 2), spatial_scale=0.75), dict(output_size=4, spatial_scale=1.0)],
    "ps_roi_align": [dict(output_size=(2, 2), spatial_scale=0.5, sampling_ratio=2),
                     dict(output_size=2, spatial_scale=1.0, sampling_ratio=-1)],
    "ps_roi_pool": [dict(output_size=(2, 2), spatial_scale=0.5), dict(output_size=2, spatial_scale=1.0)],
}


@pytest.mark.parametrize("op,case", [(op, i) for op, cases in CASES.items() for i in range(len(cases))])
def test_roi_ops_forward_backward(tv, rng, op, case):
    kwargs = CASES[op][case]
    x = rng.standard_normal((2, 8, 12, 14)).astype(np.float32)
    rois = _rois(rng, 24, 2, 14)
    if op == "ps_roi_pool":
        # torchvision's ps_roi_pool backward clips bins to H / W, its forward to H - 1 / W - 1 (ours is
        # the forward's adjoint): boxes whose bins stay clear of the last row and column agree
        limit = np.array([13, 11]) / kwargs["spatial_scale"] - 2
        rois[:, 1:] = np.clip(rois[:, 1:], 0, np.tile(limit, 2))
    xt, xc = _both(x, grad=True)
    out_t = getattr(tv.ops, op)(xt, torch.tensor(rois), **kwargs)
    out_c = getattr(ops, op)(xc, core.tensor(rois), **kwargs)
    np.testing.assert_allclose(out_c.detach().numpy(), out_t.detach().numpy(), rtol=1e-5, atol=1e-6)
    g = rng.standard_normal(tuple(out_t.shape)).astype(np.float32)
    out_t.backward(torch.tensor(g))
    out_c.backward(core.tensor(g))
    np.testing.assert_allclose(xc.grad.numpy(), xt.grad.numpy(), rtol=1e-4, atol=1e-5)


def test_nms_keep_order(tv, rng):
    for trial in range(20):
        n = int(rng.integers(1, 300))
        xy = rng.uniform(0, 100, (n, 2)).astype(np.float32)
        boxes = np.concatenate([xy, xy + rng.uniform(0, 40, (n, 2)).astype(np.float32)], axis=1)
        dup = rng.integers(0, n, n // 4)
        boxes[dup] = boxes[rng.integers(0, n, len(dup))]  # duplicates (and some degenerate, zero-size)
        boxes[rng.integers(0, n, n // 10), 2] = boxes[rng.integers(0, n, n // 10), 0]
        scores = rng.permutation(n).astype(np.float32) / n  # distinct: torchvision leaves tie order open
        for threshold in (0.3, 0.5, 0.7):
            expected = tv.ops.nms(torch.tensor(boxes), torch.tensor(scores), threshold).tolist()
            assert ops.nms(core.tensor(boxes), core.tensor(scores), threshold).tolist() == expected
        idxs = rng.integers(0, 5, n)
        expected = tv.ops.batched_nms(torch.tensor(boxes), torch.tensor(scores), torch.tensor(idxs), 0.5).tolist()
        assert ops.batched_nms(core.tensor(boxes), core.tensor(scores), core.tensor(idxs), 0.5).tolist() == expected


def test_box_utilities(tv, rng):
    a = np.concatenate([rng.uniform(0, 50, (9, 2)), rng.uniform(50, 90, (9, 2))], axis=1).astype(np.float32)
    b = np.concatenate([rng.uniform(0, 50, (6, 2)), rng.uniform(50, 90, (6, 2))], axis=1).astype(np.float32)
    for name in ("box_iou", "generalized_box_iou"):
        np.testing.assert_allclose(getattr(ops, name)(core.tensor(a), core.tensor(b)).numpy(),
                                   getattr(tv.ops, name)(torch.tensor(a), torch.tensor(b)).numpy(), rtol=1e-6)
    for fmt in ("xywh", "cxcywh"):
        np.testing.assert_allclose(ops.box_convert(core.tensor(a), "xyxy", fmt).numpy(),
                                   tv.ops.box_convert(torch.tensor(a), "xyxy", fmt).numpy(), rtol=1e-6)
    np.testing.assert_array_equal(ops.clip_boxes_to_image(core.tensor(a), (40, 60)).numpy(),
                                  tv.ops.clip_boxes_to_image(torch.tensor(a), (40, 60)).numpy())
    assert (ops.remove_small_boxes(core.tensor(a), 30.0).tolist()
            == tv.ops.remove_small_boxes(torch.tensor(a), 30.0).tolist())
    x, t = rng.standard_normal(30).astype(np.float32), (rng.random(30) > 0.5).astype(np.float32)
    np.testing.assert_allclose(ops.sigmoid_focal_loss(core.tensor(x), core.tensor(t), reduction="mean").item(),
                               tv.ops.sigmoid_focal_loss(torch.tensor(x), torch.tensor(t), reduction="mean").item(),
                               rtol=1e-5)


@pytest.mark.parametrize("masked", [True, False])
def test_deform_conv2d_forward_backward(tv, rng, masked):
    x = rng.standard_normal((2, 6, 7, 8)).astype(np.float32)
    weight = rng.standard_normal((4, 3, 3, 3)).astype(np.float32)  # groups 2
    bias = rng.standard_normal(4).astype(np.float32)
    offset = rng.uniform(-3, 3, (2, 3 * 2 * 9, 4, 4)).astype(np.float32)  # 3 offset groups, stride 2, pad 1
    mask = rng.random((2, 3 * 9, 4, 4)).astype(np.float32) if masked else None
    pairs = [_both(a, grad=True) for a in (x, offset, weight, bias)]
    mask_pair = _both(mask, grad=True) if masked else (None, None)
    kwargs = dict(stride=2, padding=1, dilation=1)
    out_t = tv.ops.deform_conv2d(pairs[0][0], pairs[1][0], pairs[2][0], pairs[3][0], mask=mask_pair[0], **kwargs)
    out_c = ops.deform_conv2d(pairs[0][1], pairs[1][1], pairs[2][1], pairs[3][1], mask=mask_pair[1], **kwargs)
    np.testing.assert_allclose(out_c.detach().numpy(), out_t.detach().numpy(), rtol=1e-4, atol=1e-4)
    g = rng.standard_normal(tuple(out_t.shape)).astype(np.float32)
    out_t.backward(torch.tensor(g))
    out_c.backward(core.tensor(g))
    for (t, c), name in zip(pairs + ([mask_pair] if masked else []), ["input", "offset", "weight", "bias", "mask"]):
        np.testing.assert_allclose(c.grad.numpy(), t.grad.numpy(), rtol=1e-3, atol=1e-3, err_msg=name)
