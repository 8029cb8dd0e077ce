"""nn-pool family against PyTorch: pooling, interpolate (many sizes / scales / modes),
grid_sample (every mode), affine_grid, pixel shuffles, pad, embeddings. Forward values and
gradients (torch.autograd.grad with the same upstream gradient) on the same inputs."""
import warnings

import numpy as np
import pytest

import core
import core.nn.functional as F

torch = pytest.importorskip("torch")
TF = torch.nn.functional

_rng = np.random.default_rng(5)


def _arr(shape, dtype=np.float32, low=-3, high=3):
    return _rng.uniform(low, high, shape).astype(dtype)


def _to_core(a, requires_grad, channels_last=False):
    t = core.tensor(a)
    if channels_last:
        t = core.tensor(np.ascontiguousarray(a.transpose(0, 2, 3, 1))).permute(0, 3, 1, 2)
    return t.requires_grad_() if requires_grad else t


def _to_torch(a, requires_grad, channels_last=False):
    t = torch.tensor(a)
    if channels_last:
        t = t.contiguous(memory_format=torch.channels_last)
    return t.requires_grad_() if requires_grad else t


def _first(out):
    return out[0] if isinstance(out, (tuple, list)) else out


def check(fn_core, fn_torch, arrays, grad=True, atol=1e-5, rtol=1e-4, channels_last=False, extra=None):
    """Runs both on the same arrays; compares outputs (all tuple elements) and the gradients of
    the floating inputs for one random upstream gradient."""
    float_in = [a.dtype.kind == "f" for a in arrays]
    ours_in = [_to_core(a, grad and f, channels_last and a.ndim == 4) for a, f in zip(arrays, float_in)]
    theirs_in = [_to_torch(a, grad and f, channels_last and a.ndim == 4) for a, f in zip(arrays, float_in)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours, theirs = fn_core(*ours_in), fn_torch(*theirs_in)
    outs_o = ours if isinstance(ours, (tuple, list)) else (ours,)
    outs_t = theirs if isinstance(theirs, (tuple, list)) else (theirs,)
    for o, t in zip(outs_o, outs_t):
        np.testing.assert_allclose(o.detach().numpy(), t.detach().numpy(), atol=atol, rtol=rtol)
    if channels_last and outs_t[0].dim() == 4:
        assert outs_t[0].is_contiguous(memory_format=torch.channels_last)
        assert outs_o[0].stride() == outs_t[0].stride(), (outs_o[0].stride(), outs_t[0].stride())
    if not grad or not any(float_in):
        return
    o, t = _first(ours), _first(theirs)
    g = _rng.standard_normal(tuple(t.shape)).astype(arrays[0].dtype)
    gi_o = core.autograd.grad(o, [x for x, f in zip(ours_in, float_in) if f], core.tensor(g), allow_unused=True)
    gi_t = torch.autograd.grad(t, [x for x, f in zip(theirs_in, float_in) if f], torch.tensor(g), allow_unused=True)
    for a, b in zip(gi_o, gi_t):
        if b is None:
            assert a is None or not a.numpy().any()
            continue
        np.testing.assert_allclose(a.numpy(), b.numpy(), atol=atol * 10, rtol=rtol * 10)


# ---------------------------------------------------------------- pooling

MAX_POOL_2D = [((1, 3, 8, 8), dict(kernel_size=2)), ((2, 4, 9, 9), dict(kernel_size=3, stride=2, padding=1)),
               ((2, 2, 10, 7), dict(kernel_size=(3, 2), stride=(2, 1), padding=(1, 1), dilation=(2, 1))),
               ((1, 2, 7, 7), dict(kernel_size=4, stride=3, padding=2, ceil_mode=True)),
               ((2, 3, 11, 5), dict(kernel_size=3, stride=2, ceil_mode=True)),
               ((3, 6, 6), dict(kernel_size=2, stride=1)), ((1, 2, 5, 5), dict(kernel_size=1, stride=2))]


@pytest.mark.parametrize("shape,kw", MAX_POOL_2D)
@pytest.mark.parametrize("cl", [False, True])
def test_max_pool2d(shape, kw, cl):
    if cl and len(shape) != 4:
        pytest.skip("channels-last needs 4-d")
    a = _arr(shape)
    check(lambda x: F.max_pool2d(x, **kw, return_indices=True), lambda x: TF.max_pool2d(x, **kw, return_indices=True),
          [a], channels_last=cl)
    check(lambda x: F.max_pool2d(x, **kw), lambda x: TF.max_pool2d(x, **kw), [a], channels_last=cl)


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint8, np.float64, np.float16])
def test_max_pool2d_dtypes(dtype):
    a = (_arr((2, 3, 7, 7)) * 10).astype(dtype)
    check(lambda x: F.max_pool2d(x, 3, 2, 1, return_indices=True),
          lambda x: TF.max_pool2d(x, 3, 2, 1, return_indices=True), [a], grad=False)


