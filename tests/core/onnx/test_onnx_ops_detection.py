"""The converters the detection models need, each on its own small function: onnxruntime
agrees with eager, for inputs of other sizes than the example's where the axes are dynamic."""
import io

import numpy as np
import pytest

import core

pytest.importorskip("onnx.helper")  # a bare "onnx" would import this test directory as a namespace package
ort = pytest.importorskip("onnxruntime")
import core.onnx  # noqa: E402
from graph_helpers import assert_close_relative  # noqa: E402


def _run(fn, example, inputs, opset=11, dynamic=None):
    """fn exported on example (a tuple of tensors) and run in onnxruntime on inputs."""
    buffer = io.BytesIO()
    names = [f"x{i}" for i in range(len(example))]
    core.onnx.export(fn, example, buffer, input_names=names, opset_version=opset,
                     dynamic_axes={n: list(range(t.dim())) for n, t in zip(names, example)} if dynamic is None
                     else dynamic)
    options = ort.SessionOptions()
    options.log_severity_level = 3
    session = ort.InferenceSession(buffer.getvalue(), options, providers=["CPUExecutionProvider"])
    return session.run(None, {n: t.numpy() for n, t in zip(names, inputs)})


def _check(fn, example, inputs, opset=11, dynamic=None):
    got = _run(fn, example, inputs, opset, dynamic)
    with core.no_grad():
        want = fn(*inputs)
    want = list(want) if isinstance(want, (tuple, list)) else [want]
    assert len(got) == len(want)
    for g, w in zip(got, want):
        if w.dtype.is_floating_point:
            assert_close_relative(g, w.numpy(), rtol=1e-5)
        else:
            np.testing.assert_array_equal(g, w.numpy())


def _boxes(n, seed):
    core.manual_seed(seed)
    xy = core.rand(n, 2) * 50
    return core.cat([xy, xy + 5 + core.rand(n, 2) * 30], 1)


def test_nms_and_batched_offsets():
    from vision.ops import boxes as box_ops

    def fn(boxes, scores, idxs):
        return box_ops.nms(boxes, scores, 0.4), box_ops.batched_nms(boxes, scores, idxs, 0.5)

    def data(n, seed):
        return _boxes(n, seed), core.rand(n), core.randint(0, 3, (n,))

    _check(fn, data(40, 0), data(70, 1))


@pytest.mark.parametrize("opset,aligned", [(11, False), (16, False), (16, True)])
def test_roi_align(opset, aligned):
    from vision.ops import roi_align

    def fn(x, rois):
        return roi_align(x, rois, (3, 4), spatial_scale=0.25, sampling_ratio=2, aligned=aligned)

    def data(n, seed):
        core.manual_seed(seed)
        return core.randn(2, 3, 16, 20), core.cat([core.randint(0, 2, (n, 1)).float(), _boxes(n, seed)], 1)

    _check(fn, data(5, 0), data(9, 1), opset)


def test_topk_of_a_computed_k_and_advanced_indexing():
    def fn(x):
        k = x.shape[1] - (x.shape[1] - 6) * (x.shape[1] > 6)  # min(6, columns), in the graph
        values, idx = x.topk(k, dim=1)
        rows = core.arange(x.shape[0])[:, None]
        return values, x[rows, idx], idx

    _check(fn, (core.randn(2, 10),), (core.randn(3, 4),))


def test_masks_where_and_slices():
    def fn(x):
        keep = core.where(x[:, 0] > 0)[0]
        picked = x[keep]
        clipped = x[..., 1::2].clamp(min=-0.5, max=x.shape[0])
        return picked, x[x > 0.5], core.where(x > 0, x, 0.0), clipped, x[None, 1:, 2], x[-1]

    _check(fn, (core.randn(6, 4),), (core.randn(9, 4),))


def test_split_unbind_stack_meshgrid_and_pad():
    import core.nn.functional as F

    def fn(x):
        n = x.shape[0]
        first, rest = x.split([2, n - 2], 0)
        a, b, c = x.unbind(1)
        gy, gx = core.meshgrid(core.arange(n, dtype=core.float32), core.arange(3, dtype=core.float32), indexing="ij")
        padded = F.pad(x, (0, 8 - x.shape[1], 1, (n + 3) // 4 * 4 - n))
        return first, rest, core.stack([a, b * c], 1), gy + gx, padded, core.full((n,), 7, dtype=core.int64)

    _check(fn, (core.randn(5, 3),), (core.randn(11, 3),), dynamic={"x0": [0]})


def test_sizes_and_casts_in_the_graph():
    def fn(x):
        scale = core.minimum(20.0 / core.tensor(x.shape[-2:], dtype=core.float64).min(), core.tensor(2.0, dtype=core.float64))
        resized = core.nn.functional.interpolate(x, scale_factor=scale.item(), mode="bilinear",
                                                 recompute_scale_factor=True, align_corners=False)
        ratio = core.tensor(x.shape[-1], dtype=core.float32) / x.shape[-2]
        grid = core.zeros(x.shape[:2] + (3,), dtype=core.int64)  # sizes joined in the graph
        return grid, resized, x.flatten(0, -2) * ratio, (x.max() >= 0).to(core.int64), core.log2(x.abs() + 1).floor()

    _check(fn, (core.rand(1, 2, 8, 12),), (core.rand(1, 2, 13, 9),), dynamic={"x0": [2, 3]})


def test_multiscale_roi_align_merges_the_levels_in_the_graph():
    from collections import OrderedDict

    from vision.ops import MultiScaleRoIAlign

    class Pool(core.nn.Module):
        def __init__(self):
            super().__init__()
            self.pool = MultiScaleRoIAlign(["0", "1", "2"], 3, sampling_ratio=2, canonical_scale=56)

        def forward(self, f0, f1, f2, boxes):
            return self.pool(OrderedDict([("0", f0), ("1", f1), ("2", f2)]), [boxes], [(128, 128)])

    fn = Pool()
    pool = fn.pool

    def data(n, seed):
        core.manual_seed(seed)
        xy = core.rand(n, 2) * 60
        boxes = core.cat([xy, xy + 4 + core.rand(n, 2) * 120], 1)  # sizes from 4 to 124: every level
        return core.randn(1, 2, 32, 32), core.randn(1, 2, 16, 16), core.randn(1, 2, 8, 8), boxes

    example = data(12, 0)
    with core.no_grad():
        fn(*example)  # sets the level scales
    assert set(pool.map_levels([example[3]]).tolist()) == {0, 1, 2}
    _check(fn, example, data(20, 1), dynamic={"x3": [0]})
