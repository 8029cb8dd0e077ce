"""Convolutions by hand: every algorithm path (im2col + GEMM, 1x1 GEMM, depthwise, direct for
few input channels; NCHW and NHWC) against the numpy reference, gradients (gradcheck / gradgradcheck per path), each ISA
build of the depthwise kernels bit for bit, F-level padding strings, unfold/fold, errors."""
import os
import sys

import numpy as np
import pytest

import core
import core.nn.functional as F
from core import autograd

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from op_matrix.refs_conv import col2im_ref, conv_ref, conv_transpose_ref, im2col_ref  # noqa: E402
from support import assert_isa_builds_agree, conv_isa_script  # noqa: E402


def _rand(rng, *shape, dtype=np.float32):
    return rng.uniform(-1, 1, shape).astype(dtype)


def _nhwc(a):
    """The same values as a channels-last tensor (NCHW shape, C stride 1)."""
    return core.tensor(np.ascontiguousarray(a.transpose(0, 2, 3, 1))).permute(0, 3, 1, 2)


def _is_channels_last(t):
    n, c, h, w = t.shape
    return t.stride() == (h * w * c, 1, w * c, c)


# (x shape, w shape, kwargs): general, strided/dilated, grouped, 1x1, strided 1x1, depthwise
# (3x3 s1, 3x3 s2, 5x5 s2, multiplier 2, dilation), channel counts that leave vector tails.
PATHS = [
    ((2, 3, 9, 8), (5, 3, 3, 3), dict(stride=1, padding=1)),
    ((2, 4, 11, 9), (6, 4, 3, 2), dict(stride=(2, 1), padding=(1, 2), dilation=(2, 1))),
    ((2, 6, 7, 7), (4, 3, 3, 3), dict(padding=1, groups=2)),
    ((3, 19, 6, 5), (7, 19, 1, 1), {}),
    # Strided 1x1 (no padding): the pointwise path on the pixels it reads.
    ((2, 8, 7, 7), (5, 8, 1, 1), dict(stride=2)),
    ((1, 6, 8, 10), (4, 3, 1, 1), dict(stride=(3, 2), groups=2)),
    ((2, 19, 5, 9), (21, 19, 1, 1), dict(stride=(1, 4), dilation=2)),
    ((2, 19, 13, 17), (19, 1, 3, 3), dict(padding=1, groups=19)),
    ((2, 35, 14, 14), (35, 1, 3, 3), dict(stride=2, padding=1, groups=35)),
    ((1, 21, 15, 16), (21, 1, 5, 5), dict(stride=2, padding=2, groups=21)),
    ((2, 5, 9, 9), (10, 1, 3, 3), dict(padding=1, groups=5)),
    ((2, 17, 12, 11), (17, 1, 3, 3), dict(padding=2, dilation=2, groups=17)),
    ((1, 3, 4, 4), (3, 1, 5, 5), dict(padding=2, groups=3)),  # kernel wider than the image
    # Rows of 16+ outputs: the direct NCHW input-gradient kernel (narrower ones go through NHWC).
    ((1, 6, 5, 40), (12, 1, 3, 3), dict(stride=2, padding=1, groups=6)),
    ((2, 5, 6, 37), (5, 1, 5, 5), dict(padding=2, groups=5)),
    ((1, 4, 6, 36), (4, 1, 3, 3), dict(padding=2, dilation=2, groups=4)),
    # Up to four input channels: the direct kernel (output channels in lanes, partial blocks).
    ((2, 3, 17, 19), (20, 3, 3, 3), dict(stride=2, padding=1)),
    ((1, 2, 9, 12), (16, 2, 5, 5), dict(padding=2)),
    ((1, 3, 20, 21), (24, 3, 7, 7), dict(stride=2, padding=3)),
    ((1, 3, 10, 11), (48, 3, 3, 3), dict(padding=1)),  # two-vector blocks and a one-vector one
    # Dilated, groups 1, stride 1: GEMMs over output regions with the in-image taps only. Rates
    # past the image (the centre tap alone), bands of pruned taps, padding past d*(k-1) (the data
    # gradient then goes through im2col) and outputs that read no tap at all (bias only).
    ((1, 6, 9, 8), (5, 6, 3, 3), dict(padding=4, dilation=4)),
    ((2, 5, 7, 11), (4, 5, 3, 3), dict(padding=(2, 6), dilation=(2, 6))),
    ((1, 7, 5, 5), (3, 7, 3, 3), dict(padding=9, dilation=9)),
    ((1, 5, 8, 8), (6, 5, 3, 3), dict(padding=1, dilation=3)),
    ((1, 5, 10, 10), (3, 5, 2, 2), dict(padding=3, dilation=2)),
]