@pytest.mark.parametrize("kw", [dict(kernel_size=2), dict(kernel_size=3, stride=2, padding=1),
                                dict(kernel_size=3, dilation=2, ceil_mode=True), dict(kernel_size=4, stride=3,
                                                                                     padding=2, ceil_mode=True)])
def test_max_pool1d(kw):
    check(lambda x: F.max_pool1d(x, **kw, return_indices=True), lambda x: TF.max_pool1d(x, **kw, return_indices=True),
          [_arr((2, 3, 13))])
    check(lambda x: F.max_pool1d(x, **kw), lambda x: TF.max_pool1d(x, **kw), [_arr((3, 13))])


AVG_2D = [((1, 3, 8, 8), dict(kernel_size=2)), ((2, 2, 9, 9), dict(kernel_size=3, stride=2, padding=1)),
          ((2, 2, 9, 9), dict(kernel_size=3, stride=2, padding=1, count_include_pad=False)),
          ((1, 2, 7, 8), dict(kernel_size=(4, 3), stride=(3, 2), padding=(2, 1), ceil_mode=True)),
          ((1, 2, 7, 8), dict(kernel_size=(4, 3), stride=(3, 2), padding=(2, 1), ceil_mode=True,
                              count_include_pad=False)),
          ((2, 2, 6, 6), dict(kernel_size=3, padding=1, divisor_override=5)), ((3, 5, 5), dict(kernel_size=2))]


@pytest.mark.parametrize("shape,kw", AVG_2D)
@pytest.mark.parametrize("cl", [False, True])
def test_avg_pool2d(shape, kw, cl):
    if cl and len(shape) != 4:
        pytest.skip("channels-last needs 4-d")
    check(lambda x: F.avg_pool2d(x, **kw), lambda x: TF.avg_pool2d(x, **kw), [_arr(shape)], channels_last=cl)


def test_avg_pool2d_int64():
    a = (_arr((2, 2, 6, 6)) * 10).astype(np.int64)
    check(lambda x: F.avg_pool2d(x, 3, 2, 1), lambda x: TF.avg_pool2d(x, 3, 2, 1), [a], grad=False)


@pytest.mark.parametrize("kw", [dict(kernel_size=2), dict(kernel_size=3, stride=2, padding=1, ceil_mode=True),
                                dict(kernel_size=4, stride=3, padding=2, count_include_pad=False)])
def test_avg_pool1d(kw):
    check(lambda x: F.avg_pool1d(x, **kw), lambda x: TF.avg_pool1d(x, **kw), [_arr((2, 3, 14))])


@pytest.mark.parametrize("shape,size", [((2, 3, 7, 7), 1), ((2, 3, 7, 7), (1, 1)), ((1, 2, 9, 7), (4, 3)),
                                        ((1, 2, 5, 5), (7, 8)), ((2, 8, 6), (3, None)), ((32, 16, 7, 7), 1)])
@pytest.mark.parametrize("cl", [False, True])
def test_adaptive_pools2d(shape, size, cl):
    if cl and len(shape) != 4:
        pytest.skip("channels-last needs 4-d")
    a = _arr(shape)
    check(lambda x: F.adaptive_avg_pool2d(x, size), lambda x: TF.adaptive_avg_pool2d(x, size), [a], channels_last=cl)
    check(lambda x: F.adaptive_max_pool2d(x, size, True), lambda x: TF.adaptive_max_pool2d(x, size, True), [a],
          channels_last=cl)


@pytest.mark.parametrize("size", [1, 3, 5, 11])
def test_adaptive_pools1d(size):
    a = _arr((2, 3, 10))
    check(lambda x: F.adaptive_avg_pool1d(x, size), lambda x: TF.adaptive_avg_pool1d(x, size), [a])
    check(lambda x: F.adaptive_max_pool1d(x, size, True), lambda x: TF.adaptive_max_pool1d(x, size, True), [a])


def test_max_unpool2d_and_1d():
    a = _arr((2, 3, 8, 8))
    v, i = TF.max_pool2d(torch.tensor(a), 2, return_indices=True)
    check(lambda x, idx: F.max_unpool2d(x, idx, 2), lambda x, idx: TF.max_unpool2d(x, idx, 2),
          [v.numpy(), i.numpy()])
    check(lambda x, idx: F.max_unpool2d(x, idx, 2, output_size=(9, 9)),
          lambda x, idx: TF.max_unpool2d(x, idx, 2, output_size=(9, 9)), [v.numpy(), i.numpy()])
    b = _arr((2, 3, 9))
    v, i = TF.max_pool1d(torch.tensor(b), 3, 2, return_indices=True)
    check(lambda x, idx: F.max_unpool1d(x, idx, 3, 2), lambda x, idx: TF.max_unpool1d(x, idx, 3, 2),
          [v.numpy(), i.numpy()])


def test_lp_pool():
    a = _arr((2, 3, 8, 8), low=0.1, high=2)
    check(lambda x: F.lp_pool2d(x, 2.0, 2), lambda x: TF.lp_pool2d(x, 2.0, 2), [a])
    check(lambda x: F.lp_pool1d(x[:, :, 0], 3.0, 3, 2), lambda x: TF.lp_pool1d(x[:, :, 0], 3.0, 3, 2), [a])


def test_pool_double_backward():
    a = _arr((1, 2, 6, 6)).astype(np.float64)
    for fn_c, fn_t in [(lambda m, x: m.max_pool2d(x, 3, 2, 1), None), (lambda m, x: m.avg_pool2d(x, 3, 2, 1), None),
                       (lambda m, x: m.adaptive_avg_pool2d(x, 4), None),
                       (lambda m, x: m.interpolate(x, scale_factor=1.7, mode="bilinear", align_corners=False), None)]:
        xo, xt = core.tensor(a).requires_grad_(), torch.tensor(a).requires_grad_()
        yo, yt = fn_c(F, xo), fn_c(TF, xt)
        g = _rng.standard_normal(tuple(yt.shape))
        go, gt = core.tensor(g).requires_grad_(), torch.tensor(g).requires_grad_()
        (dxo,) = core.autograd.grad(yo, xo, go, create_graph=True)
        (dxt,) = torch.autograd.grad(yt, xt, gt, create_graph=True)
        w = _rng.standard_normal(a.shape)
        (ggo,) = core.autograd.grad((dxo * core.tensor(w)).sum(), go)
        (ggt,) = torch.autograd.grad((dxt * torch.tensor(w)).sum(), gt)
        np.testing.assert_allclose(ggo.numpy(), ggt.numpy(), atol=1e-10)


# ---------------------------------------------------------------- interpolate