@pytest.mark.parametrize("xs,ws,kw", PATHS, ids=[str(i) for i in range(len(PATHS))])
@pytest.mark.parametrize("layout", ["nchw", "nhwc"])
def test_conv2d_paths_against_numpy(xs, ws, kw, layout):
    rng = np.random.default_rng(1)
    x, w, b = _rand(rng, *xs), _rand(rng, *ws), _rand(rng, ws[0])
    xt = _nhwc(x) if layout == "nhwc" else core.tensor(x)
    out = core.conv2d(xt, core.tensor(w), core.tensor(b), **kw)
    np.testing.assert_allclose(out.numpy(), conv_ref(x, w, b, **kw), rtol=1e-4, atol=1e-5)
    assert _is_channels_last(out) == (layout == "nhwc") or out.shape[2] * out.shape[3] == 1


@pytest.mark.parametrize("xs,ws,kw", PATHS, ids=[str(i) for i in range(len(PATHS))])
@pytest.mark.parametrize("layout", ["nchw", "nhwc"])
def test_conv_transpose2d_paths_against_numpy(xs, ws, kw, layout):
    # The same geometries transposed: weight (Cin, Cout/g, kh, kw) with Cin = the old O.
    rng = np.random.default_rng(2)
    groups = kw.get("groups", 1)
    n, _, h, wd = xs
    cin = ws[0]
    w = _rand(rng, cin, xs[1] // groups, *ws[2:])
    x = _rand(rng, n, cin, max(h // 2, 1), max(wd // 2, 1))
    b = _rand(rng, xs[1])
    stride = kw.get("stride", 1)
    s = stride if isinstance(stride, tuple) else (stride, stride)
    opts = dict(kw, output_padding=(s[0] - 1, s[1] - 1))
    xt = _nhwc(x) if layout == "nhwc" else core.tensor(x)
    out = core.conv_transpose2d(xt, core.tensor(w), core.tensor(b), **opts)
    np.testing.assert_allclose(out.numpy(), conv_transpose_ref(x, w, b, **opts), rtol=1e-4, atol=1e-5)


def _gradcheck_inputs(xs, ws, layout, rng):
    x = rng.uniform(-1, 1, xs)
    xt = _nhwc(x) if layout == "nhwc" else core.tensor(x)
    return (xt.requires_grad_(), core.tensor(rng.uniform(-1, 1, ws)).requires_grad_(),
            core.tensor(rng.uniform(-1, 1, ws[0])).requires_grad_())


# Small float64 problems, one per path, for finite differences.
GRAD_PATHS = [
    ((1, 2, 4, 4), (3, 2, 2, 2), dict(stride=2, padding=1)),
    ((2, 4, 3, 3), (2, 2, 1, 1), dict(groups=2)),
    ((1, 3, 5, 4), (3, 1, 3, 3), dict(padding=1, groups=3)),
    ((1, 3, 5, 5), (3, 1, 3, 3), dict(stride=2, padding=1, dilation=1, groups=3)),
    ((1, 2, 4, 4), (4, 1, 3, 3), dict(padding=2, dilation=2, groups=2)),
    ((1, 5, 5, 6), (3, 5, 3, 3), dict(padding=(3, 2), dilation=(3, 2))),
    ((1, 5, 4, 4), (2, 5, 2, 2), dict(padding=3, dilation=2)),
    ((1, 4, 5, 6), (4, 2, 1, 1), dict(stride=(2, 3), groups=2)),
]


@pytest.mark.parametrize("xs,ws,kw", GRAD_PATHS, ids=[str(i) for i in range(len(GRAD_PATHS))])
@pytest.mark.parametrize("layout", ["nchw", "nhwc"])
def test_conv2d_gradcheck_every_path(xs, ws, kw, layout):
    inputs = _gradcheck_inputs(xs, ws, layout, np.random.default_rng(3))
    fn = lambda x, w, b: core.conv2d(x, w, b, **kw)  # noqa: E731
    assert autograd.gradcheck(fn, inputs, atol=1e-6, rtol=1e-4)
    assert autograd.gradgradcheck(fn, inputs, atol=1e-5, rtol=1e-3)


@pytest.mark.parametrize("layout", ["nchw", "nhwc"])
def test_conv_transpose2d_gradgradcheck(layout):
    rng = np.random.default_rng(4)
    x = rng.uniform(-1, 1, (1, 2, 3, 3))
    xt = (_nhwc(x) if layout == "nhwc" else core.tensor(x)).requires_grad_()
    w = core.tensor(rng.uniform(-1, 1, (2, 2, 3, 3))).requires_grad_()
    b = core.tensor(rng.uniform(-1, 1, 4)).requires_grad_()
    fn = lambda x, w, b: core.conv_transpose2d(x, w, b, stride=2, padding=1, output_padding=1, groups=2)  # noqa: E731
    assert autograd.gradcheck(fn, (xt, w, b), atol=1e-6, rtol=1e-4)
    assert autograd.gradgradcheck(fn, (xt, w, b), atol=1e-5, rtol=1e-3)


def test_conv1d_and_unbatched_gradients():
    rng = np.random.default_rng(5)
    x = core.tensor(rng.uniform(-1, 1, (2, 7))).requires_grad_()
    w = core.tensor(rng.uniform(-1, 1, (4, 1, 3))).requires_grad_()
    fn = lambda x, w: core.conv1d(x, w, None, 2, 1, 1, 2)  # noqa: E731
    assert autograd.gradcheck(fn, (x, w))
    assert autograd.gradgradcheck(fn, (x, w))
    fn_t = lambda x, w: core.conv_transpose1d(x, w, None, 2, 1, 1, 2)  # noqa: E731
    assert autograd.gradcheck(fn_t, (x[:, :3].detach().requires_grad_(), core.tensor(rng.uniform(-1, 1, (2, 2, 3))).requires_grad_()))


def test_nhwc_and_nchw_agree_on_gradients():
    rng = np.random.default_rng(6)
    for xs, ws, kw in PATHS[:9]:
        x, w = _rand(rng, *xs), _rand(rng, *ws)
        grads = []
        for xt in (core.tensor(x), _nhwc(x)):
            xt.requires_grad_()
            wt = core.tensor(w).requires_grad_()
            out = core.conv2d(xt, wt, None, **kw)
            gx, gw = autograd.grad((out * out).sum(), (xt, wt))
            grads.append((gx.numpy(), gw.numpy()))
        for a, b in zip(*grads):
            np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("xs,ws,kw", [
    ((2, 3, 17, 19), (20, 3, 3, 3), dict(stride=2, padding=1)),
    ((1, 2, 9, 30), (6, 2, 5, 5), dict(padding=2)),
    ((1, 3, 20, 21), (24, 3, 7, 7), dict(stride=2, padding=3)),
    ((1, 3, 10, 11), (48, 3, 3, 3), dict(padding=1)),  # two-vector blocks and a one-vector one
    ((2, 1, 12, 40), (5, 1, 3, 3), dict(stride=(1, 2), padding=2, dilation=2)),
    ((1, 3, 11, 13), (4, 3, 3, 3), dict(stride=3, padding=1)),  # stride 3: through im2col
])
def test_few_input_channel_weight_gradient(xs, ws, kw):
    # Stems (up to four input channels): the NCHW and NHWC weight gradients (im2col laid out
    # differently, several small images per GEMM in NCHW) give the same float64 gradient.
    rng = np.random.default_rng(12)
    x, w = rng.uniform(-1, 1, xs), rng.uniform(-1, 1, ws)
    grads = []
    for xt in (core.tensor(x), _nhwc(x)):
        wt = core.tensor(w).requires_grad_()
        out = core.conv2d(xt, wt, None, **kw)
        grads.append(autograd.grad((out * out).sum(), wt)[0].numpy())
    np.testing.assert_allclose(grads[0], grads[1], rtol=1e-12, atol=1e-10)


def test_bias_gradient_and_no_bias():
    x = core.ones(2, 3, 4, 4, requires_grad=True)
    w = core.ones(5, 3, 3, 3, requires_grad=True)
    b = core.zeros(5, requires_grad=True)
    core.conv2d(x, w, b, padding=1).sum().backward()
    np.testing.assert_array_equal(b.grad.numpy(), np.full(5, 32.0, np.float32))
    out = core.conv2d(x, w)
    assert out.shape == (2, 5, 2, 2) and out.grad_fn is not None


def test_half_inputs_compute_in_float32():
    rng = np.random.default_rng(7)
    x, w = _rand(rng, 1, 3, 5, 5), _rand(rng, 4, 3, 3, 3)
    out = core.conv2d(core.tensor(x).half(), core.tensor(w).half())
    assert out.dtype == core.float16
    np.testing.assert_allclose(out.float().numpy(), conv_ref(x.astype(np.float16), w.astype(np.float16)), atol=2e-2)
    assert core.conv2d(core.tensor(x).bfloat16(), core.tensor(w).bfloat16()).dtype == core.bfloat16


def test_empty_and_batch_one_shapes():
    assert core.conv2d(core.zeros(0, 3, 5, 5), core.zeros(4, 3, 3, 3)).shape == (0, 4, 3, 3)
    assert core.conv_transpose2d(core.zeros(0, 3, 5, 5), core.zeros(3, 4, 3, 3)).shape == (0, 4, 7, 7)
    assert core.conv2d(core.zeros(3, 5, 5), core.zeros(4, 3, 3, 3)).shape == (4, 3, 3)


def test_thread_counts_agree():
    rng = np.random.default_rng(8)
    x, w = core.tensor(_rand(rng, 4, 16, 10, 10)), core.tensor(_rand(rng, 16, 1, 3, 3))
    dense = w.reshape(1, 16, 3, 3).expand(8, 16, 3, 3).contiguous()
    def convs():
        return [core.conv2d(x, w, padding=1, groups=16), core.conv2d(x, dense),
                core.conv2d(x, dense, padding=3, dilation=3)]
    before = core.get_num_threads()
    try:
        core.set_num_threads(1)
        one = convs()
        core.set_num_threads(2)
        two = convs()
    finally:
        core.set_num_threads(before)
    for a, b in zip(one, two):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("opts", [dict(stride=2, padding=1, groups=2),
                                  dict(stride=(2, 1), padding=(1, 2), dilation=(1, 2), groups=2)])
@pytest.mark.parametrize("transposed", [False, True])
def test_small_images_batched_per_product_match_one_image_at_a_time(transposed, opts):
    # NCHW batches of small outputs run several images per GEMM (forward, input and weight
    # gradients; a transposed convolution is those with roles swapped): the thread count sets
    # how many, so 1-3 threads give partial last groups. Each must equal the images one by one.
    rng = np.random.default_rng(14)
    x = rng.uniform(-1, 1, (5, 4, 6, 7))
    w = rng.uniform(-1, 1, (4, 3, 3, 3) if transposed else (6, 2, 3, 3))
    b = rng.uniform(-1, 1, 6)
    conv = core.conv_transpose2d if transposed else core.conv2d

    def run(images):
        xt, wt, bt = (core.tensor(a).requires_grad_() for a in (images, w, b))
        out = conv(xt, wt, bt, **opts)
        (out * out).sum().backward()
        return out.detach().numpy(), xt.grad.numpy(), wt.grad.numpy()

    one_by_one = [run(x[i:i + 1]) for i in range(len(x))]
    expected = (np.concatenate([r[0] for r in one_by_one]), np.concatenate([r[1] for r in one_by_one]),
                sum(r[2] for r in one_by_one))
    before = core.get_num_threads()
    try:
        for threads in (1, 2, 3):
            core.set_num_threads(threads)
            for got, want in zip(run(x), expected):
                np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
    finally:
        core.set_num_threads(before)
    ref = conv_transpose_ref(x, w, b, **opts) if transposed else conv_ref(x, w, b, **opts)
    np.testing.assert_allclose(expected[0], ref, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("bad", [float("inf"), float("-inf"), float("nan")])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_padding_taps_see_non_finite_weights(bad, dtype):
    # Like PyTorch, zero padding is multiplied, not skipped: an infinite weight turns a border
    # tap on the padding into 0 * inf = NaN, in both layouts (the same as padding explicitly).
    # One bad element among many (the check runs over threads), also in a channels-last weight.
    rng = np.random.default_rng(9)
    w = core.tensor(_rand(rng, 3, 1, 3, 3).astype(dtype))
    w[:, 0, 0, 0] = bad
    big = core.tensor(_rand(rng, 64, 64, 3, 3).astype(dtype))
    big[37, 5, 0, 0] = bad
    xb = core.tensor(_rand(rng, 1, 64, 5, 5).astype(dtype))
    for weight in (big, big.contiguous(memory_format=core.channels_last)):
        y = core.conv2d(xb, weight, padding=1).numpy()
        assert np.isnan(y[0, 37, 0, 0]) and np.isnan(y[0, 37, 0, :]).all()
    for width, stride in ((40, 1), (40, 2), (5, 1), (7, 2)):
        x = core.tensor(_rand(rng, 2, 3, 6, width).astype(dtype))
        nchw = core.conv2d(x, w, padding=1, stride=stride, groups=3)
        nhwc = core.conv2d(x.contiguous(memory_format=core.channels_last), w, padding=1, stride=stride, groups=3)
        explicit = core.conv2d(core.nn.functional.pad(x, (1, 1, 1, 1)), w, stride=stride, groups=3)
        assert np.isnan(nchw.numpy()[:, :, 0, :]).all()
        np.testing.assert_array_equal(nchw.numpy(), explicit.numpy())
        np.testing.assert_array_equal(nchw.numpy(), nhwc.contiguous().numpy())


# ---------------------------------------------------------------- ISA builds

# The NHWC kernels' activation in registers (_conv2d_fused without a residual): depthwise
# eight- and four-pixel steps, border pixels, a partial channel block; the direct kernel for
# few input channels (a stem) in its widest pixel steps and the shorter ones after them, a
# one-vector last block, NHWC outputs and NCHW ones (rows transposed from a buffer).
_FUSED_DEPTHWISE = r"""
fused = core._C._op("_conv2d_fused")
for i, (xs, k, s) in enumerate([((1, 19, 5, 23), 3, 1), ((1, 8, 6, 30), 3, 2), ((1, 16, 6, 26), 5, 1)]):
    for dt in (np.float32, np.float64):
        x = nhwc(rng.uniform(-3, 3, xs).astype(dt)); w = core.tensor(rng.uniform(-1, 1, (xs[1], 1, k, k)).astype(dt))
        b = core.tensor(rng.uniform(-1, 1, xs[1]).astype(dt))
        for act in ("relu", "relu6", "hardswish", "hardsigmoid"):
            y = fused(x, w, b, (s, s), (k // 2, k // 2), (1, 1), xs[1], act, None)
            out[f"fused-{i}-{dt.__name__}-{act}"] = y.contiguous().numpy().tobytes().hex()
for i, (xs, o, s) in enumerate([((1, 3, 8, 34), 16, 2), ((2, 3, 5, 16), 24, 1)]):
    for dt in (np.float32, np.float64):
        x = rng.uniform(-3, 3, xs).astype(dt); w = core.tensor(rng.uniform(-1, 1, (o, 3, 3, 3)).astype(dt))
        b = core.tensor(rng.uniform(-1, 1, o).astype(dt))
        for act in ("relu", "hardswish"):
            for name, xt in (("nchw", core.tensor(x)), ("nhwc", nhwc(x))):
                w_cl = w.contiguous(memory_format=core.channels_last)  # an NHWC output from either input
                y = fused(xt, w_cl, b, (s, s), (1, 1), (1, 1), 1, act, None)
                out[f"direct-{i}-{dt.__name__}-{act}-{name}"] = y.contiguous().numpy().tobytes().hex()
            y = fused(core.tensor(x), w, b, (s, s), (1, 1), (1, 1), 1, act, None)  # NCHW in and out
            assert y.is_contiguous()
            out[f"direct-{i}-{dt.__name__}-{act}-planes"] = y.numpy().tobytes().hex()
"""
_ISA_SCRIPT = conv_isa_script([
    ((2, 37, 13, 11), (37, 1, 3, 3), dict(padding=1, groups=37)),
    ((1, 19, 5, 41), (19, 1, 3, 3), dict(padding=1, groups=19)),
    ((2, 6, 7, 45), (12, 1, 5, 5), dict(stride=2, padding=2, groups=6)),
    ((2, 21, 14, 15), (21, 1, 5, 5), dict(stride=2, padding=2, groups=21)),
    ((1, 7, 9, 9), (14, 1, 3, 3), dict(padding=2, dilation=2, groups=7)),
    ((1, 17, 9, 30), (17, 1, 3, 3), dict(stride=2, padding=1, groups=17)),  # the register-row kernels:
    ((1, 16, 8, 20), (16, 1, 5, 5), dict(padding=2, groups=16))], seed=11,   # 3x3 s2, 5x5 s1
    extra=_FUSED_DEPTHWISE)


def test_depthwise_isa_builds_are_bit_identical():
    ref = assert_isa_builds_agree(_ISA_SCRIPT)
    # The NCHW and NHWC forward kernels accumulate in the same order: same bits too.
    for key in ref:
        if key.endswith("-nchw-y"):
            assert ref[key] == ref[key.replace("nchw", "nhwc")], key


# ---------------------------------------------------------------- F-level

@pytest.mark.parametrize("ks,dil", [((3, 3), 1), ((4, 2), 1), ((2, 5), (2, 1)), ((1, 3), 3)])
def test_padding_same_and_valid(ks, dil):
    rng = np.random.default_rng(9)
    x, w = _rand(rng, 2, 3, 7, 8), _rand(rng, 4, 3, *ks)
    out = F.conv2d(core.tensor(x), core.tensor(w), padding="same", dilation=dil)
    assert out.shape == (2, 4, 7, 8)
    d = dil if isinstance(dil, tuple) else (dil, dil)
    total = [d[i] * (ks[i] - 1) for i in range(2)]
    padded = np.pad(x, ((0, 0), (0, 0), (total[0] // 2, total[0] - total[0] // 2), (total[1] // 2, total[1] - total[1] // 2)))
    np.testing.assert_allclose(out.numpy(), conv_ref(padded, w, dilation=dil), rtol=1e-4, atol=1e-5)
    valid = F.conv2d(core.tensor(x), core.tensor(w), padding="valid", dilation=dil)
    np.testing.assert_allclose(valid.numpy(), conv_ref(x, w, dilation=dil), rtol=1e-4, atol=1e-5)
    out1 = F.conv1d(core.tensor(x[:, :, 0]), core.tensor(w[:, :, 0]), padding="same")
    assert out1.shape == (2, 4, 8)


def test_padding_string_errors():
    x, w = core.zeros(1, 3, 5, 5), core.zeros(2, 3, 3, 3)
    with pytest.raises(RuntimeError, match="not supported for strided convolutions"):
        F.conv2d(x, w, stride=2, padding="same")
    with pytest.raises(RuntimeError, match="Invalid padding string: 'full'"):
        F.conv2d(x, w, padding="full")


def test_unfold_fold_against_numpy_and_gradients():
    rng = np.random.default_rng(10)
    x = _rand(rng, 2, 3, 7, 6, dtype=np.float64)
    cols = F.unfold(core.tensor(x), (3, 2), dilation=(1, 2), padding=1, stride=(2, 1))
    np.testing.assert_allclose(cols.numpy(), im2col_ref(x, (3, 2), (1, 2), (1, 1), (2, 1)), atol=1e-12)
    back = F.fold(cols, (7, 6), (3, 2), dilation=(1, 2), padding=1, stride=(2, 1))
    np.testing.assert_allclose(back.numpy(), col2im_ref(cols.numpy(), (7, 6), (3, 2), (1, 2), (1, 1), (2, 1)), atol=1e-12)
    t = core.tensor(rng.uniform(-1, 1, (1, 2, 4, 3))).requires_grad_()
    assert autograd.gradgradcheck(lambda t: F.unfold(t, 2, padding=1), (t,))
    c = core.tensor(rng.uniform(-1, 1, (1, 8, 6))).requires_grad_()
    assert autograd.gradgradcheck(lambda c: F.fold(c, (3, 4), 2), (c,))


def test_unfold_fold_errors():
    with pytest.raises(NotImplementedError, match="Only 3D or 4D"):
        F.unfold(core.zeros(2, 3), 2)
    with pytest.raises(NotImplementedError, match="Only 2D or 3D"):
        F.fold(core.zeros(1, 2, 3, 4), (4, 4), 2)
    with pytest.raises(RuntimeError, match="im2col.*components must be at least one"):
        F.unfold(core.zeros(1, 2, 3, 3), 4)
    with pytest.raises(RuntimeError, match="divisible by the product of kernel_size"):
        F.fold(core.zeros(1, 5, 9), (4, 4), 2)
    with pytest.raises(RuntimeError, match="calculated number of sliding blocks 3 \\* 3 = 9"):
        F.fold(core.zeros(1, 8, 8), (4, 4), 2)


# ---------------------------------------------------------------- errors

def _err(fn, exc, fragment):
    with pytest.raises(exc) as info:
        fn()
    assert fragment in str(info.value), str(info.value)
    return str(info.value)


def test_errors_name_the_op_and_the_problem():
    x, w = core.zeros(2, 4, 5, 5), core.zeros(6, 4, 3, 3)
    msg = _err(lambda: core.conv2d(x, core.zeros(6, 3, 3, 3)), RuntimeError,
               "expected input[2, 4, 5, 5] to have 3 channels, but got 4 channels instead")
    assert msg.startswith("conv2d(): ")
    _err(lambda: core.conv2d(x, core.zeros(5, 2, 3, 3), groups=2), RuntimeError,
         "expected weight to be divisible by 2 at dimension 0")
    _err(lambda: core.conv2d(core.zeros(2, 5, 5, 5), core.zeros(6, 2, 3, 3), groups=2), RuntimeError,
         "to have 4 channels, but got 5 channels")
    _err(lambda: core.conv2d(x, w, groups=0), RuntimeError, "non-positive groups is not supported")
    _err(lambda: core.conv2d(x, core.zeros(6, 4, 7, 7)), RuntimeError,
         "Calculated padded input size per channel: (5 x 5). Kernel size: (7 x 7). Kernel size can't be greater")
    _err(lambda: core.conv2d(x, core.zeros(6, 4, 3, 3), dilation=3), RuntimeError, "Kernel size: (7 x 7)")
    _err(lambda: core.conv2d(core.zeros(4, 5), w), RuntimeError,
         "conv2d(): Expected 3D (unbatched) or 4D (batched) input to conv2d, but got input of size: [4, 5]")
    _err(lambda: core.conv1d(x, core.zeros(6, 4, 3)), RuntimeError, "Expected 2D (unbatched) or 3D (batched) input to conv1d")
    _err(lambda: core.conv2d(x, core.zeros(6, 4, 3)), RuntimeError, "conv2d(): expected weight to be 4-dimensional")
    _err(lambda: core.conv2d(x, w, core.zeros(5)), RuntimeError, "expected bias to be 1-dimensional with 6 elements")
    _err(lambda: core.conv2d(x, w, stride=0), RuntimeError, "non-positive stride is not supported")
    _err(lambda: core.conv2d(x, w, stride=(1, 1, 1)), RuntimeError, "expected stride to be a single integer value or a list of 2 values")
    _err(lambda: core.conv2d(x, w, padding=-1), RuntimeError, "negative padding is not supported")
    _err(lambda: core.conv2d(x, w, dilation=0), RuntimeError, "non-positive dilation is not supported")
    _err(lambda: core.conv2d(x, w.double()), RuntimeError, "should be the same")
    _err(lambda: core.conv2d(x, w, core.zeros(6, dtype=core.float64)), RuntimeError, "bias type")
    _err(lambda: core.conv2d(x.long(), w.long()), NotImplementedError, "conv2d(): not implemented for 'Long'")
    _err(lambda: core.conv_transpose2d(x, core.zeros(4, 3, 3, 3), stride=2, output_padding=2), RuntimeError,
         "output padding must be smaller than either stride or dilation")
    _err(lambda: core.conv_transpose2d(x, core.zeros(3, 3, 3, 3)), RuntimeError, "Given transposed=1, weight of size [3, 3, 3, 3]")
    _err(lambda: core.conv_transpose2d(core.zeros(1, 4, 1, 1), core.zeros(4, 3, 3, 3), padding=2), RuntimeError,
         "Calculated output size per channel: (-1 x -1). Output size is too small")


def test_top_level_exports():
    for name in ("conv1d", "conv2d", "conv_transpose1d", "conv_transpose2d"):
        assert callable(getattr(core, name))
        assert getattr(F, name) is not None


# ---------------------------------------------------------------- modules

def test_module_shapes_repr_and_state_dict():
    import core.nn as nn

    m = nn.Conv2d(4, 8, 3, stride=2, padding=1, groups=2, bias=False, padding_mode="reflect")
    assert tuple(m.weight.shape) == (8, 2, 3, 3) and m.bias is None
    assert repr(m) == ("Conv2d(4, 8, kernel_size=(3, 3), stride=(2, 2), padding=(1, 1), groups=2, bias=False, "
                       "padding_mode=reflect)")
    assert list(m.state_dict()) == ["weight"]
    t = nn.ConvTranspose2d(4, 6, 3, stride=2, output_padding=1, groups=2)
    assert tuple(t.weight.shape) == (4, 3, 3, 3) and tuple(t.bias.shape) == (6,)
    assert repr(t) == "ConvTranspose2d(4, 6, kernel_size=(3, 3), stride=(2, 2), output_padding=(1, 1), groups=2)"
    assert list(t.state_dict()) == ["weight", "bias"]
    assert repr(nn.Conv1d(2, 3, 5, padding="same")) == "Conv1d(2, 3, kernel_size=(5,), stride=(1,), padding=same)"
    assert repr(nn.Unfold(2)) == "Unfold(kernel_size=2, dilation=1, padding=0, stride=1)"


@pytest.mark.parametrize("mode", ["reflect", "replicate", "circular"])
def test_module_padding_modes_pad_explicitly(mode):
    import core.nn as nn

    m = nn.Conv2d(2, 3, 3, padding=(1, 2), padding_mode=mode)
    x = core.tensor(np.random.default_rng(12).uniform(-1, 1, (1, 2, 5, 6)).astype(np.float32))
    expected = core.conv2d(core.pad(x, [2, 2, 1, 1], mode=mode), m.weight, m.bias)
    np.testing.assert_allclose(m(x).detach().numpy(), expected.detach().numpy(), rtol=1e-6)


def test_module_argument_errors():
    import core.nn as nn

    with pytest.raises(ValueError, match="in_channels must be divisible by groups"):
        nn.Conv2d(3, 4, 3, groups=2)
    with pytest.raises(ValueError, match="out_channels must be divisible by groups"):
        nn.Conv2d(4, 3, 3, groups=2)
    with pytest.raises(ValueError, match="padding_mode must be one of"):
        nn.Conv1d(3, 4, 3, padding_mode="mirror")
    with pytest.raises(ValueError, match='Only "zeros" padding mode is supported for ConvTranspose1d'):
        nn.ConvTranspose1d(3, 4, 3, padding_mode="circular")


@pytest.mark.parametrize("algorithm", ["auto", "tile", "gemm", "winograd"])
@pytest.mark.parametrize("layout", [core.contiguous_format, core.channels_last])
@pytest.mark.parametrize("xs,ws,kw,out", [
    ((2, 0, 9, 9), (5, 0, 3, 3), dict(padding=1), (2, 5, 9, 9)),
    ((2, 0, 9, 9), (5, 0, 1, 1), {}, (2, 5, 9, 9)),
    ((2, 0, 7, 7), (6, 0, 3, 3), dict(stride=2, padding=1), (2, 6, 4, 4)),
    ((0, 4, 9, 9), (3, 4, 3, 3), dict(padding=1), (0, 3, 9, 9)),
])
def test_empty_input_channels_or_batch(algorithm, layout, xs, ws, kw, out):
    """No input channels: every output is its bias (the GEMM paths divided by the empty sums,
    a floating-point exception); an empty batch: an empty output; both with their gradients."""
    core._C._set_conv_algorithm(algorithm)
    try:
        x, w = core.randn(*xs, requires_grad=True), core.randn(*ws, requires_grad=True)
        b = core.randn(ws[0], requires_grad=True)
        y = F.conv2d(x.contiguous(memory_format=layout), w, b, **kw)
        assert tuple(y.shape) == out
        if xs[1] == 0:
            assert core.equal(y, b.view(1, -1, 1, 1).expand(*out))
        y.sum().backward()
        assert x.grad.shape == x.shape and w.grad.shape == w.shape
        assert core.equal(b.grad, core.full((ws[0],), float(out[0] * out[2] * out[3])))
    finally:
        core._C._set_conv_algorithm("auto")