SIZES_2D = [((1, 2, 5, 7), dict(size=(9, 4))), ((1, 2, 5, 7), dict(size=3)),
            ((1, 2, 6, 6), dict(scale_factor=2)), ((1, 2, 6, 6), dict(scale_factor=0.5)),
            ((2, 3, 7, 5), dict(scale_factor=1.5)), ((2, 3, 7, 5), dict(scale_factor=(0.7, 2.3))),
            ((1, 2, 8, 10), dict(scale_factor=0.75)), ((1, 2, 8, 10), dict(scale_factor=0.75, recompute_scale_factor=True)),
            ((1, 1, 13, 17), dict(scale_factor=1.33, recompute_scale_factor=True)),
            ((1, 1, 13, 17), dict(scale_factor=1.33)), ((1, 3, 10, 9), dict(scale_factor=0.3)),
            ((1, 2, 4, 4), dict(size=(4, 4))), ((1, 2, 3, 5), dict(size=(1, 1)))]


@pytest.mark.parametrize("shape,kw", SIZES_2D)
@pytest.mark.parametrize("mode,align", [("nearest", None), ("bilinear", False), ("bilinear", True),
                                        ("bicubic", False), ("bicubic", True), ("area", None)])
def test_interpolate_2d(shape, kw, mode, align):
    if mode == "area" and kw.get("scale_factor") is not None and not kw.get("recompute_scale_factor"):
        pass  # area always recomputes
    fn = lambda m: lambda x: m.interpolate(x, mode=mode, align_corners=align, **kw)  # noqa: E731
    check(fn(F), fn(TF), [_arr(shape)])


@pytest.mark.parametrize("mode,align", [("nearest", None), ("bilinear", False), ("bilinear", True), ("bicubic", False)])
def test_interpolate_channels_last(mode, align):
    fn = lambda m: lambda x: m.interpolate(x, scale_factor=1.6, mode=mode, align_corners=align)  # noqa: E731
    check(fn(F), fn(TF), [_arr((2, 5, 6, 7))], channels_last=True)


@pytest.mark.parametrize("kw", [dict(size=9), dict(scale_factor=2), dict(scale_factor=0.6), dict(scale_factor=1.7),
                                dict(scale_factor=1.7, recompute_scale_factor=True), dict(size=1)])
@pytest.mark.parametrize("mode,align", [("nearest", None), ("linear", False), ("linear", True), ("area", None)])
def test_interpolate_1d(kw, mode, align):
    fn = lambda m: lambda x: m.interpolate(x, mode=mode, align_corners=align, **kw)  # noqa: E731
    check(fn(F), fn(TF), [_arr((2, 3, 7))])


@pytest.mark.parametrize("dtype", [np.float64, np.float16])
def test_interpolate_dtypes(dtype):
    for mode, align in [("nearest", None), ("bilinear", False), ("bicubic", True)]:
        fn = lambda m: lambda x: m.interpolate(x, scale_factor=1.5, mode=mode, align_corners=align)  # noqa: E731
        check(fn(F), fn(TF), [_arr((1, 2, 5, 6), dtype)], grad=dtype == np.float64, atol=1e-2 if dtype == np.float16 else 1e-6)


def test_interpolate_uint8_nearest():
    a = (_arr((1, 3, 5, 6), low=0, high=255)).astype(np.uint8)
    check(lambda x: F.interpolate(x, scale_factor=2.5), lambda x: TF.interpolate(x, scale_factor=2.5), [a], grad=False)


def test_detection_resize_sizes():
    # GeneralizedRCNNTransform: bilinear, recompute_scale_factor=True: the size is floor(in * scale).
    for h, w, scale in [(480, 640, 800 / 480), (427, 640, 800 / 427), (333, 500, 1.6), (800, 1066, 0.75)]:
        a = _arr((1, 1, h, w))
        kw = dict(scale_factor=scale, mode="bilinear", recompute_scale_factor=True, align_corners=False)
        ours, theirs = F.interpolate(core.tensor(a), **kw), TF.interpolate(torch.tensor(a), **kw)
        assert tuple(ours.shape) == tuple(theirs.shape)
        np.testing.assert_allclose(ours.numpy(), theirs.numpy(), atol=1e-5)


# ---------------------------------------------------------------- grid_sample / affine_grid

@pytest.mark.parametrize("mode", ["bilinear", "nearest", "bicubic"])
@pytest.mark.parametrize("padding_mode", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("align", [False, True])
def test_grid_sample(mode, padding_mode, align):
    a = _arr((2, 3, 6, 7)).astype(np.float64)
    grid = _rng.uniform(-1.4, 1.4, (2, 5, 4, 2))
    fn = lambda m: lambda x, g: m.grid_sample(x, g, mode=mode, padding_mode=padding_mode, align_corners=align)  # noqa
    check(fn(F), fn(TF), [a, grid], atol=1e-7)
    check(fn(F), fn(TF), [a.astype(np.float32), grid.astype(np.float32)], grad=False, atol=1e-5)


def test_affine_grid_then_grid_sample():
    theta = np.array([[[0.9, -0.3, 0.1], [0.2, 1.1, -0.2]], [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]])
    a = _arr((2, 3, 8, 9)).astype(np.float64)
    for align in (False, True):
        fn = lambda m: lambda x, t: m.grid_sample(x, m.affine_grid(t, (2, 3, 5, 6), align_corners=align),  # noqa
                                                   align_corners=align)
        check(fn(F), fn(TF), [a, theta], atol=1e-7)
        fn3 = lambda m: lambda t: m.affine_grid(t, (1, 2, 3, 4, 5), align_corners=align)  # noqa: E731
        check(fn3(F), fn3(TF), [_rng.standard_normal((1, 3, 4))], atol=1e-6)


# ---------------------------------------------------------------- shuffles, pad

def test_pixel_shuffle_roundtrip():
    check(lambda x: F.pixel_shuffle(x, 3), lambda x: TF.pixel_shuffle(x, 3), [_arr((2, 18, 3, 4))])
    check(lambda x: F.pixel_unshuffle(x, 2), lambda x: TF.pixel_unshuffle(x, 2), [_arr((2, 3, 4, 6))])
    check(lambda x: F.pixel_shuffle(x, 2), lambda x: TF.pixel_shuffle(x, 2), [_arr((2, 8, 3, 4))], channels_last=True)


@pytest.mark.parametrize("shape,pad,mode", [((2, 3, 5), (2, 1), "reflect"), ((2, 3, 5, 6), (1, 2, 3, 1), "reflect"),
                                            ((2, 3, 5), (2, 3), "replicate"), ((1, 2, 4, 5), (2, 0, 1, 3), "replicate"),
                                            ((1, 2, 3, 4, 5), (1, 2, 0, 1, 2, 1), "replicate"),
                                            ((1, 2, 4, 5), (1, 2, 2, 1), "circular"), ((2, 3, 5), (2, 1), "circular"),
                                            ((2, 3, 4, 5), (1, 2, -1, 3), "constant")])
def test_pad(shape, pad, mode):
    check(lambda x: F.pad(x, pad, mode), lambda x: TF.pad(x, pad, mode), [_arr(shape)])


# ---------------------------------------------------------------- sparse

def test_embedding():
    w = _arr((10, 4))
    idx = np.array([[1, 2, 4, 5], [4, 3, 2, 9]], dtype=np.int64)
    for kw in [{}, dict(padding_idx=2), dict(padding_idx=-1), dict(scale_grad_by_freq=True)]:
        check(lambda i, x: F.embedding(i, x, **kw), lambda i, x: TF.embedding(i, x, **kw), [idx, w])


def test_embedding_max_norm():
    w = _arr((10, 4))
    idx = np.array([1, 2, 4, 2], dtype=np.int64)
    wo, wt = core.tensor(w), torch.tensor(w)
    yo = F.embedding(core.tensor(idx), wo, max_norm=1.0)
    yt = TF.embedding(torch.tensor(idx), wt, max_norm=1.0)
    np.testing.assert_allclose(yo.numpy(), yt.numpy(), atol=1e-6)
    np.testing.assert_allclose(wo.numpy(), wt.numpy(), atol=1e-6)


@pytest.mark.parametrize("kw", [dict(mode="sum"), dict(mode="mean"), dict(mode="max"),
                                dict(mode="sum", padding_idx=4),
                                dict(mode="mean", padding_idx=2, include_last_offset=True),
                                dict(mode="max", include_last_offset=True)])
def test_embedding_bag(kw):
    # (scale_grad_by_freq is left out: PyTorch's embedding_bag divides by the count of another
    # index in places, see tests/core/nn/test_sparse.py for ours, which uses the true count.)
    w = _arr((8, 3))
    idx = np.array([1, 2, 4, 5, 4, 3, 2, 7, 2], dtype=np.int64)
    offsets = np.array([0, 2, 2, 6], dtype=np.int64)
    fn = lambda m: lambda i, x, o: m.embedding_bag(i, x, o, **kw)  # noqa: E731
    check(fn(F), fn(TF), [idx, w, offsets])


def test_embedding_bag_2d_and_weights():
    w = _arr((8, 3))
    idx = np.array([[1, 2, 4], [5, 4, 3]], dtype=np.int64)
    psw = _arr((2, 3))
    check(lambda i, x, p: F.embedding_bag(i, x, mode="sum", per_sample_weights=p),
          lambda i, x, p: TF.embedding_bag(i, x, mode="sum", per_sample_weights=p), [idx, w, psw])
    check(lambda i, x: F.embedding_bag(i, x), lambda i, x: TF.embedding_bag(i, x), [idx, w])


def test_one_hot():
    for a, n in [(np.array([0, 3, 1]), -1), (np.array([[0, 3], [2, 2]]), 5)]:
        np.testing.assert_array_equal(F.one_hot(core.tensor(a), n).numpy(), TF.one_hot(torch.tensor(a), n).numpy())


# ---------------------------------------------------------------- modules

def test_module_init_matches_torch_draws():
    for args, kw in [((7, 5), {}), ((20, 3), dict(padding_idx=4)), ((6, 16), {})]:
        core.manual_seed(3)
        torch.manual_seed(3)
        ours, theirs = core.nn.Embedding(*args, **kw).weight, torch.nn.Embedding(*args, **kw).weight
        np.testing.assert_array_equal(ours.detach().numpy(), theirs.detach().numpy())
        core.manual_seed(4)
        torch.manual_seed(4)
        ours, theirs = core.nn.EmbeddingBag(*args).weight, torch.nn.EmbeddingBag(*args).weight
        np.testing.assert_array_equal(ours.detach().numpy(), theirs.detach().numpy())


def test_modules_forward_backward():
    a = _arr((2, 4, 8, 8))
    pairs = [(lambda m: m.MaxPool2d(3, 2, 1)), (lambda m: m.AvgPool2d(3, 2, 1, ceil_mode=True)),
             (lambda m: m.AdaptiveAvgPool2d((3, 2))), (lambda m: m.AdaptiveMaxPool2d(2)),
             (lambda m: m.Upsample(scale_factor=1.5, mode="bilinear", align_corners=False)),
             (lambda m: m.UpsamplingNearest2d(size=(5, 11))), (lambda m: m.UpsamplingBilinear2d(scale_factor=2)),
             (lambda m: m.PixelShuffle(2)), (lambda m: m.PixelUnshuffle(2)), (lambda m: m.ReflectionPad2d((1, 2, 0, 3))),
             (lambda m: m.ReplicationPad2d(2)), (lambda m: m.ZeroPad2d((1, 0, 2, 1))), (lambda m: m.ConstantPad2d(1, 2.5))]
    for make in pairs:
        check(make(core.nn), make(torch.nn), [a])
